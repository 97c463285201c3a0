extension String {
    /// The name of `names` a misspelling of this one most likely meant, for a "did you mean" in a message: one equal
    /// but for case, else the nearest by edit distance (insertions, deletions, substitutions, swaps of neighbours), at
    /// most two edits and fewer than half this name's length; ties go to the earlier name. Nil when none is that near.
    ///
    /// ```swift
    /// "Kind".nearestName(among: ["name", "kind"])   // "kind"
    /// "knid".nearestName(among: ["name", "kind"])   // "kind"
    /// "zip".nearestName(among: ["name", "kind"])    // nil
    /// ```
    public func nearestName(among names: some Sequence<String>) -> String? {
        let lowered = lowercased()
        var best: (name: String, distance: Int)? = nil
        for name in names where name != self {
            if name.lowercased() == lowered { return name }
            let distance = Array(lowered).editDistance(to: Array(name.lowercased()))
            if distance <= 2, 2 * distance < count, distance < best?.distance ?? .max { best = (name, distance) }
        }
        return best?.name
    }
}

extension Array where Element: Equatable {
    /// The optimal string alignment distance to `other`: Levenshtein's, with a swap of two neighbours one edit (the
    /// commonest slip in typing a name), a row of the table at a time.
    func editDistance(to other: [Element]) -> Int {
        var beforePrevious = [Int](repeating: 0, count: other.count + 1)
        var previous = [Int](0...other.count), current = previous
        for (i, element) in enumerated() {
            current[0] = i + 1
            for (j, otherElement) in other.enumerated() {
                current[j + 1] = Swift.min(
                    previous[j + 1] + 1, current[j] + 1, previous[j] + (element == otherElement ? 0 : 1))
                if i > 0, j > 0, element == other[j - 1], self[i - 1] == otherElement {
                    current[j + 1] = Swift.min(current[j + 1], beforePrevious[j - 1] + 1)
                }
            }
            (beforePrevious, previous, current) = (previous, current, beforePrevious)
        }
        return previous[other.count]
    }
}
