import DeclutterSupport
import Foundation

/// Declutter's clusters merged into a MapLibre style of the user's own (`declutter tiles --base-style FILE
/// --before-layer ID`): an OpenMapTiles, Protomaps or any v8 style keeps its sources, layers, sprite, glyphs and view,
/// and gains the `declutter` source and the layers that draw it, before the layer named (else on top).
///
/// - **Sprites.** MapLibre GL JS 5 takes several sprite sheets as an array of `{id, url}`: a base style's sprite
///   (a URL, or an array already) becomes the array's `default` entry, Declutter's sheet is added as `declutter`, and
///   the clusters' `icon-image` names its icons `declutter:NAME`, as MapLibre looks images of a sheet other than
///   `default` up. A base style that has a sheet of id `declutter` already is refused.
/// - **Glyphs.** A style has one glyph URL. Without one, the base style takes Declutter's (the counts' font). With
///   one, it is kept, and the counts ask it for their font; ``Result/notes`` says so, naming the font and the folder
///   of ranges to put beside the base style's own.
/// - **Sources and layers.** A base style with a source or a layer of the ids Declutter's use is refused, naming it;
///   so is a `--before-layer` the base style has no layer of.
/// - **Legend.** Declutter's `declutter:legend` joins the base style's `metadata`, whose own keys stay.
public enum StyleMerge {
    /// The merged style and what a user must know about it.
    public struct Result {
        /// The merged style, as JSON.
        public var style: Data
        /// What the merge could not do alone: a glyph font to serve beside the base style's glyphs.
        public var notes: [String]
    }

    /// Why a base style cannot take Declutter's source and layers.
    public struct Failure: Error, Sendable, CustomStringConvertible, DeclutterError {
        /// What could not be merged, and why.
        public var description: String
        init(_ description: String) { self.description = description }
        /// A base style that cannot be merged is bad input.
        public var kind: FailureKind { .badInput }
    }

    /// Merges the `declutter` source, its layers, sprite sheet and glyphs from `ours` (a style ``MapLibreStyle``
    /// wrote) into `base`, the layers inserted before the layer `beforeLayer` (nil: on top).
    ///
    /// - Parameter glyphFolder: Where the counts' glyph ranges were written, for the note when the base style keeps
    ///   its own glyphs.
    /// - Throws: ``Failure`` naming what cannot be merged.
    public static func merge(base: Data, ours: Data, beforeLayer: String?, glyphFolder: String) throws(Failure)
        -> Result
    {
        guard var style = (try? JSONSerialization.jsonObject(with: base)) as? [String: Any] else {
            throw Failure("the base style is not a JSON object")
        }
        guard (style["version"] as? Int) == 8 else {
            throw Failure("the base style is not a MapLibre style of version 8")
        }
        guard let own = (try? JSONSerialization.jsonObject(with: ours)) as? [String: Any],
            let ownSources = own["sources"] as? [String: Any], let source = ownSources[MapLibreStyle.sourceID]
        else { throw Failure("Declutter's style has no \(MapLibreStyle.sourceID) source") }
        var sources = style["sources"] as? [String: Any] ?? [:]
        guard sources[MapLibreStyle.sourceID] == nil else {
            throw Failure(
                "the base style has a source named \(MapLibreStyle.sourceID) already, Declutter's source's id")
        }
        sources[MapLibreStyle.sourceID] = source
        style["sources"] = sources

        var notes: [String] = []
        var layers = (own["layers"] as? [[String: Any]] ?? []).filter {
            ($0["source"] as? String) == MapLibreStyle.sourceID
        }.map(keepingLabelsOff)
        // The sprite sheets: Declutter's alone, or beside the base style's in an array.
        if let ownSprite = own["sprite"] as? String {
            switch style["sprite"] {
            case nil:
                style["sprite"] = ownSprite
            case let url as String:
                style["sprite"] = [["id": "default", "url": url], ["id": "declutter", "url": ownSprite]]
                layers = layers.map(prefixingIcons)
            case let sheets as [[String: Any]]:
                guard !sheets.contains(where: { ($0["id"] as? String) == "declutter" }) else {
                    throw Failure("the base style has a sprite sheet of id declutter already, Declutter's sheet's id")
                }
                style["sprite"] = sheets + [["id": "declutter", "url": ownSprite]]
                layers = layers.map(prefixingIcons)
            default:
                throw Failure("the base style's sprite is neither a URL nor an array of {id, url}")
            }
        }
        // One glyph URL per style.
        if let ownGlyphs = own["glyphs"] as? String {
            if let glyphs = style["glyphs"] as? String {
                let fonts = Set(
                    layers.compactMap { (($0["layout"] as? [String: Any])?["text-font"] as? [String])?.first })
                for font in fonts.sorted() {
                    notes.append(
                        "the base style's glyphs (\(glyphs.prefix(120))) are kept, as a style has one glyph URL: the counts ask them for \"\(font)\"; serve the ranges of \(glyphFolder)/\(font)/ beside its fonts"
                    )
                }
            } else {
                style["glyphs"] = ownGlyphs
            }
        }
        var baseLayers = style["layers"] as? [[String: Any]] ?? []
        let taken = Set(baseLayers.compactMap { $0["id"] as? String })
        if let clash = layers.compactMap({ $0["id"] as? String }).first(where: taken.contains) {
            throw Failure("the base style has a layer of id \(clash) already, one of Declutter's layers' ids")
        }
        if let beforeLayer {
            guard let index = baseLayers.firstIndex(where: { ($0["id"] as? String) == beforeLayer }) else {
                let ids = baseLayers.compactMap { $0["id"] as? String }
                throw Failure(
                    "--before-layer \(beforeLayer): the base style has no such layer; its layers: \(ids.prefix(20).joined(separator: ", "))\(ids.count > 20 ? ", …" : "")"
                )
            }
            let above = baseLayers[index...].filter { ($0["type"] as? String) == "symbol" }.compactMap {
                $0["id"] as? String
            }
            if !above.isEmpty {
                notes.append(
                    "the base style's symbol layers above the clusters (\(above.prefix(5).joined(separator: ", "))\(above.count > 5 ? ", …" : "")) are placed before them, as MapLibre places the top layers first, so their labels may print over the icons; without --before-layer the icons keep labels off them"
                )
            }
            baseLayers.insert(contentsOf: layers, at: index)
        } else {
            baseLayers += layers
        }
        style["layers"] = baseLayers
        // The legend joins the base style's own metadata, which stays as it was.
        if let legend = (own["metadata"] as? [String: Any])?[MapLibreStyle.legendKey] {
            var metadata: [String: Any] = [:]
            if let existing = style["metadata"] {
                guard let object = existing as? [String: Any] else {
                    throw Failure("the base style's metadata is not an object, so the legend cannot join it")
                }
                metadata = object
            }
            metadata[MapLibreStyle.legendKey] = legend
            style["metadata"] = metadata
        }
        guard
            let data = try? JSONSerialization.data(
                withJSONObject: style, options: [.sortedKeys, .withoutEscapingSlashes])
        else { throw Failure("the merged style cannot be written as JSON") }
        return Result(style: data, notes: notes)
    }

    /// A layer that shows every icon made to keep its place from the base style's labels: MapLibre places the top
    /// layers first, so a label placed after the icons is left out where it would cross one, as on the written
    /// style's own basemap (the style was written without one, its icons ignoring placement).
    private static func keepingLabelsOff(_ layer: [String: Any]) -> [String: Any] {
        guard var layout = layer["layout"] as? [String: Any], layout["icon-ignore-placement"] as? Bool == true else {
            return layer
        }
        var layer = layer
        layout["icon-ignore-placement"] = false
        layer["layout"] = layout
        return layer
    }

    /// A layer whose `icon-image` is `["get", "sprite"]` made to name the `declutter` sheet's icons.
    private static func prefixingIcons(_ layer: [String: Any]) -> [String: Any] {
        guard var layout = layer["layout"] as? [String: Any], let image = layout["icon-image"] else { return layer }
        var layer = layer
        layout["icon-image"] = ["concat", "declutter:", image]
        layer["layout"] = layout
        return layer
    }
}
