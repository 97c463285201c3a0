import ArgumentParser
import Foundation

/// A `serve --dataset` value: `NAME=FILE`, optionally followed by `,category=PROP`, the property whose values colour
/// that dataset's points (else `--category`'s).
struct DatasetArgument: Equatable {
    /// The name in URLs.
    var name: String
    /// The point file.
    var path: String
    /// The category property given for this dataset; nil takes `--category`'s.
    var category: String?

    /// The suffix that gives a dataset its own category property.
    static let categorySuffix = ",category="

    /// Parses `NAME=FILE[,category=PROP]`; a file whose name holds `,category=` takes the last one as the option.
    ///
    /// - Throws: ``ValidationError`` naming the value and the shape expected.
    init(_ value: String) throws {
        let shape = "expected NAME=FILE or NAME=FILE,category=PROP"
        guard let equals = value.firstIndex(of: "=") else { throw ValidationError("--dataset \(value): \(shape)") }
        name = String(value[..<equals])
        var rest = String(value[value.index(after: equals)...])
        if let suffix = rest.range(of: Self.categorySuffix, options: .backwards) {
            let property = String(rest[suffix.upperBound...])
            guard !property.isEmpty else {
                throw ValidationError("--dataset \(value): the category property is empty; \(shape)")
            }
            category = property
            rest = String(rest[..<suffix.lowerBound])
        }
        // A file name may hold commas; a last part `key=…` of a path where no file is, is an option misspelt.
        if let comma = rest.lastIndex(of: ","), !FileManager.default.fileExists(atPath: rest) {
            let tail = rest[rest.index(after: comma)...]
            if let equals = tail.firstIndex(of: "="), !tail[..<equals].isEmpty,
                tail[..<equals].allSatisfy({ $0.isLetter || $0 == "-" || $0 == "_" })
            {
                throw ValidationError("--dataset \(value): unknown key \"\(tail[..<equals])\"; \(shape)")
            }
        }
        guard !name.isEmpty else { throw ValidationError("--dataset \(value): the name is empty; \(shape)") }
        guard !rest.isEmpty else { throw ValidationError("--dataset \(value): the file name is empty; \(shape)") }
        path = rest
    }
}
