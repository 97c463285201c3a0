import DeclutterSupport
import Foundation

extension ImageDifference {
    /// The record as JSON: `path`, `status`, `expected` and `actual` sizes (`[width, height]` or null), `mismatched`,
    /// `ratio` and `ignored` pixels, and `diff`, the diff image's path in the report (null without one); an
    /// unreadable pair's record ends with its `problem`.
    ///
    /// - Parameter reportPath: the report folder as given by the user, prefixed to the diff's path; nil when no report
    ///   is written, and then `diff` is null.
    public func json(reportPath: String?) -> JSONValue {
        func size(_ size: [Int]?) -> JSONValue { size.map { .array($0.map { .number(Double($0)) }) } ?? .null }
        return .object(
            JSONObject(
                [
                    ("path", .string(path)),
                    ("status", .string(status.rawValue)),
                    ("expected", size(expectedSize)),
                    ("actual", size(actualSize)),
                    ("mismatched", differingPixels.map { .number(Double($0)) } ?? .null),
                    ("ratio", ratio.map { .number($0) } ?? .null),
                    ("ignored", .number(Double(ignoredPixels))),
                    ("diff", diffLink(reportPath: reportPath).map { .string($0) } ?? .null),
                ] + (problem.map { [("problem", JSONValue.string($0))] } ?? [])))
    }

    /// Where the diff image is in the report written to `reportPath`, if there is one.
    public func diffLink(reportPath: String?) -> String? {
        guard let reportPath, diffPNG != nil else { return nil }
        return (reportPath.hasSuffix("/") ? reportPath : reportPath + "/") + "diff/" + diffName
    }

    /// The diff image's path in a report's `diff/` folder: a PNG's path as it is, any other's with `.png` added (the
    /// diff is a PNG, whatever the images were): `home.jpg.png` for `home.jpg`. A PNG whose name without `.png` is an
    /// image's name itself gets `.png` added too (`home.jpg.png.png`), so that no two images share a diff.
    public var diffName: String {
        guard ImageFormat(fileName: path) == .png else { return path + ".png" }
        let stem = path.dropLast(4)  // ".png", in any case
        return ImageFormat(fileName: String(stem)) == nil ? path : path + ".png"
    }

    /// A whole comparison as one JSON document: the folders, the counts per status, and one record per image.
    public static func jsonDocument(
        _ differences: [ImageDifference], expected: String, actual: String, reportPath: String?
    ) -> String {
        let counts = ImageDifference.Status.allCases.map { status in
            (status.rawValue, JSONValue.number(Double(differences.filter { $0.status == status }.count)))
        }
        let document = JSONValue.object(
            JSONObject([
                ("expected", .string(expected)),
                ("actual", .string(actual)),
                ("report", reportPath.map { .string($0) } ?? .null),
                ("counts", .object(JSONObject(counts))),
                ("images", .array(differences.map { $0.json(reportPath: reportPath) })),
            ]))
        return document.jsonText + "\n"
    }

    /// A JUnit XML document with one test case per image, which CI servers show in their test tabs: changed, new
    /// and deleted images fail, with the summary, the ratio and the diff image's path in the failure; an unreadable
    /// pair is an error, with its problem; an image within the tolerances passes with the same lines as its output,
    /// so that what was tolerated can be read.
    public static func junitDocument(_ differences: [ImageDifference], suite: String, reportPath: String?) -> String {
        let errors = differences.filter { $0.status == .unreadable }.count
        let failures = differences.filter { $0.status.fails }.count - errors
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuites tests=\"\(differences.count)\" failures=\"\(failures)\" errors=\"\(errors)\">\n"
        xml +=
            "  <testsuite name=\"\(escape(suite))\" tests=\"\(differences.count)\" failures=\"\(failures)\" errors=\"\(errors)\" skipped=\"0\">\n"
        for difference in differences {
            xml += "    <testcase classname=\"\(escape(suite))\" name=\"\(escape(difference.path))\""
            guard difference.status.fails || difference.status == .withinTolerance else {
                xml += "/>\n"
                continue
            }
            var lines = [difference.summary]
            // Written as the JSON writes it, so that both outputs read alike.
            if let ratio = difference.ratio { lines.append("ratio: \(JSONValue.number(ratio).jsonText)") }
            if let link = difference.diffLink(reportPath: reportPath) { lines.append("diff: \(link)") }
            if let reportPath {
                lines.append(
                    "report: \(reportPath.hasSuffix("/") ? reportPath : reportPath + "/")index.html#\(ComparisonReport.anchor(for: difference.path))"
                )
            }
            let text = escape(lines.joined(separator: "\n"), keepingLines: true)
            if difference.status == .withinTolerance {
                xml += ">\n      <system-out>\(text)</system-out>\n    </testcase>\n"
                continue
            }
            // JUnit's error is a test that could not run, as against one that ran and failed.
            let element = difference.status == .unreadable ? "error" : "failure"
            xml +=
                ">\n      <\(element) type=\"\(difference.status.rawValue)\" message=\"\(escape(difference.summary))\">"
            xml += text + "</\(element)>\n    </testcase>\n"
        }
        return xml + "  </testsuite>\n</testsuites>\n"
    }

    /// Escapes text for XML content and attributes (where line breaks and tabs are written as references, since a
    /// parser would turn literal ones into spaces); characters XML 1.0 cannot hold become `?`.
    static func escape(_ text: String, keepingLines: Bool = false) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            // A parser turns literal line breaks and tabs in an attribute into spaces, and a carriage return anywhere
            // into a line feed: references keep them.
            case "\n": result += keepingLines ? "\n" : "&#10;"
            case "\t": result += keepingLines ? "\t" : "&#9;"
            case "\r": result += "&#13;"
            default:
                result.unicodeScalars.append(
                    scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF ? "?" : scalar)
            }
        }
        return result
    }
}
