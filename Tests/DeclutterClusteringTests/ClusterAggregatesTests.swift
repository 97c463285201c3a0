import DeclutterClustering
import DeclutterSupport
import Testing

/// `--aggregate NAME=FUNC:PROPERTY` worked by hand: five points whose `pop` is 1, 2, "x" (not a number), "4" (text
/// that reads as one, as CSV gives it) and missing.
@Suite struct ClusterAggregatesTests {
    static let points: [ClusterPoint] = [JSONValue.number(1), .number(2), .string("x"), .string("4"), nil].enumerated()
        .map { index, value in
            var properties = JSONObject([("name", .string("p\(index)"))])
            if let value { properties["pop"] = value }
            return ClusterPoint(longitude: Double(index), latitude: 0, properties: properties)
        }

    static func aggregates(_ specs: [String]) throws -> ClusterAggregates {
        ClusterAggregates(try specs.map { try ClusterAggregate(parsing: $0) }, points: points)
    }

    @Test func eachFunctionOverTheMembersWithANumber() throws {
        let all = try Self.aggregates(["s=sum:pop", "m=mean:pop", "lo=min:pop", "hi=max:pop", "n=count:pop"])
        let values = all.values(over: [0, 1, 2, 3, 4])
        #expect(values.map(\.name) == ["s", "m", "lo", "hi", "n"])
        #expect(values.map(\.value) == [7, 7.0 / 3, 1, 4, 3])
        // Members with no number: a sum and a count of 0, no mean, least or greatest.
        #expect(all.values(over: [2, 4]).map(\.value) == [0, nil, nil, nil, 0])
        #expect(all.json(over: [2, 4]) == JSONObject([("s", .number(0)), ("n", .number(0))]))
        #expect(all.skipped == [2, 2, 2, 2, 2])
        #expect(
            all.warning
                == "warning: --aggregate: 2 of 5 points have no number in \"pop\"; s, m, lo, hi, n leave them out")
        #expect(try Self.aggregates(["s=sum:name"]).values(over: [0, 1]).map(\.value) == [0])
        #expect(ClusterAggregates.none.warning == nil)
    }

    @Test(arguments: [
        ("total", "total: expected NAME=FUNC:PROPERTY with FUNC one of sum, mean, min, max, count"),
        (
            "t=avg:pop",
            "t=avg:pop: unknown function \"avg\"; expected NAME=FUNC:PROPERTY with FUNC one of sum, mean, min, max, count"
        ),
        (
            "=sum:pop",
            "=sum:pop: the name is empty; expected NAME=FUNC:PROPERTY with FUNC one of sum, mean, min, max, count"
        ),
        (
            "t=sum:",
            "t=sum:: the property is empty; expected NAME=FUNC:PROPERTY with FUNC one of sum, mean, min, max, count"
        ),
        (
            "point_count=sum:pop",
            "point_count=sum:pop: point_count is a property every cluster has already; choose another name"
        ),
    ])
    func aBadSpecificationIsNamed(text: String, message: String) {
        #expect(throws: ClusterAggregateError.self) { try ClusterAggregate(parsing: text) }
        do {
            _ = try ClusterAggregate(parsing: text)
        } catch {
            #expect(error.description == message)
        }
    }
}
