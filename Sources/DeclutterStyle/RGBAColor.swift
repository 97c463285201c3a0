import DeclutterSupport
import Foundation

/// An sRGB colour with straight (not premultiplied) alpha, each component in 0…1.
public struct RGBAColor: Sendable, Hashable {
    /// Red component, 0…1.
    public var red: Double
    /// Green component, 0…1.
    public var green: Double
    /// Blue component, 0…1.
    public var blue: Double
    /// Opacity, 0 (transparent) … 1 (opaque).
    public var alpha: Double

    /// Creates a colour from components in 0…1; alpha defaults to opaque.
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// Opaque white.
    public static let white = RGBAColor(red: 1, green: 1, blue: 1)
    /// Opaque black.
    public static let black = RGBAColor(red: 0, green: 0, blue: 0)

    /// Parses `#RGB`, `#RRGGBB` or `#RRGGBBAA`; nil for anything else.
    public init?(hex: String) {
        guard hex.hasPrefix("#") else { return nil }
        var digits = Array(hex.dropFirst())
        if digits.count == 3 { digits = digits.flatMap { [$0, $0] } }
        guard digits.count == 6 || digits.count == 8 else { return nil }
        var values: [Double] = []
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let byte = UInt8(String(digits[index...index + 1]), radix: 16) else { return nil }
            values.append(Double(byte) / 255)
        }
        self.init(red: values[0], green: values[1], blue: values[2], alpha: values.count == 4 ? values[3] : 1)
    }

    /// `#RRGGBB`, or `#RRGGBBAA` when not opaque, each channel rounded to 8 bits.
    public var hexString: String {
        let channels = alpha == 1 ? [red, green, blue] : [red, green, blue, alpha]
        return "#" + channels.map { String(format: "%02X", Int((min(max($0, 0), 1) * 255).rounded())) }.joined()
    }

    /// The colour with each RGB component multiplied by `factor` (clamped), alpha kept.
    public func scaled(by factor: Double) -> RGBAColor {
        func clamp(_ value: Double) -> Double { min(max(value * factor, 0), 1) }
        return RGBAColor(red: clamp(red), green: clamp(green), blue: clamp(blue), alpha: alpha)
    }

    /// WCAG 2's relative luminance of the colour as opaque: 0 for black, 1 for white.
    public var relativeLuminance: Double {
        func linear(_ value: Double) -> Double {
            let value = min(max(value, 0), 1)
            return value <= 0.04045 ? value / 12.92 : pow((value + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue)
    }

    /// WCAG 2's contrast ratio of two colours as opaque: 1 for the same luminance, 21 for black on white.
    public func contrastRatio(with other: RGBAColor) -> Double {
        let (one, two) = (relativeLuminance, other.relativeLuminance)
        return (max(one, two) + 0.05) / (min(one, two) + 0.05)
    }
}

extension RGBAColor: Codable {
    /// Decodes `"#RRGGBB"`, `"#RRGGBBAA"` or an array `[r, g, b]` / `[r, g, b, a]` of numbers in 0…1.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let expected = "a colour: \"#RRGGBB\", \"#RRGGBBAA\" or [red, green, blue(, alpha)] with numbers in 0…1"
        if let text = try? container.decode(String.self) {
            guard let color = RGBAColor(hex: text) else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "expected \(expected), got \"\(text)\"")
            }
            self = color
            return
        }
        guard let components = try? container.decode([Double].self) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "expected \(expected)")
        }
        guard (3...4).contains(components.count), components.allSatisfy({ (0...1).contains($0) }) else {
            let shown =
                "[" + components.prefix(5).map(\.messageText).joined(separator: ", ")
                + (components.count > 5 ? ", …]" : "]")
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "expected \(expected), got \(shown)")
        }
        self.init(
            red: components[0], green: components[1], blue: components[2],
            alpha: components.count == 4 ? components[3] : 1)
    }

    /// Encodes as an array of three or four numbers so fractional colour-set values survive.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(alpha == 1 ? [red, green, blue] : [red, green, blue, alpha])
    }
}
