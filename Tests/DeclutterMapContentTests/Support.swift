import DeclutterInput
import DeclutterStyle
import DeclutterTestSupport
import Foundation

/// The TANDm sample: its style and its points.
func tandmSample() throws -> (style: MarkerStyle, read: PointReader.Result) {
    (
        try MarkerStyle.load(contentsOf: stylesFolder.appendingPathComponent("tandm.json")),
        try PointReader().read(contentsOf: coreFixtures.appendingPathComponent("tandm/Data.plist"))
    )
}
