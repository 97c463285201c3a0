#!/usr/bin/env python3
"""Reads tilesets written by `declutter tiles` with readers that share no code with Declutter, for
scripts/tiles-consumers. Prints one line per check passed; on a failure, the problems on stderr and exit 1.

    check.py cluster --declutter BIN --input FILE --folder DIR --max-zoom Z [--brute-force-to 4] [--min-buffered N]
                     [-- CLUSTER OPTIONS…]
        Every tile of the folder, decoded by mapbox-vector-tile, holds exactly what `declutter cluster --tile z/x/y
        --tile-extent 4096 --buffer 64` prints (features, order, positions, ids, properties; the tile adds `sprite` and
        `clustering_identifier`). At zooms up to --brute-force-to the written tiles are exactly those of the 4^z that
        `cluster --tile` finds non-empty; above, exactly those that the features of `cluster --zoom z` fall in (with
        the buffer), a rule checked against the brute force at the low zooms first. With --min-buffered N, fewer than
        N features in tiles' buffers (beyond their edges) is a failure: the data no longer tries the buffer.
    check.py formats --folder DIR --mbtiles FILE --pmtiles FILE --input CSV --min-zoom A --max-zoom B
        The PMTiles archive (read by the pmtiles package) and the MBTiles file (read by sqlite3) hold the folder's tiles
        byte for byte after gunzip, no more and no fewer; their headers, metadata and tiles.json say what they must.
    check.py sprites --tiles DIR --sprite PREFIX
        Every feature's `sprite` is in PREFIX.json and PREFIX@2x.json; every cluster has point_count ≥ 2 and its
        category counts (the categories are the sheet's `marker-NAME` icons) sum to point_count.
    check.py served --base URL --pmtiles FILE --mbtiles FILE
        `declutter serve --tileset pm=FILE.pmtiles --tileset mb=FILE.mbtiles` at URL: the pmtiles package reads the
        archive through the server's byte ranges (/tilesets/pm.pmtiles) and finds every tile of the file, byte for
        byte; every tile of both archives (zooms 0–5; every fifth above) comes from /tiles/{pm,mb}/{z}/{x}/{y}.mvt as stored (gzip, with
        Content-Encoding) to a client that takes gzip and inflated to one that does not; a tile the archive lacks is
        204; ranges past the end are 416; TileJSON states the archive's zooms and bounds.
    check.py derive-colours --input CSV --style STYLE.json --output CSV
        The CSV with a `colour` column naming the style's categories by country, for `cluster` above.
"""
import argparse
import concurrent.futures
import csv
import gzip
import json
import math
import os
import sqlite3
import subprocess
import sys

import mapbox_vector_tile
from mapbox_vector_tile.Mapbox import vector_tile_pb2
from pmtiles.reader import MmapSource, Reader, all_tiles
from pmtiles.tile import Compression, TileType

EXTENT = 4096
BUFFER = 64
problems = []


def problem(text):
    problems.append(text)


def finish(summary):
    """Prints the summary, or the problems (the first 30) and exits 1."""
    if problems:
        for text in problems[:30]:
            print(f"tiles-consumers: {text}", file=sys.stderr)
        if len(problems) > 30:
            print(f"tiles-consumers: … and {len(problems) - 30} more problems", file=sys.stderr)
        sys.exit(1)
    print(f"tiles-consumers: {summary}")


def folder_tiles(folder):
    """{(z, x, y): bytes} of a folder tileset's {z}/{x}/{y}.pbf; any other .pbf is a problem, but for the glyph
    ranges in glyphs/{fontstack}/{range}.pbf."""
    tiles = {}
    for root, directories, files in os.walk(folder):
        if root == folder and "glyphs" in directories:
            directories.remove("glyphs")
        for name in files:
            if not name.endswith(".pbf"):
                continue
            path = os.path.join(root, name)
            parts = os.path.relpath(path, folder)[: -len(".pbf")].split(os.sep)
            try:
                z, x, y = (int(part) for part in parts)
            except ValueError:
                problem(f"{path}: not a {{z}}/{{x}}/{{y}}.pbf tile")
                continue
            if not (0 <= x < 2 ** z and 0 <= y < 2 ** z):
                problem(f"{path}: tile {z}/{x}/{y} outside zoom {z}'s grid")
            with open(path, "rb") as handle:
                tiles[(z, x, y)] = handle.read()
    return tiles


def decode(data, name):
    """The features of a tile's one layer: [(x, y, id or None, properties)], decoded by mapbox-vector-tile; ids are
    read again with its protobuf classes, which tell a missing id from 0."""
    layers = mapbox_vector_tile.decode(data, default_options={"y_coord_down": True})
    if list(layers) != ["points"]:
        raise ValueError(f"{name}: layers {sorted(layers)}, expected one, points")
    layer = layers["points"]
    if layer["extent"] != EXTENT or layer.get("version") != 2:
        raise ValueError(f"{name}: extent {layer['extent']} version {layer.get('version')}, expected {EXTENT} and 2")
    message = vector_tile_pb2.tile()
    message.ParseFromString(data)
    raw = message.layers[0].features
    features = []
    for feature, proto in zip(layer["features"], raw):
        geometry = feature["geometry"]
        if geometry["type"] != "Point":
            raise ValueError(f"{name}: a {geometry['type']} feature, expected points only")
        x, y = geometry["coordinates"]
        features.append((x, y, proto.id if proto.HasField("id") else None, feature["properties"]))
    return features


def run(arguments):
    result = subprocess.run(arguments, capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError(f"{' '.join(arguments)} exited with {result.returncode}: {result.stderr.strip()}")
    return json.loads(result.stdout)


def same_value(got, want):
    """A tile's value against getTile JSON's: whole numbers are integers in the tile, others doubles; arrays and
    objects are their compact JSON text."""
    if isinstance(want, bool) or isinstance(got, bool):
        return got is want
    if isinstance(want, (int, float)):
        if not isinstance(got, (int, float)) or float(got) != float(want):
            return False
        return isinstance(got, int) == float(want).is_integer()
    if isinstance(want, (list, dict)):
        return got == json.dumps(want, separators=(",", ":"), ensure_ascii=False)
    return got == want


def compare_tile(name, features, expected):
    """Problems between a decoded tile and `cluster --tile`'s features."""
    if len(features) != len(expected):
        return [f"{name}: {len(features)} features, `cluster --tile` gives {len(expected)}"]
    found = []
    for index, ((x, y, fid, properties), want) in enumerate(zip(features, expected)):
        where = f"{name} feature {index}"
        if want["type"] != 1 or [[x, y]] != want["geometry"]:
            found.append(f"{where}: at {x},{y}, `cluster --tile` gives {want['geometry']}")
        want_id = want.get("id")
        if not (isinstance(want_id, int) and not isinstance(want_id, bool) and want_id >= 0):
            want_id = None
        if fid != want_id:
            found.append(f"{where}: id {fid}, `cluster --tile` gives {want.get('id')}")
        tags = {key: value for key, value in want["tags"].items() if value is not None}
        extra = set(properties) - set(tags)
        if "sprite" not in properties:
            found.append(f"{where}: no sprite")
        if extra - {"sprite", "clustering_identifier"}:
            found.append(f"{where}: properties {sorted(extra - {'sprite', 'clustering_identifier'})} that `cluster --tile` lacks")
        if "clustering_identifier" in extra and tags.get("cluster") is not True:
            found.append(f"{where}: a point with clustering_identifier")
        for key, value in tags.items():
            if key == "sprite":
                continue  # A point's own sprite property is replaced by its icon's name.
            if key not in properties:
                found.append(f"{where}: no {key}, `cluster --tile` gives {value!r}")
            elif not same_value(properties[key], value):
                found.append(f"{where}: {key} = {properties[key]!r}, `cluster --tile` gives {value!r}")
    return found


def mercator(longitude, latitude):
    """supercluster's projection to [0, 1]²."""
    sine = math.sin(latitude * math.pi / 180)
    y = 0.5 - 0.25 * math.log((1 + sine) / (1 - sine)) / math.pi
    return longitude / 360 + 0.5, min(max(y, 0), 1)


def tiles_holding(features, z, slack):
    """The tiles of zoom z whose area widened by the buffer (getTile's query, inclusive) holds a feature;
    slack > 0 widens, < 0 narrows by that much of a tile, for float rounding at the edges."""
    n = 2 ** z
    p = BUFFER / EXTENT + slack
    tiles = set()
    for feature in features:
        longitude, latitude = feature["geometry"]["coordinates"]
        mx, my = mercator(longitude, latitude)
        for y in range(max(math.ceil(my * n - 1 - p), 0), min(math.floor(my * n + p), n - 1) + 1):
            for x in range(math.ceil(mx * n - 1 - p), math.floor(mx * n + p) + 1):
                tiles.add((z, x % n, y))  # getTile takes features across the antimeridian into the edge tiles
    return tiles


def check_cluster(options):
    tiles = folder_tiles(options.folder)
    base = [options.declutter, "cluster", "--input", options.input, "--max-zoom", str(options.max_zoom)] + options.cluster_options

    def tile_features(key):
        z, x, y = key
        return key, run(base + ["--tile", f"{z}/{x}/{y}", "--tile-extent", str(EXTENT), "--buffer", str(BUFFER)])["features"]

    brute = [(z, x, y) for z in range(0, options.brute_force_to + 1) for x in range(2 ** z) for y in range(2 ** z)]
    wanted = set(brute) | set(tiles)
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        expected = dict(pool.map(tile_features, sorted(wanted)))
        zoom_features = dict(pool.map(lambda z: (z, run(base + ["--zoom", str(z)])["features"]),
                                      range(0, options.max_zoom + 1)))

    # Every written tile holds what `cluster --tile` gives for it.
    features = buffered = 0
    for key in sorted(tiles):
        name = "%d/%d/%d.pbf" % key
        try:
            decoded = decode(tiles[key], name)
        except Exception as error:  # noqa: BLE001 — a tile the decoder refuses is a finding, not a crash
            problem(f"{name}: mapbox-vector-tile cannot decode it: {error}")
            continue
        features += len(decoded)
        buffered += sum(1 for x, y, _, _ in decoded if not (0 <= x < EXTENT and 0 <= y < EXTENT))
        if not decoded:
            problem(f"{name}: an empty tile was written")
        for text in compare_tile(name, decoded, expected[key]):
            problem(text)

    # The written tiles are the non-empty ones: by brute force at the low zooms, then by where the features fall.
    non_empty = {key for key in brute if expected[key]}
    low = {key for key in tiles if key[0] <= options.brute_force_to}
    for key in sorted(non_empty - low):
        problem("tile %d/%d/%d: `cluster --tile` gives %d features, but it was not written" % (key + (len(expected[key]),)))
    for key in sorted(low - non_empty):
        problem("tile %d/%d/%d was written, but `cluster --tile` finds it empty" % key)
    checked_rule = 0
    for z in range(0, options.max_zoom + 1):
        certain = tiles_holding(zoom_features[z], z, -1e-9)
        possible = tiles_holding(zoom_features[z], z, 1e-9)
        if z <= options.brute_force_to:
            # The rule must agree with the brute force where both are known.
            truth = {key for key in non_empty if key[0] == z}
            if not certain <= truth <= possible:
                problem(f"zoom {z}: the tiles the features of `cluster --zoom {z}` fall in are not those `cluster --tile` finds non-empty: "
                        f"missing {sorted(certain - truth)[:5]}, extra {sorted(truth - possible)[:5]}")
            checked_rule += len(truth)
            continue
        written = {key for key in tiles if key[0] == z}
        for key in sorted(certain - written):
            problem("tile %d/%d/%d holds features of `cluster --zoom %d`, but it was not written" % (key + (z,)))
        for key in sorted(written - possible):
            problem("tile %d/%d/%d was written, but no feature of `cluster --zoom %d` falls in it" % (key + (z,)))
        for key in sorted((possible - certain) - written):
            if key not in expected:
                expected[key] = tile_features(key)[1]
            if expected[key]:
                problem("tile %d/%d/%d: `cluster --tile` gives features, but it was not written" % key)
    if buffered < options.min_buffered:
        problem(f"{options.folder}: {buffered} features in a tile's buffer, expected at least {options.min_buffered}: "
                "the data no longer tries the buffer")
    zooms = sorted({key[0] for key in tiles})
    finish(f"{options.folder}: {len(tiles)} tiles at zooms {zooms[0] if zooms else '-'}–{zooms[-1] if zooms else '-'}, "
           f"{features} features ({buffered} in a buffer beyond the tile's edge), each tile as `cluster --tile` gives it; the written tiles are the {len(non_empty)} non-empty "
           f"of {len(brute)} at zooms 0–{options.brute_force_to} (brute force) and those the features of `cluster --zoom` "
           f"fall in above ({len(expected)} `cluster --tile` runs)")


def input_bounds(path):
    """(west, south, east, north) of a CSV's lat and lon columns, read here rather than from any output."""
    with open(path, newline="") as handle:
        rows = list(csv.DictReader(handle))
    longitudes = [float(row["lon"]) for row in rows]
    latitudes = [float(row["lat"]) for row in rows]
    return (min(longitudes), min(latitudes), max(longitudes), max(latitudes)), len(rows)


def stated_bounds(west, south, east, north):
    """The bounds a tile set states for points spanning this box: widened on every side by half a tile unit at zoom 0
    (1/8192 of the world in Web Mercator, the most rounding moves a feature), so that a reader requests every tile a
    feature was rounded into. Computed here from the Web Mercator formulas, not taken from any output."""
    def x(lon): return (lon + 180) / 360
    def y(lat): return 0.5 - math.log(math.tan(math.pi / 4 + math.radians(lat) / 2)) / (2 * math.pi)
    def lon(x): return x * 360 - 180
    def lat(y): return math.degrees(2 * math.atan(math.exp((0.5 - y) * 2 * math.pi)) - math.pi / 2)
    limit, margin = 85.051129, 1 / 8192
    return (max(lon(x(west) - margin), -180), max(lat(y(south) + margin), -limit),
            min(lon(x(east) + margin), 180), min(lat(y(north) - margin), limit))


def field_type(values):
    kinds = {"Boolean" if isinstance(v, bool) else "Number" if isinstance(v, (int, float)) else "String" for v in values}
    return kinds.pop() if len(kinds) == 1 else "Mixed"


def check_formats(options):
    folder = folder_tiles(options.folder)
    span, points = input_bounds(options.input)
    west, south, east, north = stated_bounds(*span)
    zooms = range(options.min_zoom, options.max_zoom + 1)
    if not folder:
        problem(f"{options.folder}: no tiles")
    if {key[0] for key in folder} != set(zooms):
        problem(f"{options.folder}: tiles at zooms {sorted({key[0] for key in folder})}, expected every zoom of {list(zooms)}")

    # The fields the tiles hold, and their types, as a reader sees them.
    seen = {}
    for key, data in folder.items():
        for _, _, _, properties in decode(data, "%d/%d/%d.pbf" % key):
            for name, value in properties.items():
                seen.setdefault(name, []).append(value)
    fields = {name: field_type(values) for name, values in seen.items()}

    def check_layers(where, layers):
        if [layer.get("id") for layer in layers] != ["points"]:
            problem(f"{where}: vector_layers {[layer.get('id') for layer in layers]}, expected [points]")
            return
        listed = layers[0].get("fields", {})
        if set(listed) != set(fields):
            problem(f"{where}: vector_layers fields {sorted(listed)}, the tiles hold {sorted(fields)}")
        for name, kind in fields.items():
            if name in listed and listed[name] != kind and listed[name] != "Mixed":
                problem(f"{where}: field {name} listed as {listed[name]}, the tiles hold {kind} values")

    def near(a, b, step):
        return abs(a - b) <= step

    # PMTiles, by the pmtiles package: header, then every folder tile by Reader.get, then nothing more by walking.
    with open(options.pmtiles, "rb") as handle:
        source = MmapSource(handle)
        reader = Reader(source)
        header = reader.header()
        if header["tile_type"] != TileType.MVT or header["tile_compression"] != Compression.GZIP:
            problem(f"{options.pmtiles}: tile type {header['tile_type'].name}, compression {header['tile_compression'].name}, expected MVT and GZIP")
        if (header["min_zoom"], header["max_zoom"]) != (options.min_zoom, options.max_zoom):
            problem(f"{options.pmtiles}: zooms {header['min_zoom']}–{header['max_zoom']}, expected {options.min_zoom}–{options.max_zoom}")
        box = [header[k] / 1e7 for k in ("min_lon_e7", "min_lat_e7", "max_lon_e7", "max_lat_e7")]
        if not all(near(a, b, 1.5e-7) for a, b in zip(box, (west, south, east, north))):
            problem(f"{options.pmtiles}: bounds {box}, the input's points {list(span)} widened give {[west, south, east, north]}")
        if header["addressed_tiles_count"] != len(folder):
            problem(f"{options.pmtiles}: addressed_tiles_count {header['addressed_tiles_count']}, the folder has {len(folder)} tiles")
        for key, data in sorted(folder.items()):
            found = reader.get(*key)
            if found is None:
                problem("%s: tile %d/%d/%d not found by Reader.get" % ((options.pmtiles,) + key))
            elif gzip.decompress(found) != data:
                problem("%s: tile %d/%d/%d differs from the folder's" % ((options.pmtiles,) + key))
        walked = {key for key, _ in all_tiles(source)}
        if walked != set(folder):
            problem(f"{options.pmtiles}: walking the directories gives {len(walked)} tiles, {len(walked - set(folder))} not in the "
                    f"folder, {len(set(folder) - walked)} of the folder's missing")
        check_layers(f"{options.pmtiles} metadata", reader.metadata().get("vector_layers", []))

    # MBTiles, by sqlite3: TMS rows flipped back, each tile gunzipped.
    connection = sqlite3.connect(f"file:{options.mbtiles}?mode=ro", uri=True)
    rows = connection.execute("SELECT zoom_level, tile_column, tile_row, tile_data FROM tiles").fetchall()
    mbtiles = {}
    for z, x, row, data in rows:
        key = (z, x, 2 ** z - 1 - row)
        if key in mbtiles:
            problem("%s: tile %d/%d/%d twice" % ((options.mbtiles,) + key))
        if data[:2] != b"\x1f\x8b":
            problem("%s: tile %d/%d/%d is not gzip" % ((options.mbtiles,) + key))
            continue
        mbtiles[key] = gzip.decompress(data)
    if len(rows) != len(folder) or set(mbtiles) != set(folder):
        problem(f"{options.mbtiles}: {len(rows)} tiles, {len(set(mbtiles) - set(folder))} not in the folder, "
                f"{len(set(folder) - set(mbtiles))} of the folder's {len(folder)} missing")
    for key in sorted(set(mbtiles) & set(folder)):
        if mbtiles[key] != folder[key]:
            problem("%s: tile %d/%d/%d differs from the folder's" % ((options.mbtiles,) + key))
    metadata = dict(connection.execute("SELECT name, value FROM metadata").fetchall())
    connection.close()
    for name, want in (("format", "pbf"), ("minzoom", str(options.min_zoom)), ("maxzoom", str(options.max_zoom))):
        if metadata.get(name) != want:
            problem(f"{options.mbtiles}: metadata {name} = {metadata.get(name)!r}, expected {want!r}")
    box = [float(v) for v in metadata.get("bounds", "nan,nan,nan,nan").split(",")]
    if not all(near(a, b, 1e-9) for a, b in zip(box, (west, south, east, north))):
        problem(f"{options.mbtiles}: metadata bounds {box}, the input's points {list(span)} widened give {[west, south, east, north]}")
    check_layers(f"{options.mbtiles} metadata json", json.loads(metadata.get("json", "{}")).get("vector_layers", []))

    # The folder's TileJSON.
    with open(os.path.join(options.folder, "tiles.json")) as handle:
        tilejson = json.load(handle)
    if tilejson.get("tilejson") != "3.0.0":
        problem(f"tiles.json: tilejson {tilejson.get('tilejson')!r}, expected \"3.0.0\"")
    if not (isinstance(tilejson.get("tiles"), list) and tilejson["tiles"] and all(t.endswith("{z}/{x}/{y}.pbf") for t in tilejson["tiles"])):
        problem(f"tiles.json: tiles {tilejson.get('tiles')!r}, expected templates ending in {{z}}/{{x}}/{{y}}.pbf")
    if (tilejson.get("minzoom"), tilejson.get("maxzoom")) != (options.min_zoom, options.max_zoom):
        problem(f"tiles.json: zooms {tilejson.get('minzoom')}–{tilejson.get('maxzoom')}, expected {options.min_zoom}–{options.max_zoom}")
    if not all(near(a, b, 1e-9) for a, b in zip(tilejson.get("bounds", []), (west, south, east, north))) or len(tilejson.get("bounds", [])) != 4:
        problem(f"tiles.json: bounds {tilejson.get('bounds')}, the input's points {list(span)} widened give {[west, south, east, north]}")
    check_layers("tiles.json", tilejson.get("vector_layers", []))

    finish(f"{options.folder}, {os.path.basename(options.mbtiles)}, {os.path.basename(options.pmtiles)}: the same {len(folder)} tiles "
           f"byte for byte (zooms {options.min_zoom}–{options.max_zoom}, {points} points); PMTiles MVT/gzip, MBTiles TMS/gzip; "
           f"{len(fields)} fields listed in MBTiles json, PMTiles metadata and TileJSON 3.0.0")


def derive_colours(options):
    """Writes the CSV with a `colour` column naming one of the style's categories, by country (sorted countries
    taking the categories in turn): every point then has a category of the style, so `declutter tiles`, which
    prepares categories, and `declutter cluster --category colour`, which does not, see the same points."""
    with open(options.style) as handle:
        categories = [category["name"] for category in json.load(handle)["categories"]]
    with open(options.input, newline="") as handle:
        reader = csv.DictReader(handle)
        rows, columns = list(reader), reader.fieldnames + ["colour"]
    countries = sorted({row["country"] for row in rows})
    colour = {country: categories[index % len(categories)] for index, country in enumerate(countries)}
    with open(options.output, "w", newline="") as handle:
        writer = csv.DictWriter(handle, columns, quoting=csv.QUOTE_NONNUMERIC)
        writer.writeheader()
        for row in rows:
            # Numbers stay numbers, as in the input (QUOTE_NONNUMERIC quotes only strings).
            writer.writerow({key: (float(value) if key in ("lat", "lon") else int(value) if key == "elevation" and value else value)
                             for key, value in row.items()} | {"colour": colour[row["country"]]})
    print(f"tiles-consumers: {options.output}: {len(rows)} points, {len(countries)} countries in {len(set(colour.values()))} "
          f"categories of {os.path.basename(options.style)}")


def check_sprites(options):
    names = []
    for suffix in ("", "@2x"):
        with open(f"{options.sprite}{suffix}.json") as handle:
            names.append(set(json.load(handle)))
    if names[0] != names[1]:
        problem(f"{options.sprite}.json and @2x.json name different icons: {len(names[0] ^ names[1])} in one only")
    categories = {name[len("marker-"):] for name in names[0] if name.startswith("marker-")}
    if not categories:
        problem(f"{options.sprite}.json: no marker-NAME icon, so no categories")
    if os.path.isdir(options.tiles):
        tiles = folder_tiles(options.tiles)
    else:
        with open(options.tiles, "rb") as handle:
            tiles = {key: gzip.decompress(data) for key, data in all_tiles(MmapSource(handle))}
    counted = clusters = points = 0
    used = set()
    for key, data in sorted(tiles.items()):
        name = "%d/%d/%d.pbf" % key
        for index, (_, _, _, properties) in enumerate(decode(data, name)):
            where = f"{name} feature {index}"
            sprite = properties.get("sprite")
            used.add(sprite)
            if sprite is None:
                problem(f"{where}: no sprite")
            else:
                for sheet, suffix in zip(names, ("", "@2x")):
                    if sprite not in sheet:
                        problem(f"{where}: sprite {sprite!r} is not in {os.path.basename(options.sprite)}{suffix}.json")
            if properties.get("cluster") is not True:
                points += 1
                continue
            clusters += 1
            count = properties.get("point_count")
            if not (isinstance(count, int) and not isinstance(count, bool) and count >= 2):
                problem(f"{where}: a cluster with point_count {count!r}")
                continue
            counts = {c: properties[c] for c in categories if c in properties}
            if sum(counts.values()) != count:
                problem(f"{where}: category counts {counts} sum to {sum(counts.values())}, point_count is {count}")
            else:
                counted += 1
    finish(f"{options.tiles}: {clusters} clusters and {points} points in {len(tiles)} tiles, every sprite one of the "
           f"{len(names[0])} in {os.path.basename(options.sprite)}.json and @2x.json ({len(used)} used); every cluster has "
           f"point_count ≥ 2 and counts of the {len(categories)} categories summing to it")


def check_served(options):
    import http.client
    import urllib.parse

    base = urllib.parse.urlsplit(options.base)
    connection = http.client.HTTPConnection(base.hostname, base.port, timeout=30)

    def get(path, headers=None):
        connection.request("GET", path, headers=headers or {})
        response = connection.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()

    size = os.path.getsize(options.pmtiles)
    ranges = 0

    def http_bytes(offset, length):
        nonlocal ranges
        ranges += 1
        status, headers, body = get("/tilesets/pm.pmtiles", {"Range": f"bytes={offset}-{offset + length - 1}"})
        if status != 206 or headers.get("content-range") != f"bytes {offset}-{offset + length - 1}/{size}" \
                or len(body) != length:
            problem(f"bytes {offset}+{length}: {status} {headers.get('content-range')} with {len(body)} bytes")
        return body

    with open(options.pmtiles, "rb") as file:
        local = dict(all_tiles(MmapSource(file)))
    remote = dict(all_tiles(http_bytes))
    if remote != local:
        problem(f"through ranges the archive reads {len(remote)} tiles, the file {len(local)}; "
                f"{sum(1 for k in local if remote.get(k) != local[k])} differ")
    status, headers, body = get("/tilesets/pm.pmtiles")
    if status != 200 or len(body) != size or headers.get("accept-ranges") != "bytes":
        problem(f"the whole archive: {status}, {len(body)} of {size} bytes, Accept-Ranges {headers.get('accept-ranges')}")
    status, headers, body = get("/tilesets/pm.pmtiles", {"Range": "bytes=-10"})
    with open(options.pmtiles, "rb") as file:
        file.seek(size - 10)
        if status != 206 or body != file.read():
            problem(f"the last 10 bytes: {status}, {body!r}")
    status, headers, _ = get("/tilesets/pm.pmtiles", {"Range": f"bytes={size}-"})
    if status != 416 or headers.get("content-range") != f"bytes */{size}":
        problem(f"a range at the end: {status} {headers.get('content-range')}, expected 416 bytes */{size}")

    database = sqlite3.connect(options.mbtiles)
    archives = {
        "pm": {key: data for key, data in local.items()},
        "mb": {(z, x, (1 << z) - 1 - row): bytes(data) for z, x, row, data in
               database.execute("SELECT zoom_level, tile_column, tile_row, tile_data FROM tiles")},
    }
    served = 0
    for name, tiles in archives.items():
        # Every tile of zooms 0–5 and every fifth above: the debug server takes a millisecond or two a request.
        for index, ((z, x, y), stored) in enumerate(sorted(tiles.items())):
            if z > 5 and index % 5:
                continue
            status, headers, body = get(f"/tiles/{name}/{z}/{x}/{y}.mvt", {"Accept-Encoding": "gzip"})
            if status != 200 or body != stored or headers.get("content-encoding") != "gzip":
                problem(f"{name} {z}/{x}/{y} taking gzip: {status}, {headers.get('content-encoding')}, "
                        f"{len(body)} bytes against {len(stored)} stored")
            status, headers, body = get(f"/tiles/{name}/{z}/{x}/{y}.mvt")
            if status != 200 or body != gzip.decompress(stored) or "content-encoding" in headers:
                problem(f"{name} {z}/{x}/{y} without gzip: {status}, {headers.get('content-encoding')}")
            served += 2
        z = max(key[0] for key in tiles)
        missing = next((z, x, y) for x in range(1 << z) for y in range(1 << z) if (z, x, y) not in tiles)
        status, _, body = get(f"/tiles/{name}/{missing[0]}/{missing[1]}/{missing[2]}.mvt")
        if status != 204 or body:
            problem(f"{name} {missing}, which the archive lacks: {status} with {len(body)} bytes, expected 204")
        status, _, body = get(f"/tiles/{name}.json")
        tilejson = json.loads(body) if status == 200 else {}
        zooms = (min(key[0] for key in tiles), z)
        if (tilejson.get("minzoom"), tilejson.get("maxzoom")) != zooms or len(tilejson.get("bounds", [])) != 4 \
                or tilejson.get("tiles") != [f"{options.base.rstrip('/')}/tiles/{name}/{{z}}/{{x}}/{{y}}.mvt"]:
            problem(f"{name}.json: {status} {tilejson}")
    finish(f"served archives: the pmtiles package read all {len(local)} tiles through {ranges} byte ranges of "
           f"/tilesets/pm.pmtiles, byte for byte; {served} tile answers of both archives equal their stored tiles "
           f"(gzip taken, and inflated); a missing tile is 204, a range past the end 416, TileJSON states the zooms")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    cluster = commands.add_parser("cluster")
    cluster.add_argument("--declutter", required=True)
    cluster.add_argument("--input", required=True)
    cluster.add_argument("--folder", required=True)
    cluster.add_argument("--max-zoom", type=int, required=True)
    cluster.add_argument("--brute-force-to", type=int, default=4)
    cluster.add_argument("--min-buffered", type=int, default=0, help="fewest features in a tile's buffer the data must give")
    cluster.add_argument("cluster_options", nargs="*", help="more options for declutter cluster (after --)")
    formats = commands.add_parser("formats")
    formats.add_argument("--folder", required=True)
    formats.add_argument("--mbtiles", required=True)
    formats.add_argument("--pmtiles", required=True)
    formats.add_argument("--input", required=True)
    formats.add_argument("--min-zoom", type=int, required=True)
    formats.add_argument("--max-zoom", type=int, required=True)
    sprites = commands.add_parser("sprites")
    sprites.add_argument("--tiles", required=True, help="a folder tileset or a .pmtiles archive")
    sprites.add_argument("--sprite", required=True, help="the sprite sheet's path without .json")
    served = commands.add_parser("served")
    served.add_argument("--base", required=True)
    served.add_argument("--pmtiles", required=True)
    served.add_argument("--mbtiles", required=True)
    derive = commands.add_parser("derive-colours")
    derive.add_argument("--input", required=True)
    derive.add_argument("--style", required=True)
    derive.add_argument("--output", required=True)
    options = parser.parse_args()
    {"cluster": check_cluster, "formats": check_formats, "sprites": check_sprites, "served": check_served,
     "derive-colours": derive_colours}[options.command](options)


if __name__ == "__main__":
    main()
