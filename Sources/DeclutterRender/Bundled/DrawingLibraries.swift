import CCairo

/// The versions of the system libraries that draw, which decide pixels: golden images made with one cairo or
/// pango can differ by antialiasing from another's.
public enum DrawingLibraries {
    /// Cairo's and Pango's versions at run time, e.g. `cairo 1.16.0, pango 1.50.12`.
    public static var versions: String {
        "cairo \(String(cString: cairo_version_string())), pango \(String(cString: pango_version_string()))"
    }
}
