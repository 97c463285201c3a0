import Foundation

/// What a `Range` header (RFC 9110 §14.2) asks of a file of a known size: the whole file, one part, or nothing the
/// file has.
///
/// One range of bytes is served; a header in another unit, with several ranges or of invalid syntax is ignored and
/// the whole file sent, as the RFC allows (the pmtiles protocol, the reader this is for, asks one range at a time).
enum ByteRange: Equatable {
    /// No range, or one ignored: 200 and every byte.
    case whole
    /// 206 and these bytes.
    case part(Range<Int>)
    /// 416: the range starts at or past the end.
    case unsatisfiable

    /// Resolves `header` against a file of `size` bytes.
    init(header: String?, size: Int) {
        // Range units are compared without regard to case (§14.1): `BYTES=0-6` is a range of bytes.
        guard let header, header.prefix(6).lowercased() == "bytes=" else {
            self = .whole
            return
        }
        let spec = header.dropFirst(6).trimmingCharacters(in: .whitespaces)
        let parts = spec.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard !spec.contains(","), parts.count == 2, parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } })
        else {
            self = .whole
            return
        }
        // Numbers past Int's range are as far past the end as any.
        let first = parts[0].isEmpty ? nil : Int(parts[0]) ?? Int.max
        let last = parts[1].isEmpty ? nil : Int(parts[1]) ?? Int.max
        switch (first, last) {
        case (let first?, let last?) where first <= last:
            self = first < size ? .part(first..<(min(last, size - 1) + 1)) : .unsatisfiable
        case (let first?, nil):
            self = first < size ? .part(first..<size) : .unsatisfiable
        case (nil, let suffix?):
            self = suffix > 0 && size > 0 ? .part(max(0, size - suffix)..<size) : .unsatisfiable
        default:
            self = .whole
        }
    }
}
