extension PixelMatch.FastPass {
    /// ``PixelMatch/ReferencePass/antialiased(_:_:_:_:_:)`` with the work per neighbour cut: the centre pixel and the
    /// checkerboard behind it are read once, a neighbour equal to the centre is known to be 0 without arithmetic,
    /// and an opaque pair skips the blending. The neighbours are visited in the same order with the same Double
    /// operations, so the darkest and brightest (first found on a tie) and the answer are the reference's.
    ///
    /// Photographs and anti-aliased edges send most of their differing pixels here, twice.
    func antialiased(
        _ image: UnsafePointer<UInt8>, _ x1: Int, _ y1: Int,
        _ a32: UnsafePointer<UInt32>, _ b32: UnsafePointer<UInt32>
    ) -> Bool {
        let width = reference.width, height = reference.height
        let x0 = max(x1 - 1, 0), y0 = max(y1 - 1, 0), x2 = min(x1 + 1, width - 1), y2 = min(y1 + 1, height - 1)
        let index = y1 * width + x1, position = index * 4
        let words = UnsafeRawPointer(image).assumingMemoryBound(to: UInt32.self)
        let centre = words[index]
        let r1 = Double(image[position]), g1 = Double(image[position + 1]), b1 = Double(image[position + 2])
        let a1 = Double(image[position + 3])
        // The background the reference blends over depends on the centre's position only.
        var rb = 255.0, gb = 255.0, bb = 255.0
        if reference.options.checkerboard {
            rb = 48 + 159 * Double(position % 2)
            gb = 48 + 159 * Double(Int(Double(position) / 1.618033988749895) % 2)
            bb = 48 + 159 * Double(Int(Double(position) / 2.618033988749895) % 2)
        }
        var zeroes = x1 == x0 || x1 == x2 || y1 == y0 || y1 == y2 ? 1 : 0
        var darkest = 0.0, brightest = 0.0
        var darkestX = 0, darkestY = 0, brightestX = 0, brightestY = 0
        for x in x0...x2 {
            for y in y0...y2 where x != x1 || y != y1 {
                let neighbour = y * width + x
                var delta = 0.0
                if words[neighbour] != centre {
                    let m = neighbour * 4
                    let r2 = Double(image[m]), g2 = Double(image[m + 1]), b2 = Double(image[m + 2]),
                        a2 = Double(image[m + 3])
                    var dr = r1 - r2, dg = g1 - g2, db = b1 - b2
                    if a1 < 255 || a2 < 255 {
                        let da = a1 - a2
                        dr = (r1 * a1 - r2 * a2 - rb * da) / 255
                        dg = (g1 * a1 - g2 * a2 - gb * da) / 255
                        db = (b1 * a1 - b2 * a2 - bb * da) / 255
                    }
                    delta = dr * 0.29889531 + dg * 0.58662247 + db * 0.11448223
                }
                if delta == 0 {
                    zeroes += 1
                    if zeroes > 2 { return false }
                } else if delta < darkest {
                    darkest = delta
                    darkestX = x
                    darkestY = y
                } else if delta > brightest {
                    brightest = delta
                    brightestX = x
                    brightestY = y
                }
            }
        }
        if darkest == 0 || brightest == 0 { return false }
        return (hasManySiblings(a32, darkestX, darkestY) && hasManySiblings(b32, darkestX, darkestY))
            || (hasManySiblings(a32, brightestX, brightestY) && hasManySiblings(b32, brightestX, brightestY))
    }

    /// Whether a pixel has three or more identical neighbours (an image edge counts as one), as the reference
    /// decides it: its count only grows, so counting the neighbours of an inner pixel without stopping early gives
    /// the same answer.
    @inline(__always)
    func hasManySiblings(_ image: UnsafePointer<UInt32>, _ x1: Int, _ y1: Int) -> Bool {
        let width = reference.width, height = reference.height
        guard x1 > 0, y1 > 0, x1 < width - 1, y1 < height - 1 else { return reference.hasManySiblings(image, x1, y1) }
        let centre = y1 * width + x1, value = image[centre]
        let above = centre - width, below = centre + width
        var same = image[above - 1] == value ? 1 : 0
        same += image[above] == value ? 1 : 0
        same += image[above + 1] == value ? 1 : 0
        same += image[centre - 1] == value ? 1 : 0
        same += image[centre + 1] == value ? 1 : 0
        same += image[below - 1] == value ? 1 : 0
        same += image[below] == value ? 1 : 0
        same += image[below + 1] == value ? 1 : 0
        return same > 2
    }
}
