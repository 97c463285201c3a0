import DeclutterGeometry
import DeclutterMapContent
import DeclutterStyle
import Foundation

/// A map legend laid out for drawing: a pale box with a row per category — a dot in its colour, its name, and its
/// count aligned right — under an optional title. A row that stands for many values (`other`) says how many on a
/// smaller line under its name, so that the box grows a little taller rather than wider.
public struct LegendBox {
    /// The legend drawn.
    public let legend: MapLegend
    /// The box's size in points.
    public let size: (width: Double, height: Double)
    private let title: TextLayout?
    private let rows: [(name: TextLayout, count: TextLayout, values: TextLayout?)]

    static let padding = 6.0, rowHeight = 15.0, dotRadius = 4.5, gap = 6.0, columnGap = 12.0
    /// The height of a row's line of values under its name.
    static let valuesHeight = 11.0
    /// The longest name drawn, in characters; longer ones end in "…".
    static let maximumNameLength = 28

    /// The title and names, as drawn, with characters no installed font has (drawn as boxes), in the legend's order.
    public var namesWithUnknownGlyphs: [String] {
        let title = self.title.map { [(legend.title ?? "", $0)] } ?? []
        return (title + zip(legend.rows.map(\.name), rows.map(\.name)).map { ($0, $1) })
            .filter { $0.1.unknownGlyphCount > 0 }.map(\.0)
    }

    /// Lays out `legend` with `text`'s fonts.
    public init(_ legend: MapLegend, text: TextEngine) throws {
        self.legend = legend
        title = try legend.title.map {
            try text.layout(Self.shortened(Self.oneLine($0)), family: "DejaVu Sans Bold", size: 10)
        }
        let names = Self.shortened(names: legend.rows.map { Self.oneLine($0.name) })
        rows = try zip(legend.rows, names).map { row, name in
            (
                try text.layout(name, family: "DejaVu Sans", size: 10),
                try text.layout(Self.grouped(row.count), family: "DejaVu Sans", size: 10),
                try row.values.map {
                    try text.layout(
                        "\(Self.grouped($0)) \($0 == 1 ? "value" : "values")", family: "DejaVu Sans", size: 8)
                }
            )
        }
        let nameWidth = rows.map { max($0.name.logicalExtents.width, $0.values?.logicalExtents.width ?? 0) }.max() ?? 0
        let countWidth = rows.map(\.count.logicalExtents.width).max() ?? 0
        let rowWidth = 2 * Self.dotRadius + Self.gap + nameWidth + Self.columnGap + countWidth
        let titleWidth = title?.logicalExtents.width ?? 0
        let titleHeight = title == nil ? 0 : Self.rowHeight + 2
        let valuesHeight = Double(rows.filter { $0.values != nil }.count) * Self.valuesHeight
        size = (
            (max(rowWidth, titleWidth) + 2 * Self.padding).rounded(.up),
            (titleHeight + Double(rows.count) * Self.rowHeight + valuesHeight + 2 * Self.padding).rounded(.up)
        )
    }

    /// Draws the box with its top-left corner at (x, y).
    public func draw(x: Double, y: Double, in context: DrawingContext, textColor: RGBAColor) {
        context.newPath()
        context.rectangle(x: x, y: y, width: size.width, height: size.height)
        context.fillPreserving(RGBAColor(red: 1, green: 1, blue: 1, alpha: 0.88))
        context.stroke(RGBAColor(red: 0, green: 0, blue: 0, alpha: 0.2), width: 1)
        var top = y + Self.padding
        if let title {
            context.show(
                title, x: x + Self.padding, y: top + (Self.rowHeight - title.logicalExtents.height) / 2,
                color: textColor)
            top += Self.rowHeight + 2
        }
        for (row, layout) in zip(legend.rows, rows) {
            let middle = top + Self.rowHeight / 2
            context.newPath()
            context.circle(centerX: x + Self.padding + Self.dotRadius, centerY: middle, radius: Self.dotRadius)
            context.fillPreserving(row.color)
            context.stroke(row.color.scaled(by: 0.75), width: 1)
            context.show(
                layout.name, x: x + Self.padding + 2 * Self.dotRadius + Self.gap,
                y: middle - layout.name.logicalExtents.height / 2, color: textColor)
            context.show(
                layout.count, x: x + size.width - Self.padding - layout.count.logicalExtents.width,
                y: middle - layout.count.logicalExtents.height / 2, color: textColor)
            top += Self.rowHeight
            if let values = layout.values {
                context.show(
                    values, x: x + Self.padding + 2 * Self.dotRadius + Self.gap, y: top - 2,
                    color: textColor.withOpacity(0.7))
                top += Self.valuesHeight
            }
        }
    }

    /// `text` on one line: each line break or other control character a space. A CSV's quoted field may hold line
    /// breaks, and a name drawn on two lines ran into the rows above and below its own.
    static func oneLine(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else { return text }
        // "\r\n" is one Character, so it becomes one space.
        return String(text.map { $0.unicodeScalars.contains { $0.properties.generalCategory == .control } ? " " : $0 })
    }

    /// `text` cut to ``maximumNameLength`` characters.
    static func shortened(_ text: String) -> String {
        text.count <= maximumNameLength ? text : String(text.prefix(maximumNameLength - 1)) + "…"
    }

    /// The rows' names cut to ``maximumNameLength`` characters, each told apart from the others: names that would
    /// read alike cut at their end (`Acme Corporation North` and `… South` past the limit) are cut in the middle
    /// instead, keeping their ends, where such names usually differ.
    static func shortened(names: [String]) -> [String] {
        let ends = names.map(shortened)
        var seen: [String: Int] = [:]
        for (name, end) in zip(names, ends) where name != end { seen[end, default: 0] += 1 }
        return zip(names, ends).map { name, end in
            guard name != end, let count = seen[end], count > 1 else { return end }
            let tail = (maximumNameLength - 1) / 2
            let head = name.prefix(maximumNameLength - 1 - tail)
            return String(head.reversed().drop(while: \.isWhitespace).reversed()) + "…"
                + String(name.suffix(tail).drop(while: \.isWhitespace))
        }
    }

    /// A count with thin spaces between groups of three digits: 12 345.
    static func grouped(_ count: Int) -> String {
        var digits = Array(String(count)), result = ""
        while digits.count > 3 {
            result = "\u{2009}" + String(digits.suffix(3)) + result
            digits.removeLast(3)
        }
        return String(digits) + result
    }
}
