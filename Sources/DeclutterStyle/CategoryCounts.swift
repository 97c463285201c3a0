import DeclutterSupport

/// How many members of each category a cluster holds, in the order they were given.
public struct CategoryCounts: Sendable, Hashable {
    /// Category name and member count pairs; names are distinct, counts ≥ 0.
    public private(set) var entries: [(name: String, count: Int)]

    /// Creates counts from pairs; a repeated name adds to the earlier entry.
    public init(_ entries: [(name: String, count: Int)] = []) {
        self.entries = []
        for entry in entries { add(entry.count, to: entry.name) }
    }

    /// Adds members to a category.
    public mutating func add(_ count: Int, to name: String) {
        if let index = entries.firstIndex(where: { $0.name == name }) {
            entries[index].count += count
        } else {
            entries.append((name, count))
        }
    }

    /// The members of one category (0 if absent).
    public subscript(name: String) -> Int {
        entries.first { $0.name == name }?.count ?? 0
    }

    /// All members.
    public var total: Int { entries.reduce(0) { $0 + $1.count } }

    /// Parses `bicycle=3,tricycle=2` and checks each name against the style.
    ///
    /// - Throws: ``CountsError`` for a malformed pair, an unknown category, a category given twice, a negative or
    ///   non-numeric count, or counts that add up to nothing.
    public static func parse(_ text: String, style: MarkerStyle) throws -> CategoryCounts {
        var counts = CategoryCounts()
        var given = Set<String>()
        for pair in text.split(separator: ",", omittingEmptySubsequences: false) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, !parts[0].isEmpty else {
                throw CountsError("expected CATEGORY=COUNT, got \"\(pair)\"")
            }
            let name = String(parts[0]).trimmingWhitespace
            let value = String(parts[1]).trimmingWhitespace
            guard style.category(named: name) != nil else {
                let known = style.categories.map(\.name).nameList()
                throw CountsError("unknown category \"\(name.escapedForTerminal)\"; the style has: \(known)")
            }
            // Summing `blue=1,blue=2` would draw a count the user did not write.
            guard given.insert(name).inserted else {
                throw CountsError("\"\(name.escapedForTerminal)\" is given twice; expected each category once")
            }
            guard let count = Int(value), count >= 0 else {
                // Only digits, yet no Int: a whole number past Int's range.
                if !value.isEmpty && value.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) {
                    throw CountsError("the count for \"\(name)\" is too large (at most \(maximumCount) members in all)")
                }
                throw CountsError("the count for \"\(name)\" must be a whole number ≥ 0, got \"\(value)\"")
            }
            guard count <= maximumCount else {
                throw CountsError("the count for \"\(name)\" is too large (at most \(maximumCount) members in all)")
            }
            counts.add(count, to: name)
        }
        guard counts.total >= 1 else { throw CountsError("the counts must add up to at least 1") }
        guard counts.total <= maximumCount else {
            throw CountsError("the counts add up to more than \(maximumCount)")
        }
        return counts
    }

    /// The largest total accepted (one billion), far beyond any map yet small enough to never overflow.
    public static let maximumCount = 1_000_000_000

    /// Two counts are equal when they hold the same members per category, whatever the order.
    public static func == (lhs: CategoryCounts, rhs: CategoryCounts) -> Bool {
        let left = lhs.entries.filter { $0.count > 0 }, right = rhs.entries.filter { $0.count > 0 }
        return left.count == right.count && left.allSatisfy { rhs[$0.name] == $0.count }
    }

    /// Hashes the non-zero counts independent of order.
    public func hash(into hasher: inout Hasher) {
        for entry in entries.filter({ $0.count > 0 }).sorted(by: { $0.name < $1.name }) {
            hasher.combine(entry.name)
            hasher.combine(entry.count)
        }
    }
}

/// Counts given on the command line that cannot be drawn.
public struct CountsError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was wrong and what was expected.
    public var description: String
    /// Creates an error with its message.
    public init(_ description: String) { self.description = description }
}

extension String {
    /// The string without leading and trailing spaces and tabs.
    var trimmingWhitespace: String {
        var view = Substring(self)
        while view.first == " " || view.first == "\t" { view = view.dropFirst() }
        while view.last == " " || view.last == "\t" { view = view.dropLast() }
        return String(view)
    }
}

extension CountsError: DeclutterError {
    /// Counts that cannot be drawn are out of range.
    public var kind: FailureKind { .outOfRange }
}
