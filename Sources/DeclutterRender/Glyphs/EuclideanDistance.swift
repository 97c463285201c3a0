/// The squared Euclidean distance transform of a grid (Felzenszwalb and Huttenlocher, "Distance Transforms of Sampled
/// Functions", 2012): each cell becomes the least of every cell's value plus its squared distance, in linear time per
/// row and column.
enum EuclideanDistance {
    /// Transforms `grid` (row by row, `width` × `height`) in place.
    static func transform(_ grid: inout [Double], width: Int, height: Int) {
        let longest = max(width, height)
        var values = [Double](repeating: 0, count: longest), result = values
        var hull = [Int](repeating: 0, count: longest), bounds = [Double](repeating: 0, count: longest + 1)
        for column in 0..<width {
            for row in 0..<height { values[row] = grid[row * width + column] }
            lowerEnvelope(values, count: height, into: &result, hull: &hull, bounds: &bounds)
            for row in 0..<height { grid[row * width + column] = result[row] }
        }
        for row in 0..<height {
            for column in 0..<width { values[column] = grid[row * width + column] }
            lowerEnvelope(values, count: width, into: &result, hull: &hull, bounds: &bounds)
            for column in 0..<width { grid[row * width + column] = result[column] }
        }
    }

    /// The one-dimensional transform: the lower envelope of the parabolas `(q - p)² + f(p)`.
    private static func lowerEnvelope(
        _ f: [Double], count: Int, into d: inout [Double], hull v: inout [Int], bounds z: inout [Double]
    ) {
        guard count > 0 else { return }
        var k = 0
        v[0] = 0
        z[0] = -.infinity
        z[1] = .infinity
        for q in 1..<max(1, count) {
            var s = ((f[q] + Double(q * q)) - (f[v[k]] + Double(v[k] * v[k]))) / Double(2 * q - 2 * v[k])
            while s <= z[k] {
                k -= 1
                s = ((f[q] + Double(q * q)) - (f[v[k]] + Double(v[k] * v[k]))) / Double(2 * q - 2 * v[k])
            }
            k += 1
            v[k] = q
            z[k] = s
            z[k + 1] = .infinity
        }
        k = 0
        for q in 0..<count {
            while z[k + 1] < Double(q) { k += 1 }
            let offset = Double(q - v[k])
            d[q] = offset * offset + f[v[k]]
        }
    }
}
