extension PixelMatch.FastPass {
    /// What eight opaque pixel pairs' colour distances say against the threshold, worked out together in Float lanes.
    ///
    /// pixelmatch's distance is a sum of squares of sums, in Double. In Float lanes the same sum errs by less than
    /// 0.01 for colours of whole numbers up to 255 (0.0096 at most over all 511³ differences; `dr`, `dg`, `db` are
    /// exact, each coefficient rounded to 2^-24 of itself), so a lane more than ``margin`` above the threshold is above it in Double too, and one more than
    /// ``margin`` below is below; only the lanes in between are worked out again one by one in Double. A photograph's
    /// differing pixels are mostly far below the threshold (JPEG noise), a moved picture's mostly far above.
    struct Verdicts {
        /// The lanes whose distance is above the threshold, bit n for lane n.
        var aboveLanes: UInt32
        /// The lanes too near the threshold to tell in Float, bit n for lane n.
        var unsureLanes: UInt32

        /// How far from the threshold a Float distance must lie to be trusted: a hundred times the largest error.
        static let margin: Float = 1

        /// The verdicts of eight pairs of RGBA words, or nil when one of them is not opaque in either image (blending
        /// over the checkerboard is left to the scalar path), and on big-endian machines, whose words hold the
        /// channels the other way round.
        @inline(__always)
        init?(_ a8: SIMD8<UInt32>, _ b8: SIMD8<UInt32>, maximumDelta: Float) {
            #if _endian(big)
                return nil
            #endif
            let alpha = SIMD8<UInt32>(repeating: 0xFF00_0000)
            guard all(a8 & b8 & alpha .== alpha) else { return nil }
            let dr = Self.float(a8 & 0xFF) - Self.float(b8 & 0xFF)
            let dg = Self.float(a8 &>> 8 & 0xFF) - Self.float(b8 &>> 8 & 0xFF)
            let db = Self.float(a8 &>> 16 & 0xFF) - Self.float(b8 &>> 16 & 0xFF)
            // pixelmatch's YIQ distance, term by term as ReferencePass.colorDelta has it.
            let y = dr * 0.29889531 + dg * 0.58662247 + db * 0.11448223
            let i = dr * 0.59597799 - dg * 0.27417610 - db * 0.32180189
            let q = dr * 0.21147017 - dg * 0.52261711 + db * 0.31114694
            let delta = 0.5053 * y * y + 0.299 * i * i + 0.1957 * q * q
            let over = delta .> maximumDelta + Self.margin
            let near = delta .>= maximumDelta - Self.margin
            let lanes = SIMD8<UInt32>(1, 2, 4, 8, 16, 32, 64, 128), none = SIMD8<UInt32>(repeating: 0)
            aboveLanes = none.replacing(with: lanes, where: over).wrappedSum()
            unsureLanes = none.replacing(with: lanes, where: near .& .!over).wrappedSum()
        }

        @inline(__always)
        static func float(_ lanes: SIMD8<UInt32>) -> SIMD8<Float> {
            SIMD8<Float>(SIMD8<Int32>(truncatingIfNeeded: lanes))
        }
    }
}
