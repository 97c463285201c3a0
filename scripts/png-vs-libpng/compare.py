#!/usr/bin/env python3
"""Decodes damaged PNG files with Declutter's decoder and with libpng and counts where they disagree.

    python3 scripts/png-vs-libpng/compare.py [--mutants 2400] [--seed 2026] [--work /tmp/png-vs-libpng]

Optional, not part of `swift test`: it needs gcc and libpng-dev (Debian: apt-get install libpng-dev). From a fixed
seed it writes a few seed PNGs (every colour type and bit depth, palettes with tRNS, Adam7, 16 bits, split IDAT,
ancillary chunks) and mutants of them (bytes changed, chunks swapped, moved, duplicated, dropped, inserted or
resized, CRCs fixed so that most mutants pass the CRC check, some broken on purpose, files truncated). libpng reads
each as cairo's loader does (libpng-read.c); Declutter through the LibPNGComparisonDriver test. It prints three
counts, accepted by Declutter but refused by libpng, refused by Declutter but read by libpng, read to different
straight RGBA pixels, then the deliberate differences (DELIBERATE below), and the mutants behind them (also in
WORK/mismatches.txt). Mutants are compressed with the
system's zlib, so another zlib may give other files and other counts.
"""

import argparse
import os
import random
import shutil
import struct
import subprocess
import sys
import zlib

# Where Declutter refuses what libpng reads on purpose, by the start of its message: the specification puts IHDR first,
# and libpng skips an ancillary chunk it does not know before it.
DELIBERATE = ["the file does not start with IHDR: its first chunk is "]

HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGE = os.path.dirname(os.path.dirname(HERE))
SIGNATURE = b"\x89PNG\r\n\x1a\n"


class Chunk:
    """One chunk; `length` overrides the length field and `crc` the stored CRC when a mutant breaks them."""

    def __init__(self, kind, body, length=None, crc=None):
        self.kind, self.body, self.length, self.crc = kind, body, length, crc

    def copy(self):
        return Chunk(self.kind, self.body, self.length, self.crc)

    def bytes(self):
        length = len(self.body) if self.length is None else self.length
        crc = zlib.crc32(self.kind + self.body) if self.crc is None else self.crc
        return struct.pack(">I", length) + self.kind + self.body + struct.pack(">I", crc)


def filtered(rows, stride, rng):
    """Rows of raw bytes, each behind a filter chosen at random, as a PNG encoder writes them."""
    out, previous = bytearray(), bytes(len(rows[0])) if rows else b""
    for row in rows:
        kind = rng.randrange(5)
        line = bytearray()
        for index, value in enumerate(row):
            left = row[index - stride] if index >= stride else 0
            up = previous[index]
            upper_left = previous[index - stride] if index >= stride else 0
            if kind == 0:
                prediction = 0
            elif kind == 1:
                prediction = left
            elif kind == 2:
                prediction = up
            elif kind == 3:
                prediction = (left + up) // 2
            else:
                estimate = left + up - upper_left
                to_left, to_up, to_upper_left = abs(estimate - left), abs(estimate - up), abs(estimate - upper_left)
                prediction = left if to_left <= to_up and to_left <= to_upper_left else up if to_up <= to_upper_left else upper_left
            line.append((value - prediction) & 0xFF)
        out += bytes([kind]) + line
        previous = row
    return bytes(out)


CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}
ADAM7 = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]


def seed_png(rng, width, height, color, depth, interlaced=False, palette=0, trns=None, extra=(), idat_parts=1):
    """A valid PNG of random samples as a list of chunks."""
    channels = CHANNELS[color]
    top = (palette if color == 3 else 1 << depth) - 1
    samples = [[[rng.randint(0, top) for _ in range(channels)] for _ in range(width)] for _ in range(height)]
    raw = b""
    for x0, y0, dx, dy in (ADAM7 if interlaced else [(0, 0, 1, 1)]):
        xs, ys = range(x0, width, dx), range(y0, height, dy)
        if not xs or not ys:
            continue
        rows = []
        for y in ys:
            bits, row = [], bytearray()
            for x in xs:
                for sample in samples[y][x]:
                    bits += [(sample >> bit) & 1 for bit in range(depth - 1, -1, -1)]
            bits += [0] * (-len(bits) % 8)
            for index in range(0, len(bits), 8):
                row.append(int("".join(map(str, bits[index:index + 8])), 2))
            rows.append(bytes(row))
        raw += filtered(rows, max(1, channels * depth // 8), rng)
    stream = zlib.compress(raw, 9)
    chunks = [Chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, depth, color, 0, 0, 1 if interlaced else 0))]
    chunks += [Chunk(kind, body) for kind, body in extra]
    if palette:
        chunks.append(Chunk(b"PLTE", bytes(rng.randrange(256) for _ in range(3 * palette))))
    if trns is not None:
        chunks.append(Chunk(b"tRNS", trns))
    size = -(-len(stream) // idat_parts)
    chunks += [Chunk(b"IDAT", stream[index:index + size]) for index in range(0, len(stream), size)]
    chunks.append(Chunk(b"IEND", b""))
    return chunks


def seeds(rng):
    text = (b"tEXt", b"Comment\0a seed for the libpng comparison")
    gamma = (b"gAMA", struct.pack(">I", 45455))
    private = (b"prVt", b"\x01\x02\x03")
    return {
        "grey1": seed_png(rng, 13, 5, 0, 1),
        "grey2-trns": seed_png(rng, 9, 4, 0, 2, trns=struct.pack(">H", 2)),
        "grey4-adam7": seed_png(rng, 7, 7, 0, 4, interlaced=True, trns=struct.pack(">H", 5)),
        "grey8-trns": seed_png(rng, 11, 6, 0, 8, trns=struct.pack(">H", 17), extra=[text]),
        "grey16-adam7": seed_png(rng, 5, 5, 0, 16, interlaced=True, trns=struct.pack(">H", 0x1234)),
        "rgb8-plte-trns": seed_png(rng, 12, 8, 2, 8, palette=16, trns=struct.pack(">HHH", 1, 2, 3), extra=[gamma],
                                   idat_parts=3),
        "rgb16-adam7": seed_png(rng, 9, 9, 2, 16, interlaced=True, trns=struct.pack(">HHH", 7, 8, 9)),
        "palette1": seed_png(rng, 10, 3, 3, 1, palette=2),
        "palette2-adam7": seed_png(rng, 6, 6, 3, 2, interlaced=True, palette=4, trns=b"\x00\x80"),
        "palette4-trns": seed_png(rng, 7, 5, 3, 4, palette=12, trns=bytes(range(0, 240, 30))),
        "palette8-trns": seed_png(rng, 7, 5, 3, 8, palette=200, trns=b"\x00\x40\x80\xc0", extra=[gamma, private],
                                  idat_parts=2),
        "greyalpha8": seed_png(rng, 6, 4, 4, 8, extra=[text]),
        "greyalpha16-adam7": seed_png(rng, 5, 3, 4, 16, interlaced=True),
        "rgba8-adam7": seed_png(rng, 13, 11, 6, 8, interlaced=True, idat_parts=4),
        "rgba16": seed_png(rng, 4, 4, 6, 16, extra=[private]),
    }


def random_chunk(rng, original):
    """A chunk to insert: a known one with a random body, an unknown one, an invalid type, a copy of IHDR."""
    choice = rng.randrange(10)
    if choice == 0:
        return Chunk(b"tRNS", bytes(rng.randrange(256) for _ in range(rng.choice([0, 1, 2, 3, 6, 8, 300]))))
    if choice == 1:
        return Chunk(b"PLTE", bytes(rng.randrange(256) for _ in range(rng.choice([0, 3, 6, 48, 100, 768]))))
    if choice == 2:
        return next(chunk for chunk in original if chunk.kind == b"IHDR").copy()
    if choice == 3:
        return Chunk(rng.choice([b"CRIt", b"ABCD", b"IDAt", b"Xyzw"]), b"critical")
    if choice == 4:
        return Chunk(rng.choice([b"prIv", b"abCd", b"zzzz"]), b"ancillary")
    if choice == 5:
        return Chunk(rng.choice([b"\x1b[2J", b"ID@T", b"ab1d", b"\xc3\xa9xx"]), b"invalid type")
    if choice == 6:
        return Chunk(b"IDAT", b"")
    if choice == 7:
        return Chunk(b"IEND", b"")
    if choice == 8:
        return Chunk(rng.choice([b"gAMA", b"sRGB", b"tEXt", b"pHYs", b"bKGD"]), bytes(rng.randrange(256) for _ in range(rng.randrange(12))))
    return Chunk(b"IDAT", zlib.compress(bytes(rng.randrange(3) for _ in range(rng.randrange(1, 64)))))


def mutate(rng, original):
    """A mutant of a seed's chunks and the names of what was done, or raw bytes for file-level damage."""
    chunks = [chunk.copy() for chunk in original]
    done = []
    for _ in range(rng.choice([1, 1, 1, 2, 2, 3])):
        operation = rng.choice(["body", "body", "body", "type", "length", "swap", "move", "duplicate", "drop",
                                "insert", "insert", "resize", "crc"])
        index = rng.randrange(len(chunks)) if chunks else 0
        if not chunks:
            break
        chunk = chunks[index]
        if operation == "body" and chunk.body:
            position = rng.randrange(len(chunk.body))
            value = rng.randrange(256) if rng.random() < 0.5 else chunk.body[position] ^ (1 << rng.randrange(8))
            chunk.body = chunk.body[:position] + bytes([value]) + chunk.body[position + 1:]
            done.append(f"body:{chunk.kind.hex()}@{position}")
        elif operation == "type":
            position = rng.randrange(4)
            value = chunk.kind[position] ^ (0x20 if rng.random() < 0.7 else 1 << rng.randrange(8))
            chunk.kind = chunk.kind[:position] + bytes([value]) + chunk.kind[position + 1:]
            done.append(f"type:{chunk.kind.hex()}")
        elif operation == "length":
            chunk.length = len(chunk.body) + rng.choice([-5, -1, 1, 4, 1 << 20, 0x7FFFFFFF, 0x80000000])
            chunk.length &= 0xFFFFFFFF
            done.append(f"length:{chunk.length}")
        elif operation == "swap":
            other = rng.randrange(len(chunks))
            chunks[index], chunks[other] = chunks[other], chunks[index]
            done.append(f"swap:{index},{other}")
        elif operation == "move":
            moved = chunks.pop(index)
            target = rng.randrange(len(chunks) + 1)
            chunks.insert(target, moved)
            done.append(f"move:{index}->{target}")
        elif operation == "duplicate":
            target = rng.randrange(len(chunks) + 1)
            chunks.insert(target, chunk.copy())
            done.append(f"duplicate:{index}->{target}")
        elif operation == "drop":
            chunks.pop(index)
            done.append(f"drop:{chunk.kind.hex()}")
        elif operation == "insert":
            new = random_chunk(rng, original)
            chunks.insert(index, new)
            done.append(f"insert:{new.kind.hex()}@{index}")
        elif operation == "resize":
            if rng.random() < 0.5 and chunk.body:
                chunk.body = chunk.body[:rng.randrange(len(chunk.body))]
            else:
                chunk.body += bytes(rng.randrange(256) for _ in range(rng.randrange(1, 9)))
            done.append(f"resize:{chunk.kind.hex()}={len(chunk.body)}")
        elif operation == "crc":
            chunk.crc = zlib.crc32(chunk.kind + chunk.body) ^ (1 << rng.randrange(32))
            done.append(f"crc:{chunk.kind.hex()}")
    data = SIGNATURE + b"".join(chunk.bytes() for chunk in chunks)
    damage = rng.random()
    if damage < 0.06:
        data = data[:rng.randrange(len(data))]
        done.append("truncate")
    elif damage < 0.12:
        position = rng.randrange(len(data))
        data = data[:position] + bytes([data[position] ^ (1 << rng.randrange(8))]) + data[position + 1:]
        done.append(f"raw:{position}")
    return data, "+".join(done)


def read_result(path):
    with open(path, "rb") as file:
        data = file.read()
    head, _, rest = data.partition(b"\n")
    words = head.decode("utf-8", "backslashreplace").split(" ", 1)
    return (words[0] == "ok", words[1] if len(words) > 1 else "", rest)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mutants", type=int, default=2400)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--work", default="/tmp/png-vs-libpng")
    arguments = parser.parse_args()

    shutil.rmtree(arguments.work, ignore_errors=True)
    files = os.path.join(arguments.work, "files")
    os.makedirs(files)
    reader = os.path.join(arguments.work, "libpng-read")
    flags = subprocess.run(["pkg-config", "--cflags", "--libs", "libpng"], check=True, capture_output=True, text=True).stdout.split()
    subprocess.run(["gcc", "-O1", "-o", reader, os.path.join(HERE, "libpng-read.c")] + flags, check=True)

    rng = random.Random(arguments.seed)
    originals = seeds(rng)
    names, descriptions = [], {}
    for name, chunks in originals.items():
        path = f"seed-{name}.png"
        with open(os.path.join(files, path), "wb") as file:
            file.write(SIGNATURE + b"".join(chunk.bytes() for chunk in chunks))
        names.append(path)
        descriptions[path] = "the seed itself"
    keys = sorted(originals)
    for number in range(arguments.mutants):
        seed_name = keys[number % len(keys)]
        data, description = mutate(rng, originals[seed_name])
        path = f"mutant-{number:05d}-{seed_name}.png"
        with open(os.path.join(files, path), "wb") as file:
            file.write(data)
        names.append(path)
        descriptions[path] = description

    for start in range(0, len(names), 500):
        subprocess.run([reader] + [os.path.join(files, name) for name in names[start:start + 500]], check=True)
    environment = dict(os.environ, DECLUTTER_PNG_COMPARISON=files)
    test = subprocess.run(["swift", "test", "--filter", "LibPNGComparisonDriver"], cwd=PACKAGE, env=environment,
                          capture_output=True, text=True)
    if test.returncode != 0:
        sys.exit("the Declutter driver failed:\n" + test.stdout[-3000:] + test.stderr[-3000:])

    accepted_refused, refused_read, different, agreed = [], [], [], 0
    seeds_wrong, deliberate = [], []
    for name in names:
        ours = read_result(os.path.join(files, name + ".ours"))
        theirs = read_result(os.path.join(files, name + ".libpng"))
        line = f"{name} [{descriptions[name]}]\n    ours:   {ours[1]}\n    libpng: {theirs[1]}"
        if name.startswith("seed-") and not (ours[0] and theirs[0] and ours == theirs):
            seeds_wrong.append(line)
        if not ours[0] and theirs[0] and any(ours[1].startswith(prefix) for prefix in DELIBERATE):
            deliberate.append(line)
        elif ours[0] and not theirs[0]:
            accepted_refused.append(line)
        elif theirs[0] and not ours[0]:
            refused_read.append(line)
        elif ours[0] and theirs[0] and (ours[1] != theirs[1] or ours[2] != theirs[2]):
            different.append(line)
        else:
            agreed += 1

    report = [f"{len(names)} files ({len(originals)} seeds, {arguments.mutants} mutants, seed {arguments.seed}), "
              f"libpng {subprocess.run(['pkg-config', '--modversion', 'libpng'], capture_output=True, text=True).stdout.strip()}, "
              f"zlib {zlib.ZLIB_RUNTIME_VERSION}"]
    if seeds_wrong:
        report += ["seeds not read alike (the comparison itself is wrong):"] + seeds_wrong
    for title, lines in [("accepted by Declutter, refused by libpng", accepted_refused),
                         ("refused by Declutter, read by libpng", refused_read),
                         ("read to different pixels", different)]:
        report.append(f"{title}: {len(lines)}")
        report += lines
    report.append(f"deliberate differences (PNGChunkRulesTests documents each): {len(deliberate)}")
    report += deliberate
    report.append(f"agreed: {agreed}")
    with open(os.path.join(arguments.work, "mismatches.txt"), "w") as file:
        file.write("\n".join(report) + "\n")
    print("\n".join(report[:1]))
    print(f"accepted by Declutter, refused by libpng: {len(accepted_refused)}")
    print(f"refused by Declutter, read by libpng: {len(refused_read)}")
    print(f"read to different pixels: {len(different)}")
    print(f"deliberate differences: {len(deliberate)}")
    print(f"agreed: {agreed}; details in {os.path.join(arguments.work, 'mismatches.txt')}")


if __name__ == "__main__":
    main()
