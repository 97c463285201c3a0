import ArgumentParser
import DeclutterCommandLine

/// A tile `z/x/y` (`--tile`): z in the map camera's zoom range, x and y in 0..<2^z.
struct TileArgument: ExpressibleByArgument, Equatable {
    var z: Int
    var x: Int
    var y: Int

    init(z: Int, x: Int, y: Int) {
        self.z = z
        self.x = x
        self.y = y
    }

    init?(argument: String) {
        let parts = argument.split(separator: "/", omittingEmptySubsequences: false).map { Int($0) }
        guard parts.count == 3, let z = parts[0], let x = parts[1], let y = parts[2], ClusterCommand.zooms.contains(z),
            (0..<(1 << z)).contains(x), (0..<(1 << z)).contains(y)
        else { return nil }
        self.init(z: z, x: x, y: y)
    }

    var defaultValueDescription: String { "\(z)/\(x)/\(y)" }
}
