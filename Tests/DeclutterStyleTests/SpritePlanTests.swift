import DeclutterPlacement
import DeclutterStyle
import DeclutterTestSupport
import Foundation
import Testing

@Suite struct SpritePlanTests {
    let tandm: MarkerStyle
    init() throws { tandm = try MarkerStyle.load(contentsOf: stylesFolder.appendingPathComponent("tandm.json")) }

    @Test func tandmSheetNamesEveryCountShareAndBalloon() throws {
        let icons = try SpritePlan.icons(for: tandm)
        let names = icons.flatMap(\.names)
        // 3 balloons; bicycle/tricycle: 11 shares × (98 counts + 3 steps); unicycle: 1 × 101.
        #expect(names.count == 3 + 11 * 101 + 101)
        #expect(Set(names).count == names.count)
        #expect(icons.count == 1179)  // small counts round several shares to the same members
        #expect(
            names.prefix(4) == [
                "marker-tricycle", "marker-bicycle", "marker-unicycle", "cluster-2-tricycle100-bicycle0",
            ])
        let byName = Dictionary(uniqueKeysWithValues: icons.flatMap { icon in icon.names.map { ($0, icon) } })
        #expect(
            byName["cluster-42-tricycle30-bicycle70"]?.counts == CategoryCounts([("tricycle", 13), ("bicycle", 29)]))
        #expect(byName["cluster-42-tricycle30-bicycle70"]?.label == nil)
        #expect(
            byName["cluster-1k+-tricycle30-bicycle70"]?.counts == CategoryCounts([("tricycle", 300), ("bicycle", 700)]))
        #expect(byName["cluster-1k+-tricycle30-bicycle70"]?.label == "1k+")
        #expect(byName["cluster-7-unicycle100"]?.counts == CategoryCounts([("unicycle", 7)]))
        #expect(byName["marker-bicycle"]?.counts == CategoryCounts([("bicycle", 1)]))
        // 2 members at 30 % and at 50 % both draw one tricycle and one bicycle: one image, two names.
        #expect(byName["cluster-2-tricycle30-bicycle70"] == byName["cluster-2-tricycle50-bicycle50"])
        #expect(byName["cluster-2-tricycle30-bicycle70"]?.counts == CategoryCounts([("tricycle", 1), ("bicycle", 1)]))
    }

    @Test func groupsFollowClusteringIdentifiers() {
        #expect(SpritePlan.clusteringGroups(tandm).map { $0.map(\.name) } == [["tricycle", "bicycle"], ["unicycle"]])
        var style = tandm
        style.categories[2].clusteringIdentifier = nil
        #expect(SpritePlan.clusteringGroups(style).map { $0.map(\.name) } == [["tricycle", "bicycle"]])
    }

    @Test func solidCategoriesTakeTheWholeCluster() throws {
        var style = tandm
        style.categories[2].clusteringIdentifier = "bicycle"  // unicycles now cluster with the others
        style.sprites = SpriteSettings(exactCounts: 2...3, countSteps: [], shareStep: 0.5)
        let icons = try SpritePlan.icons(for: style)
        let byName = Dictionary(uniqueKeysWithValues: icons.flatMap { icon in icon.names.map { ($0, icon) } })
        #expect(byName["cluster-3-tricycle50-bicycle0-unicycle50"]?.counts == CategoryCounts([("unicycle", 3)]))
        #expect(
            byName["cluster-3-tricycle0-bicycle0-unicycle100"] == byName["cluster-3-tricycle0-bicycle50-unicycle50"])
    }

    @Test func tooManyIconsAreRefusedWithTheField() {
        var style = tandm
        for index in style.categories.indices { style.categories[index].clusteringIdentifier = "all" }
        style.sprites = SpriteSettings(exactCounts: 2...999, countSteps: [], shareStep: 0.01)
        style.file = "tandm.json"
        #expect(
            throws: StyleError(
                file: "tandm.json", path: "sprites",
                message:
                    "the sprite sheet would hold 5140701 icons, more than 20000; use a larger shareStep, fewer exactCounts or fewer categories per clustering identifier"
            )
        ) {
            try SpritePlan.icons(for: style)
        }
    }

    @Test func manifestRoundTrips() throws {
        let manifest = SpriteManifest(icons: try SpritePlan.icons(for: tandm))
        let decoded = try JSONDecoder().decode(SpriteManifest.self, from: try manifest.jsonData())
        #expect(decoded == manifest)
        #expect(
            decoded.entries["cluster-100+-tricycle40-bicycle60"]
                == SpriteManifest.Entry(counts: ["tricycle": 40, "bicycle": 60], label: "100+"))
        #expect(
            decoded.entries["cluster-5-tricycle40-bicycle60"]?.categoryCounts
                == CategoryCounts([("tricycle", 2), ("bicycle", 3)]))
    }

    @Test func spriteSettingsAreValidated() {
        func error(_ sprites: String) -> String {
            let json =
                ##"{"font": "DejaVu Sans", "cluster": {"buckets": [{"minimumCount": 2, "diameter": 40, "innerDiameter": 24, "fontSize": 20}]}, "categories": [{"name": "a", "color": "#000"}], "sprites": "##
                + sprites + "}"
            do {
                _ = try MarkerStyle.decode(Data(json.utf8), file: "s.json", directory: nil)
                return ""
            } catch { return "\(error)" }
        }
        #expect(
            error(#"{"shareStep": 0.3}"#)
                == "s.json: sprites.shareStep: expected a step that divides 100 % into whole percentages: 1, 0.5, 0.25, 0.2, 0.1, 0.05, 0.04, 0.02 or 0.01"
        )
        #expect(
            error(#"{"exactCounts": [1, 10]}"#)
                == "s.json: sprites.exactCounts: expected [from, to] with 2 ≤ from ≤ to ≤ 9999")
        #expect(
            error(#"{"countSteps": [50, 100]}"#)
                == "s.json: sprites.countSteps: expected ascending counts above exactCounts (at most 32)")
        #expect(
            error(#"{"ratios": [4]}"#)
                == "s.json: sprites.ratios: expected a non-empty list of pixel ratios, each 1, 2 or 3")
        #expect(error(#"{"exactCounts": [2, 9], "countSteps": [10], "shareStep": 0.25, "ratios": [1, 2, 3]}"#) == "")
    }
}

@Suite struct SpritePackerTests {
    func checkNoOverlaps(_ result: SpritePacker.Result, spacing: Int) {
        for (index, a) in result.placements.enumerated() {
            #expect(a.x >= 0 && a.y >= 0 && a.x + a.width <= result.width && a.y + a.height <= result.height)
            for b in result.placements[(index + 1)...] {
                let apart =
                    a.x + a.width + spacing <= b.x || b.x + b.width + spacing <= a.x
                    || a.y + a.height + spacing <= b.y || b.y + b.height + spacing <= a.y
                #expect(apart, "\(a) and \(b) overlap")
            }
        }
    }

    @Test func tandmSizesPackAtLeastNinetyPercentFull() {
        let sizes =
            Array(repeating: (width: 30, height: 40), count: 3) + Array(repeating: (width: 40, height: 40), count: 1176)
        let result = SpritePacker().pack(sizes)
        #expect(result.fill >= 0.9)
        #expect(result.placements.count == sizes.count)
        checkNoOverlaps(result, spacing: 0)
    }

    @Test func mixedSizesWithSpacing() {
        var seed: UInt64 = 9
        let sizes = (0..<300).map { _ -> (width: Int, height: Int) in
            seed = seed &* 6_364_136_223_846_793_005 &+ 1
            return (Int(seed >> 58) + 8, Int((seed >> 40) & 31) + 8)
        }
        for spacing in [0, 2] {
            let result = SpritePacker(spacing: spacing).pack(sizes)
            checkNoOverlaps(result, spacing: spacing)
            #expect(zip(result.placements, sizes).allSatisfy { $0.width == $1.width && $0.height == $1.height })
            if spacing == 0 { #expect(result.fill > 0.85) }
        }
        #expect(SpritePacker().pack([]).width == 0)
        let single = SpritePacker().pack([(7, 5)])
        let place = single.placements[0]
        let values: [Int] = [place.x, place.y, single.width, single.height]
        #expect(values == [0, 0, 7, 5])
        #expect(single.fill == 1)
    }
}
