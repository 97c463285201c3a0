extension Sequence<UInt8> {
    /// The offset of the first byte that begins no valid UTF-8 sequence (a stray continuation byte, a sequence cut
    /// short, an overlong or surrogate form), as Swift's own decoder judges; nil when the bytes are all valid UTF-8.
    ///
    /// Text read with `String(decoding:as:)` has U+FFFD in such places: readers of names and categories that find text
    /// invalid (``Swift/String/init(validUTF8:)``) ask here where, to refuse it saying so rather than keep it silently
    /// changed.
    public var firstInvalidUTF8Offset: Int? {
        var iterator = makeIterator(), parser = Unicode.UTF8.ForwardParser(), offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let scalar): offset += scalar.count
            case .error: return offset
            case .emptyInput: return nil
            }
        }
    }
}
