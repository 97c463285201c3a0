import DeclutterMapContent
import DeclutterPNG
import DeclutterPlacement
import DeclutterStyle
import Foundation

/// Draws every icon a style needs into MapLibre/Mapbox sprite sheets at several pixel ratios.
///
/// ```swift
/// let sheet = try SpriteSheetBuilder(style: style).build(ratios: [1, 2], spacing: 0)
/// for file in sheet.files { try FileSystem.writeAtomically(file.data, to: folder.appendingPathComponent(file.name)) }
/// ```
/// Each image is the one `MarkerRenderer` draws for the same counts, label and scale, copied pixel for pixel.
/// The layout is packed once in points and scaled, so @2x entries are exactly twice their @1x entries.
public final class SpriteSheetBuilder {
    /// The style drawn.
    public let style: MarkerStyle
    private let renderer: MarkerRenderer

    /// Creates a builder for a validated style.
    public init(style: MarkerStyle) throws {
        self.style = style
        renderer = try MarkerRenderer(style: style)
    }

    /// Builds the sheets, the manifest and the SVG sprite.
    ///
    /// - Parameters:
    ///   - ratios: Pixel ratios, each 1, 2 or 3.
    ///   - spacing: Empty points between images (pixels at @1x).
    ///   - svg: Whether to draw `sprite.svg` too.
    ///   - encoder: How the sheets are compressed (default: the fast pixel-run encoder).
    ///   - rings: Whether clusters are rings without counts, for a map that draws counts as text
    ///     (``SpritePlan/ringIcons(for:)``), instead of icons per count step (``SpritePlan/icons(for:)``).
    ///   - progress: Called after each image with (done, total) across all ratios.
    /// - Throws: ``StyleError`` for a style asking for too many icons, ``RenderError`` for a sheet too large.
    public func build(
        ratios: [Int], spacing: Int = 0, svg: Bool = true, encoder: PNGEncoder = PNGEncoder(), rings: Bool = false,
        progress: ((Int, Int) -> Void)? = nil
    ) throws -> SpriteSheet {
        let icons = try rings ? SpritePlan.ringIcons(for: style) : SpritePlan.icons(for: style)
        let sizes = icons.map { icon -> (width: Int, height: Int) in
            let geometry = renderer.geometry(for: icon.counts)
            return (Int(geometry.width.rounded(.up)), Int(geometry.height.rounded(.up)))
        }
        let packing = SpritePacker(spacing: spacing).pack(sizes)
        let ratios = Array(Set(ratios)).sorted()
        var files: [(name: String, data: Data)] = []
        var index: [Int: [String: SpriteSheet.Entry]] = [:]
        var done = 0
        let total = icons.count * ratios.count + (svg ? icons.count : 0)
        for ratio in ratios {
            let sheet = try Canvas(
                width: Double(max(packing.width, 1)), height: Double(max(packing.height, 1)),
                scale: Double(ratio), format: .png)
            let sheetContext = sheet.context
            var entries: [String: SpriteSheet.Entry] = [:]
            for (icon, place) in zip(icons, packing.placements) {
                let image = try renderer.canvas(icon.counts, label: icon.label, scale: Double(ratio))
                sheetContext.paintPixels(
                    image.surface, deviceX: Double(place.x * ratio), deviceY: Double(place.y * ratio))
                let entry = SpriteSheet.Entry(
                    width: place.width * ratio, height: place.height * ratio,
                    x: place.x * ratio, y: place.y * ratio, pixelRatio: ratio)
                for name in icon.names { entries[name] = entry }
                done += 1
                progress?(done, total)
            }
            let names = Self.sheetNames(ratio: ratio)
            files.append((names.image, try sheet.data(encoder: encoder)))
            files.append((names.index, try Self.json(entries)))
            index[ratio] = entries
        }
        files.append((Self.manifestName, try SpriteManifest(icons: icons).jsonData()))
        if svg {
            files.append(
                (
                    Self.svgName,
                    try svgSprite(icons, sizes: sizes) {
                        done += 1
                        progress?(done, total)
                    }
                ))
        }
        return SpriteSheet(
            files: files, index: index, nameCount: icons.reduce(0) { $0 + $1.names.count },
            imageCount: icons.count, fill: packing.fill)
    }

    /// The manifest's and the SVG sprite's names.
    public static let manifestName = "sprite.manifest.json", svgName = "sprite.svg"

    /// The files ``build(ratios:spacing:svg:encoder:rings:progress:)`` makes, in its order, known before anything is
    /// drawn: each ratio's sheet and index, the manifest, and with `svg` the SVG sprite.
    public static func fileNames(ratios: [Int], svg: Bool = true) -> [String] {
        Array(Set(ratios)).sorted().flatMap { ratio in
            let names = sheetNames(ratio: ratio)
            return [names.image, names.index]
        } + [manifestName] + (svg ? [svgName] : [])
    }

    /// The names of the sheet at a pixel ratio: `sprite.png` and `sprite.json`, `sprite@2x.png` and `sprite@2x.json`.
    public static func sheetNames(ratio: Int) -> (image: String, index: String) {
        let stem = ratio == 1 ? "sprite" : "sprite@\(ratio)x"
        return ("\(stem).png", "\(stem).json")
    }

    /// `sprite.json`: names in sorted order, so the file is the same from run to run.
    static func json(_ entries: [String: SpriteSheet.Entry]) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        return try encoder.encode(entries)
    }

    /// One `<symbol>` per name: each image drawn once as SVG, its other names as `<use>` of it.
    private func svgSprite(_ icons: [SpriteIcon], sizes: [(width: Int, height: Int)], progress: () -> Void) throws
        -> Data
    {
        var document = #"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">"# + "\n"
        for (number, (icon, size)) in zip(icons, sizes).enumerated() {
            let svg = String(
                decoding: try renderer.render(icon.counts, label: icon.label, scale: 2, format: .svg), as: UTF8.self)
            let viewBox = "0 0 \(size.width) \(size.height)"
            document += SVGSymbol.symbol(from: svg, id: icon.names[0], viewBox: viewBox, prefix: "i\(number)-") + "\n"
            for alias in icon.names.dropFirst() {
                let primary = icon.names[0]
                document +=
                    ##"<symbol id="\##(alias)" viewBox="\##(viewBox)"><use href="#\##(primary)" xlink:href="#\##(primary)" "##
                    + ##"width="\##(size.width)" height="\##(size.height)"/></symbol>"## + "\n"
            }
            progress()
        }
        return Data((document + "</svg>\n").utf8)
    }
}
