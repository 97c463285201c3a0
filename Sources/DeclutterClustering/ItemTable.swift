import DeclutterSupport

extension ClusterIndex {
    /// Every point and cluster of an index once: input points at their input index, clusters after them in the
    /// order they were made (an item is a cluster exactly when its index is at least the number of points).
    ///
    /// Points take 16 bytes (their positions are float32 values, as supercluster rounds them). Clusters are kept
    /// zoom by zoom, each zoom's in an array made at its size, so the table never grows by copying itself into an
    /// array twice as large — which would briefly hold both, and then half an array unused.
    struct ItemTable {
        /// Points' world positions (NaN for unlocated points).
        private(set) var pointX: [Float] = []
        private(set) var pointY: [Float] = []
        /// Points' clustering groups; -1 never clusters.
        private(set) var pointGroup: [Int32] = []
        /// The item of the cluster that took each point in, or -1.
        private var pointParent: [Int32] = []
        /// Clusters, one array a zoom, in the order made.
        private var zooms: [[Cluster]] = []
        /// The first item of each array in `zooms`.
        private var zoomStarts: [Int] = []
        /// Per-category member counts of every cluster, `categories.count` wide, by aggregate row.
        var categoryRows: [Int32] = []
        /// Reduced properties of every cluster, by aggregate row (only with a reducer).
        var properties: [JSONObject] = []
        /// Aggregate rows handed out so far.
        var rowCount = 0

        /// A cluster's entry.
        struct Cluster {
            /// World position: the count-weighted centre of its members.
            var x: Double
            var y: Double
            /// The cluster id (supercluster's: origin, zoom and number of points).
            var id: Int
            var group: Int32
            /// The item of the cluster that took this one in, or -1.
            var parent: Int32
            /// Points in the cluster.
            var count: Int32
            /// Aggregate row, -1 for none.
            var row: Int32
        }

        init() {}

        /// A table of points with the given positions (rounded to float32 already) and groups.
        init(xs: [Double], ys: [Double], groups: [Int32]) {
            pointX = xs.map { Float($0) }
            pointY = ys.map { Float($0) }
            pointGroup = groups
            pointParent = [Int32](repeating: -1, count: xs.count)
        }

        /// Points and clusters so far.
        var count: Int {
            guard let last = zooms.last, let start = zoomStarts.last else { return pointX.count }
            return start + last.count
        }

        /// Adds one zoom's clusters, made at items `count…`.
        mutating func append(_ clusters: [Cluster]) {
            guard !clusters.isEmpty else { return }
            zoomStarts.append(count)
            // Copied at its size: the array it was built in grew by doubling.
            zooms.append(Array(clusters[...]))
        }

        /// Where a cluster item lives: its zoom's array and its place there.
        @inline(__always)
        private func locate(_ item: Int) -> (zoom: Int, offset: Int) {
            var low = 0, high = zoomStarts.count - 1
            while low < high {
                let middle = (low + high + 1) / 2
                if zoomStarts[middle] <= item { low = middle } else { high = middle - 1 }
            }
            return (low, item - zoomStarts[low])
        }

        /// A cluster item's entry.
        func cluster(_ item: Int) -> Cluster {
            let (zoom, offset) = locate(item)
            return zooms[zoom][offset]
        }

        func x(_ item: Int) -> Double { item < pointX.count ? Double(pointX[item]) : cluster(item).x }
        func y(_ item: Int) -> Double { item < pointY.count ? Double(pointY[item]) : cluster(item).y }
        func group(_ item: Int) -> Int32 { item < pointGroup.count ? pointGroup[item] : cluster(item).group }
        func parent(_ item: Int) -> Int32 { item < pointParent.count ? pointParent[item] : cluster(item).parent }

        mutating func setParent(_ item: Int, _ parent: Int32) {
            if item < pointParent.count {
                pointParent[item] = parent
            } else {
                let (zoom, offset) = locate(item)
                zooms[zoom][offset].parent = parent
            }
        }
    }
}
