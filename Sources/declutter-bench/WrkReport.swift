import DeclutterTiles
import Foundation

/// The figures of one `wrk --latency` run, read from the text wrk prints (wrk 4: `Requests/sec:`, the `Latency
/// Distribution` lines, `N requests in …`, and the `Socket errors:` and `Non-2xx or 3xx responses:` lines, which
/// wrk prints only when they are not zero).
struct WrkReport: Equatable {
    var requestsPerSecond: Double
    /// The median and 99th-percentile latency, in milliseconds.
    var p50Milliseconds: Double
    var p99Milliseconds: Double
    /// Every response wrk read.
    var requests: Int
    /// Responses with a status of 400 or more: wrk's "Non-2xx or 3xx responses", which counts those.
    var non2xx = 0
    /// Failed connects, reads and writes and requests that timed out (wrk's default timeout is 2 s).
    var socketErrors = 0

    /// Output that is not wrk's report, with the reason.
    struct ParseError: Error, CustomStringConvertible {
        var description: String
    }

    /// Reads wrk's report.
    ///
    /// - Throws: ``ParseError`` naming the line that is missing or unreadable.
    init(parsing text: String) throws {
        let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
        func fields(after prefix: String) throws -> [Substring] {
            guard let line = lines.first(where: { $0.hasPrefix(prefix) }) else {
                throw ParseError(description: "wrk's report has no \"\(prefix)\" line: \(text.suffix(1000))")
            }
            return line.dropFirst(prefix.count).split(whereSeparator: { $0 == " " || $0 == "," })
        }
        func number(_ field: Substring?, in prefix: String) throws -> Double {
            guard let field, let value = Double(field) else {
                throw ParseError(description: "wrk's \"\(prefix)\" line is not a number: \(field ?? "")")
            }
            return value
        }
        requestsPerSecond = try number(try fields(after: "Requests/sec:").first, in: "Requests/sec:")
        p50Milliseconds = try Self.milliseconds(try fields(after: "50%").first, line: "50%")
        p99Milliseconds = try Self.milliseconds(try fields(after: "99%").first, line: "99%")
        // "8000 requests in 10.00s, 1.00MB read"
        guard let total = lines.first(where: { $0.contains(" requests in ") })?.split(separator: " ").first,
            let count = Int(total)
        else {
            throw ParseError(description: "wrk's report has no \"N requests in\" line: \(text.suffix(1000))")
        }
        requests = count
        // "Socket errors: connect 0, read 0, write 0, timeout 0"
        if lines.contains(where: { $0.hasPrefix("Socket errors:") }) {
            let words = try fields(after: "Socket errors:")
            socketErrors = try stride(from: 1, to: words.count, by: 2).reduce(0) { sum, index in
                guard let value = Int(words[index]) else {
                    throw ParseError(description: "wrk's \"Socket errors:\" line is not counts: \(words)")
                }
                return sum + value
            }
        }
        if lines.contains(where: { $0.hasPrefix("Non-2xx or 3xx responses:") }) {
            non2xx = Int(
                try number(try fields(after: "Non-2xx or 3xx responses:").first, in: "Non-2xx or 3xx responses:"))
        }
    }

    init(
        requestsPerSecond: Double, p50Milliseconds: Double, p99Milliseconds: Double, requests: Int, non2xx: Int = 0,
        socketErrors: Int = 0
    ) {
        self.requestsPerSecond = requestsPerSecond
        self.p50Milliseconds = p50Milliseconds
        self.p99Milliseconds = p99Milliseconds
        self.requests = requests
        self.non2xx = non2xx
        self.socketErrors = socketErrors
    }

    /// A wrk time (`812.00us`, `9.50ms`, `1.20s`, `2.00m`) in milliseconds.
    static func milliseconds(_ field: Substring?, line: String) throws -> Double {
        let units: [(suffix: String, milliseconds: Double)] = [
            ("us", 0.001), ("ms", 1), ("s", 1000), ("m", 60_000), ("h", 3_600_000),
        ]
        if let field, let unit = units.first(where: { field.hasSuffix($0.suffix) }),
            let value = Double(field.dropLast(unit.suffix.count))
        {
            return value * unit.milliseconds
        }
        throw ParseError(description: "wrk's \"\(line)\" latency is not a time: \(field ?? "")")
    }
}
