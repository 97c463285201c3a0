/// How points are clustered: supercluster's options and defaults.
public struct ClusterOptions: Sendable, Hashable {
    /// Cluster radius in pixels of a tile `extent` wide. Default 40.
    public var radius: Double
    /// Tile extent the radius is measured against. Default 512.
    public var extent: Double
    /// The lowest zoom clusters are made for. Default 0.
    public var minZoom: Int
    /// The highest zoom clusters are made for; above it every point stands alone. Default 16.
    public var maxZoom: Int
    /// The fewest points that form a cluster. Default 2.
    public var minPoints: Int
    /// The k-d tree's leaf size. Default 64.
    public var nodeSize: Int
    /// Give points without an `id` their input index as tile feature id. Default false.
    public var generateId: Bool
    /// Take the shortcuts that reach supercluster's results with less work. Default true.
    ///
    /// With shortcuts, searches that cannot find a neighbour are skipped, neighbours come from a grid over the
    /// items that can have any, in the k-d search's order only where a merge depends on it, and levels are kept
    /// as their changes to the level above. False follows supercluster step by step: one k-d search per item and
    /// zoom, and every level's order and tree kept. The results are the same to the bit either way; false is
    /// there to check that claim, and is over ten times slower on a million points (14–23 s against 1.1–1.5 s).
    public var shortcuts: Bool
    /// Hand the memory the allocator holds free back to the system once the index is built. Default false.
    ///
    /// Building frees many large temporary arrays, and glibc keeps freed memory for reuse, so the process stays
    /// that much larger; what it allocates next need not reuse it. `malloc_trim` returns it, but it trims the
    /// whole process's heap, which is its host's business: ask for it only in a process that owns its heap, such
    /// as a command-line tool. Where the allocator has no such call (not glibc), this does nothing.
    ///
    /// `declutter bench cluster --points 1000000 --max-zoom 16` (a million points, then four queries) peaks at
    /// 265 MiB with it and at 295–298 MiB without: the queries grow the heap past the memory it holds free.
    public var releasesFreedMemory: Bool

    /// Creates options; see the properties for the defaults.
    public init(
        radius: Double = 40, extent: Double = 512, minZoom: Int = 0, maxZoom: Int = 16, minPoints: Int = 2,
        nodeSize: Int = 64, generateId: Bool = false, shortcuts: Bool = true, releasesFreedMemory: Bool = false
    ) {
        self.radius = radius
        self.extent = extent
        self.minZoom = minZoom
        self.maxZoom = maxZoom
        self.minPoints = minPoints
        self.nodeSize = nodeSize
        self.generateId = generateId
        self.shortcuts = shortcuts
        self.releasesFreedMemory = releasesFreedMemory
    }
}
