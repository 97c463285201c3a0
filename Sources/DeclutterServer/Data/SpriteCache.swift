import DeclutterMap
import DeclutterRender
import DeclutterStyle
import Foundation
import Synchronization

/// Sprite sheets by style and pixel ratio, built once on first request (a sheet takes a tenth of a second or more)
/// and kept: the styles a server has are few, and so are their sheets.
final class SpriteCache: Sendable {
    /// A sheet's index (`sprite.json`) and image (`sprite.png`).
    typealias Sheet = (json: Data, png: Data)

    private let sheets = Mutex<[SheetKey: Sheet]>([:])

    private struct SheetKey: Hashable {
        var style: MarkerStyle
        var ratio: Int
        var rings: Bool
    }

    /// The sheet of `style` at `ratio`, with rings for counts drawn as text or an icon per count step, made with
    /// `build` when not made before.
    func sheet(style: MarkerStyle, ratio: Int, rings: Bool, build: () async throws -> Sheet) async throws -> Sheet {
        let key = SheetKey(style: style, ratio: ratio, rings: rings)
        if let sheet = sheets.withLock({ $0[key] }) { return sheet }
        let sheet = try await build()
        sheets.withLock { $0[key] = sheet }
        return sheet
    }

    /// Builds `style`'s sheet at `ratio`, as `declutter tiles` writes it when `rings`: on a render thread, as it draws
    /// with Cairo.
    static func build(style: MarkerStyle, ratio: Int, rings: Bool) throws -> Sheet {
        let sheet = try SpriteSheetBuilder(style: style).build(ratios: [ratio], svg: false, rings: rings)
        let suffix = ratio == 1 ? "" : "@\(ratio)x"
        guard let json = sheet.files.first(where: { $0.name == "sprite\(suffix).json" })?.data,
            let png = sheet.files.first(where: { $0.name == "sprite\(suffix).png" })?.data
        else {
            throw ServerError(
                .internalServerError, field: "sprite",
                "the sprite sheet of \(style.name) has no sprite\(suffix).json and .png")
        }
        return (json, png)
    }
}
