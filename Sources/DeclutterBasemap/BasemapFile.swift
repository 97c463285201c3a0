import CZlib
import DeclutterSupport
import Foundation
import Synchronization

/// The embedded basemap's bytes (written by `Tools/basemap/build.py`, whose header describes the format): zoom
/// bands of Natural Earth geometry cut into grid cells, and the place names.
///
/// The index is read when the file is opened; a cell is inflated and decoded the first time a map shows it and kept
/// within a byte budget, least recently used going first, so a city map decodes a few cells of one band and never
/// the whole world, and a server panning the world keeps a flat footprint. Safe to share between threads.
public final class BasemapFile: Sendable {
    /// One zoom band: its geometry simplified for its top zoom and cut into a 2^level × 2^level grid.
    public struct Band: Sendable {
        /// The lowest zoom the band is drawn at.
        public var minZoom: Int
        /// The highest zoom the band is drawn at; its geometry is simplified to half a pixel there.
        public var maxZoom: Int
        /// The grid is 2^level cells a side.
        public var level: Int
        /// Coordinates are integers, 2^bits per world.
        public var bits: Int
        /// Each non-empty cell's compressed bytes and inflated length, keyed by `row << level | column`.
        public var cells: [Int: (bytes: Range<Int>, inflated: Int)]
    }

    /// The bands, lowest zoom first.
    public let bands: [Band]
    private let data: Data
    private let placeBytes: Range<Int>
    /// Cells decoded, by band and key, within the budget.
    private let cells: ByteLimitedCache<CellKey, BasemapCell>
    /// The place names once decoded.
    private let decodedPlaces = Mutex<[BasemapPlace]?>(nil)

    /// A cell's band and key (`row << level | column`).
    private struct CellKey: Hashable, Sendable {
        var band: Int, key: Int
    }

    /// Reads the index, keeping up to `cellBudget` bytes of decoded cells; throws ``BasemapError`` when it is not a
    /// basemap file.
    public init(_ data: Data, cellBudget: Int) throws {
        self.data = data
        cells = ByteLimitedCache(budget: cellBudget)
        var reader = Reader(bytes: [UInt8](data), position: 0)
        guard try reader.take(4) == Array("DCBM".utf8), try reader.byte() == 1 else {
            throw BasemapError("not a version-1 basemap file")
        }
        var bands: [Band] = []
        for _ in 0..<(try reader.byte()) {
            var band = Band(
                minZoom: Int(try reader.byte()), maxZoom: Int(try reader.byte()), level: Int(try reader.byte()),
                bits: Int(try reader.byte()), cells: [:])
            let count = try reader.uint32()
            band.cells.reserveCapacity(count)
            for _ in 0..<count {
                let column = try reader.uint32(), row = try reader.uint32(), offset = try reader.uint32()
                let length = try reader.uint32(), inflated = try reader.uint32()
                band.cells[row << band.level | column] = (offset..<(offset + length), inflated)
            }
            bands.append(band)
        }
        let placesOffset = try reader.uint32(), placesLength = try reader.uint32()
        // Offsets count from the end of the index.
        let start = reader.position
        for index in bands.indices {
            for (key, cell) in bands[index].cells {
                bands[index].cells[key] = (
                    (cell.bytes.lowerBound + start)..<(cell.bytes.upperBound + start), cell.inflated
                )
            }
        }
        placeBytes = (start + placesOffset)..<(start + placesOffset + placesLength)
        guard !bands.isEmpty, placeBytes.upperBound <= data.count,
            bands.allSatisfy({ $0.cells.values.allSatisfy { $0.bytes.upperBound <= data.count } })
        else {
            throw BasemapError("the index points past the end of the file")
        }
        self.bands = bands
    }

    /// The band drawn at `zoom` (in device pixels: a map's zoom plus log2 of its scale): the one holding it, the
    /// last above the top.
    public func band(forZoom zoom: Double) -> Int {
        let whole = Int(max(0, min(zoom, 64)).rounded(.down))
        return bands.firstIndex { whole <= $0.maxZoom } ?? bands.count - 1
    }

    /// The cell at `column`, `row` of band `band`, decoded unless kept; nil where the band has nothing (open sea).
    public func cell(band: Int, column: Int, row: Int) throws -> BasemapCell? {
        let info = bands[band], key = row << info.level | column
        guard let entry = info.cells[key] else { return nil }
        let cellKey = CellKey(band: band, key: key)
        if let cell = cells.value(for: cellKey) { return cell }
        // Decoded outside any lock: two threads that miss the same cell both decode it, and neither waits.
        let inflated = try inflate(entry.bytes, count: entry.inflated)
        let size = 1 << (info.bits - info.level)
        let cell = try BasemapCell(
            decoding: inflated, originX: column * size, originY: row * size, unitsPerWorld: Double(1 << info.bits))
        cells.insert(cell, for: cellKey, bytes: cell.bytes)
        return cell
    }

    /// The decoded cells' bytes and entries held, and the lookups that found or missed a cell.
    public var cellStatistics: (bytes: Int, entries: Int, hits: Int, misses: Int, evictions: Int) {
        cells.statistics
    }

    /// The place names, decoded once: by min zoom, then largest population first.
    public func places() throws -> [BasemapPlace] {
        try decodedPlaces.withLock { decoded in
            if let places = decoded { return places }
            var reader = Reader(bytes: [UInt8](data[placeBytes]), position: 0)
            let count = try reader.varint()
            var places: [BasemapPlace] = []
            places.reserveCapacity(min(count, 100_000))
            for _ in 0..<count {
                let minZoom = Double(try reader.byte()) / 10
                let x = Double(try reader.varint()) / Double(1 << 24), y = Double(try reader.varint()) / Double(1 << 24)
                let name = String(decoding: try reader.take(try reader.varint()), as: UTF8.self)
                places.append(BasemapPlace(name: name, x: x, y: y, minZoom: minZoom))
            }
            decoded = places
            return places
        }
    }

    /// zlib's one-call inflate of a cell whose inflated length the index gives.
    private func inflate(_ range: Range<Int>, count: Int) throws -> [UInt8] {
        var output = [UInt8](repeating: 0, count: count)
        var length = uLongf(count)
        let status = data[range].withUnsafeBytes { source in
            output.withUnsafeMutableBytes { target in
                uncompress(
                    target.baseAddress?.assumingMemoryBound(to: Bytef.self), &length,
                    source.baseAddress?.assumingMemoryBound(to: Bytef.self), uLong(range.count))
            }
        }
        guard status == Z_OK, Int(length) == count else {
            throw BasemapError("a cell does not inflate (zlib status \(status))")
        }
        return output
    }

    /// Reads the file's little-endian integers and varints, throwing at the end of the bytes.
    struct Reader {
        var bytes: [UInt8]
        var position: Int

        mutating func byte() throws -> UInt8 {
            guard position < bytes.count else { throw BasemapError("unexpected end of data") }
            defer { position += 1 }
            return bytes[position]
        }

        mutating func take(_ count: Int) throws -> [UInt8] {
            guard count >= 0, count <= bytes.count - position else {
                throw BasemapError("unexpected end of data")
            }
            defer { position += count }
            return Array(bytes[position..<(position + count)])
        }

        mutating func uint32() throws -> Int {
            var value = 0
            for shift in stride(from: 0, to: 32, by: 8) { value |= Int(try byte()) << shift }
            return value
        }

        /// An unsigned LEB128 varint of up to 63 bits.
        mutating func varint() throws -> Int {
            var value = 0, shift = 0
            while true {
                let next = try byte()
                value |= Int(next & 0x7F) << shift
                if next < 0x80 { return value }
                shift += 7
                guard shift < 63 else { throw BasemapError("a varint is too long") }
            }
        }

        /// A zigzag varint: 0, -1, 1, -2 … stored as 0, 1, 2, 3 ….
        mutating func signedVarint() throws -> Int {
            let value = try varint()
            return (value >> 1) ^ -(value & 1)
        }
    }
}
