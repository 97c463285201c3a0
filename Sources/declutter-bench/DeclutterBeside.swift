import DeclutterCommandLine
import Foundation

/// The `declutter` built beside this program, which the benchmarks that run whole processes or servers measure;
/// `purpose` says which, for the message when there is none.
///
/// - Throws: ``MissingDeclutter`` naming the path looked at and how to put a `declutter` there.
func declutterBesideThisOne(for purpose: String) throws -> URL {
    let declutter = programBesideThisOne("declutter")
    guard FileManager.default.isExecutableFile(atPath: declutter.path) else {
        throw MissingDeclutter(
            description:
                "\(purpose), the declutter beside declutter-bench, but there is none (\(declutter.path)); build both "
                + "with `swift build -c release`, or copy both into one folder")
    }
    return declutter
}

/// There is no `declutter` beside `declutter-bench`.
struct MissingDeclutter: Error, CustomStringConvertible {
    var description: String
}
