import DeclutterStyle
import Foundation

/// A compass rose as MapKit shows it when the map is turned: a white disc whose red half-needle points north.
public enum NorthArrow {
    /// The disc's diameter in points.
    public static let diameter = 30.0

    /// Draws the arrow centred on (x, y) for a map turned by `bearing` degrees (clockwise from north).
    public static func draw(
        centerX x: Double, centerY y: Double, bearing: Double, in context: DrawingContext, textColor: RGBAColor
    ) {
        let radius = diameter / 2
        context.newPath()
        context.circle(centerX: x, centerY: y, radius: radius)
        context.fillPreserving(RGBAColor(red: 1, green: 1, blue: 1, alpha: 0.92))
        context.stroke(RGBAColor(red: 0, green: 0, blue: 0, alpha: 0.2), width: 1)
        context.save()
        context.translate(x: x, y: y)
        // North on a map turned clockwise by the bearing points that far anticlockwise from up.
        context.rotate(by: -bearing * Double.pi / 180)
        let length = radius - 3, half = 4.0
        context.newPath()
        context.move(toX: 0, y: -length)
        context.line(toX: half, y: 0)
        context.line(toX: -half, y: 0)
        context.closePath()
        context.fill(RGBAColor(red: 0.86, green: 0.16, blue: 0.13, alpha: 1))
        context.newPath()
        context.move(toX: 0, y: length)
        context.line(toX: half, y: 0)
        context.line(toX: -half, y: 0)
        context.closePath()
        context.fill(textColor.withOpacity(0.55))
        context.restore()
    }
}
