#!/usr/bin/env python3
"""Serves one folder on 127.0.0.1 for scripts/maplibre-check and takes the page's reports.

    python3 serve.py --root SITE --port-file PORT --output DIR [--reports 1] [--timeout 300]

Binds a free port (written to --port-file once listening), serves SITE as it is (`python3 -m http.server` with
a quiet log, no caching and the MIME type MapLibre wants for .pbf), and accepts `POST /report?name=NAME` from
check.html: a JSON object whose "image" is the map canvas as a PNG data URL. The image goes to DIR/NAME.png, the
rest to DIR/NAME.json; after --reports of them the server exits 0. It exits 1 when they did not all come within
--timeout seconds, so that a page that never reaches `idle` fails the check instead of hanging it.
"""

import argparse
import base64
import functools
import http.server
import json
import os
import re
import sys
import threading
import urllib.parse


class Handler(http.server.SimpleHTTPRequestHandler):
    """Static files from the site folder plus the one report endpoint."""

    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".pbf": "application/x-protobuf", ".json": "application/json", ".js": "text/javascript"}

    def end_headers(self):
        # Every run must load what is on disk now, not what the last run left in a cache.
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def log_message(self, format, *args):
        # A request that failed is worth a line; the many tile requests that worked are not, nor a missing tile, which
        # a folder tile set leaves out when it is empty.
        missing_tile = str(args[1]) == "404" and self.path.endswith(".pbf") if len(args) > 1 else False
        if len(args) > 1 and str(args[1]).startswith(("4", "5")) and not missing_tile:
            sys.stderr.write("serve.py: %s %s\n" % (self.requestline, args[1]))

    def do_POST(self):
        url = urllib.parse.urlsplit(self.path)
        name = urllib.parse.parse_qs(url.query).get("name", [""])[0]
        if url.path != "/report" or not re.fullmatch(r"[A-Za-z0-9@._-]+", name) or name.startswith("."):
            self.send_error(404)
            return
        length = int(self.headers.get("Content-Length", "0"))
        report = json.loads(self.rfile.read(length))
        image = report.pop("image", "") or ""
        prefix = "data:image/png;base64,"
        if image.startswith(prefix):
            with open(os.path.join(self.server.output, name + ".png"), "wb") as file:
                file.write(base64.b64decode(image[len(prefix):]))
        else:
            report.setdefault("errors", []).append("the page sent no PNG screenshot")
        # Written under another name and renamed, so that a reader never sees half a report.
        path = os.path.join(self.server.output, name + ".json")
        with open(path + ".tmp", "w") as file:
            json.dump(report, file, indent=1)
        os.replace(path + ".tmp", path)
        self.send_response(204)
        self.end_headers()
        with self.server.lock:
            self.server.remaining -= 1
            if self.server.remaining <= 0:
                self.server.received.set()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--root", required=True)
    parser.add_argument("--port-file", required=True)
    parser.add_argument("--output", required=True)
    parser.add_argument("--reports", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=300)
    arguments = parser.parse_args()

    handler = functools.partial(Handler, directory=arguments.root)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    server.output, server.remaining = arguments.output, arguments.reports
    server.lock, server.received = threading.Lock(), threading.Event()
    threading.Thread(target=server.serve_forever, daemon=True).start()
    temporary = arguments.port_file + ".tmp"
    with open(temporary, "w") as file:
        file.write(str(server.server_address[1]))
    os.replace(temporary, arguments.port_file)

    if not server.received.wait(arguments.timeout):
        sys.stderr.write("serve.py: %d report(s) missing after %g s\n" % (server.remaining, arguments.timeout))
        sys.exit(1)
    server.shutdown()


if __name__ == "__main__":
    main()
