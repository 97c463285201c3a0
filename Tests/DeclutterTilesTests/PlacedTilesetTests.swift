import DeclutterClustering
import DeclutterGeometry
import DeclutterMapContent
import DeclutterStyle
import DeclutterSupport
import Foundation
import Testing

@testable import DeclutterTiles

/// Placed tiles read back as MapLibre reads them: every tile of every zoom decoded, each feature once, its icon sized
/// as the style draws it at 512 pixels a tile.
@Suite struct PlacedTilesetTests {
    static let stylesFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Styles")

    /// 6,000 points with ids: clumps of a few hundred around 20 places (two across the antimeridian, one near the
    /// pole's edge of the map), four categories, and a thin scatter over the world.
    static func clumps(categories: [String]) -> [ClusterPoint] {
        var generator = SyntheticTiles.SplitMix(seed: 36)
        func unit() -> Double { Double(generator.next() >> 11) / Double(1 << 53) }
        func normal() -> Double { (-2 * log(max(unit(), 1e-300))).squareRoot() * cos(2 * Double.pi * unit()) }
        let places: [(longitude: Double, latitude: Double, spread: Double)] = [
            (2.35, 48.86, 0.3), (-0.12, 51.5, 0.5), (13.4, 52.5, 2), (-74, 40.7, 0.2), (-118.2, 34, 1),
            (139.7, 35.7, 0.1),
            (151.2, -33.9, 3), (179.9, -17, 0.8), (-179.9, -16.5, 0.5), (28, -26, 4), (-46.6, -23.5, 0.05),
            (77.2, 28.6, 6),
            (37.6, 55.75, 0.4), (-3.7, 40.4, 1.5), (12.5, 41.9, 0.2), (100.5, 13.75, 2), (-99.1, 19.4, 0.3),
            (18, 78, 5),
            (-58.4, -34.6, 0.1), (31.2, 30, 1),
        ]
        var points: [ClusterPoint] = []
        for index in 0..<6_000 {
            let longitude: Double, latitude: Double
            if index % 10 == 9 {
                longitude = unit() * 360 - 180
                latitude = unit() * 160 - 80
            } else {
                let place = places[index % places.count]
                var raw = place.longitude + normal() * place.spread
                raw -= 360 * (raw / 360).rounded()
                longitude = raw
                latitude = max(-84, min(84, place.latitude + normal() * place.spread * 0.7))
            }
            points.append(
                ClusterPoint(
                    longitude: longitude, latitude: latitude, id: .number(Double(index)),
                    category: categories[Int(unit() * Double(categories.count))]))
        }
        return points
    }

    /// A feature decoded from a tile: its world position, whether it is a cluster, and its counts.
    struct Decoded: Hashable {
        var key: UInt64
        var x: Double, y: Double
        var pointCount: Int, hiddenCount: Int
        var label: String?
    }

    /// Every zoom's features from every tile, each once (a feature in a tile's buffer is the same feature).
    static func decoded(_ tileset: any VectorTileset) throws -> [Int: [Decoded]] {
        var byZoom: [Int: [UInt64: Decoded]] = [:]
        try tileset.encode(batchSize: 256) { batch in
            for tile in batch {
                for layer in try TileDecoder.decode(tile.data) {
                    for feature in layer.features {
                        guard let point = layer.point(feature), let id = feature.id else { continue }
                        let properties = layer.properties(feature)
                        let scale = Double(1 << tile.z)
                        let x = (Double(tile.x) + Double(point.x) / Double(layer.extent)) / scale
                        let y = (Double(tile.y) + Double(point.y) / Double(layer.extent)) / scale
                        func number(_ key: String) -> Int {
                            switch properties[key] {
                            case let .uint(value)?: Int(value)
                            case let .sint(value)?, let .int(value)?: Int(value)
                            case let .double(value)?: Int(value)
                            default: 0
                            }
                        }
                        var label: String?
                        if case let .string(text)? = properties["point_count_abbreviated"] { label = text }
                        let cluster = properties["cluster"] == .bool(true)
                        // Clusters and points share no ids: a point's id is its own, a cluster's is tagged apart.
                        let key = cluster ? id | 1 << 63 : id
                        byZoom[tile.z, default: [:]][key] = Decoded(
                            key: key, x: x - x.rounded(.down), y: y,
                            pointCount: cluster ? number("point_count") : 1,
                            hiddenCount: number("hidden_count"), label: label)
                    }
                }
            }
        }
        return byZoom.mapValues { Array($0.values) }
    }

    /// The pairs of icons that overlap by more than `tolerance` pixels at `zoom`, drawn 512 pixels a tile (the world
    /// wrapping sideways), each sized and offset as `style` draws it.
    static func overlaps(_ features: [Decoded], zoom: Int, style: MarkerStyle, tolerance: Double = 0.5) -> Int {
        let side = 512 * Double(1 << zoom), cell = 64.0
        let shapes = features.map { feature -> (x: Double, y: Double, width: Double, height: Double, circle: Bool) in
            let geometry = style.markerGeometry(count: feature.pointCount), offset = geometry.centerOffset
            return (
                feature.x * side + offset.x, feature.y * side + offset.y, geometry.width, geometry.height,
                geometry.collisionMode == .circle
            )
        }
        var grid: [Int: [Int]] = [:]
        let columns = Int((side / cell).rounded(.up))
        func key(_ column: Int, _ row: Int) -> Int { ((column % columns) + columns) % columns + row * columns }
        for (index, shape) in shapes.enumerated() {
            grid[key(Int((shape.x / cell).rounded(.down)), Int((shape.y / cell).rounded(.down))), default: []].append(
                index)
        }
        func overlap(_ a: Int, _ b: Int) -> Bool {
            var dx = abs(shapes[a].x - shapes[b].x)
            dx = min(dx, side - dx)
            let dy = abs(shapes[a].y - shapes[b].y)
            if shapes[a].circle && shapes[b].circle {
                return (dx * dx + dy * dy).squareRoot() < shapes[a].width / 2 + shapes[b].width / 2 - tolerance
            }
            if !shapes[a].circle && !shapes[b].circle {
                return dx < (shapes[a].width + shapes[b].width) / 2 - tolerance
                    && dy < (shapes[a].height + shapes[b].height) / 2 - tolerance
            }
            let (circle, box) = shapes[a].circle ? (shapes[a], shapes[b]) : (shapes[b], shapes[a])
            let nearX = max(0, dx - box.width / 2), nearY = max(0, dy - box.height / 2)
            return (nearX * nearX + nearY * nearY).squareRoot() < circle.width / 2 - tolerance
        }
        var count = 0
        for (index, shape) in shapes.enumerated() {
            let column = Int((shape.x / cell).rounded(.down)), row = Int((shape.y / cell).rounded(.down))
            for nearColumn in column - 2...column + 2 {
                for nearRow in row - 2...row + 2 {
                    for other in grid[key(nearColumn, nearRow)] ?? [] where other > index && overlap(index, other) {
                        count += 1
                    }
                }
            }
        }
        return count
    }

    static func defaultStyle() throws -> MarkerStyle {
        try MarkerStyle.load(contentsOf: stylesFolder.appendingPathComponent("default.json"))
    }

    /// At every zoom no two icons overlap and the features count every point exactly once, as members or hidden.
    @Test func everyZoomIsClearAndCountsEveryPointOnce() throws {
        let style = try Self.defaultStyle()
        let points = Self.clumps(categories: ["blue", "orange", "green", "vermilion"])
        let annotator = try MapAnnotator(points: points, style: style, minimumZoom: 1, maximumZoom: 13)
        let tileset = try PlacedTileset(annotator: annotator, zooms: 0...10)
        let byZoom = try Self.decoded(tileset)
        #expect(byZoom.keys.sorted() == Array(0...10))
        for (zoom, features) in byZoom.sorted(by: { $0.key < $1.key }) {
            #expect(Self.overlaps(features, zoom: zoom, style: style) == 0, "zoom \(zoom)")
            #expect(features.reduce(0) { $0 + $1.pointCount + $1.hiddenCount } == points.count, "zoom \(zoom)")
            for feature in features where feature.pointCount > 1 {
                #expect(feature.label == style.cluster.label(for: feature.pointCount))
            }
        }
        // The world's clumps show as clusters at low zooms and as single points at the highest.
        #expect((byZoom[0] ?? []).count < 120)
        #expect((byZoom[10] ?? []).filter { $0.pointCount == 1 }.count > 3_000)
    }

    /// Identifiers read from a property (`--group-by`) are kept, not replaced by the categories' one: clusters form
    /// within each identifier only, and still no icon overlaps and every point is counted once.
    @Test func keptIdentifiersClusterApart() throws {
        let style = try Self.defaultStyle()
        var points = Self.clumps(categories: ["blue", "orange"])
        for index in points.indices { points[index].clusteringIdentifier = index % 2 == 0 ? "even" : "odd" }
        /// The clusters' identifiers in the tiles of `annotator`, and the tiles' features by zoom.
        func identifiers(_ annotator: MapAnnotator) throws -> (Set<String>, [Int: [Decoded]]) {
            let tileset = try PlacedTileset(annotator: annotator, zooms: 0...6)
            var found: Set<String> = []
            try tileset.encode(batchSize: 256) { batch in
                for tile in batch {
                    for layer in try TileDecoder.decode(tile.data) {
                        for feature in layer.features {
                            if case let .string(text)? = layer.properties(feature)["clustering_identifier"] {
                                found.insert(text)
                            }
                        }
                    }
                }
            }
            return (found, try Self.decoded(tileset))
        }
        let (kept, byZoom) = try identifiers(
            try MapAnnotator(points: points, style: style, minimumZoom: 1, maximumZoom: 9, keepingIdentifiers: true))
        #expect(kept == ["even", "odd"])
        for (zoom, features) in byZoom {
            #expect(Self.overlaps(features, zoom: zoom, style: style) == 0, "zoom \(zoom)")
            #expect(features.reduce(0) { $0 + $1.pointCount + $1.hiddenCount } == points.count, "zoom \(zoom)")
        }
        // Without keeping them, every point takes its category's identifier, the style's one for all.
        let (replaced, _) = try identifiers(
            try MapAnnotator(points: points, style: style, minimumZoom: 1, maximumZoom: 9))
        #expect(replaced == Set(style.categories.compactMap(\.clusteringIdentifier)))
    }

    /// The same check finds supercluster's tiles crowded: it is the placement that keeps them clear.
    @Test func superclusterTilesOverlap() throws {
        let style = try Self.defaultStyle()
        let points = try CategoryAssignment.prepared(
            Self.clumps(categories: ["blue", "orange", "green", "vermilion"]), style: style,
            categoryProperty: nil
        ).points
        let index = ClusterIndex(
            points: points, options: ClusterOptions(radius: 40, extent: 512, maxZoom: 6),
            categories: style.categories.map(\.name))
        let byZoom = try Self.decoded(ClusterTileset(index: index, style: style, zooms: 0...6))
        let overlapping = (0...6).map { Self.overlaps(byZoom[$0] ?? [], zoom: $0, style: style) }
        #expect(overlapping.reduce(0, +) > 100, "\(overlapping)")
    }

    /// With TANDm's identifiers and priorities, unicycles under bicycle clusters are hidden and counted by the view
    /// that hides them, and still no icon overlaps.
    @Test func hiddenViewsAreCountedByTheirHider() throws {
        let style = try MarkerStyle.load(contentsOf: Self.stylesFolder.appendingPathComponent("tandm.json"))
        let points = Self.clumps(categories: ["unicycle", "bicycle", "tricycle"])
        let annotator = try MapAnnotator(points: points, style: style, minimumZoom: 1, maximumZoom: 12)
        let tileset = try PlacedTileset(annotator: annotator, zooms: 0...8)
        let byZoom = try Self.decoded(tileset)
        var hidden = 0
        for (zoom, features) in byZoom {
            #expect(Self.overlaps(features, zoom: zoom, style: style) == 0, "zoom \(zoom)")
            #expect(features.reduce(0) { $0 + $1.pointCount + $1.hiddenCount } == points.count, "zoom \(zoom)")
            hidden += features.reduce(0) { $0 + $1.hiddenCount }
        }
        #expect(hidden > 0)
    }

    /// Each cluster stands on its members' centroid, its leaves are its members, and at its expansion zoom its members
    /// are counted by more than one feature, but at no zoom between.
    @Test func clustersStandOnTheirMembersAndExpandWhereTheySplit() throws {
        let style = try Self.defaultStyle()
        let points = Self.clumps(categories: ["blue", "orange"])
        let annotator = try MapAnnotator(points: points, style: style, minimumZoom: 1, maximumZoom: 12)
        let tileset = try PlacedTileset(annotator: annotator, zooms: 0...8)
        var checked = 0
        for placement in tileset.placements {
            for view in 0..<placement.count where placement.members(of: view).count > 1 {
                let members = placement.members(of: view).map(Int.init)
                // The centroid across the antimeridian: members unwrapped to the copy nearest the first.
                let first = annotator.projected.x[members[0]]
                let xs = members.map { index -> Double in
                    let x = annotator.projected.x[index]
                    return x - (x - first).rounded()
                }
                var centroid = xs.reduce(0, +) / Double(xs.count)
                centroid -= centroid.rounded(.down)
                var dx = abs(centroid - placement.x[view])
                dx = min(dx, 1 - dx)
                let centroidY = members.reduce(0) { $0 + annotator.projected.y[$1] } / Double(members.count)
                let side = 512 * Double(1 << placement.zoom)
                #expect(
                    dx * side < 0.01 && abs(centroidY - placement.y[view]) * side < 0.01,
                    "zoom \(placement.zoom) view \(view)")
                let id = PlacedTileset.clusterID(zoom: placement.zoom, view: view)
                #expect(try tileset.leaves(of: id, limit: .max) == members)
                #expect(try tileset.leaves(of: id, limit: 2, offset: 1) == Array(members[1..<min(3, members.count)]))
                let expansion = try tileset.expansionZoom(of: id)
                for higher in tileset.placements where higher.zoom > placement.zoom && higher.zoom <= expansion {
                    let views = Set(members.compactMap { higher.countingView(of: $0) })
                    #expect(
                        (views.count > 1) == (higher.zoom == expansion),
                        "zoom \(placement.zoom) view \(view) at \(higher.zoom)")
                }
                let children = try tileset.children(of: id)
                #expect(
                    placement.zoom == 8 ? children.isEmpty : children.reduce(0) { $0 + $1.pointCount } >= members.count)
                checked += 1
            }
        }
        #expect(checked > 100)
        // A view past the zoom's last, a zoom outside the tileset, a single point's view: none is a cluster.
        let past = PlacedTileset.clusterID(zoom: 3, view: 1_000_000),
            outside = PlacedTileset.clusterID(zoom: 9, view: 0)
        #expect(throws: ClusterError.noSuchCluster(Int(past))) { try tileset.leaves(of: past) }
        #expect(throws: ClusterError.noSuchCluster(Int(outside))) { try tileset.expansionZoom(of: outside) }
        let single = try #require(
            (0..<tileset.placements[8].count).first { tileset.placements[8].members(of: $0).count == 1 })
        #expect(throws: ClusterError.self) { try tileset.children(of: PlacedTileset.clusterID(zoom: 8, view: single)) }
    }
    /// MapLibre requests only the tiles its source's bounds touch (its `TileBounds.contains`), so the bounds a tile set
    /// states must touch every tile a feature calls home: the points' own box does not, for points on the equator,
    /// whose clusters round onto the edge of the tile row below.
    @Test func statedBoundsTouchEveryHomeTile() throws {
        let style = try Self.defaultStyle()
        // Four clumps of 100 on the equator and north of it, 14° apart.
        let points = (0..<400).map { index -> ClusterPoint in
            let longitude: Double = -21 + Double(index / 100) * 14 + Double(index % 10) * 0.0001
            let latitude: Double = Double(index % 100 / 10) * 0.001
            return ClusterPoint(longitude: longitude, latitude: latitude, id: .number(Double(index)), category: "blue")
        }
        let annotator = try MapAnnotator(points: points, style: style, minimumZoom: 1, maximumZoom: 8)
        let tileset = try PlacedTileset(annotator: annotator, zooms: 0...6)
        var homes: [(z: Int, x: Int, y: Int)] = []
        try tileset.encode(batchSize: 64) { batch in
            for tile in batch {
                for layer in try TileDecoder.decode(tile.data) {
                    let extent = Int64(layer.extent)
                    let home = layer.features.contains { feature in
                        layer.point(feature).map { (0..<extent).contains($0.x) && (0..<extent).contains($0.y) } ?? false
                    }
                    if home { homes.append((tile.z, tile.x, tile.y)) }
                }
            }
        }
        func touches(_ bounds: TileBounds, _ tile: (z: Int, x: Int, y: Int)) -> Bool {
            let scale = Double(1 << tile.z)
            let west = Int((WebMercator.x(longitude: bounds.west) * scale).rounded(.down))
            let east = Int((WebMercator.x(longitude: bounds.east) * scale).rounded(.up))
            let north = Int((WebMercator.y(latitude: bounds.north) * scale).rounded(.down))
            let south = Int((WebMercator.y(latitude: bounds.south) * scale).rounded(.up))
            return (west..<east).contains(tile.x) && (north..<south).contains(tile.y)
        }
        let own = TileBounds(enclosing: points)
        #expect(homes.count > 10)
        #expect(homes.contains { !touches(own, $0) })
        let stated = own.stated
        for home in homes { #expect(touches(stated, home), "\(home)") }
        #expect(abs(stated.south - -0.0439453) < 1e-6 && abs(stated.west - (-21 - 0.0439453)) < 1e-6)
    }

    /// MapLibre draws a feature only from the tile its anchor is in: a point at the South Pole (the demo's airports
    /// have one) sat on the last row's bottom edge, in no tile, and was drawn at no zoom; it stands a tile unit above
    /// it now, counted at every zoom as the North Pole's point is.
    @Test func pointsAtThePolesAreInATileOfTheirOwn() throws {
        let style = try Self.defaultStyle()
        let points = [(-90.0, 0.0), (90.0, 0.0), (-85.06, 60.0), (48.0, 10.0)].enumerated().map {
            ClusterPoint(
                longitude: $0.element.1, latitude: $0.element.0, id: .number(Double($0.offset)), category: "blue")
        }
        let annotator = try MapAnnotator(points: points, style: style, minimumZoom: 1, maximumZoom: 8)
        let tileset = try PlacedTileset(annotator: annotator, zooms: 0...6)
        var counted = [Int](repeating: 0, count: 7)
        try tileset.encode(batchSize: 64) { batch in
            for tile in batch {
                for layer in try TileDecoder.decode(tile.data) {
                    let extent = Int64(layer.extent)
                    for feature in layer.features {
                        guard let point = layer.point(feature), (0..<extent).contains(point.x),
                            (0..<extent).contains(point.y)
                        else { continue }
                        let count = layer.properties(feature)["point_count"]
                        if case let .uint(value)? = count {
                            counted[tile.z] += Int(value)
                        } else {
                            counted[tile.z] += 1
                        }
                    }
                }
            }
        }
        #expect(counted == Array(repeating: 4, count: 7))
    }

    /// A point's own properties named as the tiles' (as GeoJSON exported from other clustering carries them) are
    /// left out of its feature: with them the written style drew the point as a cluster and counted it twelve times.
    @Test func pointsDoNotCarryTheClustersOwnProperties() throws {
        let style = try Self.defaultStyle()
        let own = JSONObject([
            ("name", .string("Berlin")), ("cluster", .bool(true)), ("point_count", .number(12)),
            ("cluster_id", .number(99)), ("hidden_count", .number(3)),
        ])
        let points = [
            ClusterPoint(longitude: 13.4, latitude: 52.5, properties: own, category: "blue"),
            ClusterPoint(
                longitude: -74, latitude: 40.7, properties: JSONObject([("name", .string("NY"))]), category: "blue"),
        ]
        #expect(
            ReservedPointKeys.warning(for: points)
                == "1 point has properties named as the tiles' own (cluster, cluster_id, point_count, hidden_count), "
                + "which a style tells clusters and their counts by: left out of the points' features")
        let annotator = try MapAnnotator(points: points, style: style, minimumZoom: 1, maximumZoom: 4)
        let tileset = try PlacedTileset(annotator: annotator, zooms: 0...2)
        let data = try #require(tileset.tile(z: 2, x: 2, y: 1))
        let layer = try #require(try TileDecoder.decode(data).first)
        let properties = try layer.features.map { layer.properties($0) }.first { $0["name"] == .string("Berlin") }
        #expect(try #require(properties).keys.sorted() == ["name", "sprite"])
        #expect(ReservedPointKeys.warning(for: [points[1]]) == nil)
    }
}
