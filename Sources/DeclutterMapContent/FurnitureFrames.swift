import DeclutterPlacement

/// Where a map's compass, scale bar and attribution stand, in map points, known before any marker is placed: their
/// text is measured first, so that markers keep clear of them as they keep clear of the legend, and the painter draws
/// them at these frames.
public struct FurnitureFrames: Sendable {
    /// A box in map points: top-left corner and size.
    public typealias Frame = (x: Double, y: Double, width: Double, height: Double)

    /// The scale bar: the box it covers (halo and label included), its bar's length in points and its label.
    public struct ScaleBar: Sendable {
        /// The box the bar and its label cover.
        public var frame: Frame
        /// The bar's length in points: a round distance (1, 2 or 5 × 10ⁿ m) at the map's centre.
        public var length: Double
        /// The distance, `500 m` or `2 km`.
        public var label: String

        /// Creates a scale bar's layout.
        public init(frame: Frame, length: Double, label: String) {
            self.frame = frame
            self.length = length
            self.label = label
        }
    }

    /// The attribution: its text and its pale box in the bottom-right corner.
    public struct Attribution: Sendable {
        /// The box, text and padding included.
        public var frame: Frame
        /// The text printed.
        public var text: String
        /// Its font size in points: 9, less on a map too narrow for it (down to 6).
        public var fontSize: Double

        /// Creates an attribution's layout.
        public init(frame: Frame, text: String, fontSize: Double = 9) {
            self.frame = frame
            self.text = text
            self.fontSize = fontSize
        }
    }

    /// The north arrow's disc; nil when none is drawn.
    public var compass: Frame?
    /// The scale bar; nil when none is drawn (or the map has no finite scale).
    public var scaleBar: ScaleBar?
    /// The attribution; nil when none is printed.
    public var attribution: Attribution?

    /// Frames for the pieces given; nil ones are not drawn.
    public init(compass: Frame? = nil, scaleBar: ScaleBar? = nil, attribution: Attribution? = nil) {
        self.compass = compass
        self.scaleBar = scaleBar
        self.attribution = attribution
    }

    /// The frames of the pieces that are drawn.
    public var drawn: [Frame] { [compass, scaleBar?.frame, attribution?.frame].compactMap { $0 } }

    /// The pieces that are drawn, each with its name as the layout JSON and messages give it (`compass`, `scale bar`,
    /// `attribution`) and the shape markers keep clear of: the compass's disc, the others' boxes, each grown by
    /// `margin` points.
    public func reserved(margin: Double) -> [(name: String, shape: CollisionGrid.Shape)] {
        var shapes: [(name: String, shape: CollisionGrid.Shape)] = []
        if let compass {
            shapes.append(
                (
                    "compass",
                    .circle(
                        x: compass.x + compass.width / 2, y: compass.y + compass.height / 2,
                        radius: compass.width / 2 + margin)
                ))
        }
        for case let (name, frame?) in [("scale bar", scaleBar?.frame), ("attribution", attribution?.frame)] {
            shapes.append(
                (
                    name,
                    .box(
                        minX: frame.x - margin, minY: frame.y - margin, maxX: frame.x + frame.width + margin,
                        maxY: frame.y + frame.height + margin)
                ))
        }
        return shapes
    }
}
