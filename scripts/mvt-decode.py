#!/usr/bin/env python3
"""Decodes Mapbox vector tiles with an independent decoder (mapbox-vector-tile) and prints them as JSON.

    python3 -m venv /tmp/venv && /tmp/venv/bin/pip install mapbox-vector-tile
    /tmp/venv/bin/python scripts/mvt-decode.py tiles/0-0-0.pbf [more.pbf ...]

Prints one JSON object per file: {"file": ..., "layers": {name: {"extent": ..., "version": ..., "features": [
{"id": ..., "type": 1, "x": ..., "y": ..., "properties": {...}}, ...]}}}. Positions are the tile's own integer
units (y downwards, as stored), not flipped; a feature without an id reads as id 0 (the proto's default). With --compare, each FILE.pbf is checked against FILE.json beside it
(supercluster's getTile JSON: a list of {"type", "geometry": [[x, y]], "tags", "id"}, as `declutter cluster --tile`
prints its features) and the exit status is 1 when any differ; `sprite` and `clustering_identifier`, which only the
vector tiles carry, are left out of the comparison, and null tags (which a vector tile cannot hold) too.
"""
import json
import sys

import mapbox_vector_tile


def decode(path):
    with open(path, "rb") as handle:
        data = handle.read()
    # y_coord_down keeps the tile's own y axis; no transform, so positions are the stored integers.
    layers = mapbox_vector_tile.decode(data, default_options={"y_coord_down": True})
    result = {}
    for name, layer in layers.items():
        features = []
        for feature in layer["features"]:
            geometry = feature["geometry"]
            if geometry["type"] != "Point":
                raise ValueError(f"{path}: feature {feature.get('id')} is a {geometry['type']}, expected Point")
            x, y = geometry["coordinates"]
            features.append({"id": feature.get("id"), "type": 1, "x": x, "y": y, "properties": feature["properties"]})
        result[name] = {"extent": layer["extent"], "version": layer.get("version"), "features": features}
    return result


def same_number(a, b):
    return isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool) and float(a) == float(b)


def compare(path, layers):
    """Differences between the decoded tile and the getTile JSON beside it."""
    with open(path[: -len(".pbf")] + ".json") as handle:
        expected = json.load(handle)
    problems = []
    if len(layers) != 1:
        return [f"{len(layers)} layers, expected 1"]
    features = next(iter(layers.values()))["features"]
    if len(features) != len(expected):
        return [f"{len(features)} features, expected {len(expected)}"]
    for index, (got, want) in enumerate(zip(features, expected)):
        x, y = want["geometry"][0]
        if (got["x"], got["y"]) != (x, y):
            problems.append(f"feature {index}: at {got['x']},{got['y']}, expected {x},{y}")
        want_id = want.get("id")
        if not (isinstance(want_id, (int, float)) and want_id >= 0 and float(want_id).is_integer()):
            want_id = None
        # vector_tile.proto gives `id` a default of 0, and mapbox-vector-tile reads a feature without one as 0.
        if (got["id"] or 0) != int(want_id or 0):
            problems.append(f"feature {index}: id {got['id']}, expected {want_id}")
        properties = {k: v for k, v in got["properties"].items() if k not in ("sprite", "clustering_identifier")}
        tags = {}
        for key, value in want["tags"].items():
            if value is None:
                continue
            tags[key] = json.dumps(value, separators=(",", ":")) if isinstance(value, (list, dict)) else value
        if set(properties) != set(tags):
            problems.append(f"feature {index}: keys {sorted(properties)}, expected {sorted(tags)}")
            continue
        for key, value in tags.items():
            if not (properties[key] == value and type(properties[key]) is type(value) or same_number(properties[key], value)):
                problems.append(f"feature {index}: {key} = {properties[key]!r}, expected {value!r}")
    return problems


def main(arguments):
    check = "--compare" in arguments
    paths = [argument for argument in arguments if argument != "--compare"]
    if not paths:
        print(__doc__, file=sys.stderr)
        return 2
    failed = False
    for path in paths:
        layers = decode(path)
        print(json.dumps({"file": path, "layers": layers}, sort_keys=True))
        if check:
            for problem in compare(path, layers):
                failed = True
                print(f"{path}: {problem}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
