import DeclutterTesting
import Testing

/// The fast engine against the reference on seeded random pairs: the same counts and the same diff bytes, with and
/// without masks, for every option that changes the work.
@Suite struct PixelMatchEngineTests {
    /// SplitMix64: the same pairs on every run and platform.
    struct Seeded {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
    }

    /// A picture of flat rectangles (some semi-transparent, so the checkerboard counts) and its changed twin: moved
    /// and recoloured rectangles, a sprinkle of single-pixel noise and a few alpha changes.
    static func pair(width: Int, height: Int, seed: UInt64) -> (RGBAImage, RGBAImage) {
        var random = Seeded(state: seed)
        var first = [UInt8](repeating: 255, count: width * height * 4)
        func fill(_ pixels: inout [UInt8], _ random: inout Seeded, shift: Int) {
            let x = random.below(width), y = random.below(height), w = 1 + random.below(max(width / 3, 1)),
                h = 1 + random.below(max(height / 3, 1))
            let colour = [
                UInt8(random.below(256)), UInt8(random.below(256)), UInt8(random.below(256)),
                random.below(4) == 0 ? UInt8(random.below(256)) : 255,
            ]
            for row in y..<min(y + h, height) {
                for column in min(x + shift, width)..<min(x + w + shift, width) {
                    for channel in 0..<4 { pixels[(row * width + column) * 4 + channel] = colour[channel] }
                }
            }
        }
        for _ in 0..<30 { fill(&first, &random, shift: 0) }
        var second = first
        for _ in 0..<3 { fill(&second, &random, shift: random.below(3)) }
        for _ in 0..<(width * height / 200) {
            let index = random.below(width * height) * 4 + random.below(4)
            second[index] = UInt8(random.below(256))
        }
        return (
            RGBAImage(width: width, height: height, pixels: first),
            RGBAImage(width: width, height: height, pixels: second)
        )
    }

    static let sizes = [(1, 1), (17, 3), (64, 64), (300, 260), (1031, 97)]

    @Test(arguments: 0..<20)
    func fastEqualsReference(seed: Int) {
        let (width, height) = Self.sizes[seed % Self.sizes.count]
        let (first, second) = Self.pair(width: width, height: height, seed: UInt64(seed))
        var mask = PixelMask(width: width, height: height)
        mask.ignore(x: width / 4, y: height / 3, width: width / 3 + 1, height: height / 4 + 1)
        mask.ignore(x: 0, y: 0, width: 3, height: height)
        let options: [PixelMatch] = [
            PixelMatch(), PixelMatch(threshold: 0.05), PixelMatch(threshold: 0), PixelMatch(includeAntialiasing: true),
            PixelMatch(alpha: 0.7, alternateDiffColor: .init(0, 0, 255), diffMask: seed % 2 == 0),
            PixelMatch(checkerboard: false),
        ]
        for base in options {
            var reference = base, fast = base
            reference.engine = .reference
            fast.engine = .fast
            for mask in [nil, mask] {
                let expected = reference.compare(first, second, mask: mask),
                    actual = fast.compare(first, second, mask: mask)
                #expect(actual.mismatched == expected.mismatched, "\(width)×\(height) seed \(seed) \(base)")
                #expect(actual.diff == expected.diff, "\(width)×\(height) seed \(seed) \(base): the diff images differ")
                #expect(fast.countMismatched(first, second, mask: mask) == expected.mismatched)
            }
        }
    }

    /// Opaque pictures of flat blocks and noise, in few colours so that neighbours often tie in brightness or
    /// repeat: the fast engine's whole-number anti-aliasing test must pick the same darkest and brightest
    /// neighbours as the reference's Double one.
    @Test(arguments: 0..<6)
    func opaqueNoiseEqualsReference(seed: Int) {
        var random = Seeded(state: UInt64(100 + seed))
        let width = 97, height = 61, levels: [UInt8] = [0, 1, 2, 90, 91, 254, 255]
        // Flat 5×5 blocks (the siblings the test looks for) with two pixels in five of any colour of the levels.
        let blocks = (0..<(width / 5 + 1) * (height / 5 + 1)).map { _ in
            (0..<3).map { _ in levels[random.below(levels.count)] }
        }
        var first = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let block = blocks[y / 5 * (width / 5 + 1) + x / 5], noisy = random.below(5) < 2
                for channel in 0..<3 {
                    first[(y * width + x) * 4 + channel] = noisy ? levels[random.below(levels.count)] : block[channel]
                }
            }
        }
        var second = first
        for index in 0..<width * height where random.below(3) == 0 {
            second[index * 4 + random.below(3)] = levels[random.below(levels.count)]
        }
        let one = RGBAImage(width: width, height: height, pixels: first)
        let two = RGBAImage(width: width, height: height, pixels: second)
        for threshold in [0, 0.05, 0.1] {
            let expected = PixelMatch(threshold: threshold, engine: .reference).compare(one, two)
            let actual = PixelMatch(threshold: threshold).compare(one, two)
            let antialiasing = expected.diff.pixels.withUnsafeBytes { bytes in
                (0..<width * height).filter { bytes.load(fromByteOffset: $0 * 4, as: UInt32.self) == 0xFF00_FFFF }
                    .count
            }
            #expect(antialiasing > 0, "seed \(seed): no pixel was taken for anti-aliasing, so the test tests nothing")
            #expect(actual.mismatched == expected.mismatched, "seed \(seed), threshold \(threshold)")
            #expect(actual.diff == expected.diff, "seed \(seed), threshold \(threshold): the diff images differ")
        }
    }

    /// Thresholds set at a colour difference's own distance, where Float lanes and pixelmatch's Double disagree
    /// about which side it lies on: the fast engine must judge it as the reference does. The pixel sits in a flat
    /// grey row, so the eight lanes starting at it are judged together.
    @Test func distancesAtTheThresholdAreJudgedAsInDouble() {
        func delta<F: BinaryFloatingPoint>(_ dr: F, _ dg: F, _ db: F) -> F {
            let y = dr * 0.29889531 + dg * 0.58662247 + db * 0.11448223
            let i = dr * 0.59597799 - dg * 0.27417610 - db * 0.32180189
            let q = dr * 0.21147017 - dg * 0.52261711 + db * 0.31114694
            return 0.5053 * y * y + 0.299 * i * i + 0.1957 * q * q
        }
        var random = Seeded(state: 42)
        var disagreements = 0
        for _ in 0..<40 {
            let dr = random.below(255) - 127, dg = random.below(255) - 127, db = random.below(255) - 127
            let distance = delta(Double(dr), Double(dg), Double(db))
            guard distance > 0 else { continue }
            let threshold = (distance / 35215).squareRoot(), maximum = 35215 * threshold * threshold
            if (distance > maximum) != (delta(Float(dr), Float(dg), Float(db)) > Float(maximum)) { disagreements += 1 }
            var grey = [UInt8](repeating: 128, count: 16 * 4)
            for index in 0..<16 { grey[index * 4 + 3] = 255 }
            var changed = grey
            changed[16] = UInt8(128 + dr)
            changed[17] = UInt8(128 + dg)
            changed[18] = UInt8(128 + db)
            let one = RGBAImage(width: 16, height: 1, pixels: changed),
                two = RGBAImage(width: 16, height: 1, pixels: grey)
            let expected = PixelMatch(threshold: threshold, engine: .reference).compare(one, two)
            let actual = PixelMatch(threshold: threshold).compare(one, two)
            #expect(actual.mismatched == expected.mismatched, "difference (\(dr), \(dg), \(db))")
            #expect(actual.diff == expected.diff, "difference (\(dr), \(dg), \(db))")
        }
        #expect(disagreements > 0, "no threshold where Float and Double disagree, so the test tests nothing")
    }

    /// The faded grey of every alpha under 4,096 colours (each channel at sixteen levels, 0 and 255 among them) and
    /// five fadings: the fast engine works it out eight pixels at a time from the bits of its Doubles, and must
    /// write the reference's bytes, whose Double arithmetic truncates.
    @Test func greysOfEveryColourAndAlphaAreTheReferences() {
        let levels = (0..<16).map { UInt8($0 * 17) }
        var pixels = [UInt8]()
        pixels.reserveCapacity(256 * 4096 * 4)
        for red in levels {
            for green in levels {
                for blue in levels {
                    for alpha in 0...255 { pixels += [red, green, blue, UInt8(alpha)] }
                }
            }
        }
        let image = RGBAImage(width: 256, height: 4096, pixels: pixels)
        for alpha in [0, 0.1, 0.37, 0.5, 1] {
            let expected = PixelMatch(alpha: alpha, engine: .reference).compare(image, image).diff
            #expect(PixelMatch(alpha: alpha).compare(image, image).diff == expected, "alpha \(alpha)")
        }
    }

    @Test func identicalImagesAreFadedOrHatched() {
        let (image, _) = Self.pair(width: 300, height: 260, seed: 7)
        var mask = PixelMask(width: 300, height: 260)
        mask.ignore(x: 10, y: 10, width: 40, height: 20)
        for engine in PixelMatch.Engine.allCases {
            let (mismatched, diff) = PixelMatch(engine: engine).compare(image, image, mask: mask)
            #expect(mismatched == 0)
            // (10, 10) lies on a stripe ((10 + 10) & 7 = 4 is not < 3, but (11, 10) gives 5 and (14, 10) gives 0).
            #expect(diff[14, 10] == [0, 128, 255, 255])
            // Between stripes: the faded original, as without a mask.
            #expect(diff[10, 10] == PixelMatch(engine: engine).compare(image, image).diff[10, 10])
            #expect(
                PixelMatch(diffMask: true, engine: engine).compare(image, image, mask: mask).diff[10, 10] == [
                    0, 0, 0, 0,
                ])
        }
    }

    @Test func drawingIntoAReusedImageGivesTheSameDiff() {
        let (first, second) = Self.pair(width: 300, height: 260, seed: 5)
        var buffer = RGBAImage(width: 1, height: 1, pixels: [1, 2, 3, 4])
        // The second option set draws over the first one's diff: a mask must not keep any of it.
        for options in [PixelMatch(), PixelMatch(diffMask: true), PixelMatch(engine: .reference)] {
            let expected = options.compare(first, second)
            #expect(expected.mismatched > 0)
            #expect(options.compare(first, second, into: &buffer) == expected.mismatched)
            #expect(buffer == expected.diff)
        }
    }

    @Test func countingStopsAboveTheLimit() {
        let (first, second) = Self.pair(width: 1031, height: 97, seed: 3)
        let full = PixelMatch().countMismatched(first, second)
        #expect(full == PixelMatch(engine: .reference).countMismatched(first, second))
        #expect(full > 100)
        #expect(PixelMatch().countMismatched(first, second, stoppingAbove: 100) > 100)
        #expect(PixelMatch().countMismatched(first, second, stoppingAbove: full) == full)
        #expect(PixelMatch().countMismatched(first, second, stoppingAbove: full - 1) >= full)
    }

    @Test func passesStopsEarlyWithTheSameVerdict() throws {
        let (first, second) = Self.pair(width: 300, height: 260, seed: 11)
        let full = PixelMatch().countMismatched(first, second)
        for limit in [0, full - 1, full, full + 1] {
            let comparison = ImageComparison(maximumDifferingPixels: limit)
            #expect(try comparison.passes(first, second) == comparison.compare(first, second).passes)
            #expect(try comparison.passes(first, second) == (full <= limit))
        }
        let ratio = Double(full) / Double(300 * 260)
        #expect(try ImageComparison(maximumDifferingRatio: ratio).passes(first, second))
        #expect(try !ImageComparison(maximumDifferingRatio: ratio * 0.999).passes(first, second))
    }
}
