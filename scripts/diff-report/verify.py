"""Checks the DOM Chromium dumped of a `declutter diff --report` page (scripts/diff-report-check).

The page marks each picture data-state="loaded" or "broken" once it has loaded or failed; this reads those marks
with the standard library's HTML parser and checks, against --counts (status=N,...):
- the counts at the top of the page and the body's data-* counts;
- one <article> per changed and within-tolerance image, each with its expected and actual pictures and, when it
  was compared pixel by pixel (the sizes agree), its diff picture, every picture loaded;
- one <figure> per new and deleted image, its picture loaded;
- one <li> per unreadable image, naming it and why;
- no broken picture anywhere.
Exit 0 when all hold, 1 with a line per problem otherwise."""

import argparse
import sys
from html.parser import HTMLParser


class Report(HTMLParser):
    def __init__(self):
        super().__init__()
        self.body = {}
        self.counts = {}
        self.images = []        # each: {"path", "status", "tag", "pictures": [(class or alt, state)]}
        self.count_name = None
        self.count_text = ""
        self.stray_broken = []
        self.unreadable = []    # each: [path, the text of its line]

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "body":
            self.body = attrs
        elif tag == "b" and "data-count" in attrs:
            self.count_name, self.count_text = attrs["data-count"], ""
        elif tag in ("article", "figure") and "data-status" in attrs:
            self.images.append({"path": attrs.get("data-path", "?"), "status": attrs["data-status"], "tag": tag, "pictures": [],
                                "compared": bool(attrs.get("data-mismatched"))})
        elif tag == "li" and attrs.get("data-status") == "unreadable":
            self.unreadable.append([attrs.get("data-path", "?"), ""])
            self.in_unreadable = True
        elif tag == "img":
            state = attrs.get("data-state", "unmarked")
            kind = attrs.get("class") or attrs.get("alt", "?").split(" ")[0]
            inside = self.images and self.images[-1]["tag"] in ("article", "figure")
            if inside and kind in ("expected", "actual", "diff"):
                self.images[-1]["pictures"].append((kind, state))
            elif state != "loaded":
                self.stray_broken.append((attrs.get("src", "?"), state))

    def handle_data(self, data):
        if self.count_name is not None:
            self.count_text += data
        if self.unreadable and self.in_unreadable:
            self.unreadable[-1][1] += data

    in_unreadable = False

    def handle_endtag(self, tag):
        if tag == "li":
            self.in_unreadable = False
        if tag == "b" and self.count_name is not None:
            self.counts[self.count_name] = self.count_text.strip()
            self.count_name = None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--dom", required=True)
    parser.add_argument("--counts", required=True, help="status=N,... e.g. changed=3,new=1")
    args = parser.parse_args()
    expected = {name: int(value) for name, value in (part.split("=") for part in args.counts.split(","))}
    report = Report()
    with open(args.dom, encoding="utf-8") as dom:
        report.feed(dom.read())
    problems = []
    for status, count in expected.items():
        if report.counts.get(status) != str(count):
            problems.append(f"the page shows {report.counts.get(status)!r} {status}, expected {count}")
        if report.body.get(f"data-{status}") != str(count):
            problems.append(f"the body's data-{status} is {report.body.get(f'data-{status}')!r}, expected {count}")
    for status in ("changed", "within-tolerance", "new", "deleted"):
        shown = [image for image in report.images if image["status"] == status]
        if len(shown) != expected.get(status, 0):
            problems.append(f"{len(shown)} {status} images shown, expected {expected.get(status, 0)}")
    if len(report.unreadable) != expected.get("unreadable", 0):
        problems.append(f"{len(report.unreadable)} unreadable images named, expected {expected.get('unreadable', 0)}")
    for path, text in report.unreadable:
        if f"actual/{path}: " not in text and f"expected/{path}: " not in text:
            problems.append(f"{path}: its line does not say which file cannot be read: {text!r}")
    for image in report.images:
        kinds = dict(image["pictures"])
        if image["tag"] == "article":
            # Images of two sizes are not compared pixel by pixel (data-mismatched is empty): no diff picture.
            wanted = ["expected", "actual"] + (["diff"] if image["compared"] else [])
        else:
            wanted = ["actual" if image["status"] == "new" else "expected"]
        for kind in wanted:
            if kind not in kinds:
                problems.append(f"{image['path']}: no {kind} picture")
            elif kinds[kind] != "loaded":
                problems.append(f"{image['path']}: the {kind} picture did not load ({kinds[kind]})")
    for source, state in report.stray_broken:
        problems.append(f"{source}: {state}")
    for problem in problems:
        print(f"diff-report-check: {problem}", file=sys.stderr)
    if problems:
        return 1
    pictures = sum(len(image["pictures"]) for image in report.images)
    print(f"diff-report-check: {len(report.images)} images shown, {pictures} pictures loaded")
    return 0


if __name__ == "__main__":
    sys.exit(main())
