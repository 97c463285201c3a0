import DeclutterSupport
import Dispatch
import Synchronization

extension PixelMatch {
    /// The same comparison as ``ReferencePass``, faster; tests check that both give the same counts and diff images.
    ///
    /// Screenshots that differ mostly hold long runs of equal pixels, so the work is finding those runs and drawing
    /// their faded background: equal pixels are found sixteen at a time with vector compares, a run's grey is
    /// worked out once per distinct colour (the same exact arithmetic, so the same bytes), and only the pixels that
    /// differ go through pixelmatch's colour distance and anti-aliasing test. Where many differ (a moved picture, a
    /// photograph) they are taken eight at a time: their distances judged in Float lanes (``Verdicts``), their greys
    /// worked out in Double lanes, and the first step of the anti-aliasing test done for all eight
    /// (``flatLanes(_:_:_:)``); what the lanes cannot decide exactly goes through the reference's arithmetic. The rows
    /// are split into bands on every core: each band reads both images and writes only its own rows of the diff.
    /// Without a diff image and with a limit, the bands stop once together they have counted more than the limit.
    struct FastPass: @unchecked Sendable {
        // @unchecked: the pointers are read by every band and written only in each band's own rows.
        let reference: ReferencePass

        init(_ reference: ReferencePass) { self.reference = reference }

        /// Below this many pixels one thread does it all: handing out bands costs more than it saves.
        static let smallestParallelImage = 1 << 16
        /// Lanes above the threshold from which their zero counts are done eight at once.
        static let denseLanes = 3
        /// Rows per band at least, so that a band's work dwarfs the cost of scheduling it.
        static let smallestBand = 16

        func run(limit: Int?) -> Int {
            let width = reference.width, height = reference.height
            let bands =
                width * height < Self.smallestParallelImage
                ? 1 : min(Cores.available * 4, max(1, height / Self.smallestBand))
            let counter = limit.map { _ in Counter() }
            let counts = concurrentMap(bands) { band in
                let rows = height * band / bands..<height * (band + 1) / bands
                var count = 0
                var background = Background(fading: reference.options.alpha)
                for y in rows {
                    count += self.row(y, &background)
                    if let counter, let limit {
                        // Counting only: once more than `limit` differ, the answer is known.
                        if counter.add(count) > limit { return count }
                        count = 0
                    }
                }
                return count
            }
            if let counter { return counter.total }
            return counts.reduce(0, +)
        }

        /// Compares row `y`, drawing it when there is a diff image; returns the differing pixels counted.
        func row(_ y: Int, _ background: inout Background) -> Int {
            let base = y * reference.width
            guard let mask = reference.mask else { return run(base, base + reference.width, y, &background) }
            var count = 0, x = 0
            for ignored in mask.runs(row: y) {
                count += run(base + x, base + ignored.lowerBound, y, &background)
                if let output = reference.output {
                    for column in ignored { reference.drawIgnored(column, y, output) }
                }
                x = ignored.upperBound
            }
            return count + run(base + x, base + reference.width, y, &background)
        }

        /// Compares pixels `start..<end` (indices into the images, all in row `y`).
        ///
        /// After each run of equal pixels come eight pixels whose colour distances are judged together in
        /// ``Verdicts`` when all are opaque; the rest, and lanes too near the threshold to judge in Float, take
        /// pixelmatch's Double distance one by one.
        func run(_ start: Int, _ end: Int, _ y: Int, _ background: inout Background) -> Int {
            let a32 = reference.words1, b32 = reference.words2
            let output = reference.output, drawsEqual = output != nil && !reference.options.diffMask
            let maximumDelta = reference.maximumDelta, floatMaximum = Float(maximumDelta)
            var count = 0, index = start
            while index < end {
                let different = Self.firstDifference(a32, b32, from: index, to: end)
                if drawsEqual, let output { background.draw(index..<different, of: reference, into: output) }
                guard different < end else { break }
                if different + 8 <= end {
                    let a8 = Background.load8(a32 + different), b8 = Background.load8(b32 + different)
                    if let verdicts = Verdicts(a8, b8, maximumDelta: floatMaximum) {
                        // Every lane is drawn grey first; those above the threshold are drawn over below.
                        if drawsEqual, let output {
                            if let lanes = background.fading {
                                UnsafeMutableRawPointer(output + different).storeBytes(
                                    of: Background.greys(a8, fading: lanes), as: SIMD8<UInt32>.self)
                            } else {
                                background.draw(different..<different + 8, of: reference, into: output)
                            }
                        }
                        let lanes = verdicts.aboveLanes
                        if lanes != 0 { count += above(lanes: lanes, from: different, y) }
                        var unsure = verdicts.unsureLanes
                        while unsure != 0 {
                            count += judged(different + unsure.trailingZeroBitCount, y, maximumDelta, &background)
                            unsure &= unsure - 1
                        }
                        index = different + 8
                        continue
                    }
                }
                count += judged(different, y, maximumDelta, &background)
                index = different + 1
            }
            return count
        }

        /// Compares one differing pixel by pixelmatch's Double distance; returns 1 when it counts.
        @inline(__always)
        func judged(_ index: Int, _ y: Int, _ maximumDelta: Double, _ background: inout Background) -> Int {
            let position = index * 4
            let delta = reference.colorDelta(reference.one, reference.two, position, position, brightnessOnly: false)
            if abs(delta) > maximumDelta { return above(index, y, darker: delta < 0) }
            if let output = reference.output, !reference.options.diffMask {
                background.draw(index..<index + 1, of: reference, into: output)
            }
            return 0
        }

        /// A pixel whose distance is above the threshold: anti-aliasing in either image is drawn and not counted,
        /// anything else is drawn in the diff colour (the alternate one when it got `darker`) and counted.
        @inline(__always)
        func above(_ index: Int, _ y: Int, darker: @autoclosure () -> Bool) -> Int {
            let x = index - y * reference.width
            let antialiased =
                !reference.options.includeAntialiasing
                && (antialiased(reference.one, x, y, reference.words1, reference.words2)
                    || antialiased(reference.two, x, y, reference.words2, reference.words1))
            return mark(index, antialiased: antialiased, darker: darker())
        }

        /// ``above(_:_:darker:)`` for the pixels `start + n` for each bit n of `lanes`, with the zero count of the
        /// anti-aliasing test done for all eight at once (``flatLanes(_:_:_:)``) where the pixels are inner.
        @inline(__always)
        func above(lanes: UInt32, from start: Int, _ y: Int) -> Int {
            let width = reference.width, x = start &- y &* width
            let a32 = reference.words1, b32 = reference.words2
            var lanes = lanes, count = 0
            // A few lanes (a photograph's) are tested one by one: the eight-lane count pays off where most lanes
            // need it.
            guard !reference.options.includeAntialiasing, lanes.nonzeroBitCount >= Self.denseLanes, x >= 1,
                x &+ 8 < width, y >= 1, y &+ 1 < reference.height
            else {
                while lanes != 0 {
                    let pixel = start &+ lanes.trailingZeroBitCount
                    count &+= above(pixel, y, darker: Self.brighter(a32[pixel], than: b32[pixel]))
                    lanes &= lanes &- 1
                }
                return count
            }
            let one = Self.flatLanes(a32, start, width), two = Self.flatLanes(b32, start, width)
            @inline(__always) func test(
                _ bit: UInt32, _ lanes: (opaque: UInt32, flat: UInt32), _ image: UnsafePointer<UInt8>,
                _ words: UnsafePointer<UInt32>, _ x: Int
            ) -> Bool {
                if lanes.opaque & bit == 0 { return self.antialiased(image, x, y, a32, b32) }
                return lanes.flat & bit == 0 && slopes(words, x, y, a32, b32)
            }
            while lanes != 0 {
                let lane = lanes.trailingZeroBitCount, bit = UInt32(1) &<< lane, pixel = start &+ lane
                let column = x &+ lane
                let antialiased =
                    test(bit, one, reference.one, a32, column) || test(bit, two, reference.two, b32, column)
                count &+= mark(pixel, antialiased: antialiased, darker: Self.brighter(a32[pixel], than: b32[pixel]))
                lanes &= lanes &- 1
            }
            return count
        }

        /// Draws a pixel above the threshold: anti-aliasing in the anti-aliasing colour (not in a mask), anything
        /// else in the diff colour, the alternate one when it got `darker` (asked only when there is one); returns 1
        /// when it counts.
        @inline(__always)
        func mark(_ index: Int, antialiased: Bool, darker: @autoclosure () -> Bool) -> Int {
            let options = reference.options
            if antialiased {
                if let output = reference.output, !options.diffMask {
                    output[index] = ReferencePass.word(options.antialiasingColor)
                }
                return 0
            }
            if let output = reference.output {
                let colour = options.alternateDiffColor.map { darker() ? $0 : options.diffColor } ?? options.diffColor
                output[index] = ReferencePass.word(colour)
            }
            return 1
        }

        /// Whether an opaque pixel is brighter than another, as the sign of pixelmatch's brightness difference says
        /// (the whole-number keys order exactly as that difference, see ``brightnessKey(_:)``); pixelmatch marks the
        /// pixel as darker in the second image then.
        @inline(__always)
        static func brighter(_ first: UInt32, than second: UInt32) -> Bool {
            brightnessKey(first) > brightnessKey(second)
        }

        /// The first index in `start..<end` where the images' words differ, or `end`.
        @inline(__always)
        static func firstDifference(
            _ a32: UnsafePointer<UInt32>, _ b32: UnsafePointer<UInt32>, from start: Int, to end: Int
        ) -> Int {
            var index = start
            while index + 16 <= end {
                let left = UnsafeRawPointer(a32 + index).loadUnaligned(as: SIMD16<UInt32>.self)
                let right = UnsafeRawPointer(b32 + index).loadUnaligned(as: SIMD16<UInt32>.self)
                // `any(.!=)` compiles to vector compares and one mask test; `!=` on the vectors compared lane by lane.
                if any(left .!= right) { break }
                index += 16
            }
            while index < end, a32[index] == b32[index] { index += 1 }
            return index
        }

        /// The faded-grey background of equal pixels, its arithmetic done once per run of one colour and remembered
        /// for the last few colours, since it depends on the first image's pixel alone.
        struct Background {
            /// A small direct-mapped memory: a pixel word in the high half, its grey word in the low half; 0 is an
            /// empty slot, as a grey word is never 0 (its alpha is 255).
            var slots = [UInt64](repeating: 0, count: 4096)
            /// The fading in lanes for ``greys(_:fading:)``, or nil where lanes cannot draw: outside 0…1 (pixelmatch's
            /// range, and where a grey can leave 0…255) and on big-endian machines.
            let fading: SIMD4<Double>?

            /// A background for a comparison that fades the first image by `alpha`.
            init(fading alpha: Double) {
                #if _endian(big)
                    fading = nil
                #else
                    fading = (0...1).contains(alpha) ? SIMD4(repeating: alpha) : nil
                #endif
            }

            /// Draws `indices`: eight pixels of one colour begin a run, whose grey comes from the memory (or is worked
            /// out once) and whose end is found eight pixels at a time before it is filled at once; eight pixels of
            /// several colours (a photograph) get their greys worked out together in ``greys(_:fading:)``.
            mutating func draw(_ indices: Range<Int>, of pass: ReferencePass, into output: UnsafeMutablePointer<UInt32>)
            {
                let a32 = pass.words1, end = indices.upperBound
                var index = indices.lowerBound
                while index < end {
                    let word = a32[index]
                    let repeated = SIMD8<UInt32>(repeating: word)
                    if let fading, index &+ 8 <= end {
                        let words = Self.load8(a32 + index)
                        if any(words .!= repeated) {
                            UnsafeMutableRawPointer(output + index).storeBytes(
                                of: Self.greys(words, fading: fading), as: SIMD8<UInt32>.self)
                            index &+= 8
                            continue
                        }
                    }
                    let grey = lookUp(word, index, pass)
                    var runEnd = index + 1
                    while runEnd + 8 <= end, all(Self.load8(a32 + runEnd) .== repeated) { runEnd += 8 }
                    while runEnd < end, a32[runEnd] == word { runEnd += 1 }
                    (output + index).update(repeating: grey, count: runEnd - index)
                    index = runEnd
                }
            }

            /// ``ReferencePass/greyWord(_:)`` of eight little-endian words at once: the same Double operations in the
            /// same order, lane by lane, so the same bytes.
            ///
            /// The words are taken two to a 64-bit lane (the even pixels in the low halves, the odd in the high), and
            /// every conversion is made from the bits, since the library's conversions of whole vectors are generic
            /// code that the compiler takes apart lane by lane: a byte b becomes the Double 2^52 + b by setting it as
            /// the mantissa of 2^52, less 2^52; a Double v in 0…2^31 is rounded to a whole number by adding 2^52 (the
            /// mantissa then holds it) and stepped down where that rounded up, which is truncation for v ≥ 0.
            @inline(__always)
            static func greys(_ words: SIMD8<UInt32>, fading alpha: SIMD4<Double>) -> SIMD8<UInt32> {
                let pairs = unsafeBitCast(words, to: SIMD4<UInt64>.self)
                let exponent = SIMD4<UInt64>(repeating: 0x4330_0000_0000_0000)
                let shift = SIMD4<Double>(repeating: 4_503_599_627_370_496)  // 2^52
                @inline(__always) func channel(_ offset: UInt64) -> SIMD4<Double> {
                    unsafeBitCast(pairs &>> offset & 0xFF | exponent, to: SIMD4<Double>.self) - shift
                }
                @inline(__always) func grey(_ half: UInt64) -> SIMD4<UInt64> {
                    let luminance =
                        channel(half) * 0.29889531 + channel(half + 8) * 0.58662247 + channel(half + 16) * 0.11448223
                    let value = 255 + (luminance - 255) * alpha * channel(half + 24) / 255
                    // Within 0…255.0000026 for an alpha in 0…1, so its whole part is 0…255 as the reference's clamp has it.
                    let rounded = value + shift
                    let whole = unsafeBitCast(rounded, to: SIMD4<UInt64>.self) & 0xFF
                    return whole &- SIMD4(repeating: 0).replacing(with: 1, where: rounded - shift .> value) & 0xFF
                }
                let grey = unsafeBitCast(grey(0) | grey(32) &<< 32, to: SIMD8<UInt32>.self)
                return 0xFF00_0000 | grey &<< 16 | grey &<< 8 | grey
            }

            @inline(__always)
            static func load8(_ pointer: UnsafePointer<UInt32>) -> SIMD8<UInt32> {
                UnsafeRawPointer(pointer).loadUnaligned(as: SIMD8<UInt32>.self)
            }

            @inline(__always)
            mutating func lookUp(_ word: UInt32, _ index: Int, _ pass: ReferencePass) -> UInt32 {
                let slot = Int((word &* 0x9E37_79B1) >> 20)
                let entry = slots[slot]
                if entry != 0, UInt32(truncatingIfNeeded: entry >> 32) == word {
                    return UInt32(truncatingIfNeeded: entry)
                }
                let grey = pass.greyWord(index * 4)
                slots[slot] = UInt64(word) << 32 | UInt64(grey)
                return grey
            }
        }
    }

    /// The bands' running total when counting against a limit.
    final class Counter: Sendable {
        private let value = Atomic<Int>(0)
        /// Adds to the total and returns the new total.
        func add(_ count: Int) -> Int { value.add(count, ordering: .relaxed).newValue }
        /// The total so far.
        var total: Int { value.load(ordering: .relaxed) }
    }
}
