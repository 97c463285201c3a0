import DeclutterCore
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
        // Tiles' pixels are read from memory directly: flushed once here, only read afterwards, so threads may share them.
        let sources = tiles.mapValues { TilePixels($0) }
        surface.withMutablePixels { pixels, stride in
            guard let base = pixels.baseAddress else { return }
            // Far rows take more samples than near ones, so each core's share is every n-th row, not a band.
            let shares = min(Cores.available, height)
            _ = concurrentMap(shares) { share -> Int in
                var cache = TileCache(sources: sources, tilePixelSize: tilePixelSize, missing: missing.premultipliedWord)
                let sums = UnsafeMutablePointer<UInt32>.allocate(capacity: 2 * width)
                defer { sums.deallocate() }
                for row in Swift.stride(from: share, to: height, by: shares) {
                    let lines = PitchedRow.lines(row: row, camera: camera, scale: scale, tilePixelSize: tilePixelSize, zoomRange: zoomRange)
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
    /// pixel by pixel rather than multiplied out; a line is walked whole, keeping its current tile at hand; channels
    /// are interpolated and summed two at a time in one 32-bit word (red and blue, then alpha and green, each in a
    /// 16-bit lane); the average divides by multiplying.
    private func drawRow(_ lines: [PitchedRow.Line], width: Int, into target: UnsafeMutablePointer<UInt32>, cache: inout TileCache,
                         sums: UnsafeMutablePointer<UInt32>) {
        let pixels = min(width, lines[0].pixels), zoom = lines[0].zoom
        // Texel coordinates: world units times the tile pixels across the world at the line's zoom, less half a texel
        // so that integer coordinates fall on texel centres.
        let perWorld = Double((1 << zoom) * tilePixelSize) * 65536
        func walk(_ line: PitchedRow.Line, _ body: (Int, UInt32) -> Void) {
            cache.walk(u: Int64((line.worldX * perWorld - 32768).rounded()), v: Int64((line.worldY * perWorld - 32768).rounded()),
                       du: Int64((line.stepX * perWorld).rounded()), dv: Int64((line.stepY * perWorld).rounded()), zoom: zoom, pixels: pixels, body)
        }
        guard lines.count > 1 else {
            walk(lines[0]) { x, sample in target[x] = Self.over(sample, target[x]) }
            return
        }
        // Red and blue sums, then alpha and green, pixel by pixel: up to 8 samples of 255 fit a 16-bit lane.
        sums.update(repeating: 0, count: 2 * pixels)
        for line in lines {
            walk(line) { x, sample in
                sums[2 * x] &+= sample & 0x00FF00FF
                sums[2 * x + 1] &+= (sample >> 8) & 0x00FF00FF
            }
        }
        let count = UInt64(lines.count), reciprocal = (65536 + count / 2) / count
        // Each lane times 2^16/count, rounded, in lanes 32 bits apart.
        func average(_ lanes: UInt32) -> UInt32 {
            let spread = (UInt64(lanes & 0xFFFF) | UInt64(lanes >> 16) << 32) &* reciprocal &+ (32768 | 32768 << 32)
            return UInt32((spread >> 16) & 0xFF) | UInt32((spread >> 48) & 0xFF) << 16
        }
        for x in 0..<pixels {
            target[x] = Self.over(average(sums[2 * x]) | average(sums[2 * x + 1]) << 8, target[x])
        }
    }

    /// `a` to `b` by `t`/256, two channels at a time.
    @inline(__always)
    static func mix(_ a: UInt32, _ b: UInt32, _ t: UInt32) -> UInt32 {
        let s = 256 - t
        let redBlue = (((a & 0x00FF00FF) &* s &+ (b & 0x00FF00FF) &* t) >> 8) & 0x00FF00FF
        let alphaGreen = (((a >> 8) & 0x00FF00FF) &* s &+ ((b >> 8) & 0x00FF00FF) &* t) & 0xFF00FF00
        return redBlue | alphaGreen
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

    /// Texels of every zoom's tiles as one plane per zoom, remembering the last tile looked up: neighbouring samples
    /// nearly always fall in the same tile.
    struct TileCache {
        let sources: [TileKey: TilePixels]
        let tilePixelSize: Int
        /// A missing tile's colour as a word.
        let missing: UInt32
        private var lastZoom = -1, lastColumn = 0, lastRow = 0
        private var last: TilePixels?

        init(sources: [TileKey: TilePixels], tilePixelSize: Int, missing: UInt32) {
            self.sources = sources
            self.tilePixelSize = tilePixelSize
            self.missing = missing
        }

        /// The bilinear samples of `pixels` points from (u, v) by (du, dv), in fixed-point texel coordinates of the
        /// zoom's plane, each handed to `body` with its index.
        @inline(__always)
        mutating func walk(u: Int64, v: Int64, du: Int64, dv: Int64, zoom: Int, pixels: Int, _ body: (Int, UInt32) -> Void) {
            let size = tilePixelSize, mask = size - 1, shift = size.trailingZeroBitCount
            // Speed-up: the tile the walk is in, while its samples' four texels stay inside it.
            var column = Int.min, row = Int.min, base: UnsafePointer<UInt32>?, wordsPerRow = 0
            var u = u, v = v
            for x in 0..<pixels {
                let ix = Int(u >> 16), iy = Int(v >> 16)
                if ix >> shift == column, iy >> shift == row, ix & mask < mask, iy & mask < mask, let base {
                    let corner = base + (iy & mask) * wordsPerRow + (ix & mask)
                    let fx = UInt32(truncatingIfNeeded: (u >> 8) & 0xFF), fy = UInt32(truncatingIfNeeded: (v >> 8) & 0xFF)
                    body(x, PitchedTileLayer.mix(PitchedTileLayer.mix(corner[0], corner[1], fx),
                                                 PitchedTileLayer.mix(corner[wordsPerRow], corner[wordsPerRow + 1], fx), fy))
                } else {
                    body(x, bilinear(u: u, v: v, zoom: zoom))
                    // The walk keeps a whole tile of the source's size that came.
                    if size & mask == 0, iy >= 0, iy < size << zoom, let tile = tile(column: ix >> shift, row: iy >> shift, zoom: zoom),
                       tile.width == size, tile.height == size, let tileBase = tile.base {
                        (column, row, base, wordsPerRow) = (ix >> shift, iy >> shift, tileBase, tile.wordsPerRow)
                    } else {
                        (column, row) = (Int.min, Int.min)
                    }
                }
                u &+= du
                v &+= dv
            }
        }

        /// The bilinear sample at fixed-point texel coordinates (u, v, 16 fractional bits) of the zoom's plane, texel by
        /// texel: for the samples ``walk(u:v:du:dv:zoom:pixels:_:)`` does not read from its tile at hand.
        @inline(__always)
        mutating func bilinear(u: Int64, v: Int64, zoom: Int) -> UInt32 {
            let ix = Int(u >> 16), iy = Int(v >> 16), fx = UInt32(truncatingIfNeeded: (u >> 8) & 0xFF), fy = UInt32(truncatingIfNeeded: (v >> 8) & 0xFF)
            return PitchedTileLayer.mix(PitchedTileLayer.mix(texel(ix, iy, zoom), texel(ix + 1, iy, zoom), fx),
                                        PitchedTileLayer.mix(texel(ix, iy + 1, zoom), texel(ix + 1, iy + 1, zoom), fx), fy)
        }

        /// The tile at a column (wrapped around the antimeridian) and row of the zoom, nil if it did not come.
        @inline(__always)
        mutating func tile(column: Int, row: Int, zoom: Int) -> TilePixels? {
            if zoom != lastZoom || column != lastColumn || row != lastRow {
                let count = 1 << zoom
                lastZoom = zoom
                lastColumn = column
                lastRow = row
                last = sources[TileKey(z: zoom, x: ((column % count) + count) % count, y: row)]
            }
            return last
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
