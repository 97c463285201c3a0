// scripts/viewer-check's harness, appended to the copy of maplibre-gl.js that the viewer page of `declutter serve`
// loads (serve --maplibre-url points at scripts/maplibre/serve.py, another origin). On a page opened with
// ?check=NAME it waits for the map's first idle, clicks the biggest cluster in view as a user would (mouse events on
// the canvas), waits for the camera to settle and for the popup, reads a PMTiles archive's header through the
// server's byte ranges (?range=PATH), and posts what it saw to serve.py as NAME.json and NAME.png.
(() => {
  const reportOrigin = new URL(document.currentScript.src).origin;
  const parameters = new URLSearchParams(location.search);
  const name = parameters.get("check");
  if (!name) return;
  const report = { errors: [], missingImages: [] };
  window.addEventListener("error", (event) => report.errors.push(`page: ${event.message || event.target?.src || "a resource failed"}`), true);
  window.addEventListener("unhandledrejection", (event) => report.errors.push(`promise: ${event.reason}`));
  const consoleError = console.error.bind(console);
  console.error = (...parts) => { report.errors.push(parts.map(String).join(" ")); consoleError(...parts); };
  let sent = false;
  let map = null;
  function send() {
    if (sent) return;
    sent = true;
    try { report.image = map?.getCanvas().toDataURL("image/png"); } catch (error) { report.errors.push(`screenshot: ${error}`); }
    // no-cors: the report is a simple POST to another origin, whose answer the page need not read.
    fetch(`${reportOrigin}/report?name=${encodeURIComponent(name)}`, { method: "POST", mode: "no-cors", body: JSON.stringify(report) });
  }
  setTimeout(() => { report.errors.push("the check did not finish within 60 s"); send(); }, 60000);
  const sleep = (milliseconds) => new Promise((resolve) => setTimeout(resolve, milliseconds));
  const Original = maplibregl.Map;
  maplibregl.Map = class extends Original {
    constructor(options) {
      // No fade, so that what the check reads right after idle is what is drawn; a canvas that can be read back.
      super({ ...options, fadeDuration: 0, canvasContextAttributes: { preserveDrawingBuffer: true } });
      map = this;
      this.on("error", (event) => report.errors.push(`map: ${event.error?.message ?? event.error}`));
      this.on("styleimagemissing", (event) => report.missingImages.push(event.id));
      this.once("idle", () => check(this).catch((error) => { report.errors.push(`check: ${error}`); send(); }));
    }
  };

  async function check(map) {
    const layers = map.getStyle().layers.filter((layer) => layer.source === "declutter" && layer.type === "symbol")
      .map((layer) => layer.id);
    const canvas = map.getCanvas(), width = canvas.clientWidth, height = canvas.clientHeight;
    report.before = { zoom: map.getZoom() };
    const clusters = map.queryRenderedFeatures({ layers }).filter((feature) => feature.properties.cluster)
      .map((feature) => ({ feature, point: map.project(feature.geometry.coordinates) }))
      .filter(({ point }) => point.x > 40 && point.y > 40 && point.x < width - 40 && point.y < height - 40)
      .sort((a, b) => b.feature.properties.point_count - a.feature.properties.point_count);
    report.clustersInView = clusters.length;
    if (!clusters.length) { report.errors.push("no cluster in view to click"); send(); return; }
    const { feature, point } = clusters[0];
    report.clicked = { clusterId: feature.properties.cluster_id, count: feature.properties.point_count,
                       expansionZoom: feature.properties.expansion_zoom, coordinates: feature.geometry.coordinates };
    const box = canvas.getBoundingClientRect();
    const at = { clientX: box.left + point.x, clientY: box.top + point.y, bubbles: true, cancelable: true, button: 0 };
    const moved = new Promise((resolve) => map.once("moveend", resolve));
    for (const type of ["mousedown", "mouseup", "click"]) canvas.dispatchEvent(new MouseEvent(type, at));
    await Promise.race([moved, sleep(10000)]);
    await Promise.race([new Promise((resolve) => map.once("idle", resolve)), sleep(10000)]);
    report.after = { zoom: map.getZoom(), center: map.getCenter().toArray() };
    // The biggest cluster still drawn within 30 px of where the clicked one stood: its members must have parted.
    const here = map.project(feature.geometry.coordinates);
    report.after.countsNearby = map.queryRenderedFeatures(
      [[here.x - 30, here.y - 30], [here.x + 30, here.y + 30]], { layers })
      .map((nearby) => nearby.properties.point_count ?? 1);
    for (let wait = 0; wait < 50 && !document.querySelector(".declutter-popup li"); wait++) await sleep(100);
    const popup = document.querySelector(".declutter-popup");
    report.popup = { text: popup?.textContent ?? null,
                     items: [...document.querySelectorAll(".declutter-popup li")].map((item) => item.textContent) };
    const legend = document.querySelector(".declutter-legend");
    report.legend = legend && { title: legend.querySelector("strong")?.textContent ?? null,
      rows: [...legend.querySelectorAll(".row")].map((row) => ({ name: row.querySelector(".name").textContent,
        count: row.querySelector(".count").textContent, color: row.querySelector(".dot").style.background })) };
    const rangePath = parameters.get("range");
    if (rangePath) {
      const response = await fetch(rangePath, { headers: { Range: "bytes=0-126" } });
      const bytes = new Uint8Array(await response.arrayBuffer());
      report.range = { status: response.status, contentRange: response.headers.get("Content-Range"),
                       length: bytes.length, magic: new TextDecoder().decode(bytes.slice(0, 7)), version: bytes[7] };
    }
    send();
  }
})();
