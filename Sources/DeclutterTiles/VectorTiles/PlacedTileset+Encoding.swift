import DeclutterClustering
import DeclutterMapContent
import DeclutterStyle
import Foundation

extension PlacedTileset {
    /// Encodes every non-empty tile of ``zooms`` on every core and hands them to `deliver` in batches of at most
    /// `batchSize` tiles: zoom by zoom, each zoom's along the Hilbert curve, as ``ClusterTileset`` does.
    public func encode(batchSize: Int = 256, deliver: ([EncodedTile]) throws -> Void) rethrows {
        try TileBatches.encode(
            zooms: zooms, batchSize: batchSize, gather: { [self] zoom in tiles(zoom: zoom) },
            makeEncoder: {
                EncoderBox(VectorTileEncoder(layerName: layerName, extent: extent, vocabulary: vocabulary))
            },
            encodeTile: encodeTile, deliver: deliver)
    }

    /// The bytes of tile z/x/y, the same as ``encode(batchSize:deliver:)`` gives for it; nil when the tile is empty or
    /// its zoom is not one of ``zooms``.
    public func tile(z: Int, x: Int, y: Int) -> Data? {
        guard zooms.contains(z), x >= 0, y >= 0, x < 1 << z, y < 1 << z else { return nil }
        let tiles = tiles(zoom: z)
        // Tiles come along the Hilbert curve; one zoom's are few enough for a plain search.
        guard let tile = (0..<tiles.count).first(where: { Int(tiles.columns[$0]) == x && Int(tiles.rows[$0]) == y })
        else { return nil }
        return encodeTile(z, tiles.items(ofTile: tile))
    }

    /// The bytes of a tile of zoom `zoom` holding the views `items`, with an encoder of its own.
    func encodeTile(_ zoom: Int, _ items: ArraySlice<ZoomTiles.Item>) -> Data {
        encodeTile(
            zoom, items, EncoderBox(VectorTileEncoder(layerName: layerName, extent: extent, vocabulary: vocabulary)))
    }

    /// The metadata archives and TileJSON carry for these tiles, as ``ClusterTileset/metadata(description:bounds:)``.
    public func metadata(description: String, bounds: TileBounds) -> TilesetMetadata {
        var types: [String: VectorTileFieldType] = [:]
        for field in fields { types[field.name] = field.type }
        return TilesetMetadata(
            name: style.name, description: description, layer: layerName, fields: types, minZoom: zooms.lowerBound,
            maxZoom: zooms.upperBound, bounds: bounds,
            center: .init(
                longitude: (bounds.west + bounds.east) / 2, latitude: (bounds.south + bounds.north) / 2,
                zoom: zooms.lowerBound))
    }

    /// Zoom `zoom`'s shown views in the tiles whose buffered area holds them.
    func tiles(zoom: Int) -> ZoomTiles {
        let placement = placements[zoom - zooms.lowerBound]
        // A view at the world's south edge (points at −85.0511° and beyond) would stand on the last row's bottom edge,
        // which MapLibre draws in no tile (a symbol belongs to the tile its anchor is in, and there is no row below):
        // it stands one tile unit above it.
        let southmost = 1 - 1 / (Double(extent) * Double(1 << zoom))
        return ZoomTiles.gather(
            zoom: zoom, count: placement.count, extent: Double(extent), padding: Double(buffer) / Double(extent)
        ) { view in
            let y = min(placement.y[view], southmost)
            return (item: Int32(view), testX: placement.x[view], testY: y, worldX: placement.x[view], worldY: y)
        }
    }

    /// The bytes of a tile of zoom `zoom` holding the views `items`.
    func encodeTile(_ zoom: Int, _ items: ArraySlice<ZoomTiles.Item>, _ box: EncoderBox) -> Data {
        let level = zoom - zooms.lowerBound, placement = placements[level]
        for entry in items {
            let view = Int(entry.item), members = placement.members(of: view), hidden = placement.hiddenCounts[view]
            guard members.count > 1 else {
                pointData.write(
                    point: Int(members.first ?? 0), x: entry.x, y: entry.y, keys: keys.fixed, into: &box.encoder
                ) { encoder in
                    if hidden > 0 { encoder.add(key: keys.hiddenCount, .uint(UInt64(hidden))) }
                }
                continue
            }
            writeCluster(view, at: entry, level: level, into: box)
        }
        return box.encoder.finish()
    }

    /// One cluster's feature.
    private func writeCluster(_ view: Int, at entry: ZoomTiles.Item, level: Int, into box: EncoderBox) {
        let placement = placements[level], members = placement.members(of: view), count = members.count
        let counts = annotator.categoryCounts(of: members)
        let id = Self.clusterID(zoom: placement.zoom, view: view)
        box.encoder.beginPoint(x: entry.x, y: entry.y, id: id)
        box.encoder.add(key: keys.fixed.cluster, .bool(true))
        box.encoder.add(key: keys.fixed.clusterId, .uint(id))
        box.encoder.add(key: keys.fixed.pointCount, .uint(UInt64(count)))
        box.encoder.add(key: keys.fixed.abbreviated, .string(style.cluster.label(for: count)))
        box.encoder.add(key: keys.labelSize, VectorTileValue(number: Double(labelSizes[level][view])))
        box.encoder.add(key: keys.expansionZoom, .uint(UInt64(expansionZooms[level][view])))
        if placement.hiddenCounts[view] > 0 {
            box.encoder.add(key: keys.hiddenCount, .uint(UInt64(placement.hiddenCounts[view])))
        }
        for (category, inCategory) in counts.enumerated() where inCategory > 0 && keys.categories[category] >= 0 {
            box.encoder.add(key: keys.categories[category], .uint(UInt64(inCategory)))
        }
        // The members share one identifier (clusters form within one): their categories' or, kept from a property
        // (`--group-by`), their own.
        if let first = members.first, let identifier = annotator.points[Int(first)].clusteringIdentifier,
            !identifier.isEmpty
        {
            box.encoder.add(key: keys.fixed.identifier, .string(identifier))
        }
        if !aggregates.isEmpty {
            for (key, entry) in zip(keys.aggregates, aggregates.values(over: members)) where key >= 0 {
                if let value = entry.value { box.encoder.add(key: key, VectorTileValue(number: value)) }
            }
        }
        if let ring = spriteNames.ringIcon(counts: counts, total: count) {
            // Names made once per core: building the string is most of naming a cluster.
            let sprite =
                box.rings[ring]
                ?? {
                    let name = spriteNames.name(of: ring)
                    return (vocabulary.existingString(name) ?? -1, name)
                }()
            box.rings[ring] = sprite
            if sprite.number >= 0 {
                box.encoder.add(key: keys.fixed.sprite, string: sprite.number)
            } else {
                box.encoder.add(key: keys.fixed.sprite, .string(sprite.name))
            }
        }
        box.encoder.endPoint()
    }

    /// A cluster's id: its view's place at its zoom and the zoom, `view << 5 | zoom`.
    public static func clusterID(zoom: Int, view: Int) -> UInt64 { UInt64(view) << 5 | UInt64(zoom) }

    /// An encoder of one core's, kept across a run, and the ring names it has made.
    final class EncoderBox {
        var encoder: VectorTileEncoder
        /// Names by ring, with their vocabulary number (-1: not in the vocabulary).
        var rings: [SpriteNames.RingIcon: (number: Int32, name: String)] = [:]
        init(_ encoder: VectorTileEncoder) { self.encoder = encoder }
    }
}
