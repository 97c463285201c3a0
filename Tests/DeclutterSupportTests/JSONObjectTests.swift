import DeclutterSupport
import Testing

/// JSONObject keeps its keys in order, searched in order while few and through a dictionary of places past
/// `indexedCount` (12) keys: both must read and write the same.
@Suite struct JSONObjectTests {
    @Test func keysKeepTheirFirstPlaceAndLastValue() {
        var object = JSONObject([("b", .number(1)), ("a", .string("x")), ("b", .number(2))])
        #expect(object.keys == ["b", "a"])
        #expect(object["b"] == .number(2) && object["a"] == .string("x") && object["c"] == nil)
        object["c"] = .bool(true)
        object["b"] = nil
        object["missing"] = nil
        #expect(object.keys == ["a", "c"])
        #expect(JSONValue.object(object).jsonText == #"{"a":"x","c":true}"#)
    }

    @Test(arguments: [3, 12, 13, 40]) func largeAndSmallObjectsReadAlike(count: Int) {
        var object = JSONObject()
        for number in 0..<count { object["k\(number)"] = .number(Double(number)) }
        #expect(object.count == count)
        #expect(object.keys == (0..<count).map { "k\($0)" })
        for number in 0..<count { #expect(object["k\(number)"] == .number(Double(number))) }
        // Removing keys from the front moves every later place; a large object that becomes small reads the same.
        for number in stride(from: 0, to: count, by: 2) { object["k\(number)"] = nil }
        #expect(object.keys == stride(from: 1, to: count, by: 2).map { "k\($0)" })
        for number in 0..<count { #expect(object["k\(number)"] == (number % 2 == 1 ? .number(Double(number)) : nil)) }
        object["k1"] = .string("one")
        #expect(object["k1"] == .string("one") && object.keys.first == "k1")
    }

    /// Objects made from one template, or sharing keys with one of the same keys in order, keep one key table; a
    /// change of keys in one copies it for that one alone, and a change of values touches no other.
    @Test func objectsOfOneShapeShareTheirKeysUntilOneChangesThem() {
        let template = JSONObject([("name", .null), ("cc", .null)])
        var first = JSONObject(keysOf: template, values: [.string("Paris"), .string("FR")])
        let second = JSONObject(keysOf: template, values: [.string("Lyon"), .string("FR")])
        #expect(first.sharesKeys(with: second) && first.sharesKeys(with: template))
        #expect(second["name"] == .string("Lyon") && second.keys == ["name", "cc"])
        first["name"] = .string("Paris 1er")
        #expect(first.sharesKeys(with: second))
        first["pop"] = .number(2_100_000)
        #expect(!first.sharesKeys(with: second))
        #expect(first.keys == ["name", "cc", "pop"] && second.keys == ["name", "cc"])
        #expect(template.keys == ["name", "cc"])
        #expect(second["pop"] == nil && second["name"] == .string("Lyon"))
        var third = JSONObject(keysOf: template, values: [.string("Nice"), .string("FR")])
        third["cc"] = nil
        #expect(third.keys == ["name"] && second.keys == ["name", "cc"])

        let parsed = JSONObject([("name", .string("Bonn")), ("cc", .string("DE"))])
        #expect(!parsed.sharesKeys(with: second))
        let shared = parsed.sharingKeys(with: second)
        #expect(shared.sharesKeys(with: second) && shared == parsed && shared["name"] == .string("Bonn"))
        // Other keys, or the same in another order: nothing shared.
        let reordered = JSONObject([("cc", .string("DE")), ("name", .string("Bonn"))])
        #expect(!reordered.sharingKeys(with: second).sharesKeys(with: second))
        #expect(!first.sharingKeys(with: second).sharesKeys(with: second))
        // Empty objects share one table, which a first key copies.
        var empty = JSONObject(), other = JSONObject()
        #expect(empty.sharesKeys(with: other))
        empty["a"] = .number(1)
        #expect(!empty.sharesKeys(with: other) && other.count == 0 && empty.keys == ["a"])
    }

    @Test func equalityAndHashIgnoreOrder() {
        let pairs: [(String, JSONValue)] = (0..<20).map { ("k\($0)", .number(Double($0))) }
        let forward = JSONObject(pairs), backward = JSONObject(pairs.reversed())
        #expect(forward == backward)
        #expect(forward.hashValue == backward.hashValue)
        #expect(forward.keys != backward.keys)
        var changed = backward
        changed["k3"] = .number(-3)
        #expect(changed != forward)
        #expect(JSONObject([("a", .null)]) != JSONObject([("a", .null), ("b", .null)]))
        #expect(Set([forward, backward, changed]).count == 2)
    }
}
