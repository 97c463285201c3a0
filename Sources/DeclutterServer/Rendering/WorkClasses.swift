import DeclutterSupport
import Foundation

/// The server's work in classes that never wait behind one another:
/// - **maps**: every static map, let in by the ``maps`` gate before its URL or body is parsed (waiting up to
///   ``ServerLimits/admissionSeconds`` for a place), drawn on the ``render`` pool (`--workers` threads and `--queue`
///   maps waiting);
/// - **fetch**: maps waiting on a tile server (with `--tiles` only), on threads of their own
/// (``ServerLimits/fetchingMaps``,
///   no queue), so that a tile server that hangs holds those threads and never a render thread;
/// - **tiles**: vector tiles and sprite sheets not made yet, on a small pool of their own (``tilesPool``); made ones
/// come
///   from a cache bounded by bytes, and styles, TileJSON, health and metrics are answered on the event loop.
struct WorkClasses: Sendable {
    /// Threads that draw maps.
    let render: RenderPool
    /// Threads that wait on a tile server for maps' tiles; nil without `--tiles`.
    let fetch: RenderPool?
    /// Threads that encode vector tiles and build sprite sheets.
    let tilesPool: RenderPool
    /// Maps in progress at most, parsing included: the render threads, their queue, and the maps fetching tiles.
    let maps: AdmissionGate
    /// Vector tiles made so far, by dataset and address: empty tiles as nil.
    let vectorTiles: ByteLimitedCache<VectorTileAddress, Data?>

    /// A vector tile's dataset and address.
    struct VectorTileAddress: Hashable, Sendable {
        var dataset: String
        var z: Int, x: Int, y: Int
    }

    /// Threads of the tiles pool: vector tiles take a millisecond or two, sheets a tenth of a second, once.
    static let tileThreads = 2
    /// Vector tiles that may wait for a tiles thread.
    static let queuedTiles = 64

    /// The classes for `render`, with a fetch pool when `fetchesTiles`.
    init(render: RenderPool, fetchesTiles: Bool, limits: ServerLimits) {
        self.render = render
        fetch =
            fetchesTiles
            ? RenderPool(workers: limits.fetchingMaps, queueLength: 0, name: "fetch", jobs: "maps waiting on tiles")
            : nil
        tilesPool = RenderPool(workers: Self.tileThreads, queueLength: Self.queuedTiles, name: "tiles", jobs: "tiles")
        maps = AdmissionGate(
            name: "maps", capacity: render.workers + render.queueLength + (fetch?.workers ?? 0), noun: "maps",
            waitSeconds: limits.admissionSeconds)
        vectorTiles = ByteLimitedCache(budget: limits.vectorTileCacheBytes)
    }

    /// Every pool, to stop with the server.
    var pools: [RenderPool] { [render, tilesPool] + (fetch.map { [$0] } ?? []) }

    /// Each class's threads at work and jobs waiting, and the requests its gate or pool refused.
    var load: [(name: String, running: Int, queued: Int, refused: Int)] {
        var classes = [("maps", render.load.running, render.load.queued, maps.load.refused + render.refusals)]
        if let fetch { classes.append(("fetch", fetch.load.running, fetch.load.queued, fetch.refusals)) }
        classes.append(("tiles", tilesPool.load.running, tilesPool.load.queued, tilesPool.refusals))
        return classes
    }
}
