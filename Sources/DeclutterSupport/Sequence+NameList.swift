extension Sequence where Element == String {
    /// Names for a message: escaped for the terminal, joined by commas, the first `limit` only and then
    /// "… and N more", so that a style of 1,000 categories or a header of 500 columns keeps the message readable.
    ///
    /// ```swift
    /// ["bus", "tram", "ferry"].nameList(quoted: true, limit: 2)   // "bus", "tram" and 1 more
    /// ```
    public func nameList(quoted: Bool = false, limit: Int = 10) -> String {
        let names = Array(self)
        let shown = names.prefix(limit).map { quoted ? "\"\($0.escapedForTerminal)\"" : $0.escapedForTerminal }
        let rest = names.count - shown.count
        return shown.joined(separator: ", ") + (rest > 0 ? " and \(rest) more" : "")
    }

    /// Words joined as a sentence lists them: `["a", "b", "c"]` is "a, b and c", one word is itself.
    public func joinedWithAnd() -> String {
        let words = Array(self)
        guard let last = words.last, words.count > 1 else { return words.first ?? "" }
        return words.dropLast().joined(separator: ", ") + " and " + last
    }
}
