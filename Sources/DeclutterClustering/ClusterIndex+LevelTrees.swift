import Synchronization

extension ClusterIndex {
    /// What queries build on first use: each level's order spelled out from its changes, and its k-d tree.
    ///
    /// supercluster builds every zoom's tree in `load`; most zooms of an index are never queried, so here (with
    /// ``ClusterOptions/shortcuts``) a level's tree is built when a query first needs it.
    struct QueriedLevels: Sendable {
        /// Item orders of the levels queried so far, by level.
        var orders: [[Int32]?]
        /// Query trees by level.
        var trees: [KDTree?]

        init(count: Int) {
            orders = [[Int32]?](repeating: nil, count: count)
            trees = [KDTree?](repeating: nil, count: count)
        }
    }

    /// A level's item order, spelled out on first use.
    func order(_ level: Int) -> [Int32] {
        queried.withLock { queried in order(level, &queried) }
    }

    /// A level's item order and its tree, each built on first use.
    func orderAndTree(_ level: Int) -> (order: [Int32], tree: KDTree) {
        queried.withLock { queried in
            let items = order(level, &queried)
            if let built = queried.trees[level] { return (items, built) }
            let table = self.table
            let built = KDTree(count: items.count, nodeSize: options.nodeSize) {
                (table.x(Int(items[$0])), table.y(Int(items[$0])))
            }
            queried.trees[level] = built
            return (items, built)
        }
    }

    /// A level's tree, built on first use.
    func tree(_ level: Int) -> KDTree { orderAndTree(level).tree }

    private func order(_ level: Int, _ queried: inout QueriedLevels) -> [Int32] {
        if let order = queried.orders[level] { return order }
        let order = Self.spell(level, levels: levels, spelled: queried.orders)
        queried.orders[level] = order
        return order
    }
}
