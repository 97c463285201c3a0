import DeclutterClustering
import DeclutterMapContent
import DeclutterStyle
import DeclutterTestSupport
import Foundation
import Testing

/// How many values of a category property get colours of their own, and which: `--colors` and `--colors-for`.
@Suite struct DataColorsTests {
    let defaultStyle: MarkerStyle
    /// Twenty values, "v00" with 20 points down to "v19" with 1.
    let values: [String?] = (0..<20).flatMap { index in
        Array(repeating: String(format: "v%02d", index), count: 20 - index)
    }

    init() throws {
        defaultStyle = try MarkerStyle.load(contentsOf: stylesFolder.appendingPathComponent("default.json"))
    }

    /// Three colours: the three most frequent values take the style's first three, the other 17 share its grey.
    @Test func fewerColoursThanTheStyleHas() throws {
        let data = try #require(DataCategories(values: values, style: defaultStyle, property: "cc", colors: 3))
        #expect(data.style.categories.map(\.name) == ["v00", "v01", "v02", "other"])
        #expect(data.style.categories.map(\.color.hexString) == ["#0072B2", "#E69F00", "#009E73", "#6B7280"])
        #expect(data.valuesInOther == 17)
        #expect(!data.usesColorBlindPalette)
    }

    /// Ten colours, more than the default style's six (its seventh, grey, is "other"): the ten most frequent values
    /// take Paul Tol's twelve-colour palette in order, and grey stays the shared colour.
    @Test func moreColoursThanTheStyleHasTakeTheLongPalette() throws {
        let data = try #require(DataCategories(values: values, style: defaultStyle, property: "cc", colors: 10))
        #expect(data.usesColorBlindPalette)
        #expect(data.style.categories.map(\.name) == (0..<10).map { String(format: "v%02d", $0) } + ["other"])
        #expect(
            data.style.categories.map(\.color.hexString) == [
                "#332288", "#6699CC", "#88CCEE", "#44AA99", "#117733", "#999933",
                "#DDCC77", "#661100", "#CC6677", "#AA4466", "#6B7280",
            ])
        #expect(data.valuesInOther == 10)
        // As many as there are: twelve, then the rest share grey; asking for more gives no more.
        let most = try #require(DataCategories(values: values, style: defaultStyle, property: "cc", colors: 40))
        #expect(most.style.categories.count == 13)
        #expect(most.valuesInOther == 8)
        #expect(ColorBlindPalette.maximumColors(for: defaultStyle) == 12)
    }

    /// `--colors-for` alone: only the values named get colours, in the order named, whatever their frequency; with
    /// `--colors`, the most frequent of the rest follow up to that many.
    @Test func namedValuesComeFirst() throws {
        let named = try #require(
            DataCategories(values: values, style: defaultStyle, property: "cc", colorsFor: ["v19", "v07"]))
        #expect(named.style.categories.map(\.name) == ["v19", "v07", "other"])
        #expect(named.categoryOfValue["v00"] == "other")
        #expect(named.valuesInOther == 18)
        let filled = try #require(
            DataCategories(values: values, style: defaultStyle, property: "cc", colors: 4, colorsFor: ["v19"]))
        #expect(filled.style.categories.map(\.name) == ["v19", "v00", "v01", "v02", "other"])
    }

    /// Values shown on the map and in "other": the legend says how many values its row holds on the map.
    @Test func valuesInOtherOnTheMapAreCounted() throws {
        // Every value's first point is on the map, except v15…v19's.
        var onMap = [Bool](repeating: false, count: values.count)
        var seen = Set<String>()
        for (index, value) in values.enumerated()
        where seen.insert(value ?? "").inserted && !(value ?? "").hasPrefix("v1") {
            onMap[index] = true
        }
        let data = try #require(
            DataCategories(values: values, style: defaultStyle, property: "cc", onMap: onMap, colors: 4))
        // v00…v09 are on the map (one point each), ranked by that first: v00…v03 take colours, v04…v09 are on the map
        // in "other".
        #expect(data.style.categories.map(\.name) == ["v00", "v01", "v02", "v03", "other"])
        #expect(data.valuesInOther == 16)
        #expect(data.valuesInOtherOnMap == 6)
        let legend = MapLegend(
            title: "cc", style: data.style, counts: [1, 1, 1, 1, 6], manyValues: ("other", data.valuesInOtherOnMap))
        #expect(legend.rows.map(\.values) == [nil, nil, nil, nil, 6])
    }
}
