extension PixelMatch.FastPass {
    /// ``PixelMatch/ReferencePass/antialiased(_:_:_:_:_:)`` with the work per neighbour cut: the centre pixel and the
    /// checkerboard behind it are read once, a neighbour equal to the centre is known to be 0 without arithmetic,
    /// and an opaque pair skips the blending. The neighbours are visited in the same order with the same Double
    /// operations, so the darkest and brightest (first found on a tie) and the answer are the reference's.
    ///
    /// Photographs and anti-aliased edges send most of their differing pixels here, twice. An inner pixel whose
    /// neighbourhood is opaque takes ``opaqueAntialiased(_:_:_:_:_:)``, which needs no Double arithmetic at all.
    func antialiased(
        _ image: UnsafePointer<UInt8>, _ x1: Int, _ y1: Int,
        _ a32: UnsafePointer<UInt32>, _ b32: UnsafePointer<UInt32>
    ) -> Bool {
        let width = reference.width, height = reference.height
        if x1 > 0, y1 > 0, x1 < width - 1, y1 < height - 1,
            let answer = opaqueAntialiased(image, x1, y1, a32, b32)
        {
            return answer
        }
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
        return siblingsInBoth(darkestX, darkestY, a32, b32) || siblingsInBoth(brightestX, brightestY, a32, b32)
    }

    /// The anti-aliasing test of an inner pixel whose eight neighbours and itself are opaque, in integers; nil when
    /// one of them is not opaque.
    ///
    /// Between opaque pixels the reference's brightness difference is `dr * 0.29889531 + dg * 0.58662247 + db *
    /// 0.11448223` with whole `dr`, `dg`, `db` in -255...255, so it orders (and is 0) exactly as the whole number
    /// ``brightnessKey(_:)`` of the centre minus that of the neighbour: no two different colour differences in that
    /// range give the same sum of the eight-digit coefficients (a search of all of them finds none), so two sums
    /// differ by 1e-8 at least, while the Double arithmetic errs by under 1e-13. The darkest neighbour (the smallest
    /// difference, the first found on a tie) is therefore the one with the greatest key, the brightest the one with
    /// the smallest, visited in the reference's order; counting all eight equal ones instead of stopping at the third
    /// gives the same answer. Without branches on the colours, so the photograph's unpredictable neighbourhoods cost
    /// no mispredictions.
    @inline(__always)
    func opaqueAntialiased(
        _ image: UnsafePointer<UInt8>, _ x1: Int, _ y1: Int,
        _ a32: UnsafePointer<UInt32>, _ b32: UnsafePointer<UInt32>
    ) -> Bool? {
        let width = reference.width
        let words = UnsafeRawPointer(image).assumingMemoryBound(to: UInt32.self)
        let index = y1 &* width &+ x1, above = index &- width, below = index &+ width
        // The reference's order: column by column from the left, each top to bottom.
        let n0 = words[above &- 1], n1 = words[index &- 1], n2 = words[below &- 1], n3 = words[above]
        let n4 = words[below], n5 = words[above &+ 1], n6 = words[index &+ 1], n7 = words[below &+ 1]
        let word = words[index]
        let opaque = word & n0 & n1 & n2 & n3 & n4 & n5 & n6 & n7
        guard UInt32(littleEndian: opaque) >> 24 == 0xFF else { return nil }
        // Equal keys are equal colours (below), so the neighbours of brightness difference 0 are those of the centre's
        // word: with three or more the answer is no, known before any key is worked out (a differing pixel inside a
        // flat area of its image).
        var zeroes = n0 == word ? 1 : 0
        zeroes &+= (n1 == word ? 1 : 0) &+ (n2 == word ? 1 : 0) &+ (n3 == word ? 1 : 0)
        zeroes &+= (n4 == word ? 1 : 0) &+ (n5 == word ? 1 : 0) &+ (n6 == word ? 1 : 0) &+ (n7 == word ? 1 : 0)
        if zeroes > 2 { return false }
        return slopes(n0, n1, n2, n3, n4, n5, n6, n7, centre: word, x1, y1, a32, b32)
    }

    /// The rest of ``opaqueAntialiased(_:_:_:_:_:)`` once fewer than three neighbours equal the centre: whether it has
    /// both darker and brighter neighbours and the darkest or the brightest sits in a flat area of both images.
    @inline(__always)
    func slopes(
        _ n0: UInt32, _ n1: UInt32, _ n2: UInt32, _ n3: UInt32, _ n4: UInt32, _ n5: UInt32, _ n6: UInt32,
        _ n7: UInt32, centre word: UInt32, _ x1: Int, _ y1: Int,
        _ a32: UnsafePointer<UInt32>, _ b32: UnsafePointer<UInt32>
    ) -> Bool {
        let centre = Self.brightnessKey(word)
        var darkest = centre, brightest = centre, darkestNeighbour = -1, brightestNeighbour = -1
        @inline(__always) func visit(_ word: UInt32, _ neighbour: Int) {
            let key = Self.brightnessKey(word)
            darkestNeighbour = key > darkest ? neighbour : darkestNeighbour
            darkest = max(key, darkest)
            brightestNeighbour = key < brightest ? neighbour : brightestNeighbour
            brightest = min(key, brightest)
        }
        visit(n0, 0)
        visit(n1, 1)
        visit(n2, 2)
        visit(n3, 3)
        visit(n4, 4)
        visit(n5, 5)
        visit(n6, 6)
        visit(n7, 7)
        if darkestNeighbour < 0 || brightestNeighbour < 0 { return false }
        // Neighbour n is cell m = n + n / 4 of the 3×3 block counted column by column, skipping the centre (cell 4),
        // so it lies at (m / 3 - 1, m % 3 - 1) from the centre.
        let darkestCell = darkestNeighbour &+ darkestNeighbour >> 2
        if siblingsInBoth(x1 &+ darkestCell / 3 &- 1, y1 &+ darkestCell % 3 &- 1, a32, b32) { return true }
        let brightestCell = brightestNeighbour &+ brightestNeighbour >> 2
        return siblingsInBoth(x1 &+ brightestCell / 3 &- 1, y1 &+ brightestCell % 3 &- 1, a32, b32)
    }

    /// Whether the pixel at (x, y) has many siblings in both images.
    @inline(__always)
    func siblingsInBoth(_ x: Int, _ y: Int, _ a32: UnsafePointer<UInt32>, _ b32: UnsafePointer<UInt32>) -> Bool {
        Self.siblingsInBoth(x, y, a32, b32, width: reference.width, height: reference.height)
    }

    /// ``siblingsInBoth(_:_:_:_:)`` in images of the given size. Static, so that a call that is not inlined does not
    /// copy the pass.
    static func siblingsInBoth(
        _ x: Int, _ y: Int, _ a32: UnsafePointer<UInt32>, _ b32: UnsafePointer<UInt32>, width: Int, height: Int
    ) -> Bool {
        guard x > 0, y > 0, x < width &- 1, y < height &- 1 else {
            return PixelMatch.ReferencePass.hasManySiblings(a32, x, y, width: width, height: height)
                && PixelMatch.ReferencePass.hasManySiblings(b32, x, y, width: width, height: height)
        }
        let index = y &* width &+ x
        return manySiblings(a32, index, width) && manySiblings(b32, index, width)
    }

    /// ``opaqueAntialiased(_:_:_:_:_:)`` for the inner pixels `index..<index + 8` of an image up to the zero count,
    /// eight lanes at once: bit n of `opaque` is set when pixel n and its eight neighbours are opaque, and of `flat`
    /// when besides more than two neighbours equal it, which answers no. Drawn maps send most differing pixels here,
    /// and most of them (three in four on a map turned by 2°) stop at this count.
    @inline(__always)
    static func flatLanes(_ words: UnsafePointer<UInt32>, _ index: Int, _ width: Int) -> (opaque: UInt32, flat: UInt32)
    {
        @inline(__always) func load(_ offset: Int) -> SIMD8<UInt32> {
            UnsafeRawPointer(words + (index &+ offset)).loadUnaligned(as: SIMD8<UInt32>.self)
        }
        let centre = load(0)
        var alpha = centre, equal = SIMD8<UInt32>(repeating: 0)
        @inline(__always) func visit(_ offset: Int) {
            let neighbour = load(offset)
            alpha &= neighbour
            equal &+= SIMD8(repeating: 0).replacing(with: 1, where: neighbour .== centre)
        }
        visit(-width &- 1)
        visit(-1)
        visit(width &- 1)
        visit(-width)
        visit(width)
        visit(-width &+ 1)
        visit(1)
        visit(width &+ 1)
        // Kept as lanes of 0 or 1, not masks (masks combined with `.&` went through memory lane by lane): opaque when the alpha byte (the high one of a little-endian
        // word, the only kind that reaches here) plus 1 carries into bit 8; flat when 2 minus the count wraps.
        let opaque = (alpha &>> 24 &+ 1) &>> 8
        let flat = opaque & (SIMD8(repeating: 2) &- equal) &>> 31
        return (bits(opaque), bits(flat))
    }

    /// Lanes of 0 or 1 as bits, lane n in bit n.
    @inline(__always)
    static func bits(_ lanes: SIMD8<UInt32>) -> UInt32 {
        (lanes &<< SIMD8<UInt32>(0, 1, 2, 3, 4, 5, 6, 7)).wrappedSum()
    }

    /// ``slopes(_:_:_:_:_:_:_:_:centre:_:_:_:_:)`` of the inner pixel (x1, y1) of `words`, its neighbours read.
    @inline(__always)
    func slopes(
        _ words: UnsafePointer<UInt32>, _ x1: Int, _ y1: Int, _ a32: UnsafePointer<UInt32>,
        _ b32: UnsafePointer<UInt32>
    ) -> Bool {
        let width = reference.width, index = y1 &* width &+ x1, above = index &- width, below = index &+ width
        return slopes(
            words[above &- 1], words[index &- 1], words[below &- 1], words[above], words[below], words[above &+ 1],
            words[index &+ 1], words[below &+ 1], centre: words[index], x1, y1, a32, b32)
    }

    /// An opaque pixel's brightness as a whole number: its red, green and blue times pixelmatch's brightness
    /// weights taken to eight decimals as whole numbers (under 2^35, so no overflow).
    @inline(__always)
    static func brightnessKey(_ word: UInt32) -> Int {
        let rgba = Int(UInt32(littleEndian: word))
        return (rgba & 0xFF) &* 29_889_531 &+ (rgba >> 8 & 0xFF) &* 58_662_247 &+ (rgba >> 16 & 0xFF) &* 11_448_223
    }

    /// Whether the pixel at `index`, on no edge of its image, has three or more identical neighbours, as the reference
    /// decides it: its count only grows, so counting all eight without stopping early gives the same answer.
    @inline(__always)
    static func manySiblings(_ image: UnsafePointer<UInt32>, _ index: Int, _ width: Int) -> Bool {
        let value = image[index], above = index &- width, below = index &+ width
        var same = image[above &- 1] == value ? 1 : 0
        same &+= image[above] == value ? 1 : 0
        same &+= image[above &+ 1] == value ? 1 : 0
        same &+= image[index &- 1] == value ? 1 : 0
        same &+= image[index &+ 1] == value ? 1 : 0
        same &+= image[below &- 1] == value ? 1 : 0
        same &+= image[below] == value ? 1 : 0
        same &+= image[below &+ 1] == value ? 1 : 0
        return same > 2
    }
}
