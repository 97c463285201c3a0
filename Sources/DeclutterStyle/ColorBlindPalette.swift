/// A qualitative palette longer than a style's own whose colours stay apart for colour-blind readers: Paul Tol's
/// twelve colours (SRON technical note SRON/EPS/TN/09-002, issue 2.2, 2012), for maps that give more values colours
/// of their own than a style has (`declutter render --colors 12`).
public enum ColorBlindPalette {
    /// The twelve colours in Tol's order, which keeps neighbours in the list apart; none is grey, so a style's grey can
    /// stay the colour the values beyond them share.
    public static let colors: [RGBAColor] = [
        rgb(0x33, 0x22, 0x88),
        rgb(0x66, 0x99, 0xCC),
        rgb(0x88, 0xCC, 0xEE),
        rgb(0x44, 0xAA, 0x99),
        rgb(0x11, 0x77, 0x33),
        rgb(0x99, 0x99, 0x33),
        rgb(0xDD, 0xCC, 0x77),
        rgb(0x66, 0x11, 0x00),
        rgb(0xCC, 0x66, 0x77),
        rgb(0xAA, 0x44, 0x66),
        rgb(0x88, 0x22, 0x55),
        rgb(0xAA, 0x44, 0x99),
    ]

    /// The most values a map can give colours of their own with `style`: its colours, or this palette's where it is
    /// longer.
    public static func maximumColors(for style: MarkerStyle) -> Int { max(colors.count, style.categories.count) }

    /// A colour from 0–255 channels.
    private static func rgb(_ red: Int, _ green: Int, _ blue: Int) -> RGBAColor {
        RGBAColor(red: Double(red) / 255, green: Double(green) / 255, blue: Double(blue) / 255)
    }
}
