import DeclutterSupport
import Foundation

extension ComparisonReport {
    /// The whole `index.html`: no external resource, so it opens from a file on any machine.
    func page(_ differences: [ImageDifference]) -> String {
        let counts = Self.counts(differences)
        let headline = counts.filter { $0.1 > 0 || $0.0 == .changed }.map { "\($0.1) \(Self.label($0.0))" }.joined(
            separator: ", ")
        var html = """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            \(Self.generatorMark)
            <title>\(Self.escape(title)): \(Self.escape(headline))</title>
            <style>\(Self.style)</style>
            </head>
            <body data-images="\(differences.count)"\(counts.map { " data-\($0.0.rawValue)=\"\($0.1)\"" }.joined())>
            <header>
            <h1>\(Self.escape(title))</h1>
            \(details.map { "<p class=\"detail\">\(Self.escape($0))</p>" }.joined(separator: "\n"))
            <ul class="counts">
            \(counts.map { Self.countItem($0.0, $0.1) }.joined(separator: "\n"))
            </ul>
            </header>
            <main>

            """
        let unreadable = differences.filter { $0.status == .unreadable }
        if !unreadable.isEmpty {
            // First, since nothing below can be trusted to be whole until they are mended.
            html += "<section id=\"unreadable\"><h2>\(unreadable.count) unreadable</h2><ul class=\"problems\">\n"
            html += unreadable.map { item in
                // The side that could be read, small, so that the reviewer sees which screenshot it is.
                let pictures = [("expected", item.expectedSize), ("actual", item.actualSize)].compactMap { side, size in
                    size.map { _ in
                        "<a href=\"\(side)/\(Self.link(item.path))\"><img src=\"\(side)/\(Self.link(item.path))\" alt=\"\(side) \(Self.escape(item.path))\"></a>"
                    }
                }
                return
                    "<li id=\"\(Self.anchor(for: item.path))\" data-path=\"\(Self.escape(item.path))\" data-status=\"unreadable\">"
                    + "<b>\(Self.escape(item.path))</b>: \(Self.escape(item.summary))"
                    + (pictures.isEmpty ? "" : "<div>\(pictures.joined())</div>") + "</li>"
            }.joined(separator: "\n")
            html += "</ul></section>\n"
        }
        for status in [ImageDifference.Status.changed, .withinTolerance] {
            let items = differences.filter { $0.status == status }
            guard !items.isEmpty else { continue }
            html += "<section id=\"\(status.rawValue)\"><h2>\(items.count) \(Self.label(status))</h2>\n"
            html += items.map(card).joined(separator: "\n") + "</section>\n"
        }
        for status in [ImageDifference.Status.new, .deleted] {
            let items = differences.filter { $0.status == status }
            guard !items.isEmpty else { continue }
            let folder = status == .new ? "actual" : "expected"
            html +=
                "<section id=\"\(status.rawValue)\"><h2>\(items.count) \(Self.label(status))</h2>\n<div class=\"thumbnails\">\n"
            html +=
                items.map { item in
                    """
                    <figure class="image" id="\(Self.anchor(for: item.path))" data-path="\(Self.escape(item.path))" data-status="\(status.rawValue)">
                    <a href="\(folder)/\(Self.link(item.path))"><img src="\(folder)/\(Self.link(item.path))" alt="\(folder) \(Self.escape(item.path))"></a>
                    <figcaption>\(Self.escape(item.path)) <span class="size">\(Self.escape(ImageDifference.sizeText(item.expectedSize ?? item.actualSize))) px</span></figcaption>
                    </figure>
                    """
                }.joined(separator: "\n") + "</div></section>\n"
        }
        let unchanged = differences.filter { $0.status == .unchanged }
        if !unchanged.isEmpty {
            html +=
                "<section id=\"unchanged\"><details><summary><h2>\(unchanged.count) unchanged</h2></summary><ul class=\"names\">\n"
            html += unchanged.map {
                "<li id=\"\(Self.anchor(for: $0.path))\" data-status=\"unchanged\">\(Self.escape($0.path))</li>"
            }.joined(separator: "\n")
            html += "</ul></details></section>\n"
        }
        if differences.isEmpty { html += "<p>No PNG images in either folder.</p>\n" }
        return html + "</main>\n<script>\(Self.script)</script>\n</body>\n</html>\n"
    }

    /// A count at the top of the page, linked to its section when it has one (a count of 0 has none).
    static func countItem(_ status: ImageDifference.Status, _ count: Int) -> String {
        let number = "<b data-count=\"\(status.rawValue)\">\(count)</b> \(label(status))"
        return "<li class=\"\(status.rawValue)\">"
            + (count > 0 ? "<a href=\"#\(status.rawValue)\">\(number)</a>" : number) + "</li>"
    }

    /// One changed image: its figures, the three pictures, and the slider (or, for two sizes, the two side by side).
    func card(_ item: ImageDifference) -> String {
        let link = Self.link(item.path), name = Self.escape(item.path)
        var figures = Self.escape(item.summary)
        if item.ignoredPixels > 0 { figures += " · \(item.ignoredPixels) px ignored" }
        if !item.sizesDiffer { figures += " · \(ImageDifference.sizeText(item.expectedSize)) px" }
        var html = """
            <article class="image" id="\(Self.anchor(for: item.path))" data-path="\(name)" data-status="\(item.status.rawValue)"\
             data-mismatched="\(item.differingPixels.map(String.init) ?? "")">
            <h3><a href="#\(Self.anchor(for: item.path))">\(name)</a></h3>
            <p class="figures">\(figures)</p>
            <div class="pictures">
            <figure><a href="expected/\(link)"><img class="expected" src="expected/\(link)" alt="expected"></a>\
            <figcaption>expected \(ImageDifference.sizeText(item.expectedSize)) px</figcaption></figure>
            <figure><a href="actual/\(link)"><img class="actual" src="actual/\(link)" alt="actual"></a>\
            <figcaption>actual \(ImageDifference.sizeText(item.actualSize)) px</figcaption></figure>

            """
        if item.diffPNG != nil {
            let diffLink = Self.link(item.diffName)
            html +=
                "<figure><a href=\"diff/\(diffLink)\"><img class=\"diff\" src=\"diff/\(diffLink)\" alt=\"diff\"></a><figcaption>diff</figcaption></figure>\n"
        }
        html += "</div>\n" + zoom(item)
        if !item.sizesDiffer {
            html += """
                <div class="slider" style="--position: 50%">
                <img src="expected/\(link)" alt="expected, left of the line"><img class="over" src="actual/\(link)" alt="actual, right of the line">
                </div>
                <label class="control">expected ◀ <input type="range" min="0" max="100" value="50" aria-label="expected or actual"> ▶ actual</label>

                """
        }
        return html + "</article>"
    }

    /// The changed area of `item` enlarged, expected beside actual, where it is small enough to vanish in the
    /// pictures above (a third of the image or less each way): the area with as much around it, at the largest whole
    /// scale (2 to 8) that keeps it within 240 px, drawn pixelated; empty otherwise.
    func zoom(_ item: ImageDifference) -> String {
        guard let area = item.changedArea, area.count == 4, let size = item.expectedSize, size.count == 2,
            area[2] * 3 <= size[0], area[3] * 3 <= size[1]
        else { return "" }
        // The area and as much again around it, 32 px at least, for context; within the image.
        func span(_ start: Int, _ length: Int, _ limit: Int) -> (Int, Int) {
            let span = min(limit, max(32, length * 2))
            return (max(0, min(start - (span - length) / 2, limit - span)), span)
        }
        let (x, width) = span(area[0], area[2], size[0]), (y, height) = span(area[1], area[3], size[1])
        let scale = min(8, 240 / max(width, height, 1))
        guard scale >= 2 else { return "" }
        let link = Self.link(item.path, escaping: "'()")
        let place = "x \(area[0])–\(area[0] + area[2] - 1), y \(area[1])–\(area[1] + area[3] - 1)"
        func figure(_ side: String) -> String {
            "<figure><div class=\"zoom \(side)\" style=\"width:\(width * scale)px;height:\(height * scale)px;"
                + "background-image:url(\(side)/\(link));background-position:-\(x * scale)px -\(y * scale)px;"
                + "background-size:\(size[0] * scale)px \(size[1] * scale)px\"></div>"
                + "<figcaption>\(side), ×\(scale)</figcaption></figure>"
        }
        return "<div class=\"changed-area\"><p class=\"figures\">The changed pixels lie at \(place), enlarged:</p>"
            + "<div class=\"pictures\">\(figure("expected"))\(figure("actual"))</div></div>\n"
    }

    // Pictures are shown as they were compared: a JPEG's EXIF orientation, which the comparison does not apply, is
    // not applied here either (`image-orientation: none`), or a turned picture would sit beside an unturned diff.
    static let style = """
        body{font:14px/1.4 system-ui,sans-serif;margin:0;color:#222;background:#fafafa}img,.zoom{image-orientation:none}
        header{position:sticky;top:0;background:#fff;border-bottom:1px solid #ddd;padding:8px 16px;z-index:1}
        h1{font-size:18px;margin:0 0 4px}.detail{margin:0;color:#666;font-size:12px;word-break:break-all}
        .counts{list-style:none;display:flex;gap:8px;padding:0;margin:8px 0 0;flex-wrap:wrap}
        .counts li{border-radius:12px;padding:2px 10px;background:#eee}.counts a{color:inherit;text-decoration:none}
        .counts .changed{background:#fdd}.counts .new{background:#dfd}.counts .deleted{background:#ddd}
        .counts .within-tolerance{background:#ffd}.counts .unreadable{background:#d00;color:#fff}
        .problems li{margin:4px 0;color:#900;word-break:break-all}.problems img{max-width:160px;max-height:90px;
        margin:4px 8px 0 0;border:1px solid #ccc}main{padding:8px 16px}h2{font-size:16px;display:inline}
        section{margin:16px 0}article{background:#fff;border:1px solid #ddd;border-radius:6px;padding:8px 12px;margin:12px 0;
        scroll-margin-top:calc(var(--header,160px) + 8px)}
        h3{font-size:14px;margin:0;word-break:break-all}.figures{margin:2px 0 8px;color:#444}
        .pictures{display:flex;flex-wrap:wrap;gap:8px;align-items:flex-start}figure{margin:0}
        .pictures img{max-width:360px;max-height:360px;display:block;border:1px solid #ccc;
        background:repeating-conic-gradient(#eee 0 25%,#fff 0 50%) 0 0/16px 16px}
        figcaption{font-size:12px;color:#666}img[data-state=broken]{outline:3px solid #d00;min-width:60px;min-height:20px}
        .slider{position:relative;display:inline-block;margin-top:8px;border:1px solid #ccc;line-height:0}
        .slider img{max-width:560px;display:block}.slider .over{position:absolute;top:0;left:0;width:100%;height:100%;
        clip-path:inset(0 0 0 var(--position))}.slider::after{content:"";position:absolute;top:0;bottom:0;
        left:var(--position);border-left:2px solid #d00}.control{display:block;font-size:12px;color:#666}
        .control input{width:240px;vertical-align:middle}.thumbnails{display:flex;flex-wrap:wrap;gap:12px}
        .thumbnails img{max-width:200px;max-height:200px;display:block;border:1px solid #ccc}
        .names{columns:3;font-size:12px;color:#555}summary{cursor:pointer}
        .zoom{image-rendering:pixelated;background-repeat:no-repeat;border:1px solid #ccc}.changed-area{margin-top:8px}
        """

    /// Moves each slider's line, marks every picture loaded or broken (`data-state`) so that a missing file shows,
    /// and keeps an image a link jumps to (`#image-…`, as JUnit gives) below the sticky header, whose height the
    /// counts decide.
    static let script = """
        const header = document.querySelector('header');
        const clearHeader = () => {
          document.documentElement.style.setProperty('--header', header.offsetHeight + 'px');
          const target = location.hash && document.getElementById(decodeURIComponent(location.hash.slice(1)));
          if (target) target.scrollIntoView();
        };
        clearHeader();
        window.addEventListener('load', clearHeader);
        for (const control of document.querySelectorAll('.control input')) {
          const slider = control.closest('article').querySelector('.slider');
          control.addEventListener('input', () => slider.style.setProperty('--position', control.value + '%'));
        }
        for (const img of document.images) {
          const mark = () => { img.dataset.state = img.naturalWidth > 0 ? 'loaded' : 'broken'; };
          if (img.complete) mark(); else { img.addEventListener('load', mark); img.addEventListener('error', mark); }
        }
        """
}
