extension ClusterIndex {
    /// Which of the index's shortcuts its zooms took (see ``ClusterOptions/shortcuts``): for tuning, and for
    /// checking that an input exercises the shortcut it is meant to. The results never depend on them.
    public struct Statistics: Sendable, Hashable {
        /// Zooms whose neighbour lists came from a grid (or bands) and were used in the order found: no merge
        /// depended on the order.
        public var zoomsListedInFoundOrder = 0
        /// Zooms whose neighbour lists were put into the k-d search's order, as some merge depended on it.
        public var zoomsListedInSearchOrder = 0
        /// Zooms whose neighbour lists came from bands over the points' own extent rather than a world-wide grid,
        /// because the points crowded into few of its cells.
        public var zoomsListedFromBands = 0
        /// Zooms at which each item searched its neighbours when its turn came, as supercluster does: every zoom
        /// without shortcuts, and with them the dense zooms, where the lists would be too long.
        public var zoomsSearchedOneByOne = 0
        /// Levels kept as their changes to the level above rather than in full.
        public var levelsKeptAsChanges = 0

        /// Statistics of nothing yet.
        public init() {}
    }
}
