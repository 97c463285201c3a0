import CZlib
import DeclutterClustering
import DeclutterCommandLine
import DeclutterGeometry
import DeclutterMap
import DeclutterPNG
import DeclutterRender
import DeclutterServer
import DeclutterTesting
import Foundation

/// Times Declutter's PNG codec against the libraries it could use instead, on the same images: encoding a real
/// 1024×560 map and a 40×40 cluster icon (ours; zlib and libdeflate at levels 1, 3 and 6, without row filters and
/// with libpng's adaptive ones), decoding a 256 px RGB tile and the map (ours; libpng; inflating alone with zlib,
/// and with libdeflate, as ours does).
///
/// The images are the committed `demo` airports map and a TANDm cluster icon from `Snapshots/`, read with
/// Declutter's decoder into premultiplied ARGB32 as a cairo surface holds them; the tile is a 256 px crop of the map
/// written as tile servers write them (zlib 6, adaptive filters). Every arm runs on one thread, except the one
/// named "every core", so deflaters compare core for core. Arms alternate within each round (the order rotating
/// from round to round); each figure is the median of the round medians, with their range. libdeflate and libpng
/// are opened at run time (`libdeflate.so.0`, `libpng16.so.16`), so the build needs neither; an arm whose
/// library is missing is reported as unavailable.
struct PNGBenchmark {
    /// Rounds of all arms.
    var rounds: Int

    /// One arm's figures on one job.
    struct Figure {
        /// What is encoded or decoded.
        var job: String
        /// Who does it, how.
        var arm: String
        /// Pixels per call, for megapixels per second.
        var pixels: Int
        /// The median time per call of each round, in seconds; empty when the arm's library is missing.
        var roundMedians: [Double]
        /// The PNG bytes written (encoding) or read (decoding).
        var bytes: Int

        var median: Double { roundMedians.isEmpty ? .nan : roundMedians.sorted()[roundMedians.count / 2] }
        var fastest: Double { roundMedians.min() ?? .nan }
        var slowest: Double { roundMedians.max() ?? .nan }
        var megapixelsPerSecond: Double { Double(pixels) / median / 1e6 }
    }

    struct Result {
        var figures: [Figure]
        var rounds: Int

        var json: String {
            let items = figures.map { figure -> String in
                guard !figure.roundMedians.isEmpty else {
                    return #"{"job":"\#(figure.job)","arm":"\#(figure.arm)","available":false}"#
                }
                return String(
                    format:
                        #"{"job":"%@","arm":"%@","available":true,"ms":%.4f,"ms_min":%.4f,"ms_max":%.4f,"bytes":%d,"mp_per_s":%.1f}"#,
                    figure.job, figure.arm, figure.median * 1e3, figure.fastest * 1e3, figure.slowest * 1e3,
                    figure.bytes,
                    figure.megapixelsPerSecond)
            }
            return
                #"{"area":"png","rounds":\#(rounds),"cores":\#(ProcessInfo.processInfo.activeProcessorCount),"figures":["#
                + items.joined(separator: ",") + "]}"
        }

        var text: String {
            var lines = [
                "png (median of \(rounds) alternated rounds, range of the round medians; one thread unless \"every core\"):"
            ]
            var job = ""
            for figure in figures {
                if figure.job != job {
                    job = figure.job
                    lines.append("  \(job)")
                }
                guard !figure.roundMedians.isEmpty else {
                    lines.append(
                        "    " + figure.arm.padding(toLength: 44, withPad: " ", startingAt: 0)
                            + "unavailable (library not found)")
                    continue
                }
                let micro = figure.median < 1e-3
                let scale = micro ? 1e6 : 1e3, unit = micro ? "µs" : "ms"
                lines.append(
                    "    " + figure.arm.padding(toLength: 44, withPad: " ", startingAt: 0)
                        + String(
                            format: "%9.3f %@ (%.3f–%.3f)  %8d bytes  %7.1f MP/s", figure.median * scale, unit,
                            figure.fastest * scale,
                            figure.slowest * scale, figure.bytes, figure.megapixelsPerSecond))
            }
            return lines.joined(separator: "\n")
        }
    }

    /// A committed image that could not be read, or an arm whose output was wrong.
    struct BenchmarkError: Error, CustomStringConvertible {
        var description: String
    }

    /// Pixels as a cairo image surface holds them: premultiplied ARGB32 words, `width` to a row.
    struct Pixels {
        var width: Int
        var height: Int
        var words: [UInt32]

        init(png data: Data) throws {
            let file = try PNGDecoder.File(data)
            width = file.width
            height = file.height
            var words = [UInt32](repeating: 0, count: width * height)
            try words.withUnsafeMutableBytes {
                try file.decode(into: $0, rowBytes: file.width * 4, layout: .premultipliedARGB32)
            }
            self.words = words
        }

        init(width: Int, height: Int, words: [UInt32]) {
            self.width = width
            self.height = height
            self.words = words
        }

        /// The rectangle's pixels.
        func cropped(x: Int, y: Int, width: Int, height: Int) -> Pixels {
            Pixels(
                width: width, height: height,
                words: (y..<y + height).flatMap { words[$0 * self.width + x..<$0 * self.width + x + width] })
        }

        func png(_ encoder: PNGEncoder) throws -> Data {
            try words.withUnsafeBytes {
                try encoder.encode(
                    pixels: $0, width: width, height: height, rowBytes: width * 4, layout: .premultipliedARGB32)
            }
        }

        /// The straight RGBA bytes every encoding must decode to.
        var straightRGBA: [UInt8] {
            words.withUnsafeBytes {
                PixelLayout.straightRGBA(fromPremultiplied: $0, width: width, height: height, rowBytes: width * 4)
            }
        }
    }

    /// One thing timed: `body` returns the bytes written or read.
    private struct Arm {
        var job: String
        var name: String
        var pixels: Int
        /// Calls per round; their median is the round's figure.
        var calls: Int
        var body: (() throws -> Int)?
    }

    /// The package folder holding `Snapshots/`: the current folder, else the one this file was built from.
    static func packageRoot() throws -> URL {
        let candidates = [
            URL(fileURLWithPath: FileManager.default.currentDirectoryPath),
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent(),
        ]
        guard
            let root = candidates.first(where: {
                FileManager.default.fileExists(atPath: $0.appendingPathComponent(mapPath).path)
            })
        else {
            throw BenchmarkError(
                description: "bench png reads \(mapPath) and \(iconPath): run it in the package folder")
        }
        return root
    }

    static let mapPath = "Snapshots/RenderCommandTests/demo.airports.png"
    static let iconPath = "Snapshots/MarkerGoldenTests/tandmClusterIcons.42@1x.png"

    func run() throws -> Result {
        let root = try Self.packageRoot()
        func read(_ path: String) throws -> Data {
            guard let data = FileManager.default.contents(atPath: root.appendingPathComponent(path).path) else {
                throw BenchmarkError(description: "cannot read \(path)")
            }
            return data
        }
        let mapFile = try read(Self.mapPath)
        let map = try Pixels(png: mapFile), icon = try Pixels(png: read(Self.iconPath))
        let tile = map.cropped(x: 384, y: 152, width: 256, height: 256)
        let tileFile = try tile.png(PNGEncoder(level: 6, filter: .adaptive))
        let libdeflate = LibDeflate(), libpng = LibPNG()

        var arms: [Arm] = []
        for (job, image, calls) in [("encode map 1024×560", map, 9), ("encode icon 40×40", icon, 2_000)] {
            let expected = image.straightRGBA
            func add(_ name: String, _ encode: @escaping () throws -> Data) throws {
                // Each arm's output is checked once: the same pixels back, whoever wrote them.
                guard try PNGDecoder.decode(encode()).pixels == expected else {
                    throw BenchmarkError(description: "\(name) wrote other pixels")
                }
                arms.append(
                    Arm(job: job, name: name, pixels: image.width * image.height, calls: calls) { try encode().count })
            }
            var ours = PNGEncoder()
            ours.usesEveryCore = false
            try add("ours (pixel runs)") { try image.png(ours) }
            if image.width * image.height > 100_000 {
                try add("ours (pixel runs), every core") { try image.png(PNGEncoder()) }
            }
            for filter in [PNGEncoder.Filter.none, .adaptive] {
                for level in [1, 3, 6] {
                    var zlib = PNGEncoder(level: Int32(level), filter: filter)
                    zlib.usesEveryCore = false
                    try add("zlib \(level), \(filter == .none ? "no filter" : "adaptive filters")") {
                        try image.png(zlib)
                    }
                }
            }
            for filter in [PNGEncoder.Filter.none, .adaptive] {
                for level in [1, 3, 6] {
                    let name = "libdeflate \(level), \(filter == .none ? "no filter" : "adaptive filters")"
                    guard let compressor = libdeflate?.compressor(level: level) else {
                        arms.append(Arm(job: job, name: name, pixels: 0, calls: 0, body: nil))
                        continue
                    }
                    try add(name) {
                        let (scanlines, channels) = try image.words.withUnsafeBytes {
                            try PNGEncoder.scanlines(
                                pixels: $0, width: image.width, height: image.height, rowBytes: image.width * 4,
                                layout: .premultipliedARGB32, filter: filter)
                        }
                        return PNGEncoder.file(
                            width: image.width, height: image.height, channels: channels,
                            zlibStream: compressor.compress(scanlines))
                    }
                }
            }
        }
        for (job, file, width, height, calls) in [
            ("decode tile 256×256 RGB (zlib 6, adaptive filters)", tileFile, 256, 256, 400),
            ("decode map 1024×560 RGB (as committed: ours, pixel runs)", mapFile, 1024, 560, 15),
        ] {
            var buffer = [UInt8](repeating: 0, count: width * height * 4)
            let expected = try PNGDecoder.decode(file).pixels
            arms.append(
                Arm(job: job, name: "ours → straight RGBA", pixels: width * height, calls: calls) {
                    let png = try PNGDecoder.File(file)
                    try buffer.withUnsafeMutableBytes {
                        try png.decode(into: $0, rowBytes: width * 4, layout: .straightRGBA)
                    }
                    return file.count
                })
            arms.append(
                Arm(job: job, name: "ours → premultiplied ARGB32 (cairo's)", pixels: width * height, calls: calls) {
                    let png = try PNGDecoder.File(file)
                    try buffer.withUnsafeMutableBytes {
                        try png.decode(into: $0, rowBytes: width * 4, layout: .premultipliedARGB32)
                    }
                    return file.count
                })
            if let libpng {
                guard try libpng.decode(file, into: &buffer), buffer == expected else {
                    throw BenchmarkError(description: "libpng read other pixels")
                }
            }
            arms.append(
                Arm(
                    job: job, name: "libpng \(libpng?.version ?? "") → straight RGBA", pixels: width * height,
                    calls: calls,
                    body: libpng.map { libpng in
                        {
                            _ = try libpng.decode(file, into: &buffer)
                            return file.count
                        }
                    }))
            let parsed = try PNGDecoder.File(file)
            let stream = parsed.imageDataStream, rawCount = parsed.inflatedByteCount
            var raw = [UInt8](repeating: 0, count: rawCount)
            arms.append(
                Arm(job: job, name: "inflate alone: zlib", pixels: width * height, calls: calls) {
                    try Self.zlibInflate(stream, into: &raw)
                    return file.count
                })
            let decompressor = libdeflate?.decompressor()
            arms.append(
                Arm(
                    job: job, name: "inflate alone: libdeflate (as ours does)", pixels: width * height, calls: calls,
                    body: decompressor.map { decompressor in
                        {
                            try decompressor.decompress(stream, into: &raw)
                            return file.count
                        }
                    }))
        }

        var medians = [[Double]](repeating: [], count: arms.count)
        var bytes = [Int](repeating: 0, count: arms.count)
        for (index, arm) in arms.enumerated() { if let body = arm.body { bytes[index] = try body() } }  // warm
        for round in 0..<rounds {
            for offset in arms.indices {
                let index = (offset + round) % arms.count
                guard let body = arms[index].body else { continue }
                var times = [Double](repeating: 0, count: arms[index].calls)
                for call in times.indices {
                    let start = DispatchTime.now().uptimeNanoseconds
                    _ = try body()
                    times[call] = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
                }
                times.sort()
                medians[index].append(times[times.count / 2])
            }
        }
        let figures = arms.indices.map {
            Figure(
                job: arms[$0].job, arm: arms[$0].name, pixels: arms[$0].pixels, roundMedians: medians[$0],
                bytes: bytes[$0])
        }
        return Result(figures: figures, rounds: rounds)
    }
}

extension PNGBenchmark {
    /// libdeflate 1.x, opened at run time.
    final class LibDeflate {
        private typealias Allocate = @convention(c) (Int32) -> OpaquePointer?
        private typealias Compress =
            @convention(c) (OpaquePointer?, UnsafeRawPointer?, Int, UnsafeMutableRawPointer?, Int) -> Int
        private typealias Bound = @convention(c) (OpaquePointer?, Int) -> Int
        private typealias Free = @convention(c) (OpaquePointer?) -> Void
        private typealias AllocateDecompressor = @convention(c) () -> OpaquePointer?
        private typealias Decompress =
            @convention(c) (
                OpaquePointer?, UnsafeRawPointer?, Int, UnsafeMutableRawPointer?, Int,
                UnsafeMutablePointer<Int>?
            ) -> Int32

        private let allocate: Allocate, compress: Compress, bound: Bound, free: Free
        private let allocateDecompressor: AllocateDecompressor, decompress: Decompress, freeDecompressor: Free

        init?() {
            guard let library = dlopen("libdeflate.so.0", RTLD_NOW | RTLD_LOCAL),
                let allocate = dlsym(library, "libdeflate_alloc_compressor"),
                let compress = dlsym(library, "libdeflate_zlib_compress"),
                let bound = dlsym(library, "libdeflate_zlib_compress_bound"),
                let free = dlsym(library, "libdeflate_free_compressor"),
                let allocateDecompressor = dlsym(library, "libdeflate_alloc_decompressor"),
                let decompress = dlsym(library, "libdeflate_zlib_decompress"),
                let freeDecompressor = dlsym(library, "libdeflate_free_decompressor")
            else { return nil }
            self.allocate = unsafeBitCast(allocate, to: Allocate.self)
            self.compress = unsafeBitCast(compress, to: Compress.self)
            self.bound = unsafeBitCast(bound, to: Bound.self)
            self.free = unsafeBitCast(free, to: Free.self)
            self.allocateDecompressor = unsafeBitCast(allocateDecompressor, to: AllocateDecompressor.self)
            self.decompress = unsafeBitCast(decompress, to: Decompress.self)
            self.freeDecompressor = unsafeBitCast(freeDecompressor, to: Free.self)
        }

        /// A compressor kept across calls, as an encoder built on libdeflate would keep one per thread.
        func compressor(level: Int) -> Compressor? {
            allocate(Int32(level)).map { Compressor(handle: $0, library: self) }
        }

        func decompressor() -> Decompressor? {
            allocateDecompressor().map { Decompressor(handle: $0, library: self) }
        }

        final class Compressor {
            let handle: OpaquePointer
            let library: LibDeflate
            init(handle: OpaquePointer, library: LibDeflate) {
                self.handle = handle
                self.library = library
            }
            deinit { library.free(handle) }

            /// The zlib stream of `bytes`.
            func compress(_ bytes: [UInt8]) -> Data {
                var output = Data(count: library.bound(handle, bytes.count))
                let count = output.withUnsafeMutableBytes { target in
                    bytes.withUnsafeBytes {
                        library.compress(handle, $0.baseAddress, $0.count, target.baseAddress, target.count)
                    }
                }
                output.count = count
                return output
            }
        }

        final class Decompressor {
            let handle: OpaquePointer
            let library: LibDeflate
            init(handle: OpaquePointer, library: LibDeflate) {
                self.handle = handle
                self.library = library
            }
            deinit { library.freeDecompressor(handle) }

            /// Inflates a zlib stream that fills `output` exactly.
            func decompress(_ stream: [UInt8], into output: inout [UInt8]) throws {
                let status = output.withUnsafeMutableBytes { target in
                    stream.withUnsafeBytes {
                        library.decompress(handle, $0.baseAddress, $0.count, target.baseAddress, target.count, nil)
                    }
                }
                guard status == 0 else {
                    throw BenchmarkError(description: "libdeflate could not inflate (status \(status))")
                }
            }
        }
    }

    /// libpng 1.6's simplified reading API, opened at run time (cairo links the same library).
    final class LibPNG {
        private typealias Begin = @convention(c) (UnsafeMutableRawPointer?, UnsafeRawPointer?, Int) -> Int32
        private typealias Finish =
            @convention(c) (
                UnsafeMutableRawPointer?, UnsafeRawPointer?, UnsafeMutableRawPointer?, Int32,
                UnsafeMutableRawPointer?
            ) -> Int32
        private typealias Free = @convention(c) (UnsafeMutableRawPointer?) -> Void
        private typealias Version = @convention(c) () -> UInt32

        private let begin: Begin, finish: Finish, free: Free
        /// The library's version, such as 1.6.39.
        let version: String

        init?() {
            guard let library = dlopen("libpng16.so.16", RTLD_NOW | RTLD_LOCAL),
                let begin = dlsym(library, "png_image_begin_read_from_memory"),
                let finish = dlsym(library, "png_image_finish_read"),
                let free = dlsym(library, "png_image_free"), let version = dlsym(library, "png_access_version_number")
            else { return nil }
            self.begin = unsafeBitCast(begin, to: Begin.self)
            self.finish = unsafeBitCast(finish, to: Finish.self)
            self.free = unsafeBitCast(free, to: Free.self)
            let number = unsafeBitCast(version, to: Version.self)()
            self.version = "\(number / 10_000).\(number / 100 % 100).\(number % 100)"
        }

        /// Decodes PNG bytes to straight RGBA into `output`, which must hold the image; false when libpng refuses them.
        ///
        /// `png_image` is an opaque pointer then seven 32-bit fields (version, width, height, format, flags, colour-map
        /// entries, warning or error) and a 64-byte message: 104 bytes on 64-bit machines, laid out here by offset.
        func decode(_ data: Data, into output: inout [UInt8]) throws -> Bool {
            let image = UnsafeMutableRawPointer.allocate(byteCount: 104, alignment: 8)
            defer { image.deallocate() }
            image.initializeMemory(as: UInt8.self, repeating: 0, count: 104)
            image.storeBytes(of: 1, toByteOffset: 8, as: UInt32.self)  // PNG_IMAGE_VERSION
            defer { free(image) }
            let started = data.withUnsafeBytes { begin(image, $0.baseAddress, $0.count) }
            guard started != 0 else { return false }
            let width = Int(image.load(fromByteOffset: 12, as: UInt32.self)),
                height = Int(image.load(fromByteOffset: 16, as: UInt32.self))
            guard output.count >= width * height * 4 else { return false }
            image.storeBytes(of: 3, toByteOffset: 20, as: UInt32.self)  // PNG_FORMAT_RGBA: colour and alpha, 8 bits
            return output.withUnsafeMutableBytes { finish(image, nil, $0.baseAddress, Int32(width * 4), nil) } != 0
        }
    }

    /// Inflates a whole zlib stream into `output` in one call without the Adler-32 check, as the decoder did before it
    /// took libdeflate: the zlib arm of the inflating comparison.
    static func zlibInflate(_ stream: [UInt8], into output: inout [UInt8]) throws {
        var zstream = z_stream()
        guard inflateInit_(&zstream, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw BenchmarkError(description: "zlib could not start")
        }
        defer { inflateEnd(&zstream) }
        inflateValidate(&zstream, 0)
        let status = stream.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { target in
                zstream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
                zstream.avail_in = UInt32(input.count)
                zstream.next_out = target.baseAddress
                zstream.avail_out = UInt32(target.count)
                return CZlib.inflate(&zstream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END || zstream.avail_out == 0 else {
            throw BenchmarkError(description: "zlib could not inflate (status \(status))")
        }
    }
}
