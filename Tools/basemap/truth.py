#!/usr/bin/env python3
"""Measures how many cities fall on the embedded basemap's land: the share of points whose pixel is land, and whose
pixel or one within 2 px (the 5×5 pixels around it) has land in it, at a zoom, per country, as a land-only mask
rendered at that zoom would show. Python 3 standard library only.

    python3 Tools/basemap/truth.py CITIES.csv [--basemap FILE | --geojson FILE] [--countries NO,GR,JP] [--zooms 6,7]

CITIES.csv needs `lat`, `lon` and `cc` columns (e.g. GeoNames' cities). `--basemap` (default: the committed
basemap.bin) reads the band a map at that zoom draws; `--geojson` measures polygons from a GeoJSON file instead
(such as the 1:110m countries the basemap replaced, or the 1:10m land itself).
"""
import argparse
import csv
import json
import gzip
import math
import os
import struct
import zlib

from build import LAYERS, project


def varints(data):
    value = shift = 0
    for byte in data:
        value |= (byte & 0x7F) << shift
        if byte < 0x80:
            yield value
            value = shift = 0
        else:
            shift += 7


def read_basemap(path):
    """{(min zoom, max zoom): (level, bits, {(column, row): [land rings in world units]})}"""
    data = open(path, "rb").read()
    assert data[:5] == b"DCBM\x01"
    count, position, bands = data[5], 6, []
    for _ in range(count):
        low, high, level, bits, cells = struct.unpack_from("<BBBBI", data, position)
        position += 8
        entries = [struct.unpack_from("<IIIII", data, position + 20 * i) for i in range(cells)]
        position += 20 * cells
        bands.append((low, high, level, bits, entries))
    position += 8
    result = {}
    for low, high, level, bits, entries in bands:
        size, scale, grid = 1 << (bits - level), float(1 << bits), {}
        for column, row, offset, length, _ in entries:
            numbers = varints(zlib.decompress(data[position + offset:position + offset + length]))
            x, y = column * size, row * size
            rings = []
            for layer in LAYERS:
                for _ in range(next(numbers)):
                    next(numbers)
                    for _ in range(next(numbers)):
                        ring = []
                        for _ in range(next(numbers)):
                            dx, dy = next(numbers), next(numbers)
                            x += (dx >> 1) ^ -(dx & 1)
                            y += (dy >> 1) ^ -(dy & 1)
                            ring.append((x / scale, y / scale))
                        if layer == "land":
                            rings.append(ring)
            grid[(column, row)] = rings
        result[(low, high)] = (level, grid)
    return result


def read_geojson(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        features = json.load(f)["features"]
    rings = []
    for feature in features:
        geometry = feature["geometry"]
        polygons = [geometry["coordinates"]] if geometry["type"] == "Polygon" else geometry["coordinates"]
        for polygon in polygons:
            for ring in polygon:
                rings.append([project(*p[:2]) for p in ring])
    return rings


def clipped(ax, ay, bx, by, box):
    """Whether the segment a–b passes through the box (Liang–Barsky)."""
    x0, y0, x1, y1 = box
    t0, t1, dx, dy = 0.0, 1.0, bx - ax, by - ay
    for p, q in ((-dx, ax - x0), (dx, x1 - ax), (-dy, ay - y0), (dy, y1 - ay)):
        if p == 0:
            if q < 0:
                return False
        else:
            t = q / p
            if p < 0:
                t0 = max(t0, t)
            else:
                t1 = min(t1, t)
            if t0 > t1:
                return False
    return True


def land_at(x, y, rings, pixel):
    """'on' when the pixel holding (x, y) has land in it, 'near' when one of the 5×5 pixels around it has, else 'off'."""
    px, py = math.floor(x / pixel), math.floor(y / pixel)
    own = (px * pixel, py * pixel, (px + 1) * pixel, (py + 1) * pixel)
    near = ((px - 2) * pixel, (py - 2) * pixel, (px + 3) * pixel, (py + 3) * pixel)
    cx, cy = (px + 0.5) * pixel, (py + 0.5) * pixel
    inside, touches_own, touches_near = False, False, False
    for ring, (minx, miny, maxx, maxy) in rings:
        if maxx < near[0] or minx > near[2] or maxy < near[1] or miny > near[3]:
            continue
        ax, ay = ring[-1]
        for bx, by in ring:
            if (ay > cy) != (by > cy) and cx < ax + (cy - ay) * (bx - ax) / (by - ay):
                inside = not inside
            if not touches_own and clipped(ax, ay, bx, by, near):
                touches_near = True
                touches_own = clipped(ax, ay, bx, by, own)
            ax, ay = bx, by
    return "on" if inside or touches_own else "near" if touches_near else "off"


def boxed(rings):
    return [(r, (min(p[0] for p in r), min(p[1] for p in r), max(p[0] for p in r), max(p[1] for p in r))) for r in rings if r]


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("cities")
    parser.add_argument("--basemap", default=os.path.join(os.path.dirname(os.path.dirname(here)), "Sources/CDeclutterResources/Basemap/basemap.bin"))
    parser.add_argument("--geojson")
    parser.add_argument("--countries", default="NO,GR,JP")
    parser.add_argument("--zooms", default="6,7")
    parser.add_argument("--band-zoom", type=int, help="read the band of this zoom whatever the zoom measured (9: all of 1:10m)")
    args = parser.parse_args()
    countries = args.countries.split(",")
    cities = [r for r in csv.DictReader(open(args.cities, encoding="utf-8")) if r["cc"] in countries]
    geojson = boxed(read_geojson(args.geojson)) if args.geojson else None
    bands = None if geojson else read_basemap(args.basemap)
    for zoom in [int(z) for z in args.zooms.split(",")]:
        pixel = 1 / (256 * 2 ** zoom)
        radius = 3 * pixel
        if bands:
            key = next((b for b in sorted(bands) if (args.band_zoom or zoom) <= b[1]), max(bands))
            level, grid = bands[key]
            cache = {}
        for country in countries:
            counts = {"on": 0, "near": 0, "off": 0}
            for city in cities:
                if city["cc"] != country:
                    continue
                x, y = project(float(city["lon"]), float(city["lat"]))
                if bands:
                    n = 1 << level
                    keys = {(min(n - 1, max(0, int((x + dx) * n))), min(n - 1, max(0, int((y + dy) * n))))
                            for dx in (-radius, radius) for dy in (-radius, radius)}
                    rings = []
                    for k in keys:
                        if k not in cache:
                            cache[k] = boxed(grid.get(k, []))
                        rings += cache[k]
                    # A point near a cell edge is looked up in each cell it is near; only the cell holding its pixel's
                    # centre says inside, as the cells are cut along pixel edges.
                    home = (min(n - 1, int(x * n)), min(n - 1, int(y * n)))
                    state = land_at(x, y, cache[home], pixel)
                    if state != "on" and land_at(x, y, rings, pixel) != "off":
                        state = "near"
                else:
                    state = land_at(x, y, geojson, pixel)
                counts[state] += 1
            total = sum(counts.values())
            print("zoom %d %s: %d cities, %.1f %% on land, %.1f %% on land or within 2 px (%d off)" % (
                zoom, country, total, 100 * counts["on"] / total, 100 * (counts["on"] + counts["near"]) / total, counts["off"]))


if __name__ == "__main__":
    main()
