import DeclutterGeometry
import DeclutterMapContent
import DeclutterPNG
import DeclutterRender
import DeclutterSupport
import Foundation

/// The maps a gesture makes, drawn side by side into one PNG strip (`declutter render --frames`).
///
/// The first frame is the map's own camera; each step (``CameraGesture/Step/steps(json:)``) is applied to the camera
/// before it with ``CameraGesture``, and its map is the next frame. Every frame is drawn by the map pipeline from one
/// annotator and one renderer, its categories given as the first frame's.
public struct GestureFrames: Sendable {
    /// The steps, in order.
    public var steps: [CameraGesture.Step]

    /// Frames for `steps`.
    public init(steps: [CameraGesture.Step]) {
        self.steps = steps
    }

    /// The frames drawn: the strip and each frame's map.
    public struct Output {
        /// The strip, PNG-encoded.
        public var strip: Data
        /// Each frame's map.
        public var frames: [DrawnMap]
        /// The strip's size in pixels.
        public var pixelWidth: Int, pixelHeight: Int
        /// How a category property's values took the style's colours; nil when they are the style's categories.
        public var categoryNote: String?

        /// The layout of every frame, `{"frames": [layout, …]}`: each as `--layout` writes one map, in the frame's own
        /// points (frame i sits i map widths right of the strip's left edge).
        public var layout: JSONValue {
            .object(JSONObject([("frames", .array(frames.map(\.layout)))]))
        }
    }

    /// The cameras of the frames: the map's, then one per step.
    ///
    /// - Throws: ``CameraError`` for a step that takes the camera out of range.
    public func cameras(from map: MapDescription) throws -> [MapCamera] {
        let start = try map.camera()
        return [start] + (try CameraGesture().cameras(from: start, steps: steps))
    }

    /// Draws every frame of `map` and lays them side by side, checking the strip's size first.
    ///
    /// - Throws: ``RenderError/sizeOutOfRange(width:height:limit:)`` for a strip wider than a surface may be; what
    ///   ``MapDescription/draw(format:renderer:)`` throws.
    public func draw(_ map: MapDescription) throws -> Output {
        let cameras = try cameras(from: map)
        let frameWidth = Int((map.width * map.scale).rounded(.up)),
            frameHeight = Int((map.height * map.scale).rounded(.up))
        guard frameWidth * cameras.count <= Surface.maximumSide else {
            throw RenderError.sizeOutOfRange(
                width: frameWidth * cameras.count, height: frameHeight, limit: Surface.maximumSide)
        }
        let (categorised, note) = try map.categorised(at: cameras[0])
        let lowest = cameras.map(\.zoom).min() ?? 0
        let annotator =
            try categorised.annotator
            ?? MapAnnotator(
                points: categorised.points, style: categorised.style, minimumZoom: Int(lowest.rounded(.down)))
        let renderer = try StaticMapRenderer(style: annotator.style)
        let strip = try Surface(imageWidth: frameWidth * cameras.count, height: frameHeight)
        let context = try DrawingContext(surface: strip)
        var frames: [DrawnMap] = []
        for (index, camera) in cameras.enumerated() {
            let frame = try categorised.draw(camera: camera, annotator: annotator, format: .png, renderer: renderer)
            context.paintPixels(frame.canvas.surface, deviceX: Double(index * frameWidth), deviceY: 0)
            frames.append(frame)
        }
        try context.checkStatus("draw the strip")
        return Output(
            strip: try PNGEncoder().encode(strip), frames: frames, pixelWidth: frameWidth * cameras.count,
            pixelHeight: frameHeight,
            categoryNote: note)
    }
}
