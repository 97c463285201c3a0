import DeclutterMap
import DeclutterMapContent
import DeclutterPlacement
import DeclutterRender
import DeclutterStyle
import DeclutterTesting
import Foundation

/// Times one placement pass over N 40×40 views with mixed priorities and modes, uniform over 4096×4096, by index
/// as maps place their views; or, crowded, N views of one clustering identifier in a 300×300 square.
struct PlacementBenchmark {
    var annotations: Int
    /// Whether the views crowd: all `defaultHigh` 40×40 boxes of one clustering group, uniform over a 300×300
    /// square in the middle of a 1000×1000 viewport, so that nearly every view collides with hundreds of others.
    var crowded = false

    func run() -> (milliseconds: Double, visible: Int) {
        crowded ? runCrowded() : runUniform()
    }

    private func runCrowded() -> (milliseconds: Double, visible: Int) {
        var generator = SeededRandom(seed: 11)
        let views = (0..<annotations).map { _ in
            PlacementView(
                x: 350 + generator.next() * 300, y: 350 + generator.next() * 300, width: 40, height: 40,
                displayPriority: .defaultHigh, clusteringGroup: 0)
        }
        // The median of 5: a pass takes long enough that fewer runs vary less.
        return median(of: 5) { PlacementEngine.place(views, width: 1000, height: 1000) }
    }

    private func runUniform() -> (milliseconds: Double, visible: Int) {
        var generator = SeededRandom(seed: 7)
        func random() -> Double { generator.next() }
        let priorities: [DisplayPriority] = [.required, .defaultHigh, .defaultLow, DisplayPriority(500)]
        let modes: [CollisionMode] = [.rectangle, .circle, .circle, .none]
        let views = (0..<annotations).map { index in
            PlacementView(
                x: random() * 4096, y: random() * 4096, width: 40, height: 40,
                collisionMode: modes[index % 4 == 3 && random() < 0.9 ? 0 : index % 4],
                displayPriority: priorities[Int(random() * 4) % 4 == 0 && random() < 0.95 ? 1 : Int(random() * 4) % 4])
        }
        _ = PlacementEngine.place(views, width: 4096, height: 4096)  // warm
        // The median of 11: on a shared machine single runs vary by a fifth.
        return median(of: 11) { PlacementEngine.place(views, width: 4096, height: 4096) }
    }

    /// The median time of `runs` placements in milliseconds, and how many views the last one showed.
    private func median(of runs: Int, _ place: () -> Placement) -> (milliseconds: Double, visible: Int) {
        var times: [Double] = []
        var visible = 0
        for _ in 0..<runs {
            let start = DispatchTime.now().uptimeNanoseconds
            let result = place()
            times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            visible = result.visible.filter { $0 }.count
        }
        times.sort()
        return (times[times.count / 2], visible)
    }
}
