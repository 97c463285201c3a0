import DeclutterClustering
import Foundation

/// The formats ``PointReader`` reads: CSV (or TSV), GeoJSON, the TANDm property list.
public enum PointFormat: String, Sendable, Hashable, CaseIterable {
    /// Delimited text with a header row.
    case csv
    /// A FeatureCollection of Point and MultiPoint features, or a sequence of such features (one a line, or each after
    /// a record separator, as RFC 8142's GeoJSON text sequences and tippecanoe's input have them).
    case geojson
    /// The TANDm sample's `Data.plist`, XML or binary.
    case plist

    /// The format a file's extension names: `.csv`/`.tsv`, `.geojson`/`.json` (and the sequences' `.geojsons`,
    /// `.geojsonl`, `.geojsonseq`, `.ndjson`, `.jsonl`), `.plist`; nil for any other.
    public init?(pathExtension: String) {
        switch pathExtension.lowercased() {
        case "csv", "tsv": self = .csv
        case "geojson", "json", "geojsons", "geojsonl", "geojsonseq", "ndjson", "jsonl": self = .geojson
        case "plist": self = .plist
        default: return nil
        }
    }

    /// The format the content looks like, for input without a name (standard input): JSON starts with `{`, `[` or a
    /// record separator (a JSON text sequence), a property list with `<?xml` or `bplist`; anything else is taken for
    /// CSV, whose header can start with anything.
    public static func sniffed(from data: Data) -> PointFormat {
        var bytes = data.prefix(4096)[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        if bytes.starts(with: Array("bplist".utf8)) { return .plist }
        guard let first = bytes.firstIndex(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) else { return .csv }
        let text = bytes[first...]
        // A record separator begins each text of a JSON text sequence (RFC 7464).
        if text.first == UInt8(ascii: "{") || text.first == UInt8(ascii: "[") || text.first == 0x1E { return .geojson }
        if text.starts(with: Array("<?xml".utf8)) { return .plist }
        return .csv
    }

    /// Why `data` cannot be read as this format's UTF-8 text, as an ``InputError`` for `file`: text in a single-byte
    /// code page (Latin-1 or Windows-1252, as Excel saves CSV in much of Europe) is told by its line and how to convert
    /// it; anything else is binary. Nil when the first 64 KB look like UTF-8 text (see ``binaryOffset(in:)``).
    public func notText(_ data: Data, file: String) -> InputError? {
        guard let offset = Self.binaryOffset(in: data) else { return nil }
        let sample = data.prefix(1 << 16), byte = sample[sample.startIndex + offset]
        let expected = "expected \(rawValue.uppercased()) in UTF-8"
        // Text of a code page has bytes over 127 where UTF-8 would have sequences, and no control characters but tabs
        // and line ends; a binary file (an image, say) soon has a control character.
        let controls = sample.contains { $0 < 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D || $0 == 0x7F }
        guard byte >= 0x80, !controls else {
            return InputError(
                file: file, location: nil, message: "is not text (a binary byte at offset \(offset)); \(expected)")
        }
        let line = 1 + sample.prefix(offset).count { $0 == 0x0A }
        return codePageError(
            byte: byte, in: "byte \(byte.hexText) at offset \(offset)", file: file, location: "line \(line)")
    }

    /// The error for `byte`, which is not UTF-8 and is likely text of a single-byte code page, said as `subject`
    /// ("byte 0xE9 at offset 13", "field 2 (name): byte 0xE9"): what the byte reads as in Latin-1 and the `iconv`
    /// command that converts the file (or standard input, through a pipe).
    public func codePageError(byte: UInt8, in subject: String, file: String, location: String) -> InputError {
        let convert =
            file.hasPrefix("<") && file.hasSuffix(">")  // `<stdin>`: no file to name
            ? "pipe it through iconv -f windows-1252 -t utf-8"
            : "convert it: iconv -f windows-1252 -t utf-8 \(file) > utf8.\(rawValue)"
        return InputError(
            file: file, location: location,
            message:
                "\(subject)\(byte.latin1Hint) is not UTF-8; expected \(rawValue.uppercased()) in UTF-8; if the file is "
                + "Windows-1252 or Latin-1 text, \(convert)")
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
