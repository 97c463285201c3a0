import DeclutterSupport

extension ClusterIndex {
    /// Every item's neighbours at one zoom, found at once by a shortcut (ClusterIndex+GridNeighbours.swift): for
    /// each item of a level, the other items of its clustering group within the radius, as offsets into one flat
    /// list.
    struct NeighborLists {
        /// Where each item's neighbours start in `neighbors`; one more entry than items, the last the total.
        var offsets: [Int32]
        /// The neighbours of every item, item after item.
        var neighbors: [Int32]
        /// Items with a candidate so near the radius's edge that a k-d search's pruning might decide otherwise:
        /// their lists are to be searched again with the tree.
        var borderline: [Int32] = []

        /// Lists for `count` items, none of which has a neighbour.
        init(empty count: Int) {
            offsets = [Int32](repeating: 0, count: count + 1)
            neighbors = []
        }

        init(offsets: [Int32], neighbors: [Int32], borderline: [Int32]) {
            self.offsets = offsets
            self.neighbors = neighbors
            self.borderline = borderline
        }

        /// Where an item's neighbours lie in `neighbors`.
        @inline(__always)
        func range(of item: Int) -> Range<Int> { Int(offsets[item])..<Int(offsets[item + 1]) }
    }
}
