import DeclutterGeometry
import Foundation

/// One document fetched over HTTP(S) through libcurl, as the tile sources fetch tiles: a style for `declutter tiles
/// --base-style URL`.
public enum HTTPDocument {
    /// The body of `url` when it answers 200.
    ///
    /// - Throws: ``TileFailure`` with the status, the size limit passed, or the transport's failure.
    public static func get(_ url: String, timeout: TimeInterval = 30, maximumBytes: Int = 16 << 20) throws -> Data {
        let client = HTTPClient(
            timeout: timeout, userAgent: "Declutter (https://github.com/declutter)", maximumBodyBytes: maximumBytes)
        switch client.connection().get(url) {
        case let .answer(status, body, _):
            guard status == 200 else { throw TileFailure("the server answered \(status)") }
            return body
        case let .tooLarge(limit):
            throw TileFailure("the answer is larger than \(limit >> 20) MB")
        case let .transportFailure(reason):
            throw TileFailure(reason)
        }
    }
}
