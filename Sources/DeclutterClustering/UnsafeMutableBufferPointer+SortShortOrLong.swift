extension UnsafeMutableBufferPointer {
    /// Sorts by a key: short runs (most bands and neighbour lists) by insertion, without a call a comparison; long
    /// ones by the standard library's sort.
    @inline(__always)
    mutating func sortShortOrLong<Key: Comparable>(by key: (Element) -> Key) {
        guard count > 32 else {
            for position in 1..<Swift.max(1, count) {
                let element = self[position], value = key(element)
                var slot = position
                while slot > 0 && key(self[slot - 1]) > value {
                    self[slot] = self[slot - 1]
                    slot -= 1
                }
                self[slot] = element
            }
            return
        }
        sort { key($0) < key($1) }
    }
}
