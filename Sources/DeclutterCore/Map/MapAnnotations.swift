import Foundation

/// One view on a static map: a cluster icon or a balloon marker, with the points it stands for.
public struct MapAnnotation: Sendable, Hashable {
    /// What the view is.
    public enum Kind: String, Sendable, Hashable, Codable {
        /// A cluster icon for two or more points.
        case cluster
        /// A balloon marker for one point.
        case marker
    }

    /// Cluster icon or balloon marker.
    public var kind: Kind
    /// The points it stands for, as indices into the input.
    public var members: [Int]
    /// Members per category, in the style's order.
    public var counts: CategoryCounts
    /// The annotation's coordinate (a cluster's: the mean of its members').
    public var coordinate: Coordinate
    /// The view's frame in points from the map's top-left corner.
    public var frame: (x: Double, y: Double, width: Double, height: Double)
    /// Whether placement showed the view.
    public var visible: Bool
    /// Its display priority; views are drawn lowest first.
    public var priority: DisplayPriority

    /// Creates an annotation.
    public init(kind: Kind, members: [Int], counts: CategoryCounts, coordinate: Coordinate,
                frame: (x: Double, y: Double, width: Double, height: Double), visible: Bool, priority: DisplayPriority) {
        self.kind = kind
        self.members = members
        self.counts = counts
        self.coordinate = coordinate
        self.frame = frame
        self.visible = visible
        self.priority = priority
    }

    public static func == (lhs: MapAnnotation, rhs: MapAnnotation) -> Bool {
        lhs.kind == rhs.kind && lhs.members == rhs.members && lhs.counts == rhs.counts && lhs.coordinate == rhs.coordinate
            && lhs.frame == rhs.frame && lhs.visible == rhs.visible && lhs.priority == rhs.priority
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
        hasher.combine(members)
        hasher.combine(frame.x)
        hasher.combine(frame.y)
    }
}

/// Why points cannot be turned into map annotations.
public struct AnnotationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was wrong and where.
    public var message: String
    /// Creates an error.
    public init(_ message: String) { self.message = message }
    /// The message.
    public var description: String { message }
}

/// Turns points into the views a static map shows: clustered at the camera's zoom, given the style's sizes,
/// offsets, collision modes and priorities, then placed by MapKit's rules.
///
/// Every located input point ends up in exactly one annotation's members: views far outside the map are kept,
/// hidden, so that a layout accounts for every point.
public struct MapAnnotator: Sendable {
    /// The style giving categories, identifiers, view sizes and priorities.
    public let style: MarkerStyle
    /// The points, each with a category of the style.
    public let points: [ClusterPoint]
    /// The clustering index over the points, built once and reusable for any camera.
    public let index: ClusterIndex

    /// Indexes the points for the style: each point takes its category's clustering identifier.
    ///
    /// A point without a category takes the style's first; an unknown category or an unlocated point is an error.
    /// The hierarchy is built from zoom 20 down to `minimumZoom`: a single map passes its own zoom and skips the
    /// wide zooms below it, where every point has most others in reach and indexing costs the most. Levels at and
    /// above `minimumZoom` are the same either way, so the map's clusters are too.
    /// - Throws: ``AnnotationError`` naming the point and what was expected.
    public init(points: [ClusterPoint], style: MarkerStyle, minimumZoom: Int = 0) throws {
        let categories = Dictionary(style.categories.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var prepared = points
        for index in prepared.indices {
            let point = prepared[index]
            guard point.longitude.isFinite, point.latitude.isFinite else {
                throw AnnotationError("point \(index) has no coordinate; a map needs every point located")
            }
            let name = point.category ?? style.categories[0].name
            guard let category = categories[name] else {
                throw AnnotationError("point \(index): category \"\(name)\" is not in style \"\(style.name)\"; expected one of: "
                                      + style.categories.map(\.name).joined(separator: ", "))
            }
            prepared[index].category = name
            prepared[index].clusteringIdentifier = category.clusteringIdentifier
        }
        self.style = style
        self.points = prepared
        // Extent 256 makes the radius read in map points at whole zooms, where a view is as wide as it is drawn.
        index = ClusterIndex(points: prepared, options: ClusterOptions(radius: style.map.clusterRadius, extent: 256,
                                                                       minZoom: min(max(minimumZoom, 0), 20), maxZoom: 20),
                             categories: style.categories.map(\.name))
    }

    /// The views for a camera, with their placement decided.
    ///
    /// - Throws: ``AnnotationError`` when the camera's zoom is below the zoom the index was built down to.
    public func annotations(for camera: MapCamera) throws -> [MapAnnotation] {
        let zoom = camera.zoom.rounded(.down)
        guard zoom >= Double(index.options.minZoom) else {
            throw AnnotationError("zoom \(Int(zoom)) is below the index's lowest zoom \(index.options.minZoom); "
                                  + "build the annotator with minimumZoom at most \(Int(zoom))")
        }
        let features = index.clusters(west: -180, south: -90, east: 180, north: 90, zoom: zoom)
        let projection = camera.projection
        var candidates: [Candidate] = []
        candidates.reserveCapacity(features.count)
        for feature in features {
            let members: [Int]
            if let clusterId = feature.clusterId {
                members = try index.leaves(of: clusterId, limit: .max).compactMap(\.pointIndex)
            } else {
                members = feature.pointIndex.map { [$0] } ?? []
            }
            candidates.append(candidate(members: members, coordinate: Coordinate(longitude: feature.longitude, latitude: feature.latitude),
                                        projection: projection, identifier: feature.clusteringIdentifier))
        }
        return place(candidates, camera: camera)
    }

    /// A view before placement.
    struct Candidate {
        var members: [Int]
        var counts: CategoryCounts
        var coordinate: Coordinate
        var x: Double, y: Double
        var width: Double, height: Double
        var offsetX: Double, offsetY: Double
        var mode: CollisionMode
        var priority: DisplayPriority
        var identifier: String?
    }

    /// The view for a group of points: a balloon for one, a cluster icon for more.
    func candidate(members: [Int], coordinate: Coordinate, projection: MapCamera.Projection, identifier: String?) -> Candidate {
        var counts = CategoryCounts(style.categories.map { ($0.name, 0) })
        var priority = DisplayPriority(-1)
        for member in members {
            let name = points[member].category ?? ""
            counts.add(1, to: name)
            // A cluster takes its members' highest priority, as placement's own clusters do.
            priority = max(priority, style.category(named: name)?.displayPriority ?? .defaultHigh)
        }
        counts = CategoryCounts(counts.entries.filter { $0.count > 0 })
        let (x, y) = projection.point(for: coordinate)
        if members.count == 1 {
            let balloon = style.balloon
            // The balloon's tip is the point: its centre sits half its height above.
            return Candidate(members: members, counts: counts, coordinate: coordinate, x: x, y: y, width: balloon.width, height: balloon.height,
                             offsetX: 0, offsetY: -balloon.height / 2, mode: .rectangle, priority: priority, identifier: identifier)
        }
        let diameter = style.cluster.bucket(for: members.count).diameter
        let offset = style.cluster.centerOffset
        return Candidate(members: members, counts: counts, coordinate: coordinate, x: x, y: y, width: diameter, height: diameter,
                         offsetX: offset.first ?? 0, offsetY: offset.dropFirst().first ?? 0, mode: style.cluster.collisionMode,
                         priority: priority, identifier: identifier)
    }

    /// Runs placement on the views near the map and turns its result into annotations.
    func place(_ candidates: [Candidate], camera: MapCamera) -> [MapAnnotation] {
        // Views that cannot reach the map take no part in placement; they stay in the result, hidden.
        let margin = candidates.reduce(0) { max($0, $1.width, $1.height) } * 2
        var near: [Int] = [], result: [MapAnnotation] = []
        for (index, candidate) in candidates.enumerated() {
            if candidate.x > -margin, candidate.y > -margin, candidate.x < camera.width + margin, candidate.y < camera.height + margin {
                near.append(index)
            } else {
                result.append(annotation(candidate, visible: false))
            }
        }
        let smallest = style.cluster.buckets.first?.diameter ?? 40
        let offset = style.cluster.centerOffset
        let scene = PlacementScene(
            width: camera.width, height: camera.height,
            clusterView: ClusterViewDescription(width: smallest, height: smallest, collisionMode: style.cluster.collisionMode,
                                                centerOffset: offset.count == 2 ? offset : [0, 0]),
            annotations: near.map { index in
                let candidate = candidates[index]
                return PlacementAnnotation(id: String(index), x: candidate.x, y: candidate.y, width: candidate.width, height: candidate.height,
                                           centerOffset: [candidate.offsetX, candidate.offsetY], collisionMode: candidate.mode,
                                           displayPriority: candidate.priority, clusteringIdentifier: candidate.identifier)
            })
        let placed = PlacementEngine.place(scene)
        let projection = camera.projection
        for id in placed.visible { if let index = Int(id) { result.append(annotation(candidates[index], visible: true)) } }
        for id in placed.hidden { if let index = Int(id) { result.append(annotation(candidates[index], visible: false)) } }
        // Views that placement merged become one cluster of all their points, where placement put it (the mean of
        // its views' points), so that what is drawn is what placement checked for collisions.
        for cluster in placed.clusters {
            let parts = cluster.members.compactMap(Int.init).map { candidates[$0] }
            let members = parts.flatMap(\.members).sorted()
            var merged = candidate(members: members, coordinate: camera.coordinate(atX: cluster.x, y: cluster.y), projection: projection,
                                   identifier: cluster.clusteringIdentifier)
            merged.x = cluster.x
            merged.y = cluster.y
            merged.priority = parts.map(\.priority).max() ?? merged.priority
            result.append(annotation(merged, visible: cluster.visible))
        }
        // Lowest priority first, so higher ones are drawn over them; then top to bottom, as MapKit stacks views.
        return result.sorted { ($0.priority, $0.frame.y + $0.frame.height, $0.members.first ?? 0) < ($1.priority, $1.frame.y + $1.frame.height, $1.members.first ?? 0) }
    }

    func annotation(_ candidate: Candidate, visible: Bool) -> MapAnnotation {
        let centerX = candidate.x + candidate.offsetX, centerY = candidate.y + candidate.offsetY
        return MapAnnotation(kind: candidate.members.count == 1 ? .marker : .cluster, members: candidate.members, counts: candidate.counts,
                             coordinate: candidate.coordinate,
                             frame: (centerX - candidate.width / 2, centerY - candidate.height / 2, candidate.width, candidate.height),
                             visible: visible, priority: candidate.priority)
    }
}
