extension PixelMatch {
    /// The smallest rectangle holding the pixels `diff` (this comparison's diff image) draws as counted, in the diff
    /// colours, as `[x, y, width, height]`: where a reviewer should look. Nil when no pixel is counted, or when a diff
    /// colour could be another pixel of the diff (a grey of the faded background, the anti-aliasing colour, the
    /// hatch of ignored pixels), which would make the rectangle wrong.
    public func changedArea(in diff: RGBAImage) -> [Int]? {
        let colours = [diffColor] + (alternateDiffColor.map { [$0] } ?? [])
        guard
            !colours.contains(where: {
                $0.red == $0.green && $0.green == $0.blue || $0 == antialiasingColor || $0 == hatchColor
            })
        else { return nil }
        let words = colours.map(ReferencePass.word)
        let first = words[0], second = words.last ?? first
        var left = diff.width, top = -1, right = -1, bottom = -1
        diff.pixels.withUnsafeBytes { raw in
            let pixels = raw.bindMemory(to: UInt32.self)
            for y in 0..<diff.height {
                let row = pixels[y * diff.width..<(y + 1) * diff.width]
                guard let start = row.firstIndex(where: { $0 == first || $0 == second }),
                    let end = row.lastIndex(where: { $0 == first || $0 == second })
                else { continue }
                left = min(left, start - row.startIndex)
                right = max(right, end - row.startIndex)
                if top < 0 { top = y }
                bottom = y
            }
        }
        guard top >= 0 else { return nil }
        return [left, top, right - left + 1, bottom - top + 1]
    }
}
