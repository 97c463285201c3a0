import DeclutterSupport
import Foundation

/// An HTML report of image comparisons that works offline from its folder: `index.html` with the counts on top,
/// each changed image's expected, actual and diff pictures side by side with a slider between expected and actual,
/// the new, deleted and unchanged images listed, and the pairs that could not be read named with why. The pictures
/// are copied beside the page (`expected/`, `actual/`, `diff/`, each keeping the image's relative path; see
/// ``ImageDifference/diffName``) and linked relatively, so the folder can be kept as a CI artifact.
///
/// ```swift
/// let differences = try FolderComparison().compare(expected: goldens, actual: screenshots)
/// try ComparisonReport(title: "Screenshots").write(differences, expected: goldens, actual: screenshots, to:
/// reportFolder)
/// ```
/// Each image has an anchor, ``anchor(for:)``: `index.html#image-map.png` opens the report at that image.
public struct ComparisonReport: Sendable {
    /// The page's heading.
    public var title: String
    /// Lines shown under the heading (the folders compared, the options).
    public var details: [String]

    /// Creates a report with a heading and lines of detail.
    public init(title: String = "Image comparison", details: [String] = []) {
        self.title = title
        self.details = details
    }

    /// The HTML id of an image's section: `image-` and its path, with ASCII letters, digits and `.`, `_`, `-`, `/`,
    /// `@`, `+`, `,`, `=` kept and every other byte of its UTF-8 written `~` and two hexadecimal digits (a space
    /// `~20`): each path has its own, which a URL's fragment takes as it is.
    public static func anchor(for path: String) -> String {
        var anchor = "image-"
        for byte in path.utf8 {
            let scalar = Unicode.Scalar(byte)
            if byte < 0x80
                && (CharacterSet.alphanumerics.contains(scalar) || "._-/@+,=".unicodeScalars.contains(scalar))
            {
                anchor.unicodeScalars.append(scalar)
            } else {
                anchor += String(format: "~%02X", byte)
            }
        }
        return anchor
    }

    /// The files of the report, relative to its folder, and where each comes from.
    enum Source {
        case copy(URL)
        case data(Data)
    }

    /// Writes the report into `folder`, replacing a report already there only once the new one is complete.
    ///
    /// - Parameters:
    ///   - differences: the records, in the order to list them.
    ///   - expected: the folder (or, for a single pair, the file's folder) the expected images' paths are relative to.
    ///   - actual: the same for the actual images.
    /// - Throws: ``OutputError`` naming what could not be written; the folder is then left as it was.
    public func write(_ differences: [ImageDifference], expected: URL, actual: URL, to folder: URL) throws {
        try write(
            differences, expectedFile: { expected.appendingPathComponent($0) },
            actualFile: { actual.appendingPathComponent($0) }, to: folder)
    }

    /// Writes the report into `folder` as ``write(_:expected:actual:to:)`` does, with each record's images found by
    /// path: for a single pair whose two files have different names.
    public func write(
        _ differences: [ImageDifference], expectedFile: (String) -> URL, actualFile: (String) -> URL, to folder: URL
    ) throws {
        var files: [(path: String, source: Source)] = [("index.html", .data(Data(page(differences).utf8)))]
        for difference in differences where difference.status != .unchanged {
            if difference.expectedSize != nil {
                files.append(("expected/" + difference.path, .copy(expectedFile(difference.path))))
            }
            if difference.actualSize != nil {
                files.append(("actual/" + difference.path, .copy(actualFile(difference.path))))
            }
            if let diff = difference.diffPNG { files.append(("diff/" + difference.diffName, .data(diff))) }
        }
        try Self.replaceFolder(folder, with: files)
    }

    /// The mark in a report's page by which a folder is known as a report that may be replaced.
    static let generatorMark = #"<meta name="generator" content="declutter ComparisonReport">"#

    /// Fails unless a report can be written into `folder`: a folder that does not exist yet (in one that does), an
    /// empty one, or a report written before and nothing else, which alone is replaced. Any other folder is refused,
    /// since replacing it would delete what it holds: hidden entries count (a `.git` left in a folder was deleted with
    /// it), and so does anything put beside a report's page and pictures since.
    ///
    /// - Throws: ``OutputError`` naming the folder and why.
    public static func checkFolder(_ folder: URL) throws {
        switch FileSystem.item(atPath: folder.path) {
        case .file:
            throw OutputError(path: folder.relativePath, reason: "is a file, not a folder; the report is a folder")
        case nil:
            let parent = folder.deletingLastPathComponent()
            guard FileSystem.item(atPath: parent.path) == .folder else {
                throw OutputError(path: folder.relativePath, reason: "the folder \(parent.relativePath) does not exist")
            }
            guard access(parent.path, W_OK) == 0 else {
                throw OutputError(
                    path: folder.relativePath, reason: "the folder \(parent.relativePath) is not writable")
            }
        case .folder:
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            guard !names.isEmpty else { return }
            let page = (try? FileHandle(forReadingFrom: folder.appendingPathComponent("index.html")))
                .flatMap { handle in
                    defer { try? handle.close() }
                    return try? handle.read(upToCount: 4096)
                }
                .map { String(decoding: $0, as: UTF8.self) }
            // A report holds its page and three folders of pictures, nothing else; the mark tells it from another
            // page with such folders.
            let own: Set<String> = ["index.html", "expected", "actual", "diff"]
            let others = names.filter { !own.contains($0) }.sorted()
            guard page?.contains(generatorMark) == true || page != nil && others.isEmpty else {
                throw OutputError(
                    path: folder.relativePath,
                    reason: "the folder holds \(names.count) \(names.count == 1 ? "entry" : "entries") and is not a "
                        + "report (a report is replaced whole, which would delete them); name a new or empty folder")
            }
            guard others.isEmpty else {
                let listed = others.prefix(3).map { "\"\($0.escapedForTerminal)\"" }.joined(separator: ", ")
                throw OutputError(
                    path: folder.relativePath,
                    reason:
                        "the report's folder also holds \(listed)\(others.count > 3 ? " and \(others.count - 3) more" : ""), "
                        + "which replacing the report would delete; move \(others.count == 1 ? "it" : "them") or name "
                        + "another folder")
            }
            guard access(folder.deletingLastPathComponent().path, W_OK) == 0 else {
                throw OutputError(path: folder.relativePath, reason: "its folder is not writable")
            }
        }
    }

    /// Builds the folder under a hidden name beside `folder`, then swaps it in: a failure leaves no trace and the old
    /// report as it was. Only a folder ``checkFolder(_:)`` accepts is replaced.
    static func replaceFolder(_ folder: URL, with files: [(path: String, source: Source)]) throws {
        try checkFolder(folder)
        let parent = folder.deletingLastPathComponent()
        let tag = UUID().uuidString.prefix(8)
        let staging = parent.appendingPathComponent(".\(folder.lastPathComponent).\(tag).tmp")
        let old = parent.appendingPathComponent(".\(folder.lastPathComponent).\(tag).old")
        // Registered, so that an interrupt (SIGINT, SIGTERM) while the pictures are copied removes the staging folder.
        TemporaryFiles.register(staging.path)
        do {
            for (path, source) in files {
                let target = staging.appendingPathComponent(path)
                try FileManager.default.createDirectory(
                    at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
                switch source {
                case .copy(let url): try FileManager.default.copyItem(at: url, to: target)
                case .data(let data): try data.write(to: target)
                }
            }
            let existed = FileSystem.item(atPath: folder.path) == .folder
            if existed { try FileManager.default.moveItem(at: folder, to: old) }
            let status = TemporaryFiles.moveIntoPlace(staging.path, to: folder.path)
            guard status == 0 else {
                if existed { try? FileManager.default.moveItem(at: old, to: folder) }
                throw OutputError(path: folder.relativePath, reason: String(cString: strerror(status)))
            }
            if existed { try? FileManager.default.removeItem(at: old) }
        } catch let error as OutputError {
            TemporaryFiles.discard(staging.path)
            throw error
        } catch {
            TemporaryFiles.discard(staging.path)
            throw OutputError(path: folder.relativePath, reason: FileSystem.reason(error))
        }
    }

    /// Counts per status, in the report's order; unreadable pairs only where there are some.
    static func counts(_ differences: [ImageDifference]) -> [(ImageDifference.Status, Int)] {
        let order: [ImageDifference.Status] = [.unreadable, .changed, .new, .deleted, .withinTolerance, .unchanged]
        return order.map { status in (status, differences.filter { $0.status == status }.count) }
            .filter { $0.0 != .unreadable || $0.1 > 0 }
    }

    /// The label of a status in the report.
    static func label(_ status: ImageDifference.Status) -> String {
        switch status {
        case .changed: "changed"
        case .new: "new"
        case .deleted: "deleted"
        case .withinTolerance: "within tolerance"
        case .unchanged: "unchanged"
        case .unreadable: "unreadable"
        }
    }

    /// Escapes text for HTML content and attribute values.
    static func escape(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.append(character)
            }
        }
        return result
    }

    /// A relative URL for a path: each component percent-encoded, `/` kept; `&` too, which an HTML attribute would
    /// otherwise read as the start of a character reference (`a&copy.png` as `a©.png`); and the characters `extra`
    /// (`'()` for a link standing unquoted in CSS's `url()`).
    static func link(_ path: String, escaping extra: String = "") -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "/?#;&" + extra)
        return path.split(separator: "/", omittingEmptySubsequences: false)
            .map { String($0).addingPercentEncoding(withAllowedCharacters: allowed) ?? String($0) }
            .joined(separator: "/")
    }
}
