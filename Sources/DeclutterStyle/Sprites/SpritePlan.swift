import DeclutterPlacement
import DeclutterSupport

/// Lists the icons a style's sprite sheet holds and names them so a MapLibre expression can find them.
///
/// Names:
/// - `marker-{category}`: a category's balloon marker;
/// - `cluster-{label}-{category}{percent}-…`: a cluster icon, one `{category}{percent}` for every category of
///   its clustering group in style order, percentages in steps of `sprites.shareStep` adding up to 100, and
///   `{label}` the count (`2`…`99`) or a count step (`100+`, `1k+`, `10k+`).
///
/// Clusters only hold categories with the same clustering identifier, so each group gets its own icons;
/// categories without an identifier never cluster. Icons that would look the same (small counts where two shares
/// round to the same members, or a group member marked `solidCluster`) are drawn once under several names.
public enum SpritePlan {
    /// The most icons a sheet may hold; a style asking for more is refused before anything is drawn.
    public static let maximumIcons = 20_000

    /// The icons for a style, in a stable order: balloons, then each group's clusters by label and shares.
    ///
    /// - Throws: ``StyleError`` (field `sprites`) when the style asks for more than ``maximumIcons`` names.
    public static func icons(for style: MarkerStyle) throws -> [SpriteIcon] {
        let settings = style.sprites
        var labels: [(label: String?, total: Int, name: String)] = settings.exactCounts.map { (nil, $0, String($0)) }
        for step in settings.countSteps {
            let label = CountFormatter.abbreviated(step) + "+"
            labels.append((label, step, label))
        }
        let groups = clusteringGroups(style)
        let steps = settings.stepsPerWhole
        let nameCount =
            style.categories.count + groups.reduce(0) { $0 + compositions(steps, into: $1.count) } * labels.count
        guard nameCount <= maximumIcons else {
            throw StyleError(
                file: style.file ?? "style", path: "sprites",
                message: "the sprite sheet would hold \(nameCount) icons, more than "
                    + "\(maximumIcons); use a larger shareStep, fewer exactCounts or fewer categories per clustering identifier"
            )
        }

        var icons: [SpriteIcon] = []
        var indexByDrawing: [Drawing: Int] = [:]
        func add(name: String, counts: CategoryCounts, label: String?) {
            let drawing = Drawing(counts: counts, label: label)
            if let index = indexByDrawing[drawing] {
                icons[index].names.append(name)
            } else {
                indexByDrawing[drawing] = icons.count
                icons.append(SpriteIcon(names: [name], counts: counts, label: label))
            }
        }
        for category in style.categories {
            add(name: "marker-\(category.name)", counts: CategoryCounts([(category.name, 1)]), label: nil)
        }
        let percentPerStep = 100 / steps
        for group in groups {
            for shares in allCompositions(steps, into: group.count) {
                let parts = zip(group, shares).map { "\($0.name)\($1 * percentPerStep)" }.joined(separator: "-")
                for entry in labels {
                    add(
                        name: "cluster-\(entry.name)-\(parts)",
                        counts: members(entry.total, shares: shares, of: group), label: entry.label)
                }
            }
        }
        return icons
    }

    /// The icons of a sheet whose clusters' counts a map draws as text: balloons, then for each group, each size
    /// bucket and each split of shares a ring (``SpriteNames/RingIcon``), drawn without a count, under the name
    /// ``SpriteNames/name(of:)-(SpriteNames.RingIcon)`` gives it.
    ///
    /// - Throws: ``StyleError`` (field `sprites`) when the style asks for more than ``maximumIcons`` names.
    public static func ringIcons(for style: MarkerStyle) throws -> [SpriteIcon] {
        let groups = clusteringGroups(style), steps = style.sprites.stepsPerWhole, buckets = style.cluster.buckets
        let nameCount =
            style.categories.count + groups.reduce(0) { $0 + compositions(steps, into: $1.count) } * buckets.count
        guard nameCount <= maximumIcons else {
            throw StyleError(
                file: style.file ?? "style", path: "sprites",
                message: "the sprite sheet would hold \(nameCount) icons, more than "
                    + "\(maximumIcons); use a larger shareStep or fewer categories per clustering identifier")
        }
        var icons = style.categories.map {
            SpriteIcon(names: ["marker-\($0.name)"], counts: CategoryCounts([($0.name, 1)]), label: nil)
        }
        let percentPerStep = 100 / steps
        for group in groups {
            for shares in allCompositions(steps, into: group.count) {
                let parts = zip(group, shares).map { "\($0.name)\($1 * percentPerStep)" }.joined(separator: "-")
                for (index, bucket) in buckets.enumerated() {
                    icons.append(
                        SpriteIcon(
                            names: ["ring-\(bucket.minimumCount)-\(parts)"],
                            counts: members(ringTotal(bucket: index, style: style), shares: shares, of: group),
                            label: ""))
                }
            }
        }
        return icons
    }

    /// The count a ring of bucket `bucket` is drawn for: the bucket's smallest count of at least 2 that the shares'
    /// steps divide, so that the slices are the shares exactly, unless that count is the next bucket's.
    static func ringTotal(bucket: Int, style: MarkerStyle) -> Int {
        let buckets = style.cluster.buckets, steps = style.sprites.stepsPerWhole
        let smallest = max(2, buckets[bucket].minimumCount)
        let exact = (smallest + steps - 1) / steps * steps
        let next = bucket + 1 < buckets.count ? buckets[bucket + 1].minimumCount : Int.max
        return exact < next ? exact : smallest
    }

    /// Categories grouped by clustering identifier, in style order; categories without one are left out.
    public static func clusteringGroups(_ style: MarkerStyle) -> [[MarkerCategory]] {
        var groups: [[MarkerCategory]] = [], indexByIdentifier: [String: Int] = [:]
        for category in style.categories {
            guard let identifier = category.clusteringIdentifier else { continue }
            if let index = indexByIdentifier[identifier] {
                groups[index].append(category)
            } else {
                indexByIdentifier[identifier] = groups.count
                groups.append([category])
            }
        }
        return groups
    }

    /// The members of a cluster of `total` with these shares (in steps): largest remainders get the leftovers,
    /// earlier categories first on ties. A solid category present takes every member, as it is drawn that way.
    static func members(_ total: Int, shares: [Int], of group: [MarkerCategory]) -> CategoryCounts {
        if let solid = zip(group, shares).first(where: { $0.0.solidCluster && $0.1 > 0 })?.0 {
            return CategoryCounts([(solid.name, total)])
        }
        let steps = shares.reduce(0, +)
        var counts = shares.map { total * $0 / steps }
        let remainders = shares.enumerated().map { ($0.offset, total * $0.element % steps) }
            .sorted { $0.1 != $1.1 ? $0.1 > $1.1 : $0.0 < $1.0 }
        for (index, _) in remainders.prefix(total - counts.reduce(0, +)) { counts[index] += 1 }
        return CategoryCounts(zip(group, counts).filter { $0.1 > 0 }.map { ($0.0.name, $0.1) })
    }

    /// How many ways `steps` split into `parts` ordered non-negative parts.
    static func compositions(_ steps: Int, into parts: Int) -> Int {
        // C(steps + parts - 1, parts - 1), computed so intermediate values stay whole.
        var result = 1
        for index in 0..<(parts - 1) {
            result = result * (steps + index + 1) / (index + 1)
            if result > maximumIcons * 100 { return result }
        }
        return result
    }

    /// Every split of `steps` into `parts` ordered parts, first part descending (all in the first category first).
    static func allCompositions(_ steps: Int, into parts: Int) -> [[Int]] {
        guard parts > 1 else { return [[steps]] }
        return stride(from: steps, through: 0, by: -1).flatMap { first in
            allCompositions(steps - first, into: parts - 1).map { [first] + $0 }
        }
    }

    /// What decides an image: its members and its label.
    private struct Drawing: Hashable {
        var counts: CategoryCounts
        var label: String?
    }
}
