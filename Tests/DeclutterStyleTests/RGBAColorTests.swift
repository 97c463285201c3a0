import DeclutterStyle
import Testing

@Suite struct RGBAColorTests {
    @Test func hexForms() {
        #expect(RGBAColor(hex: "#FF7900") == RGBAColor(red: 1, green: 121.0 / 255, blue: 0))
        #expect(RGBAColor(hex: "#fff") == .white)
        #expect(RGBAColor(hex: "#00000080")?.alpha == 128.0 / 255)
        #expect(RGBAColor(hex: "FF7900") == nil)
        #expect(RGBAColor(hex: "#GG0000") == nil)
        #expect(RGBAColor(hex: "#12345") == nil)
    }

    @Test func scaledClampsAndKeepsAlpha() {
        let color = RGBAColor(red: 1, green: 0.5, blue: 0.2, alpha: 0.5).scaled(by: 1.5)
        #expect(color == RGBAColor(red: 1, green: 0.75, blue: 0.30000000000000004, alpha: 0.5))
    }
}
