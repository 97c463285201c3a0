import Foundation

/// HTTP's date format (RFC 9110 §5.6.7, IMF-fixdate): `Sun, 06 Nov 1994 08:49:37 GMT`, read from a tile server's
/// `Retry-After` and written in the server's own refusals.
public enum HTTPDate {
    /// A formatter of the format, in English and GMT whatever the machine's locale. Made per use: refusals and
    /// `Retry-After` dates are rare, and a shared one would not be safe across threads.
    public static func formatter() -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter
    }
}
