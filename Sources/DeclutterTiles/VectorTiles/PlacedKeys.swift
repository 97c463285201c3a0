/// The vocabulary numbers of the keys a placed tileset writes: a cluster tileset's, its own, each category's and each
/// aggregate's.
struct PlacedKeys: Sendable {
    /// The keys every cluster tileset writes.
    let fixed: FixedKeys
    let labelSize: Int32
    let expansionZoom: Int32
    let hiddenCount: Int32
    /// Each style category's count key, in the style's order; -1 where the name is one of the other keys.
    let categories: [Int32]
    /// Each aggregate's key, in the order asked; -1 where the name is a category's (the count wins).
    let aggregates: [Int32]

    /// Adds the keys to `vocabulary`.
    init(_ vocabulary: inout VectorTileVocabulary, categories names: [String], aggregates: [String] = []) {
        fixed = FixedKeys(&vocabulary)
        labelSize = vocabulary.key("label_size")
        expansionZoom = vocabulary.key("expansion_zoom")
        hiddenCount = vocabulary.key("hidden_count")
        let taken: Set = [
            "cluster", "cluster_id", "point_count", "point_count_abbreviated", "clustering_identifier", "sprite",
            "label_size",
            "expansion_zoom", "hidden_count",
        ]
        var seen: Set<String> = []
        categories = names.map { name in
            taken.contains(name) || !seen.insert(name).inserted ? -1 : vocabulary.key(name)
        }
        self.aggregates = aggregates.map { name in
            taken.contains(name) || !seen.insert(name).inserted ? -1 : vocabulary.key(name)
        }
    }
}
