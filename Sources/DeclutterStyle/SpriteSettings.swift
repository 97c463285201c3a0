import DeclutterSupport

/// Which icons a style's sprite sheet holds: exact counts, count steps, category share steps.
public struct SpriteSettings: Sendable, Hashable {
    /// The smallest and largest cluster count drawn exactly, each with its own icon. Default 2…99.
    public var exactCounts: ClosedRange<Int>
    /// Counts above the exact range, each drawn once as `N+` (`100+`, `1k+`, abbreviated like the counts). Ascending.
    /// Default 100, 1,000, 10,000.
    public var countSteps: [Int]
    /// The step category shares are rounded to, as a fraction of the cluster; it must divide 100 % into whole
    /// percentages (0.5, 0.25, 0.2, 0.1, 0.05, …). Default 0.1.
    public var shareStep: Double
    /// The pixel ratios written when none are asked for. Default 1 and 2.
    public var ratios: [Int]

    /// Creates settings; see the properties for the defaults.
    public init(
        exactCounts: ClosedRange<Int> = 2...99, countSteps: [Int] = [100, 1000, 10_000], shareStep: Double = 0.1,
        ratios: [Int] = [1, 2]
    ) {
        self.exactCounts = exactCounts
        self.countSteps = countSteps
        self.shareStep = shareStep
        self.ratios = ratios
    }

    /// The number of share steps in a whole cluster (10 for a step of 0.1).
    public var stepsPerWhole: Int { Int((1 / shareStep).rounded()) }
}

extension SpriteSettings: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable { case exactCounts, countSteps, shareStep, ratios }

    /// Decodes and validates: `exactCounts` as `[from, to]` from 2, steps above it and ascending, a share step
    /// that divides 1, ratios 1…3.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = SpriteSettings()
        let bounds = try container.decode(
            [Int].self, forKey: .exactCounts, default: [2, 99],
            where: { $0.count == 2 && $0[0] >= 2 && $0[0] <= $0[1] && $0[1] <= 9999 },
            expected: "[from, to] with 2 ≤ from ≤ to ≤ 9999")
        let steps = try container.decode(
            [Int].self, forKey: .countSteps, default: defaults.countSteps,
            where: { steps in
                steps.allSatisfy { $0 > bounds[1] } && zip(steps, steps.dropFirst()).allSatisfy { $0 < $1 }
                    && steps.count <= 32
            }, expected: "ascending counts above exactCounts (at most 32)")
        // Shares appear in icon names as whole percentages, so the step must divide 100 %.
        let step = try container.decode(
            Double.self, forKey: .shareStep, default: defaults.shareStep,
            where: { step in
                let steps = (1 / step).rounded()
                return step >= 0.01 && step <= 1 && abs(steps * step - 1) < 1e-9 && 100 % Int(steps) == 0
            },
            expected:
                "a step that divides 100 % into whole percentages: 1, 0.5, 0.25, 0.2, 0.1, 0.05, 0.04, 0.02 or 0.01")
        let ratios = try container.decode(
            [Int].self, forKey: .ratios, default: defaults.ratios,
            where: { !$0.isEmpty && $0.allSatisfy { (1...3).contains($0) } },
            expected: "a non-empty list of pixel ratios, each 1, 2 or 3")
        self.init(exactCounts: bounds[0]...bounds[1], countSteps: steps, shareStep: step, ratios: ratios)
    }

    /// Encodes the same shape it decodes.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode([exactCounts.lowerBound, exactCounts.upperBound], forKey: .exactCounts)
        try container.encode(countSteps, forKey: .countSteps)
        try container.encode(shareStep, forKey: .shareStep)
        try container.encode(ratios, forKey: .ratios)
    }
}
