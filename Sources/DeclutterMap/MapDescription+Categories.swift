import DeclutterClustering
import DeclutterGeometry
import DeclutterInput
import DeclutterMapContent
import DeclutterRender
import DeclutterStyle
import DeclutterSupport
import DeclutterTiles
import Foundation

extension MapDescription {
    /// The map with its points coloured by ``categoryProperty`` when that property's values are not the style's
    /// categories: the style's colours go to the values with the most points on the map at `camera` and the rest share
    /// "other" (``DataCategories``); ``categoryNote`` says how. Unchanged otherwise.
    func categorised(camera: MapCamera, world: ProjectedPoints) throws -> (
        points: [ClusterPoint], style: MarkerStyle,
        annotator: MapAnnotator?, categoryNote: String?,
        manyValues: (category: String, count: Int)?
    ) {
        guard annotator == nil, let property = categoryProperty, points.contains(where: { $0.category != nil }) else {
            return (points, style, annotator, nil, manyValues)
        }
        let onMap = Self.onMap(camera: camera, world: world)
        guard
            let data = DataCategories(
                values: points.map(\.category), style: style, property: property, onMap: onMap,
                colors: colorCount, colorsFor: colorValues)
        else {
            return (points, style, nil, nil, nil)
        }
        var points = self.points
        data.apply(to: &points)
        let named = data.style.categories.count - (data.valuesInOther > 0 ? 1 : 0)
        let foreign = Set(self.points.compactMap(\.category).filter { style.category(named: $0) == nil })
        let example = foreign.sorted().first ?? ""
        let values = named + data.valuesInOther
        var note =
            "\(property): \"\(example)\"\(foreign.count > 1 ? " and \(foreign.count - 1) more" : "") "
            + "\(foreign.count > 1 ? "are not categories" : "is not a category") of style \"\(style.name)\", so "
        let chosen =
            colorValues.isEmpty
            ? "with the most points on the map"
            : colorValues.count >= named
                ? "named by --colors-for" : "named by --colors-for, then those with the most points on the map"
        note +=
            data.usesColorBlindPalette
            ? "the \(named) of \(values) values \(chosen) take a \(ColorBlindPalette.colors.count)-colour colour-blind-safe palette"
            : "its colours go to the \(named) of \(values) values \(chosen)"
        let other = data.style.categories.last?.name ?? DataCategories.otherName
        if data.valuesInOther > 0 { note += "; the other \(data.valuesInOther) share \"\(other)\"" }
        return (points, data.style, nil, note, data.valuesInOther > 0 ? (other, data.valuesInOtherOnMap) : nil)
    }

    /// Which of `world`'s points stand on the map at `camera`.
    static func onMap(camera: MapCamera, world: ProjectedPoints) -> [Bool] {
        world.indices.map(isOnMap(camera: camera, world: world))
    }

    /// Whether the point of `world` at an index stands on the map at `camera`, for a few of them.
    static func isOnMap(camera: MapCamera, world: ProjectedPoints) -> (Int) -> Bool {
        let region = WorldRepeat(camera: camera, margin: 0), projection = camera.projection
        return { index in
            // On the flat map first: a pitched map cannot project points behind its camera.
            let flat = projection.flatPoint(worldX: world.x[index], worldY: world.y[index])
            return region.isOnMap(flatX: flat.x, flatY: flat.y)
        }
    }

    /// ``sharedValues``' category and how many values of its property its points on the map at `camera` have: the
    /// legend's line under that category, as ``DataCategories`` counts the values (a missing or empty value is one).
    func sharedValuesOnMap(points: [ClusterPoint], camera: MapCamera, world: ProjectedPoints) -> (
        category: String, count: Int
    )? {
        guard let (category, property) = sharedValues else { return nil }
        var values = Set<JSONValue>()
        for (point, isOnMap) in zip(points, Self.onMap(camera: camera, world: world))
        where isOnMap && point.category == category {
            let value = point.properties[property] ?? .null
            values.insert(value == .string("") ? .null : value)
        }
        return values.isEmpty ? nil : (category, values.count)
    }

    /// This map with its categories given as ``draw(format:renderer:)`` gives them at `camera`: for a gesture's
    /// frames, which colour every frame as the first.
    public func categorised(at camera: MapCamera) throws -> (map: MapDescription, categoryNote: String?) {
        let result = try categorised(camera: camera, world: annotator?.projected ?? ProjectedPoints(points))
        var map = self
        map.points = result.points
        map.style = result.style
        map.categoryProperty = nil
        map.manyValues = result.manyValues
        return (map, result.categoryNote)
    }
}
