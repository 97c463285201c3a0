import DeclutterPNG
import DeclutterSupport
import Foundation

/// Compares a folder of expected images with a folder of actual ones, paired by their paths relative to each folder
/// (recursively), each pair on a core of its own.
///
/// ```swift
/// let folders = FolderComparison(comparison: ImageComparison(pixelMatch: PixelMatch(threshold: 0.05)))
/// let differences = try folders.compare(expected: URL(fileURLWithPath: "Snapshots"), actual: URL(fileURLWithPath:
/// "out")) let failed = differences.filter { $0.status.fails }
/// ```
/// PNG, JPEG and WebP files are read (`.png`, `.jpg`, `.jpeg`, `.webp`, any case; ``ImageFormat``); hidden files and
/// `NAME.mask.png` files are not images to compare: a mask beside an expected image (`map.mask.png` beside `map.png`
/// or `map.jpg`) marks pixels of that image to ignore (alpha > 0).
public struct FolderComparison: Sendable {
    /// How pixels are compared and which differences are tolerated.
    public var comparison: ImageComparison
    /// Rectangles ignored in every image, as `[x, y, width, height]`; the parts outside an image are dropped.
    public var ignoredRectangles: [[Int]]
    /// A mask image applied to every image (alpha > 0 ignored), which must have each image's size, and its name in
    /// errors.
    public var sharedMask: (image: RGBAImage, name: String)?
    /// Whether `NAME.mask.png` beside an expected image is read. Default true.
    public var readsMaskFiles: Bool
    /// Whether diff images are drawn (PNG) for pairs whose pixels differ. Default true; without, only counts are made.
    public var drawsDiffs: Bool
    /// The most pixels an image may have; a larger one is refused from its header, before it is decoded.
    public var pixelLimit: Int
    /// Whether a pair whose image or mask cannot be read (damaged, cut short, over ``pixelLimit``, its mask file of
    /// another size) becomes an ``ImageDifference/Status/unreadable`` record, the other pairs compared all the same, rather
    /// than an error thrown: so that a report can show the rest. Default false.
    public var recordsUnreadableImages: Bool

    /// Creates a folder comparison; see the properties for the defaults.
    public init(
        comparison: ImageComparison = ImageComparison(), ignoredRectangles: [[Int]] = [],
        sharedMask: (image: RGBAImage, name: String)? = nil,
        readsMaskFiles: Bool = true, drawsDiffs: Bool = true, pixelLimit: Int = 8192 * 8192,
        recordsUnreadableImages: Bool = false
    ) {
        self.comparison = comparison
        self.ignoredRectangles = ignoredRectangles
        self.sharedMask = sharedMask
        self.readsMaskFiles = readsMaskFiles
        self.drawsDiffs = drawsDiffs
        self.pixelLimit = pixelLimit
        self.recordsUnreadableImages = recordsUnreadableImages
    }

    /// The file name suffix of per-image masks.
    public static let maskSuffix = ".mask.png"

    /// Compares every image of both folders; the records are sorted by path.
    ///
    /// - Parameter progress: called from the comparing threads with the pairs done and the pairs in all, after each.
    /// - Throws: ``ImageReadError`` for a folder that is missing or cannot be listed; unless
    ///   ``recordsUnreadableImages``, also for a file that cannot be read or decoded, or is larger than ``pixelLimit``,
    ///   and ``PixelMask/SizeMismatch`` for a mask of another size than its image (``Failures`` for several).
    public func compare(expected: URL, actual: URL, progress: (@Sendable (_ done: Int, _ total: Int) -> Void)? = nil)
        throws -> [ImageDifference]
    {
        let expectedPaths = try Self.imagePaths(in: expected), actualPaths = try Self.imagePaths(in: actual)
        // Paths pair by their bytes, as the file system names files: Swift's strings count `café` written with an
        // accented e and with an e and a combining accent as one, which merged two files into one record (and a
        // changed image passed) or paired a name with a file of the other spelling that could not be opened.
        let expectedSet = Set(expectedPaths.map(\.utf8Bytes)), actualSet = Set(actualPaths.map(\.utf8Bytes))
        var paths = expectedPaths
        paths += actualPaths.filter { !expectedSet.contains($0.utf8Bytes) }
        paths.sort { $0 != $1 ? $0 < $1 : $0.utf8Bytes.lexicographicallyPrecedes($1.utf8Bytes) }
        let done = PixelMatch.Counter()
        let results = concurrentMap(paths.count) { index -> Result<ImageDifference, any Error> in
            let path = paths[index]
            defer { progress?(done.add(1), paths.count) }
            let expectedFile = expectedSet.contains(path.utf8Bytes) ? expected.appendingPathComponent(path) : nil
            let actualFile = actualSet.contains(path.utf8Bytes) ? actual.appendingPathComponent(path) : nil
            let result = Result { try compare(path: path, expected: expectedFile, actual: actualFile) }
            // A shared mask of another size is the option's mistake, not the image's: it stays an error.
            guard recordsUnreadableImages, case .failure(let error) = result,
                error is ImageReadError
                    || (error as? PixelMask.SizeMismatch).map({ $0.mask != sharedMask?.name }) == true
            else { return result }
            // The side that can be read keeps its size, so that a report shows it beside the problem.
            return .success(
                ImageDifference(
                    path: path, status: .unreadable, expectedSize: expectedFile.flatMap { try? wholeImageSize($0) },
                    actualSize: actualFile.flatMap { try? wholeImageSize($0) }, problem: "\(error)"))
        }
        let failures = results.compactMap { result -> (any Error)? in
            if case .failure(let error) = result { return error }
            return nil
        }
        // One bad file is thrown as it is; several are named together, so that one run says them all.
        if failures.count > 1 { throw Failures(errors: failures) }
        return try results.map { try $0.get() }
    }

    /// The pairs of a folder comparison that could not be compared, when there are several.
    public struct Failures: Error, Sendable, CustomStringConvertible {
        /// Each pair's error, in the order of their paths.
        public var errors: [any Error]
        /// A line naming how many, and a line for each.
        public var description: String {
            "\(errors.count) images could not be compared:\n" + errors.map { "  \($0)" }.joined(separator: "\n")
        }
    }

    /// Compares one pair; either file may be missing (not both). `path` names the record.
    public func compare(path: String, expected: URL?, actual: URL?) throws -> ImageDifference {
        guard let expected else {
            // A new image is what `--update` would accept: checked whole, as an unchanged pair is.
            let size = try actual.map { try wholeImageSize($0) }
            return ImageDifference(path: path, status: .new, actualSize: size)
        }
        guard let actual else {
            return ImageDifference(path: path, status: .deleted, expectedSize: try wholeImageSize(expected))
        }
        let expectedData = try read(expected), actualData = try read(actual)
        // Identical files need no decoding: their pixels are equal. Their masks are read all the same, so that a
        // broken one is said today rather than on the day the image changes, and the record counts what they ignore.
        let images = expectedData == actualData ? nil : try decodePair(expectedData, expected, actualData, actual)
        guard let (first, second) = images else {
            // Two copies of a truncated file passed as unchanged.
            let size = try wholeImageSize(expected, data: expectedData)
            let mask = try self.mask(for: expected, width: size[0], height: size[1])
            return ImageDifference(
                path: path, status: .unchanged, expectedSize: size, actualSize: size, differingPixels: 0,
                ignoredPixels: mask?.ignoredPixelCount ?? 0)
        }
        let sizes = ([first.width, first.height], [second.width, second.height])
        guard sizes.0 == sizes.1 else {
            return ImageDifference(path: path, status: .changed, expectedSize: sizes.0, actualSize: sizes.1)
        }
        let mask = try self.mask(for: expected, width: first.width, height: first.height)
        let differing: Int, diff: Data?, passes: Bool
        var area: [Int]?
        if drawsDiffs {
            let result = try comparison.compare(first, second, mask: mask)
            differing = result.differingPixels
            passes = result.passes
            diff = differing > 0 ? try result.diff.pngData() : nil
            if differing > 0 { area = comparison.pixelMatch.changedArea(in: result.diff) }
        } else {
            differing = comparison.pixelMatch.countMismatched(first, second, mask: mask)
            passes =
                differing <= comparison.maximumDifferingPixels
                || Double(differing) / Double(max(first.width * first.height, 1)) <= comparison.maximumDifferingRatio
            diff = nil
        }
        let status: ImageDifference.Status = differing == 0 ? .unchanged : passes ? .withinTolerance : .changed
        return ImageDifference(
            path: path, status: status, expectedSize: sizes.0, actualSize: sizes.1, differingPixels: differing,
            ignoredPixels: mask?.ignoredPixelCount ?? 0, diffPNG: diff, changedArea: area)
    }

    /// The mask for an expected image: the rectangles, the shared mask image and `NAME.mask.png` beside it, united;
    /// nil when it ignores nothing.
    ///
    /// - Throws: ``PixelMask/SizeMismatch`` for a mask image of another size, ``ImageReadError`` for one that cannot be
    /// read.
    public func mask(for expected: URL, width: Int, height: Int) throws -> PixelMask? {
        var mask = PixelMask(width: width, height: height)
        for rectangle in ignoredRectangles where rectangle.count == 4 {
            mask.ignore(x: rectangle[0], y: rectangle[1], width: rectangle[2], height: rectangle[3])
        }
        do {
            if let shared = sharedMask { try mask.ignore(alphaOf: shared.image, name: shared.name) }
            let file = PixelMask.file(beside: expected)
            if readsMaskFiles, FileSystem.item(atPath: file.path) == .file {
                try mask.ignore(alphaOf: try decode(try read(file), file), name: file.relativePath)
            }
        } catch var mismatch as PixelMask.SizeMismatch {
            mismatch.image = expected.relativePath
            throw mismatch
        }
        return mask.isEmpty ? nil : mask
    }

    /// Reads and decodes both images of a pair, at once on two cores, each within ``pixelLimit``.
    ///
    /// - Throws: ``ImageReadError`` naming the file that cannot be read, is not a PNG, JPEG or WebP, is damaged or too
    ///   large.
    public func images(expected: URL, actual: URL) throws -> (RGBAImage, RGBAImage) {
        try decodePair(try read(expected), expected, try read(actual), actual)
    }

    /// Reads and decodes one image within ``pixelLimit``.
    ///
    /// - Throws: ``ImageReadError`` naming the file that cannot be read, is not a PNG, JPEG or WebP, is damaged or too
    ///   large.
    public func image(at url: URL) throws -> RGBAImage {
        try decode(try read(url), url)
    }

    /// Decodes both images of a pair at once, one on each of two cores.
    func decodePair(_ first: Data, _ firstURL: URL, _ second: Data, _ secondURL: URL) throws -> (RGBAImage, RGBAImage) {
        let images = concurrentMap(2) { index in
            Result { index == 0 ? try decode(first, firstURL) : try decode(second, secondURL) }
        }
        return (try images[0].get(), try images[1].get())
    }

    /// Reads a file whole, naming it when it cannot be read.
    func read(_ url: URL) throws -> Data {
        do {
            return try Data(contentsOf: url, options: .mappedIfSafe)
        } catch {
            throw ImageReadError(path: url.relativePath, reason: "no such file or not readable")
        }
    }

    /// Decodes PNG, JPEG or WebP bytes once their declared size is within ``pixelLimit``.
    func decode(_ data: Data, _ url: URL) throws -> RGBAImage {
        try RGBAImage(encoded: data, name: url.relativePath, pixelLimit: pixelLimit)
    }

    /// An image's width and height from its header, within ``pixelLimit``, once the file is known to be whole: a
    /// PNG's chunks read and their CRCs checked, no pixels decoded; a JPEG or WebP decoded, as their libraries check
    /// nothing short of that. For an image that is not compared, whose damage would otherwise pass unseen.
    func wholeImageSize(_ url: URL, data: Data? = nil) throws -> [Int] {
        let bytes = try data ?? read(url)
        let size = try imageSize(url, data: bytes)
        guard ImageFormat(signatureOf: bytes) == .png else {
            _ = try decode(bytes, url)
            return size
        }
        do {
            _ = try PNGDecoder.File(bytes)
        } catch let error as PNGDecoder.DecodingError {
            throw ImageReadError(path: url.relativePath, reason: error.description)
        }
        return size
    }

    /// An image's width and height from its header, within ``pixelLimit``.
    func imageSize(_ url: URL, data: Data? = nil) throws -> [Int] {
        let bytes = try data ?? read(url), name = url.relativePath
        let size = try ImageFormat.of(bytes, name: name).checkedSize(of: bytes, name: name, pixelLimit: pixelLimit)
        return [size.width, size.height]
    }

    /// The images under `folder`, as sorted relative paths with `/`; hidden files and folders and masks are
    /// skipped. Symbolic links are followed, to files and to folders (a folder reached twice on one path, a loop, is
    /// listed once), so that an image kept as a link is compared, not taken for a deleted one.
    ///
    /// - Throws: ``ImageReadError`` when `folder` is not a folder or cannot be listed, or for a link to nothing where
    ///   an image would be.
    public static func imagePaths(in folder: URL) throws -> [String] {
        try listing(of: folder).images
    }

    /// What under `folder` is not compared though it may look meant to be, as sorted relative paths, from one walk
    /// of the folder: files named as images of formats not read (GIF, BMP, TIFF), found as
    /// ``imagePaths(in:)`` finds the images; and the `NAME.mask.png` files that mask no image — with `besideImages`
    /// (the expected folder) those with no image beside them to mask (a typo, or an image renamed or removed since),
    /// else (the actual folder, whose masks are never read) every one.
    public static func strayFiles(in folder: URL, besideImages: Bool) throws -> (
        otherImages: [String], unusedMasks: [String]
    ) {
        let listing = try listing(of: folder)
        guard besideImages else { return (listing.others, listing.masks) }
        let masked = Set(
            listing.images.map { image in
                // Named as the comparison looks a mask up, beside the image.
                let url = URL(fileURLWithPath: image, relativeTo: URL(fileURLWithPath: "/"))
                return String(PixelMask.file(beside: url).path.dropFirst())
            })
        return (listing.others, listing.masks.filter { !masked.contains($0) })
    }

    /// Extensions of image files this comparison does not read.
    static let otherImageExtensions: Set<String> = ["gif", "bmp", "tif", "tiff"]

    /// The images under `folder`, the other images and the masks, as ``imagePaths(in:)`` describes.
    static func listing(of folder: URL) throws -> (images: [String], others: [String], masks: [String]) {
        guard FileSystem.item(atPath: folder.path) == .folder else {
            throw ImageReadError(path: folder.relativePath, reason: "no such folder")
        }
        var paths: [String] = [], others: [String] = [], masks: [String] = []
        /// Lists `relative` under the folder; `ancestors` are the folders (device and inode) on the way there.
        func list(_ relative: String, ancestors: Set<[UInt64]>) throws {
            let url = relative.isEmpty ? folder : folder.appendingPathComponent(relative)
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: url.path) else {
                throw ImageReadError(path: url.relativePath, reason: "the folder cannot be listed")
            }
            for name in names.sorted() where !name.hasPrefix(".") {
                let path = relative.isEmpty ? name : relative + "/" + name
                let entry = folder.appendingPathComponent(path)
                var info = stat()
                guard stat(entry.path, &info) == 0 else {
                    let lower = name.lowercased()
                    if lower.hasSuffix(".png") && !lower.hasSuffix(maskSuffix) {
                        // lstat finds the link that stat could not follow; a name that is not UTF-8 comes listed
                        // with U+FFFD in place of its bytes, and so names no file at all.
                        var link = stat()
                        let isLink = lstat(entry.path, &link) == 0 && link.st_mode & S_IFMT == S_IFLNK
                        throw ImageReadError(
                            path: entry.relativePath,
                            reason: isLink
                                ? "a symbolic link to nothing"
                                : name.contains("\u{FFFD}")
                                    ? "its name is not UTF-8, and cannot be opened by it; rename it"
                                    : "it went away while the folder was read")
                    }
                    continue
                }
                switch info.st_mode & S_IFMT {
                case S_IFDIR:
                    let identity = [UInt64(info.st_dev), UInt64(info.st_ino)]
                    guard !ancestors.contains(identity) else { continue }
                    try list(path, ancestors: ancestors.union([identity]))
                case S_IFREG:
                    let lower = name.lowercased()
                    if lower.hasSuffix(maskSuffix) {
                        masks.append(path)
                    } else if ImageFormat(fileName: lower) != nil {
                        paths.append(path)
                    } else if let dot = lower.lastIndex(of: "."),
                        otherImageExtensions.contains(String(lower[lower.index(after: dot)...]))
                    {
                        others.append(path)
                    }
                default: continue
                }
            }
        }
        var info = stat()
        guard stat(folder.path, &info) == 0 else {
            throw ImageReadError(path: folder.relativePath, reason: "the folder cannot be listed")
        }
        try list("", ancestors: [[UInt64(info.st_dev), UInt64(info.st_ino)]])
        return (paths.sorted(), others.sorted(), masks.sorted())
    }
}

extension String {
    /// The string's UTF-8 bytes: a key that tells apart spellings Swift's `==` counts as one.
    fileprivate var utf8Bytes: [UInt8] { Array(utf8) }
}
