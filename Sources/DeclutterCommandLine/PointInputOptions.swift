import ArgumentParser
import DeclutterInput
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How to read the points of `--input` (and `serve`'s `--dataset` files): shared by `render`, `cluster`, `tiles`,
/// `serve` and `bench cluster`, so that a file one reads the others read the same way.
package struct PointInputOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The input's format: csv, geojson or plist (default: from the extension; for standard input, from the content).",
            valueName: "csv|geojson|plist"))
    var format: String?

    @Option(
        help: ArgumentHelp(
            "CSV: the character between fields: ',', ';', tab or '|' (default: whichever of ',' ';' and tab the header line has most of).",
            valueName: "char"))
    var delimiter: String?

    @Option(
        help: ArgumentHelp(
            "CSV: the latitude column (default: lat, latitude, latitude_deg or lat_deg in any case, else y).",
            valueName: "column"))
    var lat: String?

    @Option(
        help: ArgumentHelp(
            "CSV: the longitude column (default: lon, lng, long, longitude, longitude_deg or lon_deg, else x).",
            valueName: "column"))
    var lon: String?

    /// What `--input -` reads, and how messages name it.
    package static let standardInputName = "<stdin>"

    /// How messages name an `--input`: its path, or ``standardInputName`` for `-`.
    package static func name(of input: String) -> String { input == "-" ? standardInputName : input }

    package init() {}

    package func validate() throws {
        _ = try pointFormat()
        _ = try separator()
    }

    /// `--format` as a format; nil when not given.
    func pointFormat() throws -> PointFormat? {
        guard let format else { return nil }
        switch format.lowercased() {
        case "csv", "tsv": return .csv
        case "geojson", "json": return .geojson
        case "plist": return .plist
        default: throw ValidationError("--format must be csv, geojson or plist, got \(format)")
        }
    }

    /// `--delimiter` as a character; nil when not given.
    func separator() throws -> Character? {
        guard let delimiter else { return nil }
        switch delimiter.lowercased() {
        case ",", "comma": return ","
        case ";", "semicolon": return ";"
        case "|", "pipe": return "|"
        // `\t` as typed, or a real tab from `$'\t'`.
        case "tab", "\\t", "\t": return "\t"
        default: throw ValidationError("--delimiter must be ',', ';', tab or '|', got \(delimiter)")
        }
    }

    /// A reader of points as these options say, the categories from `category`, the clustering identifiers from
    /// `groupBy`.
    package func reader(category: String? = nil, groupBy: String? = nil, skipInvalid: Bool = false) throws
        -> PointReader
    {
        PointReader(
            categoryProperty: category, identifierProperty: groupBy, skipInvalid: skipInvalid,
            format: try pointFormat(), delimiter: try separator(), latitudeColumn: lat, longitudeColumn: lon)
    }

    /// Reads `input` (`-` for standard input) and prints the reader's warnings on stderr; returns the points and the
    /// format they were read in.
    package func read(_ input: String, category: String? = nil, groupBy: String? = nil, skipInvalid: Bool = false)
        throws
        -> (points: PointReader.Result, format: PointFormat)
    {
        var reader = try reader(category: category, groupBy: groupBy, skipInvalid: skipInvalid)
        let result: PointReader.Result
        if input == "-" {
            result = try reader.read(from: Self.readStandardInput, name: Self.standardInputName)
            reader.format = result.format
        } else {
            let url = URL(fileURLWithPath: input)
            // An unknown extension without --format is left to the reader, whose message names the file.
            reader.format = reader.format ?? PointFormat(pathExtension: url.pathExtension)
            result = try reader.read(contentsOf: url)
        }
        for warning in result.warnings { StandardError.write("warning: \(warning)\n") }
        return (result, reader.format ?? .csv)
    }

    /// Fills what it can of `buffer` from standard input; returns the bytes read, 0 at its end.
    ///
    /// - Throws: ``InputError`` naming `<stdin>` when reading fails.
    static func readStandardInput(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        try PointReader.readStream(STDIN_FILENO, into: buffer, file: standardInputName, what: "standard input")
    }
}
