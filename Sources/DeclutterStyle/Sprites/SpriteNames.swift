import DeclutterPlacement
import DeclutterSupport

/// The name, in a style's sprite sheet, of the icon that shows a cluster or a single point: one of the names
/// ``SpritePlan/icons(for:)`` gives, so that a MapLibre layer needs only `"icon-image": ["get", "sprite"]`.
///
/// - A single point: `marker-{category}`.
/// - A cluster: `cluster-{label}-{category}{percent}-…` over the categories of one clustering group, in style order.
///   - `{label}` is the count when it is one of `sprites.exactCounts`, else the largest of the sheet's labels whose
///     count is at most the cluster's (the largest step of `countSteps` at or below it, `1k+` for 1,234). The sheet
///     holds no icon for a count below the smallest exact count or between the exact counts and the first step;
///     such a count takes the nearest label below it (or, below them all, the smallest exact count).
///   - The shares are the members' split rounded to `sprites.shareStep` steps that add up to the whole by largest
///     remainder, earlier categories first on ties: the rule ``SpritePlan`` uses to turn an icon's shares into the
///     members it draws, run the other way. An icon's own members therefore map back to one of its names.
///   - A cluster holding any member of a category marked `solidCluster` is drawn in that colour alone, so it gets
///     the name with that category at 100 % (the first such category in style order).
///   - The group is that of the category with the most members (the earliest on ties); members of categories of
///     other groups, which a style's identifiers never put in one cluster, are left out of the shares.
public struct SpriteNames: Sendable {
    /// The style whose sheet is named.
    public let style: MarkerStyle
    /// Each clustering group's categories, as indices into the style's categories.
    private let groups: [[Int]]
    /// Each category's group, -1 for a category without a clustering identifier.
    private let groupOfCategory: [Int]
    /// The sheet's labels by ascending count: exact counts, then steps.
    private let labels: [(count: Int, name: String)]

    /// Names the icons of `style`'s sprite sheet.
    public init(style: MarkerStyle) {
        self.style = style
        var groups: [[Int]] = [], groupOfCategory = [Int](repeating: -1, count: style.categories.count)
        var groupOfIdentifier: [String: Int] = [:]
        for (index, category) in style.categories.enumerated() {
            guard let identifier = category.clusteringIdentifier else { continue }
            let group = groupOfIdentifier[identifier] ?? groups.count
            if group == groups.count {
                groupOfIdentifier[identifier] = group
                groups.append([])
            }
            groups[group].append(index)
            groupOfCategory[index] = group
        }
        self.groups = groups
        self.groupOfCategory = groupOfCategory
        let settings = style.sprites
        labels =
            settings.exactCounts.map { ($0, String($0)) }
            + settings.countSteps.map { ($0, CountFormatter.abbreviated($0) + "+") }
    }

    /// The balloon marker of a category: `marker-{category}`; nil when the style has no such category.
    public func marker(category: String) -> String? {
        style.category(named: category) == nil ? nil : "marker-\(category)"
    }

    /// A cluster icon of the sheet: its label, its clustering group and its shares; equal icons, equal names.
    public struct ClusterIcon: Sendable, Hashable {
        /// The label's place among the sheet's labels (exact counts, then steps).
        public var label: Int
        /// The clustering group's place among the style's groups.
        public var group: Int
        /// Each of the group's categories' share, in steps of `sprites.shareStep`.
        public var shares: [Int]
    }

    /// The cluster icon for members per category given in the style's category order, `total` points in all.
    ///
    /// Nil when no category with a clustering identifier has members (the sheet has no cluster icon for them).
    public func cluster(counts: [Int], total: Int) -> String? {
        clusterIcon(counts: counts, total: total).map(name)
    }

    /// The icon ``cluster(counts:total:)`` names, without making the name: a key for a cache of names.
    public func clusterIcon(counts: [Int], total: Int) -> ClusterIcon? {
        // The group of the category with the most members, earliest on ties.
        var leader = -1
        for index in counts.indices
        where index < groupOfCategory.count && groupOfCategory[index] >= 0 && counts[index] > 0 {
            if leader < 0 || counts[index] > counts[leader] { leader = index }
        }
        guard leader >= 0 else { return nil }
        let group = groups[groupOfCategory[leader]]
        let members = group.map { $0 < counts.count ? max(0, counts[$0]) : 0 }
        let steps = style.sprites.stepsPerWhole
        var shares: [Int]
        if let solid = group.indices.first(where: { style.categories[group[$0]].solidCluster && members[$0] > 0 }) {
            shares = [Int](repeating: 0, count: group.count)
            shares[solid] = steps
        } else {
            shares = Self.apportion(steps, by: members)
        }
        return ClusterIcon(label: labelIndex(total), group: groupOfCategory[leader], shares: shares)
    }

    /// The name of a cluster icon: `cluster-{label}-{category}{percent}-…`.
    public func name(of icon: ClusterIcon) -> String {
        let percentPerStep = 100 / style.sprites.stepsPerWhole
        var name = "cluster-" + (labels.indices.contains(icon.label) ? labels[icon.label].name : "")
        for (index, share) in zip(groups[icon.group], icon.shares) {
            name += "-" + style.categories[index].name + String(share * percentPerStep)
        }
        return name
    }

    /// The cluster icon for counts by category name (names not in the style are left out), `counts.total` in all.
    public func cluster(_ counts: CategoryCounts) -> String? {
        cluster(counts: style.categories.map { counts[$0.name] }, total: counts.total)
    }

    /// The categories of clustering group `group`, as indices into the style's categories.
    func groupCategories(_ group: Int) -> [Int] { groups.indices.contains(group) ? groups[group] : [] }

    /// The label of the sheet's icon for a count: see the type's description.
    func label(_ count: Int) -> String {
        labels.indices.contains(labelIndex(count)) ? labels[labelIndex(count)].name : String(count)
    }

    /// The place among the labels of the label for a count.
    func labelIndex(_ count: Int) -> Int {
        var chosen = 0
        for (index, label) in labels.enumerated() where label.count <= count { chosen = index }
        return chosen
    }

    /// `seats` split in proportion to `weights` by largest remainder, earlier entries first on equal remainders:
    /// ``SpritePlan``'s rule for an icon's members from its shares.
    static func apportion(_ seats: Int, by weights: [Int]) -> [Int] {
        let whole = weights.reduce(0, +)
        guard whole > 0 else { return weights.map { _ in 0 } }
        var result = weights.map { seats * $0 / whole }
        let order = weights.indices.sorted { a, b in
            let left = seats * weights[a] % whole, right = seats * weights[b] % whole
            return left != right ? left > right : a < b
        }
        for index in order.prefix(seats - result.reduce(0, +)) { result[index] += 1 }
        return result
    }
}
