import DeclutterPlacement

/// Packs rectangles into a near-square sheet, tallest first, each into the smallest free space that fits
/// (the approach of Mapbox's potpack).
public struct SpritePacker: Sendable {
    /// A placed rectangle, in whole units.
    public struct Placement: Sendable, Hashable {
        /// Left edge.
        public var x: Int
        /// Top edge.
        public var y: Int
        /// Width.
        public var width: Int
        /// Height.
        public var height: Int
    }

    /// The sheet: a placement per input rectangle in input order, and the sheet's size.
    public struct Result: Sendable, Hashable {
        /// Where each rectangle went, in the order they were given.
        public var placements: [Placement]
        /// The sheet's width.
        public var width: Int
        /// The sheet's height.
        public var height: Int
        /// The rectangles' area over the sheet's area (spacing counts as unused).
        public var fill: Double
    }

    /// Empty units kept between rectangles (and after the last one in each direction). Default 0.
    public var spacing: Int

    /// Creates a packer with the spacing between rectangles.
    public init(spacing: Int = 0) {
        self.spacing = spacing
    }

    /// Packs rectangles given as `(width, height)`; an empty list gives an empty 0×0 sheet.
    public func pack(_ sizes: [(width: Int, height: Int)]) -> Result {
        guard !sizes.isEmpty else { return Result(placements: [], width: 0, height: 0, fill: 0) }
        // Each rectangle takes its size plus the spacing; the spacing is trimmed from the sheet's far edges at the end.
        let boxes = sizes.map { (width: $0.width + spacing, height: $0.height + spacing) }
        let area = boxes.reduce(0) { $0 + $1.width * $1.height }
        let widest = boxes.map(\.width).max() ?? 0
        // Aim for a square sheet about 95 % full, but never narrower than the widest rectangle.
        let startWidth = max(Int((Double(area) / 0.95).squareRoot().rounded(.up)), widest)
        var spaces: [Placement] = [Placement(x: 0, y: 0, width: startWidth, height: Int.max / 2)]
        var placements = [Placement](repeating: Placement(x: 0, y: 0, width: 0, height: 0), count: sizes.count)
        var width = 0, height = 0
        let order = boxes.indices.sorted {
            boxes[$0].height != boxes[$1].height ? boxes[$0].height > boxes[$1].height : $0 < $1
        }
        for index in order {
            let box = boxes[index]
            // Newest spaces are the smallest: look from the end.
            for spaceIndex in spaces.indices.reversed() {
                var space = spaces[spaceIndex]
                guard box.width <= space.width && box.height <= space.height else { continue }
                placements[index] = Placement(
                    x: space.x, y: space.y, width: sizes[index].width, height: sizes[index].height)
                width = max(width, space.x + box.width)
                height = max(height, space.y + box.height)
                if box.width == space.width && box.height == space.height {
                    spaces.swapAt(spaceIndex, spaces.count - 1)
                    spaces.removeLast()
                } else if box.height == space.height {
                    space.x += box.width
                    space.width -= box.width
                    spaces[spaceIndex] = space
                } else if box.width == space.width {
                    space.y += box.height
                    space.height -= box.height
                    spaces[spaceIndex] = space
                } else {
                    spaces.append(
                        Placement(
                            x: space.x + box.width, y: space.y, width: space.width - box.width, height: box.height))
                    space.y += box.height
                    space.height -= box.height
                    spaces[spaceIndex] = space
                }
                break
            }
        }
        width -= spacing
        height -= spacing
        let used = sizes.reduce(0) { $0 + $1.width * $1.height }
        return Result(
            placements: placements, width: width, height: height,
            fill: width * height > 0 ? Double(used) / Double(width * height) : 0)
    }
}
