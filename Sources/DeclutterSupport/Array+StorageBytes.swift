extension Array {
    /// The bytes its elements' storage holds: its capacity, not its count, as an array grown by appending holds up
    /// to twice what it fills. What a byte-bounded cache (``ByteLimitedCache``) counts an array as.
    public var storageBytes: Int { capacity * MemoryLayout<Element>.stride }
}
