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
