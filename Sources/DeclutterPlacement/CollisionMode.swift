import DeclutterSupport

/// How a marker view takes part in collisions (MapKit's `MKAnnotationViewCollisionMode`, plus `none`).
public enum CollisionMode: String, Sendable, Hashable, Codable, CaseIterable {
    /// The view's frame collides.
    case rectangle
    /// The circle inscribed in the view's frame collides.
    case circle
    /// The view never collides.
    case none
}

extension CollisionMode {
    /// Decodes a mode by name; another name is refused with the three choices.
    public init(from decoder: any Decoder) throws {
        self = try Self.named(in: decoder)
    }
}
