#!/usr/bin/env python3
"""Checks what check.html saw against what the tile set holds, for scripts/maplibre-check.

    python3 verify.py --site SITE --report REPORT.json

Fails (exit 1, one line per problem) when the page reported an error, a console warning or an image missing from
the sprite sheet, or when the icons MapLibre drew are not the tile set's: it decodes the Mapbox Vector Tiles that
cover the camera (at the zoom MapLibre requests: the map's zoom rounded down, within the source's zooms), keeps each
point whose tile is its home (MapLibre draws a symbol only from the tile its anchor falls in) and whose anchor is in
the viewport, and expects exactly those sprites, each drawn once, at its point to within half a pixel, by the
cluster layer when `cluster` is true and the marker layer otherwise; and the page must have loaded the sprite sheet
of its pixel ratio (sprite@2x.json and .png above 1). With --dense, besides: no two drawn icons may overlap by more
than a pixel of their opaque ink, and each cluster must read its abbreviated count. With --color LNG,LAT,#RRGGBB
(repeatable), the screenshot must have that colour within a few pixels of the coordinate (the basemap's land or sea
where it lies), and with --places N the basemap must name at least N places in view. The cluster tiles are the
style's vector source other than `basemap`. The standard library decodes the tiles (no protobuf package); Pillow
reads the sprite sheet for --dense and the screenshot for --color.
"""

import argparse
import gzip
import json
import math
import os
import struct
import sys
import urllib.parse

# Half a pixel: both sides project the same quantised tile coordinates, so only float rounding separates them.
POSITION_TOLERANCE = 0.5


def varint(data, offset):
    """A protobuf varint and the offset after it."""
    result = shift = 0
    while True:
        byte = data[offset]
        offset += 1
        result |= (byte & 0x7F) << shift
        if byte < 0x80:
            return result, offset
        shift += 7


def fields(data):
    """Yields (field number, wire type, value) for a protobuf message; length-delimited values as bytes."""
    offset = 0
    while offset < len(data):
        key, offset = varint(data, offset)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, offset = varint(data, offset)
        elif wire == 1:
            value, offset = data[offset:offset + 8], offset + 8
        elif wire == 2:
            length, offset = varint(data, offset)
            value, offset = data[offset:offset + length], offset + length
        elif wire == 5:
            value, offset = data[offset:offset + 4], offset + 4
        else:
            raise ValueError("unsupported protobuf wire type %d" % wire)
        yield number, wire, value


def packed(data):
    """The varints of a packed repeated field."""
    values, offset = [], 0
    while offset < len(data):
        value, offset = varint(data, offset)
        values.append(value)
    return values


def zigzag(value):
    return (value >> 1) ^ -(value & 1)


def tile_value(data):
    """A vector tile Value message as a Python value."""
    for number, wire, value in fields(data):
        if number == 1:
            return value.decode("utf-8")
        if number == 2:
            return struct.unpack("<f", value)[0]
        if number == 3:
            return struct.unpack("<d", value)[0]
        if number in (4, 5):
            return value
        if number == 6:
            return zigzag(value)
        if number == 7:
            return bool(value)
    return None


def decode_points(data, layer_name):
    """The points of one layer of a vector tile: (x, y, properties, extent) per point of each point feature."""
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    points = []
    for number, _, layer in fields(data):
        if number != 3:
            continue
        name, keys, values, features, extent = None, [], [], [], 4096
        for field, _, value in fields(layer):
            if field == 1:
                name = value.decode("utf-8")
            elif field == 2:
                features.append(value)
            elif field == 3:
                keys.append(value.decode("utf-8"))
            elif field == 4:
                values.append(tile_value(value))
            elif field == 5:
                extent = value
        if name != layer_name:
            continue
        for feature in features:
            tags, kind, geometry = [], 0, []
            for field, _, value in fields(feature):
                if field == 2:
                    tags = packed(value)
                elif field == 3:
                    kind = value
                elif field == 4:
                    geometry = packed(value)
            if kind != 1:  # POINT only: the tile set holds markers and clusters.
                continue
            properties = {keys[tags[i]]: values[tags[i + 1]] for i in range(0, len(tags) - 1, 2)}
            x = y = index = 0
            while index < len(geometry):
                command, count = geometry[index] & 7, geometry[index] >> 3
                index += 1
                for _ in range(count):
                    if command == 1:
                        x += zigzag(geometry[index])
                        y += zigzag(geometry[index + 1])
                        points.append((x, y, properties, extent))
                    index += 2 if command in (1, 2) else 0
    return points


def world_pixel(longitude, latitude, world_size):
    """Web Mercator pixel of a coordinate in a world `world_size` pixels wide, as MapLibre projects it."""
    x = (longitude + 180) / 360 * world_size
    sine = math.sin(math.radians(latitude))
    y = (0.5 - math.log((1 + sine) / (1 - sine)) / (4 * math.pi)) * world_size
    return x, y


def local_path(url, base, site):
    """The file under the site folder that a served URL names."""
    if not url.startswith(base):
        raise ValueError("%s is not under the served folder %s" % (url, base))
    return os.path.join(site, urllib.parse.unquote(url[len(base):]))


def source_of(site, base):
    """The style's clusters' vector source as (tile template, minzoom, maxzoom, source layer used by the symbol layers):
    its one vector source besides the basemap's."""
    with open(os.path.join(site, "style.json")) as file:
        style = json.load(file)
    sources = [(name, source) for name, source in style["sources"].items()
               if source.get("type") == "vector" and name != "basemap"]
    if len(sources) != 1:
        raise ValueError("style.json: expected one vector source, found %d" % len(sources))
    name, source = sources[0]
    if "url" in source:
        if source["url"].startswith("pmtiles://"):
            raise ValueError("style.json: a PMTiles source cannot be checked here; use a folder tile set")
        with open(local_path(source["url"], base, site)) as file:
            source = {**json.load(file), **{k: v for k, v in source.items() if k != "url"}}
    layers = {layer.get("source-layer") for layer in style["layers"] if layer.get("source") == name and layer["type"] == "symbol"}
    if len(layers) != 1:
        raise ValueError("style.json: expected the symbol layers to read one source layer, found %s" % sorted(map(str, layers)))
    return source["tiles"][0], int(source.get("minzoom", 0)), int(source.get("maxzoom", 22)), layers.pop()


def expected_icons(site, base, camera):
    """The points the tile set puts in the viewport at the camera: [(sprite, cluster, x, y)] in screen pixels."""
    template, minimum_zoom, maximum_zoom, layer = source_of(site, base)
    width, height, zoom = camera["width"], camera["height"], camera["zoom"]
    tile_zoom = int(min(max(math.floor(zoom), minimum_zoom), maximum_zoom))
    world = 512 * 2 ** zoom  # MapLibre's vector tiles are 512 px at their own zoom.
    center_x, center_y = world_pixel(camera["longitude"], camera["latitude"], world)
    left, top = center_x - width / 2, center_y - height / 2
    tile_size = world / 2 ** tile_zoom
    icons = []
    for tile_x in range(int(left // tile_size), int((left + width) // tile_size) + 1):
        for tile_y in range(int(top // tile_size), int((top + height) // tile_size) + 1):
            if not 0 <= tile_y < 2 ** tile_zoom:
                continue
            url = template.replace("{z}", str(tile_zoom)).replace("{x}", str(tile_x % 2 ** tile_zoom)).replace("{y}", str(tile_y))
            path = local_path(url, base, site)
            if not os.path.exists(path):
                continue  # An empty tile may be left out of a folder tile set.
            with open(path, "rb") as file:
                points = decode_points(file.read(), layer)
            for x, y, properties, extent in points:
                if not (0 <= x < extent and 0 <= y < extent):
                    continue  # In the tile's buffer: drawn from its neighbour.
                screen_x = (tile_x + x / extent) * tile_size - left
                screen_y = (tile_y + y / extent) * tile_size - top
                if 0 <= screen_x < width and 0 <= screen_y < height:
                    icons.append((properties.get("sprite"), properties.get("cluster") is True, screen_x, screen_y))
    return icons, tile_zoom


def abbreviated(count):
    """The count as the static icons print it (CountFormatter.abbreviated): 999, 1k, 1.2k, 12k, 1.2M, 12M."""
    def round_half_up(value):  # JavaScript's Math.round
        return math.floor(value + 0.5)

    def one_decimal(tenths):
        rounded = round_half_up(tenths)
        return str(rounded // 10) if rounded % 10 == 0 else "%d.%d" % (rounded // 10, rounded % 10)

    if count >= 10_000_000:
        return "%dM" % round_half_up(count / 1_000_000)
    if count >= 1_000_000:
        return one_decimal(count / 100_000) + "M"
    if count >= 10_000:
        return "%dk" % round_half_up(count / 1_000)
    if count >= 1_000:
        return one_decimal(count / 100) + "k"
    return str(count)


def overlapping_icons(site, drawn, camera):
    """Pairs of drawn icons whose opaque pixels overlap by more than a pixel: [(a, b, shared pixels)].

    Each icon is its image from the sprite sheet of the camera's pixel ratio, placed where MapLibre draws it (its
    layer's icon-anchor and icon-offset), in device pixels. A pixel is the icon's when its alpha is at least half, the
    edge of the icon as a person sees it; anti-aliased fringes and soft shadows below that do not count. Two icons
    overlap when their opaque pixels still meet with the second moved one pixel further from the first along the line
    between their centres: the pixel grid rounds their offset by up to half a pixel each way, which alone would make
    icons that touch within the placement's half-pixel tolerance share a pixel.
    """
    from PIL import Image  # Pillow: from the venv of scripts/python-requirements.txt

    ratio = camera.get("pixelRatio", 1)
    suffix = "@2x" if ratio > 1 else ""
    with open(os.path.join(site, "sprite%s.json" % suffix)) as file:
        sheet = json.load(file)
    alpha = Image.open(os.path.join(site, "sprite%s.png" % suffix)).convert("RGBA").getchannel("A")
    with open(os.path.join(site, "style.json")) as file:
        layouts = {layer["id"]: layer.get("layout", {}) for layer in json.load(file)["layers"]}
    opaque = {}  # sprite name -> set of (column, row) of its opaque pixels
    icons = []  # (feature, left, top, width, height, opaque pixels) in device pixels
    for feature in drawn:
        entry = sheet.get(feature["sprite"])
        if entry is None:
            continue  # reported as a missing image
        if feature["sprite"] not in opaque:
            pixels = alpha.crop((entry["x"], entry["y"], entry["x"] + entry["width"], entry["y"] + entry["height"])).load()
            opaque[feature["sprite"]] = {(column, row) for row in range(entry["height"]) for column in range(entry["width"])
                                         if pixels[column, row] >= 128}
        layout = layouts.get(feature["layer"], {})
        anchor = layout.get("icon-anchor", "center")
        offset = layout.get("icon-offset", [0, 0])
        width, height = entry["width"], entry["height"]  # the sheet of this ratio: device pixels already
        left = (feature["x"] + offset[0]) * ratio - width / 2
        top = (feature["y"] + offset[1]) * ratio - (height if "bottom" in anchor else 0 if "top" in anchor else height / 2)
        icons.append((feature, left, top, width, height, opaque[feature["sprite"]]))
    found = []
    for a, (feature_a, left_a, top_a, width_a, height_a, pixels_a) in enumerate(icons):
        for feature_b, left_b, top_b, width_b, height_b, pixels_b in icons[a + 1:]:
            if left_b >= left_a + width_a or left_a >= left_b + width_b or top_b >= top_a + height_a or top_a >= top_b + height_b:
                continue
            across = (left_b + width_b / 2) - (left_a + width_a / 2)
            down = (top_b + height_b / 2) - (top_a + height_a / 2)
            length = math.hypot(across, down) or 1
            shift_x = round(left_b - left_a + across / length)
            shift_y = round(top_b - top_a + down / length)
            shared = sum(1 for column, row in pixels_b if (column + shift_x, row + shift_y) in pixels_a)
            if shared:
                found.append((feature_a, feature_b, shared))
    return found


def distinct(features):
    """The features without MapLibre's repeats: a feature in view on two copies of the world at once, or from two
    tiles' buffers, comes back once per copy, with one position after check.html's wrap to the copy in view."""
    seen, kept = set(), []
    for feature in features:
        key = (feature["layer"], feature["sprite"], round(feature["x"], 2), round(feature["y"], 2))
        if key not in seen:
            seen.add(key)
            kept.append(feature)
    return kept


COLOR_RADIUS = 8
COLOR_TOLERANCE = 3


def color_problem(screenshot, camera, wanted):
    """Why the screenshot (the PNG beside the report) lacks colour `wanted` (`LNG,LAT,#RRGGBB`) near that coordinate,
    or None when it has it."""
    from PIL import Image  # Pillow, as for --dense.

    longitude, latitude, color = wanted.split(",")
    longitude, latitude = float(longitude), float(latitude)
    target = tuple(int(color[i:i + 2], 16) for i in (1, 3, 5))
    image = Image.open(screenshot).convert("RGB")
    ratio = camera.get("pixelRatio", 1)
    world = 512 * 2 ** camera["zoom"]
    center_x, center_y = world_pixel(camera["longitude"], camera["latitude"], world)
    x, y = world_pixel(longitude, latitude, world)
    px, py = (x - center_x + camera["width"] / 2) * ratio, (y - center_y + camera["height"] / 2) * ratio
    radius = COLOR_RADIUS * ratio
    seen = None
    for dy in range(-radius, radius + 1):
        for dx in range(-radius, radius + 1):
            ix, iy = int(px) + dx, int(py) + dy
            if 0 <= ix < image.width and 0 <= iy < image.height:
                pixel = image.getpixel((ix, iy))
                if dx == 0 and dy == 0:
                    seen = pixel
                if all(abs(a - b) <= COLOR_TOLERANCE for a, b in zip(pixel, target)):
                    return None
    return "no pixel of %s within %d px of %g,%g (%.0f, %.0f); it is #%02x%02x%02x there" % (
        color, COLOR_RADIUS, longitude, latitude, px, py, *(seen or (0, 0, 0)))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--site", required=True)
    parser.add_argument("--report", required=True)
    parser.add_argument("--base", required=True, help="the URL the site was served at, ending in /")
    parser.add_argument("--color", action="append", default=[], metavar="LNG,LAT,#RRGGBB",
                        help="fail unless a pixel within %d px of the coordinate has the colour (to within %d a channel): "
                        "the basemap's land or sea where no icon covers all of that" % (COLOR_RADIUS, COLOR_TOLERANCE))
    parser.add_argument("--places", type=int, default=0, metavar="N",
                        help="fail when the basemap names fewer than N places in view")
    parser.add_argument("--dense", action="store_true",
                        help="also fail on icons whose opaque pixels overlap and on cluster text that is not the abbreviated count")
    arguments = parser.parse_args()
    with open(arguments.report) as file:
        report = json.load(file)
    problems = ["page error: %s" % text for text in report.get("errors", [])]
    problems += ["console warning: %s" % text for text in report.get("warnings", [])]
    problems += ["image missing from the sprite sheet: %s" % name for name in report.get("missingImages", [])]

    # The goldens are SwiftShader's pixels; a GPU's would differ in anti-aliasing and fail them for no fault.
    if "SwiftShader" not in str(report.get("renderer")):
        problems.append("WebGL ran on %s, not SwiftShader: the goldens hold SwiftShader's pixels" % report.get("renderer"))
    camera = report.get("camera")
    if camera is None:
        problems.append("the page reported no camera")
    else:
        expected, tile_zoom = expected_icons(arguments.site, arguments.base, camera)
        drawn = distinct([feature for feature in report.get("features", [])
                          if 0 <= feature["x"] < camera["width"] and 0 <= feature["y"] < camera["height"]])
        if not expected:
            problems.append("the tile set holds no icon in the viewport at zoom %d: the camera misses the data" % tile_zoom)
        remaining = list(drawn)
        for sprite, cluster, x, y in expected:
            match = next((feature for feature in remaining if feature["sprite"] == sprite
                          and abs(feature["x"] - x) <= POSITION_TOLERANCE and abs(feature["y"] - y) <= POSITION_TOLERANCE), None)
            if match is None:
                problems.append("not drawn: %s at (%.1f, %.1f)" % (sprite, x, y))
                continue
            remaining.remove(match)
            layer = "clusters" if cluster else "markers"
            if match["layer"] != layer:
                problems.append("%s at (%.1f, %.1f) drawn by layer %s, expected %s" % (sprite, x, y, match["layer"], layer))
        for feature in remaining:
            problems.append("drawn but not in the tiles: %s at (%.1f, %.1f) in layer %s"
                            % (feature["sprite"], feature["x"], feature["y"], feature["layer"]))
        # MapLibre picks the sheet by pixel ratio: @2x above 1, else the plain one.
        sheet = "@2x" if camera.get("pixelRatio", 1) > 1 else ""
        # A server's sheet may carry a query (`sprite.json?dataset=NAME`): the file is what comes before it.
        loaded = {url.split("?", 1)[0].rsplit("/", 1)[-1] for url in report.get("resources", [])}
        for wanted in ("sprite%s.json" % sheet, "sprite%s.png" % sheet):
            if wanted not in loaded:
                problems.append("at pixel ratio %g the page did not load %s (loaded: %s)"
                                % (camera.get("pixelRatio", 1), wanted, ", ".join(sorted(loaded))))
        if arguments.dense:
            for a, b, pixels in overlapping_icons(arguments.site, drawn, camera):
                problems.append("icons overlap by %d px: %s at (%.1f, %.1f) and %s at (%.1f, %.1f)"
                                % (pixels, a["sprite"], a["x"], a["y"], b["sprite"], b["x"], b["y"]))
            for feature in drawn:
                wanted = abbreviated(feature["count"]) if feature["cluster"] is True and feature["count"] else None
                text = feature["text"]
                if isinstance(text, (int, float)) and not isinstance(text, bool):
                    text = "%d" % text if text == int(text) else str(text)  # as MapLibre prints a number
                if text != wanted:
                    problems.append("%s at (%.1f, %.1f) reads %r, expected %r" % (feature["sprite"], feature["x"], feature["y"],
                                                                                  feature["text"], wanted))
        for wanted in arguments.color:
            problem = color_problem(os.path.splitext(arguments.report)[0] + ".png", camera, wanted)
            if problem:
                problems.append(problem)
        places = report.get("placeNames", [])
        if len(places) < arguments.places:
            problems.append("the basemap names %d places in view, expected at least %d" % (len(places), arguments.places))
        clusters = sum(1 for icon in expected if icon[1])
        counted = sum(feature["count"] or 1 if feature["cluster"] is True else 1 for feature in drawn)
        print("maplibre-check: the z%d tiles hold %d icons in view (%d clusters, %d markers); MapLibre %s drew %d, counting %d points (WebGL: %s)"
              % (tile_zoom, len(expected), clusters, len(expected) - clusters, report.get("maplibreVersion"), len(drawn),
                 counted, report.get("renderer")))
    for problem in problems:
        print("maplibre-check: %s" % problem, file=sys.stderr)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
