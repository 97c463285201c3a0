import DeclutterSupport
import Dispatch
import Synchronization

extension PixelMatch {
    /// The same comparison as ``ReferencePass``, faster; tests check that both give the same counts and diff images.
    ///
    /// Screenshots that differ mostly hold long runs of equal pixels, so the work is finding those runs and drawing
    /// their faded background: equal pixels are found sixteen at a time with vector compares, a run's grey is
    /// worked out once per distinct colour (the same exact arithmetic, so the same bytes), and only the pixels that
    /// differ go through pixelmatch's colour distance and anti-aliasing test, shared with the reference. The rows
    /// are split into bands on every core: each band reads both images and writes only its own rows of the diff.
    /// Without a diff image and with a limit, the bands stop once together they have counted more than the limit.
    struct FastPass: @unchecked Sendable {
        // @unchecked: the pointers are read by every band and written only in each band's own rows.
        let reference: ReferencePass

        init(_ reference: ReferencePass) { self.reference = reference }

        /// Below this many pixels one thread does it all: handing out bands costs more than it saves.
        static let smallestParallelImage = 1 << 16
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
                var background = Background()
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
        func run(_ start: Int, _ end: Int, _ y: Int, _ background: inout Background) -> Int {
            let options = reference.options, a32 = reference.words1, b32 = reference.words2
            let output = reference.output, drawsEqual = output != nil && !options.diffMask
            let maximumDelta = reference.maximumDelta
            var count = 0, index = start
            while index < end {
                let different = Self.firstDifference(a32, b32, from: index, to: end)
                if drawsEqual, let output { background.draw(index..<different, of: reference, into: output) }
                guard different < end else { break }
                let position = different * 4
                let delta = reference.colorDelta(
                    reference.one, reference.two, position, position, brightnessOnly: false)
                if abs(delta) > maximumDelta {
                    let x = different - y * reference.width
                    if !options.includeAntialiasing
                        && (antialiased(reference.one, x, y, a32, b32) || antialiased(reference.two, x, y, b32, a32))
                    {
                        if drawsEqual, let output { output[different] = ReferencePass.word(options.antialiasingColor) }
                    } else {
                        if let output {
                            let alternate = options.alternateDiffColor ?? options.diffColor
                            output[different] = ReferencePass.word(delta < 0 ? alternate : options.diffColor)
                        }
                        count += 1
                    }
                } else if drawsEqual, let output {
                    background.draw(different..<different + 1, of: reference, into: output)
                }
                index = different + 1
            }
            return count
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

            /// Draws `indices` a run of one colour at a time: the grey of a run's colour comes from the memory (or is
            /// worked out once), the run's end is found eight pixels at a time, and the run is filled at once.
            mutating func draw(_ indices: Range<Int>, of pass: ReferencePass, into output: UnsafeMutablePointer<UInt32>)
            {
                let a32 = pass.words1, end = indices.upperBound
                var index = indices.lowerBound
                while index < end {
                    let word = a32[index], grey = lookUp(word, index, pass)
                    var runEnd = index + 1
                    let repeated = SIMD8<UInt32>(repeating: word)
                    while runEnd + 8 <= end, all(Self.load8(a32 + runEnd) .== repeated) { runEnd += 8 }
                    while runEnd < end, a32[runEnd] == word { runEnd += 1 }
                    (output + index).update(repeating: grey, count: runEnd - index)
                    index = runEnd
                }
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
