import DeclutterSupport

extension ClusterIndex {
    /// A level's item order: in full, or as its changes to the level above (one zoom up), which is much smaller
    /// where few items merged — most zooms above the dense ones.
    ///
    /// A shortcut for memory: supercluster keeps every zoom's rows in full. Without ``ClusterOptions/shortcuts``
    /// every level is kept in full.
    enum LevelOrder: Sendable {
        case full([Int32])
        /// Runs of the level above as `start, end` (both ≥ 0) and single items as `-item - 1`, in order.
        case changes([Int32])

        /// Records a level's order as changes to the level above while it is built, until they grow past `limit`.
        struct Changes {
            /// The changes so far; nil once past the limit (or when not recorded at all).
            private(set) var entries: [Int32]?
            let limit: Int

            /// Changes that give up past `limit` entries; nil records none.
            init(limit: Int?) {
                entries = limit == nil ? nil : []
                self.limit = limit ?? 0
            }

            /// Positions of the level above, kept in order.
            mutating func keep(_ range: Range<Int>) {
                guard let count = entries?.count else { return }
                // A run's end is the only non-negative last entry: extend it when this range follows on.
                if let last = entries?.last, last >= 0, Int(last) == range.lowerBound {
                    entries?[count - 1] = Int32(range.upperBound)
                } else {
                    add(Int32(range.lowerBound), Int32(range.upperBound))
                }
            }

            /// A new item (a cluster).
            mutating func insert(_ item: Int32) {
                guard entries != nil else { return }
                add(-item - 1)
            }

            private mutating func add(_ values: Int32...) {
                entries?.append(contentsOf: values)
                if let count = entries?.count, count > limit { entries = nil }
            }
        }
    }

    /// A level's item order, spelled out from `levels`: from the nearest level above kept in full or already
    /// spelled out in `spelled`, applying the changes down from it (the levels between are not kept).
    static func spell(_ level: Int, levels: [LevelOrder], spelled: [[Int32]?]) -> [Int32] {
        if let order = spelled[level] { return order }
        var above = level, items: [Int32] = []
        while true {
            if let order = spelled[above] {
                items = order
                break
            }
            if case let .full(order) = levels[above] {
                items = order
                break
            }
            above += 1
        }
        for next in stride(from: above - 1, through: level, by: -1) {
            guard case let .changes(changes) = levels[next] else { continue }
            var order: [Int32] = []
            var position = 0
            while position < changes.count {
                if changes[position] < 0 {
                    order.append(-changes[position] - 1)
                    position += 1
                } else {
                    order.append(contentsOf: items[Int(changes[position])..<Int(changes[position + 1])])
                    position += 2
                }
            }
            items = order
        }
        return items
    }
}
