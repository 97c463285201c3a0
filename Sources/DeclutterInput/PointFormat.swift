import DeclutterClustering
import Foundation

/// The formats ``PointReader`` reads: CSV (or TSV), GeoJSON, the TANDm property list.
public enum PointFormat: String, Sendable, Hashable, CaseIterable {
    /// Delimited text with a header row.
    case csv
    /// A FeatureCollection of Point and MultiPoint features.
    case geojson
    /// The TANDm sample's `Data.plist`, XML or binary.
    case plist

    /// The format a file's extension names: `.csv`/`.tsv`, `.geojson`/`.json`, `.plist`; nil for any other.
    public init?(pathExtension: String) {
        switch pathExtension.lowercased() {
        case "csv", "tsv": self = .csv
        case "geojson", "json": self = .geojson
        case "plist": self = .plist
        default: return nil
        }
    }

    /// The format the content looks like, for input without a name (standard input): JSON starts with `{` or `[`,
    /// a property list with `<?xml` or `bplist`; anything else is taken for CSV, whose header can start with anything.
    public static func sniffed(from data: Data) -> PointFormat {
        var bytes = data.prefix(4096)[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        if bytes.starts(with: Array("bplist".utf8)) { return .plist }
        guard let first = bytes.firstIndex(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) else { return .csv }
        let text = bytes[first...]
        if text.first == UInt8(ascii: "{") || text.first == UInt8(ascii: "[") { return .geojson }
        if text.starts(with: Array("<?xml".utf8)) { return .plist }
        return .csv
    }

    /// Where the first bytes of `data` (the first 64 KB) stop looking like text: the offset of a NUL byte or of a
    /// malformed UTF-8 sequence; nil when they look like text. A sequence cut at the end of the sample counts as text.
    public static func binaryOffset(in data: Data) -> Int? {
        let sample = data.prefix(1 << 16)
        return sample.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> Int? in
            let bytes = raw.bindMemory(to: UInt8.self)
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                if byte == 0 { return index }
                if byte < 0x80 {
                    index += 1
                    continue
                }
                let length = byte >= 0xF0 && byte <= 0xF4 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC2 && byte < 0xE0 ? 2 : 0
                guard length > 0 else { return index }
                for next in 1..<length where index + next < bytes.count && bytes[index + next] & 0xC0 != 0x80 {
                    return index
                }
                index += length
            }
            return nil
        }
    }
}
