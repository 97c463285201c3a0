import DeclutterTesting
import Foundation
import Testing

/// ``FolderComparison`` on pairs that cannot be read: thrown by default, records with `recordsUnreadableImages`.
@Suite struct FolderComparisonTests {
    /// expected/ and actual/: ok.png the same, cut.png cut short in actual, masked.png the same but with a mask of
    /// another size beside the expected one.
    static func folders() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "declutter-folders-\(UUID().uuidString.prefix(8))")
        let image = try RGBAImage(width: 4, height: 4, pixels: [UInt8](repeating: 255, count: 64)).pngData()
        let wide = try RGBAImage(width: 5, height: 4, pixels: [UInt8](repeating: 255, count: 80)).pngData()
        for side in ["expected", "actual"] {
            try FileManager.default.createDirectory(
                at: folder.appendingPathComponent(side), withIntermediateDirectories: true)
            try image.write(to: folder.appendingPathComponent("\(side)/ok.png"))
            try image.write(to: folder.appendingPathComponent("\(side)/masked.png"))
        }
        try image.write(to: folder.appendingPathComponent("expected/cut.png"))
        try image.prefix(image.count - 12).write(to: folder.appendingPathComponent("actual/cut.png"))
        try wide.write(to: folder.appendingPathComponent("expected/masked.mask.png"))
        return folder
    }

    @Test func unreadablePairsAreThrownOrRecorded() throws {
        let folder = try Self.folders()
        defer { try? FileManager.default.removeItem(at: folder) }
        let expected = folder.appendingPathComponent("expected"), actual = folder.appendingPathComponent("actual")
        #expect {
            try FolderComparison().compare(expected: expected, actual: actual)
        } throws: { error in
            let failures = error as? FolderComparison.Failures
            return failures?.errors.count == 2 && failures?.errors.first is ImageReadError
                && failures?.errors.last is PixelMask.SizeMismatch
        }
        let records = try FolderComparison(recordsUnreadableImages: true).compare(expected: expected, actual: actual)
        #expect(records.map(\.path) == ["cut.png", "masked.png", "ok.png"])
        #expect(records.map(\.status) == [.unreadable, .unreadable, .unchanged])
        #expect(records[0].problem?.hasPrefix("cannot read image \(actual.relativePath)/cut.png: ") == true)
        // The side that can be read keeps its size.
        #expect(records[0].summary == records[0].problem)
        #expect(records[0].expectedSize == [4, 4] && records[0].actualSize == nil)
        #expect(records[1].expectedSize == [4, 4] && records[1].actualSize == [4, 4])
        #expect(records[1].problem?.hasPrefix("the mask ") == true && records[1].problem?.contains("5×4 px") == true)
        #expect(records[0].status.fails && records[2].problem == nil)
    }
}
