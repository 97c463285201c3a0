#!/usr/bin/env python3
"""Checks one report of scripts/viewer/harness.js for scripts/viewer-check.

    verify.py --report NAME.json [--leaves] [--range] [--legend TITLE:POINTS]

No error and no missing image on the page; a cluster was clicked and the camera went to its expansion_zoom
(within 0.01), where nothing within 30 px of its place counts as many points as it did; the popup names its count.
--leaves: the popup lists its first leaves (min(10, count) of them). --range: the page read the PMTiles header
through the server's byte ranges (206, bytes 0-126, "PMTiles", version 3). --legend: the page shows a legend under
TITLE whose rows, each with a colour, count POINTS points together.
"""
import argparse
import json
import sys


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--report", required=True)
    parser.add_argument("--leaves", action="store_true")
    parser.add_argument("--range", action="store_true")
    parser.add_argument("--legend")
    options = parser.parse_args()
    with open(options.report) as file:
        report = json.load(file)
    problems = [f"page error: {text}" for text in report.get("errors", [])]
    problems += [f"missing image: {name}" for name in report.get("missingImages", [])]
    clicked, after, popup = report.get("clicked") or {}, report.get("after") or {}, report.get("popup") or {}
    count, expansion = clicked.get("count"), clicked.get("expansionZoom")
    if count is None or expansion is None:
        problems.append(f"no cluster with point_count and expansion_zoom was clicked: {clicked}")
    else:
        if abs(after.get("zoom", -1) - expansion) > 0.01:
            problems.append(f"after the click the zoom is {after.get('zoom')}, the cluster's expansion_zoom {expansion}")
        if max(after.get("countsNearby") or [0]) >= count:
            problems.append(f"at its expansion zoom a feature near the cluster still counts {max(after['countsNearby'])} "
                            f"of its {count} points")
        if f"{count} points" not in (popup.get("text") or ""):
            problems.append(f"the popup does not say \"{count} points\": {popup.get('text')!r}")
        if options.leaves and len(popup.get("items") or []) != min(10, count):
            problems.append(f"the popup lists {len(popup.get('items') or [])} leaves, expected {min(10, count)}")
    if options.range:
        got = report.get("range") or {}
        if (got.get("status"), got.get("contentRange"), got.get("length"), got.get("magic"), got.get("version")) \
                != (206, got.get("contentRange") if (got.get("contentRange") or "").startswith("bytes 0-126/") else None,
                    127, "PMTiles", 3):
            problems.append(f"the archive's header through a byte range: {got}")
    legend = report.get("legend") or {}
    if options.legend:
        title, points = options.legend.rsplit(":", 1)
        rows = legend.get("rows") or []
        total = sum(int(row["count"].replace(",", "")) for row in rows)
        if legend.get("title") != title or len(rows) < 2 or total != int(points) \
                or not all(row.get("color") for row in rows):
            problems.append(f"the legend: expected {title!r} over rows counting {points} points, got {legend}")
    name = options.report
    if problems:
        for text in problems:
            print(f"viewer-check: {name}: {text}", file=sys.stderr)
        sys.exit(1)
    items = popup.get("items") or []
    print(f"viewer-check: {name}: clicked a cluster of {count} ({report.get('clustersInView')} in view), zoomed "
          f"{report['before']['zoom']:.2f} → {after['zoom']:.2f} = its expansion_zoom, nearby counts now "
          f"{sorted(after['countsNearby'], reverse=True)[:5]}; popup lists {len(items)} leaves"
          + (f" ({items[0]!r}…)" if items else "")
          + (f"; header read by range: {report['range']}" if options.range else "")
          + (f"; legend {legend.get('title')!r}, {len(legend.get('rows') or [])} rows" if options.legend else ""))


if __name__ == "__main__":
    main()
