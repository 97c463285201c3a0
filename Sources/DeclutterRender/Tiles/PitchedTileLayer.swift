import DeclutterGeometry
import DeclutterMapContent
import DeclutterStyle
import DeclutterSupport
import Foundation

/// Draws raster tiles under a pitched map by sampling them where each device pixel's ground lies.
///
/// Cairo has only affine transforms, and a pitched map is a projective view of the flat one. Drawing each tile
/// through affine pieces needs pieces of 16 px or less at 60° to keep within a fifth of a pixel of true (the error
/// grows with the square of a piece's side, most near the top), and every piece's clip edge is a seam to hide.
/// Sampling instead is exact everywhere: each row of pixels is a straight line on the ground (see ``PitchedRow``),
/// taken at the tile zoom matching its own scale, bilinear across tile edges and averaged over the ground a pixel
/// covers downwards. Rows are independent, so they are shared out to every core.
struct PitchedTileLayer {
    let camera: MapCamera
    /// Device pixels per point.
    let scale: Double
    /// The source's tile size in pixels; a decoded tile of another size is scaled to it.
    let tilePixelSize: Int
    let zoomRange: ClosedRange<Int>
    /// The decoded tiles; a planned tile absent here is drawn in `missing`.
    let tiles: [TileKey: Surface]
    /// The colour of a missing tile.
    let missing: RGBAColor

    /// Draws the tiles over what `surface` holds (source over), row by row.
    func draw(into surface: Surface) {
        let width = surface.pixelWidth, height = surface.pixelHeight
        guard width > 0, height > 0 else { return }
        // Tiles' pixels are read from memory directly: flushed once here, only read afterwards, so threads may share
        // them.
        let sources = tiles.mapValues { TilePixels($0) }
        surface.withMutablePixels { pixels, stride in
            guard let base = pixels.baseAddress else { return }
            // Far rows take more samples than near ones, so each core's share is every n-th row, not a band.
            let shares = min(Cores.available, height)
            _ = concurrentMap(shares) { share -> Int in
                var cache = TileCache(
                    sources: sources, tilePixelSize: tilePixelSize, missing: missing.premultipliedWord)
                let sums = UnsafeMutablePointer<SIMD4<UInt16>>.allocate(capacity: width)
                defer { sums.deallocate() }
                for row in Swift.stride(from: share, to: height, by: shares) {
                    let lines = PitchedRow.lines(
                        row: row, camera: camera, scale: scale, tilePixelSize: tilePixelSize, zoomRange: zoomRange)
                    guard !lines.isEmpty else { continue }
                    let target = UnsafeMutableRawPointer(base + row * stride).assumingMemoryBound(to: UInt32.self)
                    drawRow(lines, width: width, into: target, cache: &cache, sums: sums)
                }
                return 0
            }
        }
    }

    /// One row: the average of the lines' bilinear samples at each pixel, drawn over the pixel.
    ///
    /// Speed-ups, each the plain arithmetic rearranged: texel coordinates are fixed point (16 fractional bits), stepped
    /// pixel by pixel rather than multiplied out; a line is walked in spans that stay in one tile (see
    /// ``TileCache/walk(u:v:du:dv:zoom:pixels:_:)``); a sample's four channels are interpolated and summed as the
    /// lanes of one vector; the average divides by multiplying.
    private func drawRow(
        _ lines: [PitchedRow.Line], width: Int, into target: UnsafeMutablePointer<UInt32>, cache: inout TileCache,
        sums: UnsafeMutablePointer<SIMD4<UInt16>>
    ) {
        let pixels = min(width, lines[0].pixels), zoom = lines[0].zoom
        // Texel coordinates: world units times the tile pixels across the world at the line's zoom, less half a texel
        // so that integer coordinates fall on texel centres.
        let perWorld = Double((1 << zoom) * tilePixelSize) * 65536
        func walk(_ line: PitchedRow.Line, _ body: (Int, SIMD4<UInt16>) -> Void) {
            cache.walk(
                u: Int64((line.worldX * perWorld - 32768).rounded()),
                v: Int64((line.worldY * perWorld - 32768).rounded()),
                du: Int64((line.stepX * perWorld).rounded()), dv: Int64((line.stepY * perWorld).rounded()), zoom: zoom,
                pixels: pixels, body)
        }
        guard lines.count > 1 else {
            walk(lines[0]) { x, sample in target[x] = Self.over(Self.word(sample), target[x]) }
            return
        }
        // Each channel's sum in a 16-bit lane: up to 8 samples of 255.
        sums.update(repeating: .zero, count: pixels)
        for line in lines {
            walk(line) { x, sample in sums[x] &+= sample }
        }
        // Each lane times 2^16/count, rounded.
        let count = UInt32(lines.count), reciprocal = (65536 + count / 2) / count
        for x in 0..<pixels {
            let average = (SIMD4<UInt32>(truncatingIfNeeded: sums[x]) &* reciprocal &+ 32768) &>> 16
            target[x] = Self.over(Self.word(SIMD4<UInt16>(truncatingIfNeeded: average)), target[x])
        }
    }

    /// The bilinear sample of four texels given as two pairs side by side (`upper`'s left texel in its low half, the
    /// right in its high half, `lower` below them), `fx` and `fy` 256ths of the way right and down: each channel
    /// across, `a·(256 − fx) + b·fx` over 256, then down the same way.
    ///
    /// The channels are the vector's lanes, sixteen 16-bit products at once; no lane overflows, as 255·256 < 2^16.
    @inline(__always)
    static func bilinear(upper: UInt64, lower: UInt64, fx: UInt16, fy: UInt16) -> SIMD4<UInt16> {
        let texels = SIMD16<UInt16>(
            truncatingIfNeeded: unsafeBitCast(SIMD2<UInt64>(upper, lower), to: SIMD16<UInt8>.self))
        let gx = 256 &- fx
        let products = texels &* SIMD16<UInt16>(gx, gx, gx, gx, fx, fx, fx, fx, gx, gx, gx, gx, fx, fx, fx, fx)
        let above = (products.lowHalf.lowHalf &+ products.lowHalf.highHalf) &>> 8
        let below = (products.highHalf.lowHalf &+ products.highHalf.highHalf) &>> 8
        return (above &* (256 &- fy) &+ below &* fy) &>> 8
    }

    /// A pixel's four channel lanes as the ARGB32 word they came from.
    @inline(__always)
    static func word(_ lanes: SIMD4<UInt16>) -> UInt32 {
        unsafeBitCast(SIMD4<UInt8>(truncatingIfNeeded: lanes), to: UInt32.self)
    }

    /// A premultiplied `source` over `destination`: source + destination·(1 − source alpha).
    @inline(__always)
    static func over(_ source: UInt32, _ destination: UInt32) -> UInt32 {
        let alpha = source >> 24
        if alpha == 255 { return source }
        if source == 0 { return destination }
        // x·(255 − alpha)/255 per lane, rounded: (t + t/256 + 128)/256.
        func scaled(_ lanes: UInt32) -> UInt32 {
            let t = lanes &* (255 - alpha) &+ 0x00800080
            return ((t &+ ((t >> 8) & 0x00FF00FF)) >> 8) & 0x00FF00FF
        }
        return source &+ (scaled(destination & 0x00FF00FF) | scaled((destination >> 8) & 0x00FF00FF) << 8)
    }

    /// A decoded tile's pixels, read straight from the surface's memory.
    struct TilePixels: @unchecked Sendable {
        let surface: Surface
        let base: UnsafePointer<UInt32>?
        let wordsPerRow: Int, width: Int, height: Int

        init(_ surface: Surface) {
            self.surface = surface
            (base, wordsPerRow) = surface.withPixels { pixels, stride in
                (pixels.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: UInt32.self) }, stride / 4)
            }
            width = surface.pixelWidth
            height = surface.pixelHeight
        }
    }

    /// Texels of every zoom's tiles as one plane per zoom, remembering the last two tiles looked up: neighbouring
    /// samples nearly always fall in the same tile, and a sample across a tile edge reads two in turn.
    struct TileCache {
        let sources: [TileKey: TilePixels]
        let tilePixelSize: Int
        /// A missing tile's colour as a word.
        let missing: UInt32
        private var last = Remembered(), before = Remembered()

        /// A tile looked up, by its zoom, column and row.
        private struct Remembered {
            var zoom = -1, column = 0, row = 0
            var tile: TilePixels?
        }

        init(sources: [TileKey: TilePixels], tilePixelSize: Int, missing: UInt32) {
            self.sources = sources
            self.tilePixelSize = tilePixelSize
            self.missing = missing
        }

        /// The bilinear samples of `pixels` points from (u, v) by (du, dv), in fixed-point texel coordinates of the
        /// zoom's plane, each handed to `body` with its index.
        ///
        /// Speed-up: where a sample's four texels lie in one whole tile of the source's size that came, the samples
        /// that stay in it (a span worked out from the steps) are read straight from its pixels, two texels a load.
        @inline(__always)
        mutating func walk(
            u: Int64, v: Int64, du: Int64, dv: Int64, zoom: Int, pixels: Int, _ body: (Int, SIMD4<UInt16>) -> Void
        ) {
            let size = tilePixelSize, mask = size - 1, shift = size.trailingZeroBitCount
            var x = 0, u = u, v = v
            while x < pixels {
                let ix = Int(u >> 16), iy = Int(v >> 16)
                if size & mask == 0, ix & mask < mask, iy & mask < mask, iy >= 0, iy < size << zoom,
                    let tile = tile(column: ix >> shift, row: iy >> shift, zoom: zoom), tile.width == size,
                    tile.height == size,
                    let base = tile.base
                {
                    // The tile's first texel column and row, and the samples until one's texels leave it.
                    let left = ix & ~mask, top = iy & ~mask, wordsPerRow = tile.wordsPerRow
                    let span = min(
                        pixels - x, Self.steps(from: u, by: du, within: left...(left + mask - 1)),
                        Self.steps(from: v, by: dv, within: top...(top + mask - 1)))
                    for _ in 0..<span {
                        let corner = UnsafeRawPointer(base + (Int(v >> 16) - top) * wordsPerRow + (Int(u >> 16) - left))
                        body(
                            x,
                            PitchedTileLayer.bilinear(
                                upper: corner.loadUnaligned(as: UInt64.self),
                                lower: corner.loadUnaligned(fromByteOffset: 4 * wordsPerRow, as: UInt64.self),
                                fx: UInt16(truncatingIfNeeded: (u >> 8) & 0xFF),
                                fy: UInt16(truncatingIfNeeded: (v >> 8) & 0xFF)))
                        x += 1
                        u &+= du
                        v &+= dv
                    }
                } else {
                    body(x, bilinear(u: u, v: v, zoom: zoom))
                    x += 1
                    u &+= du
                    v &+= dv
                }
            }
        }

        /// How many points from fixed-point `p` by `d`, the first included, have their integer part in `range`
        /// (`p`'s own is in it).
        @inline(__always)
        static func steps(from p: Int64, by d: Int64, within range: ClosedRange<Int>) -> Int {
            if d > 0 { return Int(((Int64(range.upperBound + 1) << 16) - 1 - p) / d) + 1 }
            if d < 0 { return Int((p - Int64(range.lowerBound) << 16) / -d) + 1 }
            return .max
        }

        /// The bilinear sample at fixed-point texel coordinates (u, v, 16 fractional bits) of the zoom's plane, texel
        /// by texel: for the samples ``walk(u:v:du:dv:zoom:pixels:_:)`` does not read from one tile.
        @inline(__always)
        mutating func bilinear(u: Int64, v: Int64, zoom: Int) -> SIMD4<UInt16> {
            let ix = Int(u >> 16), iy = Int(v >> 16)
            func pair(_ y: Int) -> UInt64 { UInt64(texel(ix, y, zoom)) | UInt64(texel(ix + 1, y, zoom)) << 32 }
            return PitchedTileLayer.bilinear(
                upper: pair(iy), lower: pair(iy + 1),
                fx: UInt16(truncatingIfNeeded: (u >> 8) & 0xFF), fy: UInt16(truncatingIfNeeded: (v >> 8) & 0xFF))
        }

        /// The tile at a column (wrapped around the antimeridian) and row of the zoom, nil if it did not come.
        @inline(__always)
        mutating func tile(column: Int, row: Int, zoom: Int) -> TilePixels? {
            if zoom != last.zoom || column != last.column || row != last.row {
                if zoom == before.zoom, column == before.column, row == before.row {
                    swap(&last, &before)
                } else {
                    let count = 1 << zoom
                    before = last
                    last = Remembered(
                        zoom: zoom, column: column, row: row,
                        tile: sources[TileKey(z: zoom, x: ((column % count) + count) % count, y: row)])
                }
            }
            return last.tile
        }

        /// The texel at integer coordinates of the zoom's plane: transparent off the world (north or south), the
        /// missing colour in a tile that did not come; columns wrap around the antimeridian.
        @inline(__always)
        mutating func texel(_ x: Int, _ y: Int, _ zoom: Int) -> UInt32 {
            let size = tilePixelSize
            guard y >= 0, y < size << zoom else { return 0 }
            let column = x >= 0 ? x / size : (x + 1) / size - 1, row = y / size
            guard let tile = tile(column: column, row: row, zoom: zoom), let base = tile.base else { return missing }
            // A tile of another size than the source's (a server's @2x tile) is scaled to it.
            let insideX = (x - column * size) * tile.width / size, insideY = (y - row * size) * tile.height / size
            return base[insideY * tile.wordsPerRow + insideX]
        }
    }
}

extension RGBAColor {
    /// The colour as a premultiplied ARGB32 word, as cairo's image surfaces hold it.
    var premultipliedWord: UInt32 {
        let alpha = max(0, min(1, self.alpha))
        func channel(_ value: Double) -> UInt32 { UInt32((max(0, min(1, value)) * alpha * 255).rounded()) }
        return UInt32((alpha * 255).rounded()) << 24 | channel(red) << 16 | channel(green) << 8 | channel(blue)
    }
}
