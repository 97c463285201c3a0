import DeclutterSupport
import Foundation

/// The viewer's HTML: an index of what the server serves, and a page showing one dataset or tileset in MapLibre GL
/// JS, where a click on a cluster zooms to its `expansion_zoom` and lists its first leaves (a dataset's, from the
/// cluster routes) in a popup, a click on a point lists its properties, and the style's legend (a dataset's
/// categories) stands in the top-left corner, folded by a click on its title.
///
/// Names of datasets and tilesets are URL-safe by construction; text from the data reaches the page only through
/// `textContent`, never as HTML.
enum ViewerPage {
    /// One entry of the index.
    struct Entry {
        var name: String
        /// "dataset" or "tileset".
        var kind: String
        /// One line about it: points, or format, size and zooms.
        var summary: String
        /// Further links, as (label, URL).
        var links: [(String, String)]
    }

    /// The index page.
    static func index(_ entries: [Entry]) -> String {
        let rows = entries.map { entry in
            let links = ([("map", "maps/\(entry.name)")] + entry.links).map { "<a href=\"\($0.1)\">\($0.0)</a>" }
            return "<tr><td><a href=\"maps/\(entry.name)\">\(entry.name)</a></td><td>\(entry.kind)</td>"
                + "<td>\(escaped(entry.summary))</td><td>\(links.joined(separator: " · "))</td></tr>"
        }
        let body =
            entries.isEmpty
            ? "<p>Nothing to show: start the server with <code>--dataset NAME=FILE</code> or <code>--tileset NAME=FILE</code>.</p>"
            : "<table><tr><th>name</th><th>kind</th><th>what</th><th>links</th></tr>\n\(rows.joined(separator: "\n"))\n</table>"
        return """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>Declutter</title>
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <style>body { font: 15px/1.5 system-ui, sans-serif; margin: 2em; color: #222; }
            table { border-collapse: collapse; } td, th { padding: 0.3em 1em 0.3em 0; text-align: left; }
            th { border-bottom: 1px solid #ccc; }</style></head>
            <body><h1>Declutter</h1>
            \(body)
            <p><a href="health">health</a> · <a href="metrics">metrics</a></p>
            </body></html>

            """
    }

    /// The map page of one dataset or tileset.
    ///
    /// - Parameters:
    ///   - style: The style's absolute URL.
    ///   - leaves: The leaves route of a cluster with `{id}` for its `cluster_id`; nil for a tileset, whose archive
    ///     holds no hierarchy.
    static func map(
        name: String, style: String, leaves: String?, script: String, stylesheet: String
    ) -> String {
        let config = JSONValue.object(
            JSONObject([
                ("name", .string(name)), ("style", .string(style)), ("leaves", leaves.map { .string($0) } ?? .null),
                ("script", .string(script)),
            ]))
        // `<` escaped so that no string can close the script element.
        let configText = config.jsonText.replacingOccurrences(of: "<", with: "\\u003c")
        return """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>\(name) · Declutter</title>
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <link rel="stylesheet" href="\(escaped(stylesheet))">
            <style>html, body, #map { margin: 0; height: 100%; }
            .declutter-popup { font: 13px/1.4 system-ui, sans-serif; max-height: 16em; overflow: auto; }
            .declutter-popup ul { margin: 0.3em 0; padding-left: 1.2em; }
            .declutter-missing { font: 15px/1.5 system-ui, sans-serif; margin: 2em; max-width: 40em; }
            .declutter-legend { position: absolute; top: 10px; left: 10px; max-height: 60%; overflow: auto;
              background: rgba(255, 255, 255, 0.88); border-radius: 4px; box-shadow: 0 0 0 2px rgba(0, 0, 0, 0.1);
              font: 12px/1.5 system-ui, sans-serif; padding: 6px 8px; }
            .declutter-legend summary { cursor: pointer; }
            .declutter-legend .row { display: flex; align-items: baseline; gap: 6px; }
            .declutter-legend .dot { width: 9px; height: 9px; border-radius: 50%; flex: none; }
            .declutter-legend .name { flex: 1; max-width: 16em; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
            .declutter-legend .count { margin-left: 12px; font-variant-numeric: tabular-nums; }
            .declutter-legend small { display: block; margin-left: 15px; color: #555; }</style></head>
            <body><div id="map"></div>
            <script src="\(escaped(script))"></script>
            <script>
            const config = \(configText);
            if (typeof maplibregl === "undefined") {
              // Offline, or a CDN out of reach: say so rather than leave a blank page.
              const note = document.createElement("p");
              note.className = "declutter-missing";
              note.textContent = `MapLibre GL JS did not load from ${config.script}. Start declutter serve with ` +
                "--maplibre-url naming a copy this browser can reach, or a folder holding maplibre-gl.js and " +
                "maplibre-gl.css, which the server then serves itself.";
              document.getElementById("map").append(note);
              throw new Error(note.textContent);
            }
            const map = new maplibregl.Map({ container: "map", style: config.style, hash: true });
            map.addControl(new maplibregl.NavigationControl(), "top-right");
            map.addControl(new maplibregl.ScaleControl(), "bottom-left");
            // The layers drawing the tileset's own source: clusters and points, not a basemap.
            const layers = () => map.getStyle().layers
              .filter((layer) => layer.source === "declutter" && layer.type !== "background").map((layer) => layer.id);
            const featureAt = (point) => map.queryRenderedFeatures(point, { layers: layers() })[0];
            map.on("mousemove", (event) => { map.getCanvas().style.cursor = featureAt(event.point) ? "pointer" : ""; });
            function element(tag, text, className) {
              const node = document.createElement(tag);
              node.textContent = text;
              if (className) node.className = className;
              return node;
            }
            // What the colours mean, from style.json's metadata (MapLibre draws no legend): every point counted.
            map.once("load", () => {
              const legend = map.getStyle().metadata?.["declutter:legend"];
              if (!legend?.rows?.length) return;
              // Folded by a click on its title, so that the clusters under it can be seen.
              const box = element("details", "", "declutter-legend"), summary = element("summary", "");
              summary.append(legend.title ? element("strong", legend.title) : element("span", "legend"));
              box.open = true;
              box.append(summary);
              for (const row of legend.rows) {
                const line = element("div", "", "row"), dot = element("span", "", "dot");
                dot.style.background = row.color;
                line.append(dot, element("span", row.name, "name"), element("span", row.count.toLocaleString("en"), "count"));
                box.append(line);
                if (row.values) box.append(element("small", `${row.values.toLocaleString("en")} values`));
              }
              document.body.append(box);
            });
            // A point's label: its name if it has one, else its first text property, else its position.
            function label(properties, coordinates) {
              const text = properties.name ?? Object.values(properties).find((value) => typeof value === "string");
              return text ?? coordinates.map((value) => value.toFixed(5)).join(", ");
            }
            map.on("click", async (event) => {
              const feature = featureAt(event.point);
              if (!feature) return;
              const properties = feature.properties, coordinates = feature.geometry.coordinates;
              const content = document.createElement("div");
              content.className = "declutter-popup";
              // Beside the icon rather than over its count; a balloon stands above its point, so its popup goes below.
              const placing = properties.cluster ? { offset: 28 } : { anchor: "top", offset: 4 };
              const popup = new maplibregl.Popup({ maxWidth: "320px", ...placing })
                .setLngLat(coordinates).setDOMContent(content);
              if (properties.cluster) {
                content.append(element("strong", `${properties.point_count} points`));
                // Past the tiles' last zoom MapLibre only enlarges that zoom's tiles, where the cluster stays whole.
                const last = map.getSource("declutter")?.maxzoom ?? map.getMaxZoom();
                const zoom = properties.expansion_zoom ?? Math.min(map.getZoom() + 2, last);
                if (zoom <= last) {
                  map.easeTo({ center: coordinates, zoom });
                } else {
                  content.append(element("p", `together at every zoom of the tiles (to ${last})`));
                }
                popup.addTo(map);
                if (config.leaves && properties.cluster_id !== undefined) {
                  const response = await fetch(`${config.leaves.replace("{id}", properties.cluster_id)}?limit=10`);
                  if (!response.ok) { content.append(element("p", `leaves: HTTP ${response.status}`)); return; }
                  const list = document.createElement("ul");
                  for (const leaf of (await response.json()).features) {
                    list.append(element("li", label(leaf.properties ?? {}, leaf.geometry.coordinates)));
                  }
                  content.append(list);
                  if (properties.point_count > 10) content.append(element("span", `and ${properties.point_count - 10} more`));
                }
              } else {
                const list = document.createElement("ul");
                for (const [key, value] of Object.entries(properties)) {
                  if (key !== "sprite") list.append(element("li", `${key}: ${value}`));
                }
                content.append(element("strong", label(properties, coordinates)), list);
                popup.addTo(map);
              }
            });
            </script>
            </body></html>

            """
    }

    /// `text` with `&`, `<`, `>` and `"` as HTML entities.
    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
