import Foundation

/// A JSON object with its keys in order.
///
/// Its members are kept in one array, searched in order while there are few: a point read from a CSV row carries one
/// such object, and with a dictionary beside the keys 144,563 cities of four columns took 71 MB of properties, in an
/// array 27 MB. An object that grows past ``indexedCount`` keys (a style, a sprite index) keeps a dictionary of their
/// places too, so that large objects are read and built in constant time a key.
public struct JSONObject: Sendable, Hashable {
    /// The members in order.
    public private(set) var members: [(key: String, value: JSONValue)] = []
    /// Each key's place in ``members``, once there are more than ``indexedCount`` of them.
    private var places: [String: Int]?

    /// The most keys searched in order; an object with more keeps a dictionary of their places.
    static let indexedCount = 12

    /// Creates an object from key–value pairs; a repeated key keeps its first place and last value.
    public init(_ pairs: [(String, JSONValue)] = []) {
        members.reserveCapacity(pairs.count)
        for (key, value) in pairs { self[key] = value }
    }

    /// The keys in order.
    public var keys: [String] { members.map(\.key) }

    /// How many keys the object has.
    public var count: Int { members.count }

    /// The place of `key` in ``members``.
    private func place(of key: String) -> Int? {
        if let places { return places[key] }
        return members.firstIndex { $0.key == key }
    }

    /// The value for a key.
    public subscript(key: String) -> JSONValue? {
        get { place(of: key).map { members[$0].value } }
        set {
            switch (place(of: key), newValue) {
            case let (place?, value?):
                members[place].value = value
            case let (place?, nil):
                members.remove(at: place)
                if places != nil { index() }
            case let (nil, value?):
                members.append((key, value))
                if places != nil {
                    places?[key] = members.count - 1
                } else if members.count > Self.indexedCount {
                    index()
                }
            case (nil, nil):
                break
            }
        }
    }

    /// Builds ``places`` afresh, or drops it when the object has become small.
    private mutating func index() {
        guard members.count > Self.indexedCount else {
            places = nil
            return
        }
        var places: [String: Int] = [:]
        places.reserveCapacity(members.count)
        for (place, member) in members.enumerated() { places[member.key] = place }
        self.places = places
    }

    /// Objects are equal when they hold the same keys and values, whatever the order.
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        lhs.members.count == rhs.members.count && lhs.members.allSatisfy { rhs[$0.key] == $0.value }
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
        hasher.combine(members.count)
        hasher.combine(sum)
    }
}
