import Testing

@testable import DeclutterServer

/// `Range` headers as RFC 9110 §14 reads them, against a file of 1,000 bytes.
@Suite struct ByteRangeTests {
    @Test(arguments: [
        ("bytes=0-126", ByteRange.part(0..<127)),
        ("BYTES=0-6", .part(0..<7)),
        ("Bytes=-10", .part(990..<1000)),
        ("bytes=990-2000", .part(990..<1000)),
        ("bytes=500-", .part(500..<1000)),
        ("bytes=-10", .part(990..<1000)),
        ("bytes=-5000", .part(0..<1000)),
        ("bytes=999-999", .part(999..<1000)),
        ("bytes=1000-", .unsatisfiable),
        ("bytes=1000-1200", .unsatisfiable),
        ("bytes=-0", .unsatisfiable),
        ("bytes=5-3", .whole),
        ("bytes=0-1,5-6", .whole),
        ("items=0-1", .whole),
        ("bytes=x-1", .whole),
        ("bytes=99999999999999999999999-", .unsatisfiable),
    ])
    func aRangeHeaderResolves(header: String, expected: ByteRange) {
        #expect(ByteRange(header: header, size: 1000) == expected)
    }

    @Test func noHeaderIsTheWholeFileAndAnEmptyFileHasNoPart() {
        #expect(ByteRange(header: nil, size: 10) == .whole)
        #expect(ByteRange(header: "bytes=-1", size: 0) == .unsatisfiable)
        #expect(ByteRange(header: "bytes=0-", size: 0) == .unsatisfiable)
    }
}
