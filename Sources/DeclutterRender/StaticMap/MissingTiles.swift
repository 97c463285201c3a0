import Foundation

/// What a map does about tiles it could not have (not found, an error answer, not an image, the deadline passed).
public enum MissingTiles: String, Sendable, CaseIterable {
    /// Draws each as a neutral grey square (the style's `missingTile` colour) and warns about it.
    case grey
    /// Refuses the map, naming the first missing tile and why.
    case fail
}
