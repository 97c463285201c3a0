import DeclutterCore
import DeclutterPNG
import DeclutterRender
import Foundation

/// `declutter render --frames`: the maps a gesture makes, drawn side by side into one PNG strip.
///
/// The first frame is the map's own camera; each step of the list (``CameraGesture/Step/steps(json:)``) is applied to
/// the camera before it with ``CameraGesture``, and its map is the next frame. Every frame is drawn by ``MapJob`` as
/// `render` draws one map, from one annotator and one renderer.
struct GestureFrames {
    /// The steps, in order.
    var steps: [CameraGesture.Step]

    /// Reads the steps of a `--frames` file.
    ///
    /// - Throws: ``CommandError`` naming the file, the step and the field at fault.
    static func read(_ path: String) throws -> GestureFrames {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw CommandError("--frames \(path): cannot be read (\(error.localizedDescription))")
        }
        do {
            return GestureFrames(steps: try CameraGesture.Step.steps(json: data))
        } catch let error as CameraError {
            throw CommandError("--frames \(path): \(error.message)")
        }
    }

    /// The frames drawn: the strip and each frame's map.
    struct Output {
        var strip: Data
        var frames: [MapJob.Output]
        /// The strip's size in pixels.
        var pixelWidth: Int, pixelHeight: Int
    }

    /// The cameras of the frames: the job's, then one per step.
    func cameras(from job: MapJob) throws -> [MapCamera] {
        let start = try job.camera()
        do {
            return [start] + (try CameraGesture().cameras(from: start, steps: steps))
        } catch let error as CameraError {
            throw CommandError("--frames: \(error.message)")
        }
    }

    /// Draws every frame of `job` at `scale` and lays them side by side, checking the strip's size first.
    func draw(_ job: MapJob, scale: Double) throws -> Output {
        let cameras = try cameras(from: job)
        let frameWidth = Int((job.width * scale).rounded(.up)), frameHeight = Int((job.height * scale).rounded(.up))
        guard frameWidth * cameras.count <= Surface.maximumSide else {
            throw CommandError("--frames: \(cameras.count) frames of \(frameWidth) px make a strip \(frameWidth * cameras.count) px wide, "
                               + "over the limit of \(Surface.maximumSide) px; use fewer steps or a smaller --size")
        }
        let lowest = cameras.map(\.zoom).min() ?? 0
        let annotator = try MapAnnotator(points: job.points, style: job.style, minimumZoom: Int(lowest.rounded(.down)))
        let renderer = try StaticMapRenderer(style: job.style)
        let strip = try Surface(imageWidth: frameWidth * cameras.count, height: frameHeight)
        let context = try DrawingContext(surface: strip)
        var frames: [MapJob.Output] = []
        for (index, camera) in cameras.enumerated() {
            var frame = job
            frame.center = camera.center
            frame.zoom = camera.zoom
            frame.bearing = camera.bearing
            frame.pitch = camera.pitch
            let output = try frame.run(format: .png, annotator: annotator, renderer: renderer)
            context.paintPixels(output.canvas.surface, deviceX: Double(index * frameWidth), deviceY: 0)
            frames.append(output)
        }
        try context.checkStatus("draw the strip")
        return Output(strip: try PNGEncoder().encode(strip), frames: frames, pixelWidth: frameWidth * cameras.count, pixelHeight: frameHeight)
    }

    /// The layout of every frame, `{"frames": [layout, …]}`: each as `--layout` writes one map, in the frame's own
    /// points (frame i sits i map widths right of the strip's left edge).
    static func layout(_ output: Output, points: [ClusterPoint]) -> JSONValue {
        .object(JSONObject([("frames", .array(output.frames.map { frame in
            MapLayout.json(camera: frame.camera, map: frame.map, points: points, legend: frame.legend)
        }))]))
    }
}
