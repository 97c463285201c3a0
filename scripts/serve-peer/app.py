"""The peer `declutter bench serve --peer` measures: py-staticmaps drawing a dataset's points as its markers.

A Flask app for gunicorn. It answers `GET /datasets/NAME/static/LON,LAT,ZOOM/WxH` with a PNG, the path that
`declutter serve` answers for a dataset, so that one URL measures both. The points come from the CSV named by
SERVE_PEER_POINTS (`lat,lon` columns) under the name SERVE_PEER_DATASET (default `bench`), read once per worker.
SERVE_PEER_RENDERER chooses py-staticmaps' renderer: `cairo` (the default: anti-aliased, with the library Declutter
draws with) or `pillow` (not anti-aliased).

Every point is drawn as py-staticmaps' own marker (a red pin, size 10): py-staticmaps neither clusters nor keeps
markers apart. No tiles: the library's `tile_provider_None` makes no request, so the map is its background colour
under the markers (this machine has no network, and a comparison that fetched tiles would measure the tile server).
"""

import csv
import io
import math
import os

import s2sphere
import staticmaps
from flask import Flask, Response, jsonify

MAXIMUM_SIZE = 1280


def read_points(path):
    with open(path, newline="", encoding="utf-8") as file:
        return [s2sphere.LatLng.from_degrees(float(row["lat"]), float(row["lon"])) for row in csv.DictReader(file)]


DATASET = os.environ.get("SERVE_PEER_DATASET", "bench")
POINTS = read_points(os.environ["SERVE_PEER_POINTS"])
BACKGROUND = staticmaps.Color(0xF2, 0xEF, 0xE9)
RENDERER = os.environ.get("SERVE_PEER_RENDERER", "cairo")
# With SERVE_PEER_IN_VIEW=1 only the points within the map (and a pin's height around it) become pins, found through a
# grid made at start, as a user of py-staticmaps with a large dataset would crop it: `declutter bench serve --zooms`
# sets it for its 100,000+ points.
IN_VIEW = os.environ.get("SERVE_PEER_IN_VIEW") == "1"
if RENDERER not in ("cairo", "pillow"):
    raise SystemExit(f"SERVE_PEER_RENDERER must be cairo or pillow, got {RENDERER!r}")

app = Flask(__name__, static_folder=None)


def bad(field, message, status=400):
    response = jsonify(error=message, field=field)
    response.status_code = status
    return response


GRID = 256


def world(latlng):
    """A point's Web Mercator position in 0…1 (x east, y south)."""
    sine = min(max(math.sin(latlng.lat().radians), -0.9999), 0.9999)
    return (latlng.lng().degrees + 180) / 360, 0.5 - math.log((1 + sine) / (1 - sine)) / (4 * math.pi)


def grid(points):
    """The points bucketed by a 256×256 grid over the world, each with its world position, so that a map looks only at
    the buckets it covers."""
    cells = {}
    for point in points:
        x, y = world(point)
        key = (min(GRID - 1, max(0, int(x * GRID))), min(GRID - 1, max(0, int(y * GRID))))
        cells.setdefault(key, []).append((x, y, point))
    return cells


def in_view(cells, center, zoom, width, height, margin=40):
    """The points whose position at `zoom` lies within the map of `width`×`height` around `center`, grown by `margin`
    pixels, the world repeating east and west."""
    size = 256 * 2**zoom
    cx, cy = world(center)
    half_width, half_height = (width / 2 + margin) / size, (height / 2 + margin) / size
    if half_width >= 0.5:
        columns = range(GRID)
    else:
        columns = {(column % GRID) for column in range(int((cx - half_width) * GRID) - 1, int((cx + half_width) * GRID) + 2)}
    rows = range(max(0, int((cy - half_height) * GRID) - 1), min(GRID, int((cy + half_height) * GRID) + 2))
    kept = []
    for column in columns:
        for row in rows:
            for x, y, point in cells.get((column, row), ()):
                dx = (x - cx + 0.5) % 1 - 0.5
                if abs(dx) <= half_width and abs(y - cy) <= half_height:
                    kept.append(point)
    return kept


CELLS = grid(POINTS) if IN_VIEW else {}


@app.get("/health")
def health():
    return jsonify(points=len(POINTS))


@app.get("/datasets/<name>/static/<camera>/<size>")
def static_map(name, camera, size):
    if name != DATASET:
        return bad("dataset", f"no dataset {name!r}", 404)
    try:
        longitude, latitude, zoom = camera.split(",")
        center = s2sphere.LatLng.from_degrees(float(latitude), float(longitude))
        # The URL's zoom counts Mapbox's 512-pixel tiles, as Declutter's does; py-staticmaps counts 256-pixel ones.
        zoom = int(zoom) + 1
    except ValueError:
        return bad("camera", "expected LON,LAT,ZOOM with a whole zoom")
    try:
        width, height = (int(side) for side in size.split("x"))
    except ValueError:
        return bad("size", "expected WIDTHxHEIGHT")
    if not (1 <= width <= MAXIMUM_SIZE and 1 <= height <= MAXIMUM_SIZE):
        return bad("size", f"width and height must be in 1…{MAXIMUM_SIZE}", 422)

    context = staticmaps.Context()
    context.set_tile_provider(staticmaps.tile_provider_None)
    context.set_background_color(BACKGROUND)
    context.set_center(center)
    context.set_zoom(zoom)
    for point in in_view(CELLS, center, zoom, width, height) if IN_VIEW else POINTS:
        context.add_object(staticmaps.Marker(point))
    png = io.BytesIO()
    if RENDERER == "cairo":
        context.render_cairo(width, height).write_to_png(png)
    else:
        context.render_pillow(width, height).save(png, format="PNG")
    return Response(png.getvalue(), mimetype="image/png")
