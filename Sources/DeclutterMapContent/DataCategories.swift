import DeclutterClustering
import DeclutterGeometry
import DeclutterPlacement
import DeclutterStyle
import DeclutterSupport

/// A style's colours given to the values a data property takes, when those values are not the style's categories
/// (country codes, kinds of shop): the most frequent values take the style's colours in order, the rest share one
/// "other" colour, and all of them cluster together so that cluster slices show the mix.
public struct DataCategories: Sendable {
    /// The name of the category the values beyond the palette share.
    public static let otherName = "other"
    /// The name given to points that lack the property.
    public static let missingName = "(none)"

    /// The style with one category per value (most frequent first), then `other` when values outnumber its colours.
    public let style: MarkerStyle
    /// Each value's category name: the value itself, or ``otherName``.
    public let categoryOfValue: [String: String]
    /// How many distinct values share the `other` colour.
    public let valuesInOther: Int
    /// Of ``valuesInOther``, how many have points on the map (all of them when no map was given).
    public let valuesInOtherOnMap: Int
    /// Whether the values' colours come from ``ColorBlindPalette`` rather than the style, as more values were given
    /// colours of their own than the style has.
    public let usesColorBlindPalette: Bool

    /// Colours `values` (one per point; nil where a point lacks the property) from `style`'s palette.
    ///
    /// Values rank by how many points have them, counting first only the points `onMap` marks (so that a map of one
    /// region gives its colours to the values it shows), then all points, then by name (numbers in names as numbers);
    /// points without the property (``missingName``) rank after every value.
    ///
    /// The palette is the style's categories; a category named `other` gives the shared colour, else the last
    /// category does when the values outnumber the palette. `colors` says how many values get colours of their own
    /// (nil: as many as the palette holds), `colorsFor` which do first, in that order, the most frequent of the rest
    /// following up to `colors` (without it, only those named); where that is more values than the style has colours
    /// for, they take ``ColorBlindPalette``'s colours instead, up to ``ColorBlindPalette/maximumColors(for:)``, and the
    /// style's `other` (else last) colour stays the shared one. Returns nil when every value is a category of the
    /// style, which then applies as it is (points lacking the property taking its first category).
    public init?(
        values: [String?], style: MarkerStyle, property: String, onMap: [Bool]? = nil, colors: Int? = nil,
        colorsFor: [String] = []
    ) {
        var frequency: [String: Int] = [:], shown: [String: Int] = [:]
        for (index, value) in values.enumerated() {
            frequency[value ?? Self.missingName, default: 0] += 1
            if let onMap, index < onMap.count, onMap[index] { shown[value ?? Self.missingName, default: 0] += 1 }
        }
        // Points without the property take the style's first category when the rest are the style's own.
        guard values.contains(where: { $0 != nil && style.category(named: $0 ?? "") == nil }) else { return nil }
        // Most frequent first; equal counts by value, numbers in them as numbers ("k2" before "k10"), so the colours
        // do not depend on the order of the rows. Points without a value come after every value: a colour of their
        // own only when every value has one.
        let ranked = frequency.sorted { a, b in
            let aMissing = a.key == Self.missingName, bMissing = b.key == Self.missingName
            if aMissing != bMissing { return bMissing }
            if (shown[a.key] ?? 0, a.value) != (shown[b.key] ?? 0, b.value) {
                return (shown[a.key] ?? 0, a.value) > (shown[b.key] ?? 0, b.value)
            }
            return a.key.inNaturalOrder(before: b.key)
        }.map(\.key)
        var palette = style.categories.filter { $0.name != Self.otherName }
        var other = style.category(named: Self.otherName)
        var chosen: [String]
        var longPalette = false
        if colors == nil && colorsFor.isEmpty {
            if other == nil, ranked.count > palette.count, let last = palette.popLast() { other = last }
            chosen = Array(ranked.prefix(palette.count))
        } else {
            var asked: [String] = []
            for value in colorsFor where !asked.contains(value) { asked.append(value) }
            let limit = min(colors ?? asked.count, ColorBlindPalette.maximumColors(for: style))
            chosen = Array((asked + ranked.filter { !asked.contains($0) }).prefix(limit))
            let leftOver = ranked.contains { !chosen.contains($0) }
            let ownColors = palette.count - (leftOver && other == nil ? 1 : 0)
            if chosen.count > ownColors {
                // More values than the style has colours for: the long palette, the style's other (else last) colour
                // shared.
                longPalette = true
                if other == nil { other = palette.last }
                let base = palette.first ?? style.categories[0]
                palette = ColorBlindPalette.colors.map { color in
                    var category = base
                    category.color = color
                    return category
                }
            } else if leftOver, other == nil, let last = palette.popLast() {
                other = last
            }
        }
        // Data categories: one clustering identifier for all, so that a cluster holds every value near it.
        let identifier = "\(property) values"
        func category(_ name: String, like source: MarkerCategory) -> MarkerCategory {
            // An image glyph belongs to what the style draws (a bicycle); a value's balloon shows a plain dot instead.
            var glyph = source.glyph
            if case .image = glyph { glyph = nil }
            return MarkerCategory(
                name: name, color: source.color, glyph: glyph, clusteringIdentifier: identifier,
                displayPriority: source.displayPriority)
        }
        var categories = zip(chosen, palette).map { category($0, like: $1) }
        chosen = Array(chosen.prefix(categories.count))
        var categoryOfValue = Dictionary(uniqueKeysWithValues: chosen.map { ($0, $0) })
        let rest = ranked.filter { categoryOfValue[$0] == nil }
        if !rest.isEmpty, let other {
            // A value named "other" that made the palette keeps its own colour; the shared row is still "other".
            let otherName = categoryOfValue[Self.otherName] == nil ? Self.otherName : "\(Self.otherName) values"
            categories.append(category(otherName, like: other))
            for value in rest { categoryOfValue[value] = otherName }
        }
        var adapted = style
        adapted.categories = categories
        self.style = adapted
        self.categoryOfValue = categoryOfValue
        valuesInOther = rest.count
        valuesInOtherOnMap = onMap == nil ? rest.count : rest.filter { (shown[$0] ?? 0) > 0 }.count
        usesColorBlindPalette = longPalette
    }

    /// Gives each point the category of its value.
    public func apply(to points: inout [ClusterPoint]) {
        for index in points.indices {
            points[index].category = categoryOfValue[points[index].category ?? Self.missingName]
        }
    }
}
