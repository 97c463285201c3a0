import ArgumentParser
import DeclutterStyle
import Foundation

/// Pixel ratios `1,2,3` (`--ratios`): one or more of 1, 2 and 3, in the order given.
package struct PixelRatiosArgument: ExpressibleByArgument, Equatable {
    package var ratios: [Int]

    init(_ ratios: [Int]) { self.ratios = ratios }

    package init?(argument: String) {
        let values = argument.split(separator: ",", omittingEmptySubsequences: false).map {
            Int($0.trimmingCharacters(in: .whitespaces))
        }
        guard !values.isEmpty, values.allSatisfy({ $0.map { (1...3).contains($0) } ?? false }) else { return nil }
        ratios = values.compactMap { $0 }
    }

    package var defaultValueDescription: String { ratios.map(String.init).joined(separator: ",") }
}
