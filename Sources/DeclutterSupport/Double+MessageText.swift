extension Double {
    /// The number as a message quotes it: as JSON writes it (`2.5`, `20`), and `nan` or `inf` for what JSON cannot
    /// hold, where JSON's `null` would hide what the user typed.
    public var messageText: String {
        if isNaN { return "nan" }
        if isInfinite { return self < 0 ? "-inf" : "inf" }
        return JSONValue.format(self)
    }
}
