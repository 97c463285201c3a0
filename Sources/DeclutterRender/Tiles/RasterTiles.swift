import DeclutterGeometry
import Foundation

/// Raster tiles fetched for one map: the plan they were fetched for, the bytes of those that came, and why the
/// others did not.
public struct RasterTiles: Sendable {
    /// The tiles the map needs and where each is drawn.
    public var plan: TilePlan
    /// The bytes of each tile that came (PNG images, decoded as they are drawn).
    public var images: [TileKey: Data]
    /// Why each tile that did not come is missing.
    public var failures: [TileKey: TileFailure]
    /// The source's name, for messages.
    public var source: String
    /// The source's attribution, printed on the map unless the map gives its own.
    public var attribution: String?

    /// Tiles fetched for `plan` from the source named `source`.
    public init(
        plan: TilePlan, images: [TileKey: Data], failures: [TileKey: TileFailure], source: String, attribution: String?
    ) {
        self.plan = plan
        self.images = images
        self.failures = failures
        self.source = source
        self.attribution = attribution
    }

    /// Throws when any tile failed to come, for a map that must not be drawn without them all.
    ///
    /// - Throws: ``TileError/missingTiles(missing:of:first:reason:)`` naming the first missing tile in the plan's order.
    public func refuseMissing() throws {
        try Self.refuseMissing(plan, failures: failures)
    }

    /// The first of the plan's tiles that failed to come, in the plan's order, and why; nil when none failed.
    public var firstFailure: (key: TileKey, failure: TileFailure)? { Self.firstFailure(plan, failures: failures) }

    /// The first of `plan`'s tiles that `failures` names, and its failure.
    static func firstFailure(_ plan: TilePlan, failures: [TileKey: TileFailure]) -> (
        key: TileKey, failure: TileFailure
    )? {
        guard let first = plan.tiles.first(where: { failures[$0.key] != nil }), let failure = failures[first.key] else {
            return nil
        }
        return (first.key, failure)
    }

    /// Throws when `failures` names any of `plan`'s tiles, the first in the plan's order in the message.
    static func refuseMissing(_ plan: TilePlan, failures: [TileKey: TileFailure]) throws {
        guard let first = firstFailure(plan, failures: failures) else { return }
        throw TileError.missingTiles(
            missing: failures.count, of: Set(plan.tiles.map(\.key)).count,
            first: "\(first.key)", reason: first.failure.reason)
    }
}
