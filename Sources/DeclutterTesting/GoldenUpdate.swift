import DeclutterPNG
import DeclutterSupport
import Foundation

/// Accepting actual images as the new expected ones: the copies and removals a comparison calls for, applied all
/// together or not at all.
///
/// ```swift
/// let differences = try FolderComparison().compare(expected: goldens, actual: screenshots)
/// for line in try GoldenUpdate(differences, expected: goldens, actual: screenshots, prune: true).apply() { print(line)
/// }
/// ```
public struct GoldenUpdate: Sendable {
    /// Each actual image and the expected file it replaces or becomes.
    public var copies: [(from: URL, to: URL)]
    /// Expected images to remove (with their masks).
    public var removals: [URL]
    /// The expected folder, outside which nothing may change; nil for explicit copies and removals.
    public var expectedFolder: URL?

    /// An update from explicit copies and removals.
    public init(copies: [(from: URL, to: URL)], removals: [URL]) {
        self.copies = copies
        self.removals = removals
    }

    /// The update a folder comparison calls for: changed and new images copied, and with `prune` deleted ones
    /// removed. Images within the tolerances are left as they are.
    public init(_ differences: [ImageDifference], expected: URL, actual: URL, prune: Bool) {
        copies = differences.filter { $0.status == .changed || $0.status == .new }
            .map { (actual.appendingPathComponent($0.path), expected.appendingPathComponent($0.path)) }
        removals =
            prune ? differences.filter { $0.status == .deleted }.map { expected.appendingPathComponent($0.path) } : []
        expectedFolder = expected
    }

    /// Refuses a change that a symbolic link inside the expected folder would carry outside it: a copy written
    /// through a linked file or folder replaces the file the link points to, and a removal in a linked folder deletes
    /// a file that lives elsewhere (perhaps another suite's golden). A linked image itself is removed as a link.
    func refuseChangesOutside(_ folder: URL) throws {
        func isInside(_ url: URL) -> Bool { FileSystem.isInside(url.path, folder.path) }
        // A copy is written where a link points; a removal unlinks the name, in the folder that holds it.
        if let copy = copies.map(\.to).first(where: { !isInside($0) }) {
            throw OutputError(
                path: copy.relativePath,
                reason: "a symbolic link takes it outside the expected folder \(folder.relativePath), where accepting "
                    + "it would replace another file; nothing was changed (put the file itself there to accept it)")
        }
        if let removal = removals.first(where: { !isInside($0.deletingLastPathComponent()) }) {
            throw OutputError(
                path: removal.relativePath,
                reason: "a symbolic link takes its folder outside the expected folder \(folder.relativePath), where "
                    + "pruning would delete another file; nothing was changed")
        }
    }

    /// Applies the update and returns a line per change (`updated PATH`, `added PATH`, `removed PATH`).
    ///
    /// Every actual image is read first and every folder checked; the copies are then written beside their targets
    /// and renamed into place together, and only then are the removals made. A failure before the renames changes
    /// nothing (folders made for new images are removed again).
    ///
    /// - Throws: ``ImageReadError`` for an actual image that cannot be read, ``OutputError`` for an expected file or
    ///   folder that cannot be written or removed, or one a symbolic link puts outside the expected folder.
    public func apply() throws -> [String] {
        if let expectedFolder { try refuseChangesOutside(expectedFolder) }
        var files: [(data: Data, url: URL)] = []
        var lines: [String] = []
        for (from, to) in copies {
            guard let data = try? Data(contentsOf: from) else {
                throw ImageReadError(path: from.relativePath, reason: "no such file or not readable")
            }
            // A mask kept beside the image must keep its size: accepting an image of another size would leave a mask
            // every later comparison refuses.
            let mask = PixelMask.file(beside: to)
            if let size = PNGImageSize(of: data), let maskData = try? Data(contentsOf: mask),
                let maskSize = PNGImageSize(of: maskData), maskSize != size
            {
                throw OutputError(
                    path: to.relativePath,
                    reason: "would become \(size.text) px, but its mask \(mask.relativePath) is \(maskSize.text) px; "
                        + "make the mask anew for the new size (or remove it), then accept again")
            }
            files.append((data, to))
            lines.append("\(FileSystem.item(atPath: to.path) == .file ? "updated" : "added") \(to.relativePath)")
        }
        var removed: [URL] = []
        for url in removals {
            guard access(url.deletingLastPathComponent().path, W_OK) == 0 else {
                throw OutputError(path: url.relativePath, reason: "cannot be removed: its folder is not writable")
            }
            removed.append(url)
            let mask = PixelMask.file(beside: url)
            if FileSystem.item(atPath: mask.path) == .file { removed.append(mask) }
        }
        var created: [URL] = []
        do {
            for (_, url) in files {
                var folder = url.deletingLastPathComponent(), missing: [URL] = []
                while FileSystem.item(atPath: folder.path) == nil, folder.pathComponents.count > 1 {
                    missing.append(folder)
                    folder.deleteLastPathComponent()
                }
                guard let top = missing.last else { continue }
                do {
                    try FileManager.default.createDirectory(
                        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                } catch {
                    throw OutputError(
                        path: url.deletingLastPathComponent().relativePath,
                        reason: "cannot create the folder (\(FileSystem.reason(error)))")
                }
                created.append(top)
            }
            try FileSystem.writeAllAtomically(files)
        } catch {
            for folder in created { try? FileManager.default.removeItem(at: folder) }
            throw error
        }
        for url in removed {
            guard unlink(url.path) == 0 else {
                throw OutputError(
                    path: url.relativePath, reason: "cannot be removed (\(String(cString: strerror(errno))))")
            }
            lines.append("removed \(url.relativePath)")
        }
        return lines
    }
}
