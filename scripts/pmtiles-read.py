#!/usr/bin/env python3
"""Reads a PMTiles archive with the `pmtiles` package (PyPI), an implementation independent of Declutter's writer.

    python3 -m venv venv && venv/bin/pip install pmtiles
    venv/bin/python scripts/pmtiles-read.py ARCHIVE [--lookup]

Prints the header as one JSON line, the metadata as one JSON line, then one line per tile in z/x/y order:
`z/x/y LENGTH SHA1`, where LENGTH and SHA1 are those of the tile's bytes after gunzip (the MVT, as a folder
output holds it). With --lookup, each tile listed by walking the directories is also fetched through
`Reader.get(z, x, y)` (the lookup a map client does) and must give the same bytes; a missing tile exits with 1.
"""
import gzip
import hashlib
import json
import sys

from pmtiles.reader import MmapSource, Reader, all_tiles
from pmtiles.tile import Compression


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    lookup = "--lookup" in sys.argv[1:]
    if len(args) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    with open(args[0], "rb") as f:
        source = MmapSource(f)
        reader = Reader(source)
        header = reader.header()
        print(json.dumps({k: (v.name if hasattr(v, "name") else v) for k, v in header.items()}, sort_keys=True))
        print(json.dumps(reader.metadata(), sort_keys=True, ensure_ascii=False))
        gzipped = header["tile_compression"] == Compression.GZIP
        lines = []
        for (z, x, y), data in all_tiles(source):
            if lookup and reader.get(z, x, y) != data:
                print(f"tile {z}/{x}/{y} not found by Reader.get", file=sys.stderr)
                return 1
            tile = gzip.decompress(data) if gzipped else data
            lines.append(((z, x, y), f"{z}/{x}/{y} {len(tile)} {hashlib.sha1(tile).hexdigest()}"))
        for _, line in sorted(lines):
            print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
