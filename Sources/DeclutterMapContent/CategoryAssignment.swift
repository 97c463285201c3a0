import DeclutterClustering
import DeclutterGeometry
import DeclutterInput
import DeclutterPlacement
import DeclutterStyle
import DeclutterSupport

/// Gives points the style category they are drawn in, as a map and a tileset both need: a point without a category
/// takes the style's first, and each takes its category's clustering identifier.
public struct CategoryAssignment: Sendable {
    /// The style whose categories are given.
    public let style: MarkerStyle
    private let categories: [String: MarkerCategory]

    /// Assignment for `style`'s categories (the first of a repeated name counts).
    public init(style: MarkerStyle) {
        self.style = style
        categories = Dictionary(style.categories.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Sets the point's category (the style's first when it has none) and, unless `keepingIdentifier`, its clustering
    /// identifier to its category's.
    ///
    /// - Throws: ``AnnotationError`` naming point `index` when the style lacks its category.
    public func assign(_ point: inout ClusterPoint, index: Int, keepingIdentifier: Bool = false) throws {
        let (name, identifier) = try assignment(of: point, index: index, keepingIdentifier: keepingIdentifier)
        point.category = name
        point.clusteringIdentifier = identifier
    }

    /// The category and clustering identifier ``assign(_:index:keepingIdentifier:)`` gives a point, without changing
    /// it.
    ///
    /// - Throws: ``AnnotationError`` naming point `index` when the style lacks its category.
    public func assignment(of point: ClusterPoint, index: Int, keepingIdentifier: Bool = false) throws -> (
        category: String, identifier: String?
    ) {
        let name = point.category ?? style.categories[0].name
        guard let category = categories[name] else {
            throw AnnotationError(
                "point \(index): category \"\(name.escapedForTerminal)\" is not in style \"\(style.name.escapedForTerminal)\"; expected one of: "
                    + style.categories.map(\.name).nameList())
        }
        return (name, keepingIdentifier ? point.clusteringIdentifier : category.clusteringIdentifier)
    }

    /// What is wrong when `property` names the points' categories and no point has it, nil when some point does (or
    /// there are none): the message names the properties the points do have, and the one a misspelling most likely
    /// meant. With `purpose` and `has` it speaks of another use of the property, such as clustering identifiers.
    public static func missing(
        _ property: String, in points: [ClusterPoint], purpose: String = "colour it by",
        has: (ClusterPoint) -> Bool = { $0.category != nil }
    ) -> String? {
        guard !points.isEmpty, !points.contains(where: has) else { return nil }
        let names = Array(points.first?.properties.keys ?? [])
        // A name as long as a request body (500 KB came back whole in a 422) is cut: its start says which was meant.
        let shown = property.count > 64 ? property.prefix(64) + "…" : property
        let quoted = "\"\(shown.escapedForTerminal)\""
        // The column is there, only empty everywhere.
        if names.contains(property) { return "no point has a value for the property \(quoted) to \(purpose)" }
        var message =
            "no point has the property \(quoted) to \(purpose); "
            + (names.isEmpty ? "its points have no properties" : "its points have \(names.nameList(quoted: true))")
        if let near = property.nearestName(among: names) {
            message += " (did you mean \"\(near.escapedForTerminal)\"?)"
        }
        return message
    }

    /// The first of `aggregates` whose property no point of `points` has, as its option's text (`NAME=FUNC:PROP`),
    /// with what ``missing(_:in:purpose:has:)`` says of it; nil when each is some point's. Such an aggregate would
    /// give every cluster an empty value.
    public static func missing(aggregates: [ClusterAggregate], in points: [ClusterPoint]) -> (
        option: String, problem: String
    )? {
        for aggregate in aggregates {
            let property = aggregate.property
            if let problem = missing(
                property, in: points, purpose: "aggregate", has: { $0.properties[property] != nil })
            {
                return ("\(aggregate.name)=\(aggregate.function.rawValue):\(property)", problem)
            }
        }
        return nil
    }

    /// Points as a tileset or a server's dataset takes them: when `categoryProperty` named their categories and its
    /// values are not `style`'s, the values take the style's colours by frequency (``DataCategories``); then each point
    /// is assigned as ``assign(_:index:keepingIdentifier:)`` does. Returns the points, the style they are drawn in, and
    /// the category the values beyond the style's colours share with the property they are values of (nil when every
    /// value has a colour of its own), for a legend to say how many share it.
    ///
    /// - Throws: ``AnnotationError`` naming the first point whose category the style lacks.
    public static func prepared(
        _ points: [ClusterPoint], style: MarkerStyle, categoryProperty: String?,
        keepingIdentifiers: Bool = false
    ) throws -> (
        points: [ClusterPoint], style: MarkerStyle, sharedValues: (category: String, property: String)?
    ) {
        var points = points, style = style, shared: (category: String, property: String)?
        if let categoryProperty,
            let data = DataCategories(values: points.map(\.category), style: style, property: categoryProperty)
        {
            data.apply(to: &points)
            style = data.style
            if data.valuesInOther > 0, let other = style.categories.last?.name { shared = (other, categoryProperty) }
        }
        let assignment = CategoryAssignment(style: style)
        for index in points.indices {
            try assignment.assign(&points[index], index: index, keepingIdentifier: keepingIdentifiers)
        }
        return (points, style, shared)
    }
}
