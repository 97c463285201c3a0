import Foundation

/// A JSON object with its keys in order.
///
/// Its values are kept in one array and its keys in a table that objects of one shape share: a point read from a CSV
/// row carries one such object, and the rows of a file (or the features of a GeoJSON file with the same properties)
/// keep their keys once. With the keys beside each value, 144,563 cities of four columns took 27.8 MB of properties;
/// with a dictionary beside the keys, 71 MB. Keys are searched in order while there are few; a table that grows past
/// ``indexedCount`` keys (a style, a sprite index) keeps a dictionary of their places too, so that large objects are
/// read and built in constant time a key.
public struct JSONObject: Sendable, Hashable {
    /// Keys in order, and their places once there are more than ``indexedCount``.
    ///
    /// Shared between objects, and changed in place only while one object holds it (copy on write), so no two
    /// threads ever change one.
    final class Keys: @unchecked Sendable {
        private(set) var names: [String]
        private(set) var places: [String: Int]?

        init(names: [String] = []) {
            self.names = names
            index()
        }

        /// The place of `key`.
        func place(of key: String) -> Int? {
            if let places { return places[key] }
            return names.firstIndex(of: key)
        }

        func append(_ key: String) {
            names.append(key)
            if places != nil {
                places?[key] = names.count - 1
            } else if names.count > JSONObject.indexedCount {
                index()
            }
        }

        func remove(at place: Int) {
            names.remove(at: place)
            index()
        }

        /// Builds ``places`` afresh, or drops it when there are few keys.
        private func index() {
            guard names.count > JSONObject.indexedCount else {
                places = nil
                return
            }
            var places: [String: Int] = [:]
            places.reserveCapacity(names.count)
            for (place, name) in names.enumerated() { places[name] = place }
            self.places = places
        }
    }

    /// The members as key–value pairs, in order.
    public struct Members: RandomAccessCollection, Sendable {
        fileprivate let names: [String]
        fileprivate let values: [JSONValue]
        public var startIndex: Int { 0 }
        public var endIndex: Int { values.count }
        public subscript(position: Int) -> (key: String, value: JSONValue) { (names[position], values[position]) }
    }

    /// The keys, shared with other objects of the same keys.
    private var table: Keys
    /// The values, in the keys' order.
    private var values: [JSONValue]

    /// The table of empty objects, shared by all of them (and so never changed: the first key copies it).
    private static let noKeys = Keys()

    /// The most keys searched in order; an object with more keeps a dictionary of their places.
    static let indexedCount = 12

    /// Creates an object from key–value pairs; a repeated key keeps its first place and last value.
    public init(_ pairs: [(String, JSONValue)] = []) {
        table = Self.noKeys
        values = []
        values.reserveCapacity(pairs.count)
        for (key, value) in pairs { self[key] = value }
    }

    /// An object with `template`'s keys and `values` in their order, sharing `template`'s key table: the rows of a
    /// file, whose keys are its header's.
    ///
    /// - Precondition: As many values as `template` has keys.
    public init(keysOf template: JSONObject, values: [JSONValue]) {
        precondition(values.count == template.count, "\(values.count) values for \(template.count) keys")
        table = template.table
        self.values = values
    }

    /// The members in order.
    public var members: Members { Members(names: table.names, values: values) }

    /// The keys in order.
    public var keys: [String] { table.names }

    /// The place of `key` among ``keys``, nil when the object has no such key: found in the key table's index, where
    /// `keys.firstIndex(of:)` reads every key (a CSV header of 100,000 columns looked up its own names in 24 s).
    public func place(of key: String) -> Int? { table.place(of: key) }

    /// How many keys the object has.
    public var count: Int { values.count }

    /// Whether the object shares its key table with `other` (kept once for both).
    public func sharesKeys(with other: JSONObject) -> Bool { table === other.table }

    /// This object keeping its keys in `other`'s table when the two have the same keys in the same order: features
    /// of one file, read one after another, so keep their keys once.
    public func sharingKeys(with other: JSONObject?) -> JSONObject {
        guard let other, other.table !== table, other.table.names == table.names else { return self }
        var shared = self
        shared.table = other.table
        return shared
    }

    /// The value for a key.
    public subscript(key: String) -> JSONValue? {
        get { table.place(of: key).map { values[$0] } }
        set {
            switch (table.place(of: key), newValue) {
            case let (place?, value?):
                values[place] = value
            case let (place?, nil):
                ownKeys()
                table.remove(at: place)
                values.remove(at: place)
            case let (nil, value?):
                ownKeys()
                table.append(key)
                values.append(value)
            case (nil, nil):
                break
            }
        }
    }

    /// Makes the key table this object's own before it changes.
    private mutating func ownKeys() {
        if !isKnownUniquelyReferenced(&table) { table = Keys(names: table.names) }
    }

    /// Objects are equal when they hold the same keys and values, whatever the order.
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        lhs.count == rhs.count && lhs.members.allSatisfy { rhs[$0.key] == $0.value }
    }

    /// Hashes the members, not their order: each member's hash is summed.
    public func hash(into hasher: inout Hasher) {
        var sum = 0
        for member in members {
            var memberHasher = Hasher()
            memberHasher.combine(member.key)
            memberHasher.combine(member.value)
            sum &+= memberHasher.finalize()
        }
        hasher.combine(count)
        hasher.combine(sum)
    }
}
