import DeclutterInput
import Foundation

/// Reads `text` as the file `name` (its extension picks the format).
func readPoints(_ text: String, name: String = "points.csv", _ reader: PointReader = PointReader()) throws
    -> PointReader.Result
{
    try reader.read(Data(text.utf8), name: name)
}

/// The error reading `text` throws, as printed; nil when it reads.
func readingMessage(_ text: String, name: String = "points.csv", _ reader: PointReader = PointReader()) -> String? {
    do {
        _ = try readPoints(text, name: name, reader)
        return nil
    } catch {
        return "\(error)"
    }
}
