import Foundation

/// A one-line progress bar on stderr when it is a terminal; silent when piped.
package final class ProgressBar {
    private let label: String
    private let enabled = isatty(STDERR_FILENO) == 1
    private var lastDrawn = -1

    package init(label: String) { self.label = label }

    package func update(_ done: Int, of total: Int) {
        guard enabled, total > 0 else { return }
        let percent = done * 100 / total
        guard percent != lastDrawn else { return }
        lastDrawn = percent
        let width = 30, filled = width * done / total
        let bar = String(repeating: "█", count: filled) + String(repeating: "·", count: width - filled)
        FileHandle.standardError.write(Data("\r\(label) \(bar) \(done)/\(total)".utf8))
    }

    package func finish() {
        guard enabled, lastDrawn >= 0 else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8))
    }
}
