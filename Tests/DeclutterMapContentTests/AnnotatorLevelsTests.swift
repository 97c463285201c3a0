import DeclutterClustering
import DeclutterGeometry
import DeclutterStyle
import DeclutterTestSupport
import Foundation
import Testing

@testable import DeclutterMapContent

/// ``AnnotatorLevels`` — groups kept per zoom, and only those near the map looked at — against the reference, which
/// works out and walks every group for each map: the views on the map are the same, view for view.
@Suite struct AnnotatorLevelsTests {
    /// 20,000 seeded points: towns in crowds around 40 centres over the world (some by the antimeridian), and
    /// scattered ones, in the default style's first three categories.
    static func points() -> [ClusterPoint] {
        var random = TestRandom(seed: 37)
        let centres = (0..<40).map { index in
            (longitude: index % 8 == 0 ? 179.5 : random.next() * 360 - 180, latitude: random.next() * 120 - 60)
        }
        return (0..<20_000).map { index in
            let category = ["blue", "orange", "green"][index % 3]
            if index % 5 == 0 {
                return ClusterPoint(
                    longitude: random.next() * 360 - 180, latitude: random.next() * 150 - 75, category: category)
            }
            let centre = centres[index % centres.count], spread = 0.02 + 2 * random.next() * random.next()
            let longitude = centre.longitude + (random.next() - 0.5) * spread * 2
            return ClusterPoint(
                longitude: longitude > 180 ? longitude - 360 : longitude,
                latitude: centre.latitude + (random.next() - 0.5) * spread,
                category: category)
        }
    }

    @Test func theViewsOnTheMapAreTheReferences() throws {
        let style = try MarkerStyle.load(contentsOf: stylesFolder.appendingPathComponent("default.json"))
        let reference = try MapAnnotator(points: Self.points(), style: style)
        var kept = reference
        kept.levels = AnnotatorLevels()
        var compared = 0
        for zoom in [2.0, 3.5, 5, 8, 10.25, 12, 14, 16] {
            for (longitude, latitude, bearing) in [
                (179.9, 10.0, 0.0), (-179.95, 10.0, 30.0), (12.0, 41.0, 0.0), (-75.0, -20.0, 0.0), (100, 50, 0),
            ] {
                let camera = try MapCamera(
                    center: Coordinate(longitude: longitude, latitude: latitude), zoom: zoom, bearing: bearing,
                    width: 600, height: 400)
                let every = try reference.annotate(camera),
                    expected = try reference.annotate(camera, pointsOffMap: false)
                // Leaving out the points off the map and the member lists changes nothing on it: the same views in
                // the same drawing order, each with its count and its lowest member; a cluster lists that one alone.
                let shown = every.annotations.filter(\.visible), drawn = expected.annotations.filter(\.visible)
                #expect(shown.map(\.count) == drawn.map(\.count))
                #expect(shown.map(\.members.first) == drawn.map(\.members.first))
                #expect(shown.map(\.count) == shown.map(\.members.count))
                #expect(zip(shown, drawn).allSatisfy { $0.frame == $1.frame && $0.kind == $1.kind })
                #expect(drawn.allSatisfy { $0.members.count == 1 })
                #expect(every.hiddenPointsInView == expected.hiddenPointsInView)
                // Twice, the second from the kept level.
                for _ in 0..<2 {
                    let fast = try kept.annotate(camera, pointsOffMap: false)
                    #expect(fast.pointsInView == expected.pointsInView)
                    #expect(fast.hiddenPointsInView == expected.hiddenPointsInView)
                    #expect(fast.categoryCountsInView == expected.categoryCountsInView)
                    #expect(
                        fast.annotations.count == expected.annotations.count,
                        "zoom \(zoom) at \(longitude), \(latitude)")
                    for (one, other) in zip(fast.annotations, expected.annotations) {
                        #expect(
                            one.members == other.members && one.categoryCounts == other.categoryCounts
                                && one.visible == other.visible)
                        #expect(one.frame == other.frame && one.copies.count == other.copies.count)
                    }
                    compared += fast.annotations.count { $0.visible }
                }
            }
        }
        #expect(compared > 1000)
        // What made a city map slow: every point in an annotation, the 20,000 of them for any map. Without the points
        // off the map, a zoom-12 map holds only the views near it.
        let city = try MapCamera(center: Coordinate(longitude: 12, latitude: 41), zoom: 12, width: 600, height: 400)
        let every = try reference.annotate(city), near = try kept.annotate(city, pointsOffMap: false)
        #expect(every.annotations.reduce(0) { $0 + $1.members.count } == 20_000)
        #expect(near.annotations.reduce(0) { $0 + $1.count } == near.pointsInView)
        #expect(near.pointsInView < 200)
        #expect(kept.levels?.statistics.entries == 8)
    }

    /// A kept level's size does not grow with the style's categories: it kept a count per category per group, which
    /// for 250 categories is 20 MB at a city zoom of these 20,000 points, so that zoom outgrew this budget, was never
    /// kept, and each of its maps made its level again.
    @Test func aLevelsSizeDoesNotGrowWithTheCategories() throws {
        let style = try MarkerStyle.load(contentsOf: stylesFolder.appendingPathComponent("default.json"))
        var wide = style
        wide.categories += (0..<250 - style.categories.count).map { number in
            var category = style.categories[0]
            category.name = "extra \(number)"
            return category
        }
        let city = try MapCamera(center: Coordinate(longitude: 12, latitude: 41), zoom: 16, width: 600, height: 400)
        let continent = try MapCamera(center: Coordinate(longitude: 12, latitude: 41), zoom: 4, width: 600, height: 400)
        var maps: [AnnotatedMap] = [], bytes: [Int] = []
        for style in [style, wide] {
            var annotator = try MapAnnotator(points: Self.points(), style: style)
            annotator.levels = AnnotatorLevels(budget: 4 << 20)
            _ = try annotator.annotate(city, pointsOffMap: false)
            let statistics = try #require(annotator.levels?.statistics)
            #expect(statistics.entries == 1)
            bytes.append(statistics.bytes)
            maps.append(try annotator.annotate(continent, pointsOffMap: false))
        }
        // The same arrays; their capacities are what the allocator gave, which can differ by a few per cent.
        #expect(abs(bytes[0] - bytes[1]) < bytes[0] / 10)
        #expect(bytes[0] > 1 << 20 && bytes[0] < 3 << 20)
        // The counts a view carries are still its members' categories, the extra ones zero.
        #expect(maps[0].annotations.count == maps[1].annotations.count && maps[0].annotations.count > 10)
        for (narrow, wide) in zip(maps[0].annotations, maps[1].annotations) {
            #expect(narrow.members == wide.members && wide.categoryCounts.count == 250)
            #expect(
                wide.categoryCounts == narrow.categoryCounts + repeatElement(0, count: 250 - style.categories.count))
        }
    }
}
