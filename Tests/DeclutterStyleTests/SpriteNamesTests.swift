import DeclutterTestSupport
import Foundation
import Testing

@testable import DeclutterPlacement
@testable import DeclutterStyle

@Suite struct SpriteNamesTests {
    let tandm: MarkerStyle
    init() throws { tandm = try MarkerStyle.load(contentsOf: stylesFolder.appendingPathComponent("tandm.json")) }

    /// Every icon of the bundled styles' sheets: its own members (and count) name it again.
    @Test(arguments: ["tandm", "airports", "default"])
    func everyIconsMembersMapBackToOneOfItsNames(styleName: String) throws {
        let style = try MarkerStyle.load(contentsOf: stylesFolder.appendingPathComponent("\(styleName).json"))
        let names = SpriteNames(style: style)
        let icons = try SpritePlan.icons(for: style)
        var checked = 0
        for icon in icons {
            if icon.names[0].hasPrefix("marker-") {
                let category = try #require(icon.counts.entries.first?.name)
                #expect(icon.names.contains(names.marker(category: category) ?? "none"))
            } else {
                let name = names.cluster(icon.counts)
                #expect(
                    name.map(icon.names.contains) == true,
                    "\(icon.names) from \(icon.counts.entries) gave \(name ?? "nil")")
            }
            checked += 1
        }
        #expect(checked == icons.count)
        #expect(checked > 100)
    }

    @Test func handWorkedClusters() {
        let names = SpriteNames(style: tandm)
        // 130/42 = 3 r 4 and 290/42 = 6 r 38: the spare step goes to the larger remainder.
        #expect(names.cluster(counts: [13, 29, 0], total: 42) == "cluster-42-tricycle30-bicycle70")
        // 10/4 = 2 r 2 and 30/4 = 7 r 2: equal remainders, the earlier category (tricycle) takes the spare step.
        #expect(names.cluster(counts: [1, 3, 0], total: 4) == "cluster-4-tricycle30-bicycle70")
        #expect(names.cluster(counts: [617, 617, 0], total: 1234) == "cluster-1k+-tricycle50-bicycle50")
        #expect(names.cluster(counts: [0, 150, 0], total: 150) == "cluster-100+-tricycle0-bicycle100")
        #expect(names.cluster(counts: [12_345, 0, 0], total: 12_345) == "cluster-10k+-tricycle100-bicycle0")
        #expect(names.cluster(counts: [0, 0, 7], total: 7) == "cluster-7-unicycle100")
        #expect(names.cluster(CategoryCounts([("bicycle", 3), ("tricycle", 2)])) == "cluster-5-tricycle40-bicycle60")
        // Nothing counted in a clustering group: no icon.
        #expect(names.cluster(counts: [0, 0, 0], total: 5) == nil)
        #expect(names.marker(category: "bicycle") == "marker-bicycle")
        #expect(names.marker(category: "car") == nil)
    }

    @Test func solidCategoryTakesTheWholeIconAndLeaderPicksTheGroup() {
        var style = tandm
        style.categories[2].clusteringIdentifier = "bicycle"
        let names = SpriteNames(style: style)
        #expect(names.cluster(counts: [5, 4, 1], total: 10) == "cluster-10-tricycle0-bicycle0-unicycle100")
        // Back in its own group, the unicycle's one member is left out: the group is the tricycles'.
        let separate = SpriteNames(style: tandm)
        #expect(separate.cluster(counts: [5, 4, 1], total: 10) == "cluster-10-tricycle60-bicycle40")
        #expect(separate.cluster(counts: [1, 1, 4], total: 6) == "cluster-6-unicycle100")
    }

    @Test func countsWithoutTheirOwnIconTakeTheNearestLabelBelow() {
        var style = tandm
        style.sprites = SpriteSettings(exactCounts: 5...50, countSteps: [100, 1000], shareStep: 0.5)
        let names = SpriteNames(style: style)
        #expect(names.label(2) == "5")
        #expect(names.label(5) == "5")
        #expect(names.label(50) == "50")
        #expect(names.label(75) == "50")
        #expect(names.label(100) == "100+")
        #expect(names.label(999) == "100+")
        #expect(names.label(1_000_000) == "1k+")
        #expect(names.cluster(counts: [1, 2, 0], total: 3) == "cluster-5-tricycle50-bicycle50")
    }

    @Test func apportionKeepsTheWhole() {
        #expect(SpriteNames.apportion(10, by: [1, 1, 1]) == [4, 3, 3])
        #expect(SpriteNames.apportion(4, by: [0, 5, 0, 5]) == [0, 2, 0, 2])
        #expect(SpriteNames.apportion(4, by: [1, 998, 1]) == [0, 4, 0])
        #expect(SpriteNames.apportion(4, by: [0, 0]) == [0, 0])
    }
}
