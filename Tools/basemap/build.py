#!/usr/bin/env python3
"""Builds Declutter's embedded basemap from Natural Earth (public domain). Made with Natural Earth.

    python3 Tools/basemap/build.py [--source DIR] [--output FILE]

Reads the 1:10m land with its minor islands, lakes, rivers and country borders, the 1:50m state/province lines and the
1:10m populated places (gzip-compressed GeoJSON, see README.md), and writes one binary file that `WorldBasemap.swift`
reads:

    header   "DCBM", u8 version (1), u8 band count
    band     u8 min zoom, u8 max zoom, u8 grid level g, u8 b (coordinates are integers, 2^b per world),
             u32 cell count, then per cell: u32 column, u32 row, u32 offset, u32 length, u32 inflated length
    places   u32 offset, u32 length
    data     each cell: zlib-compressed layers; the places, not compressed

All integers are little-endian. A cell is one square of the band's 2^g × 2^g grid over the Web Mercator world; it
holds the band's geometry clipped to it, so that a map reads only the cells in view. Its layers come in a fixed
order (land, lakes, rivers, country borders, state borders), each a varint feature count, then per feature a
varint min zoom × 10, a varint ring count and per ring a varint point count and the points as zigzag varint
deltas (x, then y) from the previous point, starting at the cell's top-left corner. Polygon rings do not repeat
their first point. The places are a varint count, then per place a u8 min zoom × 10, a varint x and y (2^24 per
world), a varint byte count and the UTF-8 name; sorted by min zoom, then largest population first.

Python 3 standard library only.
"""
import argparse
import gzip
import json
import math
import os
import struct
import zlib

# (min zoom, max zoom) of each band; a map at zoom z (times its pixel scale) reads the band holding z.
BANDS = [(0, 2), (3, 4), (5, 6), (7, 8), (9, 10)]
# Douglas–Peucker tolerance in pixels at the band's top zoom: under half a pixel moves no coastline visibly.
TOLERANCE_PX = 0.5
# Coordinates are kept to a quarter pixel at the band's top zoom: 2^(8 + top + 2) steps per world.
STEPS_PER_PIXEL_BITS = 2
# A cell is 2^3 tiles (2,048 px) wide at the band's top zoom, so an 800×600 map reads at most 2×2 of them.
CELL_TILES_BITS = 3
# State and province lines are drawn from this zoom on.
STATE_MIN_ZOOM = 4.0
LAYERS = ["land", "lakes", "rivers", "countries", "states"]
POLYGON_LAYERS = {"land", "lakes"}


def project(lon, lat):
    lat = max(-85.05112878, min(85.05112878, lat))
    x = lon / 360 + 0.5
    y = 0.5 - math.log(math.tan(math.pi / 4 + math.radians(lat) / 2)) / (2 * math.pi)
    return (min(1.0, max(0.0, x)), min(1.0, max(0.0, y)))


def read(source, name):
    with gzip.open(os.path.join(source, name + ".geojson.gz")) as f:
        return json.load(f)["features"]


def parts(geometry):
    """The geometry's rings (polygons) or lines as lists of world points, grouped per polygon or line."""
    if geometry is None:
        return []
    kind, coords = geometry["type"], geometry["coordinates"]
    if kind == "Polygon":
        coords, kind = [coords], "MultiPolygon"
    if kind == "LineString":
        coords, kind = [coords], "MultiLineString"
    if kind == "MultiPolygon":
        return [[[project(*p[:2]) for p in ring] for ring in polygon] for polygon in coords]
    if kind == "MultiLineString":
        return [[[project(*p[:2]) for p in line]] for line in coords]
    raise ValueError("unexpected geometry " + kind)


def load(source):
    """Each layer's features as (min zoom, [rings or lines in world units])."""
    layers = {name: [] for name in LAYERS}
    for feature in read(source, "ne_10m_land"):
        for polygon in parts(feature["geometry"]):
            layers["land"].append((0.0, polygon))
    # The islets 1:10m's land leaves out (Natural Earth's min_zoom of 6.5 and 7 is for labels): land at every zoom,
    # where rings under a pixel are dropped as for the rest.
    for feature in read(source, "ne_10m_minor_islands"):
        for polygon in parts(feature["geometry"]):
            layers["land"].append((0.0, polygon))
    for feature in read(source, "ne_10m_lakes"):
        zoom = feature["properties"].get("min_zoom") or 0.0
        for polygon in parts(feature["geometry"]):
            layers["lakes"].append((zoom, polygon))
    for feature in read(source, "ne_10m_rivers_lake_centerlines"):
        zoom = feature["properties"].get("min_zoom") or 0.0
        for line in parts(feature["geometry"]):
            layers["rivers"].append((zoom, line))
    for feature in read(source, "ne_10m_admin_0_boundary_lines_land"):
        for line in parts(feature["geometry"]):
            layers["countries"].append((0.0, line))
    for feature in read(source, "ne_50m_admin_1_states_provinces_lines"):
        zoom = max(STATE_MIN_ZOOM, feature["properties"].get("min_zoom") or 0.0)
        for line in parts(feature["geometry"]):
            layers["states"].append((zoom, line))
    return layers


def simplify(points, tolerance):
    """Douglas–Peucker: the points within `tolerance` of the line through their kept neighbours are dropped."""
    if len(points) < 3:
        return list(points)
    keep = [False] * len(points)
    keep[0] = keep[-1] = True
    stack = [(0, len(points) - 1)]
    limit = tolerance * tolerance
    while stack:
        first, last = stack.pop()
        ax, ay = points[first]
        bx, by = points[last]
        dx, dy = bx - ax, by - ay
        length = dx * dx + dy * dy
        farthest, index = -1.0, -1
        for i in range(first + 1, last):
            px, py = points[i]
            if length == 0:
                distance = (px - ax) ** 2 + (py - ay) ** 2
            else:
                cross = (px - ax) * dy - (py - ay) * dx
                distance = cross * cross / length
            if distance > farthest:
                farthest, index = distance, i
        if farthest > limit:
            keep[index] = True
            stack.append((first, index))
            stack.append((index, last))
    return [p for p, k in zip(points, keep) if k]


def prepare(layers, band):
    """The band's features: simplified, in integer units, tiny rings and lines dropped."""
    top = band[1]
    bits = 8 + top + STEPS_PER_PIXEL_BITS
    scale = float(1 << bits)
    units_per_px = scale / (256 * (1 << top))
    tolerance = TOLERANCE_PX * units_per_px
    prepared = {}
    for name in LAYERS:
        polygon = name in POLYGON_LAYERS
        features = []
        for zoom, rings in layers[name]:
            if zoom > top:
                continue
            kept = []
            for ring in rings:
                scaled = [(x * scale, y * scale) for x, y in ring]
                simplified = simplify(scaled, tolerance)
                points = []
                for x, y in simplified:
                    p = (int(round(x)), int(round(y)))
                    if not points or points[-1] != p:
                        points.append(p)
                if polygon:
                    if len(points) > 1 and points[0] == points[-1]:
                        points.pop()
                    xs, ys = [p[0] for p in points], [p[1] for p in points]
                    # A ring under a pixel either way is a speck at the band's top zoom.
                    if len(points) < 3 or (max(xs) - min(xs) < units_per_px and max(ys) - min(ys) < units_per_px):
                        continue
                elif len(points) < 2:
                    continue
                kept.append(points)
            if kept:
                features.append((zoom, kept))
        prepared[name] = features
    return bits, prepared


def crossing(a, b, axis, value):
    t = (value - a[axis]) / (b[axis] - a[axis])
    other = int(round(a[1 - axis] + t * (b[1 - axis] - a[1 - axis])))
    return (value, other) if axis == 0 else (other, value)


def clip_ring(ring, axis, value, low):
    """Sutherland–Hodgman against one half-plane; the seams it leaves along the cut enclose no area."""
    out = []
    prev = ring[-1]
    prev_in = prev[axis] <= value if low else prev[axis] >= value
    for cur in ring:
        cur_in = cur[axis] <= value if low else cur[axis] >= value
        if cur_in != prev_in:
            p = crossing(prev, cur, axis, value)
            if not out or out[-1] != p:
                out.append(p)
        if cur_in and (not out or out[-1] != cur):
            out.append(cur)
        prev, prev_in = cur, cur_in
    if len(out) > 1 and out[0] == out[-1]:
        out.pop()
    return out if len(out) >= 3 else None


def split_line(line, axis, value):
    """The line's pieces at or below `value` on `axis`, and those above; a crossing point ends one, starts the other."""
    low, high = [], []
    piece = [line[0]]
    side = line[0][axis] <= value
    for cur in line[1:]:
        cur_side = cur[axis] <= value
        if cur_side != side:
            p = crossing(piece[-1], cur, axis, value)
            if piece[-1] != p:
                piece.append(p)
            (low if side else high).append(piece)
            piece = [p]
            side = cur_side
        if piece[-1] != cur:
            piece.append(cur)
    (low if side else high).append(piece)
    return [p for p in low if len(p) >= 2], [p for p in high if len(p) >= 2]


def split(features, polygon, axis, value):
    low, high = [], []
    for zoom, rings in features:
        lows, highs = [], []
        for ring in rings:
            coords = [p[axis] for p in ring]
            if max(coords) <= value:
                lows.append(ring)
            elif min(coords) >= value if polygon else min(coords) > value:
                highs.append(ring)
            elif polygon:
                a, b = clip_ring(ring, axis, value, True), clip_ring(ring, axis, value, False)
                if a:
                    lows.append(a)
                if b:
                    highs.append(b)
            else:
                a, b = split_line(ring, axis, value)
                lows += a
                highs += b
        if lows:
            low.append((zoom, lows))
        if highs:
            high.append((zoom, highs))
    return low, high


def cells(layers, bits, level):
    """{(column, row): {layer: features}} for the non-empty cells of the 2^level grid."""
    result = {}

    def descend(content, column, row, depth):
        if not any(content.values()):
            return
        if depth == level:
            result[(column, row)] = content
            return
        size = 1 << (bits - depth - 1)
        mid_x, mid_y = (2 * column + 1) * size, (2 * row + 1) * size
        quarters = {(dc, dr): {} for dc in (0, 1) for dr in (0, 1)}
        for name, features in content.items():
            polygon = name in POLYGON_LAYERS
            left, right = split(features, polygon, 0, mid_x)
            for dc, half in ((0, left), (1, right)):
                top, bottom = split(half, polygon, 1, mid_y)
                quarters[(dc, 0)][name] = top
                quarters[(dc, 1)][name] = bottom
        for (dc, dr), quarter in quarters.items():
            descend(quarter, 2 * column + dc, 2 * row + dr, depth + 1)

    descend(layers, 0, 0, 0)
    return result


def varint(value, out):
    while value >= 0x80:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)


def zigzag(value):
    return value * 2 if value >= 0 else -value * 2 - 1


def encode_cell(content, origin):
    out = bytearray()
    x, y = origin
    for name in LAYERS:
        features = sorted(content.get(name, []), key=lambda f: f[0])
        varint(len(features), out)
        for zoom, rings in features:
            varint(int(round(zoom * 10)), out)
            varint(len(rings), out)
            for ring in rings:
                varint(len(ring), out)
                for px, py in ring:
                    varint(zigzag(px - x), out)
                    varint(zigzag(py - y), out)
                    x, y = px, py
    return bytes(out)


def encode_places(source):
    places = []
    for feature in read(source, "ne_10m_populated_places_simple"):
        p = feature["properties"]
        longitude, latitude = p["longitude"], p["latitude"]
        # One record (Oymyakon) has 0, 0 in its attributes and its place in its geometry; the attributes are the
        # labelling point everywhere else, within a few kilometres of the geometry.
        if (longitude, latitude) == (0, 0) and feature["geometry"]["coordinates"][:2] != [0, 0]:
            longitude, latitude = feature["geometry"]["coordinates"][:2]
        x, y = project(longitude, latitude)
        places.append((p.get("min_zoom") or 0.0, -(p.get("pop_max") or 0), p["name"], x, y))
    places.sort(key=lambda p: (p[0], p[1], p[2]))
    out = bytearray()
    varint(len(places), out)
    for zoom, _, name, x, y in places:
        out.append(int(round(zoom * 10)))
        varint(min((1 << 24) - 1, int(round(x * (1 << 24)))), out)
        varint(min((1 << 24) - 1, int(round(y * (1 << 24)))), out)
        encoded = name.encode("utf-8")
        varint(len(encoded), out)
        out += encoded
    return bytes(out), len(places)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(os.path.dirname(here))
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--source", default="/work/shared/data/naturalearth-10m")
    parser.add_argument("--output", default=os.path.join(root, "Sources/CDeclutterResources/Basemap/basemap.bin"))
    args = parser.parse_args()
    layers = load(args.source)
    header = bytearray(b"DCBM") + bytes([1, len(BANDS)])
    index_size = len(header) + sum(8 for _ in BANDS) + 8
    bands = []
    for band in BANDS:
        bits, prepared = prepare(layers, band)
        level = max(0, band[1] - CELL_TILES_BITS)
        grid = cells(prepared, bits, level)
        size = 1 << (bits - level)
        encoded = []
        for (column, row) in sorted(grid):
            raw = encode_cell(grid[(column, row)], (column * size, row * size))
            encoded.append((column, row, zlib.compress(raw, 9), len(raw)))
        index_size += 20 * len(encoded)
        bands.append((band, bits, level, encoded))
        points = sum(len(r) for fs in prepared.values() for _, rings in fs for r in rings)
        print("band %d-%d: %d points, %d cells, %d bytes (%d before zlib)" % (
            band[0], band[1], points, len(encoded), sum(len(e[2]) for e in encoded), sum(e[3] for e in encoded)))
    places, count = encode_places(args.source)
    data = bytearray()
    index = bytearray(header)
    for (low, high), bits, level, encoded in bands:
        index += struct.pack("<BBBBI", low, high, level, bits, len(encoded))
        for column, row, blob, raw in encoded:
            index += struct.pack("<IIIII", column, row, len(data), len(blob), raw)
            data += blob
    index += struct.pack("<II", len(data), len(places))
    data += places
    assert len(index) == index_size
    with open(args.output, "wb") as f:
        f.write(bytes(index) + bytes(data))
    print("places: %d, %d bytes; %s: %d bytes" % (count, len(places), args.output, len(index) + len(data)))


if __name__ == "__main__":
    main()
