/// RFC 3986 percent-encoding of one URL path segment, as static-map URLs carry overlays and GeoJSON.
enum PercentEncoding {
    /// The bytes of `segment` with every `%XX` replaced by its byte; `+` stays a plus, as it does in a path.
    ///
    /// - Throws: ``StaticMapRequestError`` (400, `field`) for a `%` without two hexadecimal digits after it.
    static func decode(_ segment: Substring, field: String) throws -> [UInt8] {
        let bytes = Array(segment.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            guard byte == UInt8(ascii: "%") else {
                output.append(byte)
                index += 1
                continue
            }
            guard index + 2 < bytes.count,
                let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2])
            else {
                let found = String(decoding: bytes[index..<min(index + 3, bytes.count)], as: UTF8.self)
                throw StaticMapRequestError(
                    field: field,
                    message:
                        "\"\(found)\" at byte \(index + 1) of the \(field) is not a percent-encoded byte (% and two hexadecimal digits)"
                )
            }
            output.append(high << 4 | low)
            index += 3
        }
        return output
    }

    /// `segment` decoded as UTF-8 text.
    ///
    /// - Throws: ``StaticMapRequestError`` (400) for a bad escape or bytes that are not UTF-8.
    static func decodeText(_ segment: Substring, field: String) throws -> String {
        let bytes = try decode(segment, field: field)
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw StaticMapRequestError(field: field, message: "the \(field) is not UTF-8 text once percent-decoded")
        }
        return text
    }

    /// `text` with every byte outside a path segment's characters (unreserved, sub-delimiters, `:` and `@`) escaped;
    /// `%` and `/` are always escaped.
    static func encode(_ text: String) -> String {
        var output = ""
        for byte in text.utf8 {
            if isSegmentCharacter(byte) {
                output.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                let digits = Array("0123456789ABCDEF".utf8)
                output += "%"
                output.unicodeScalars.append(Unicode.Scalar(digits[Int(byte >> 4)]))
                output.unicodeScalars.append(Unicode.Scalar(digits[Int(byte & 15)]))
            }
        }
        return output
    }

    private static func isSegmentCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return Array("-._~!$&'()*+,;=:@".utf8).contains(byte)
        }
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
