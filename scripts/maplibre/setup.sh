# Sourced by scripts/maplibre-check and scripts/maplibre-project after scripts/python-venv.sh: `find_maplibre` sets
# $maplibre_js to the folder of the maplibre wheel's maplibre-gl.js and .css, `find_chromium` sets $chromium. Both
# call the sourcing script's `missing MESSAGE`, which exits 2.
find_maplibre() {
    # Found without importing maplibre, whose import warns about optional frameworks.
    maplibre_js=$("$python" -c 'import importlib.util, os; print(os.path.join(importlib.util.find_spec("maplibre").submodule_search_locations[0], "srcjs"))')
    [ -f "$maplibre_js/maplibre-gl.js" ] || missing "no maplibre-gl.js in $maplibre_js: did the maplibre wheel change its layout?"
}

find_chromium() {
    chromium=$(command -v chromium || command -v chromium-browser || true)
    [ -n "$chromium" ] || missing "Chromium is not installed (Debian: apt-get install chromium)"
}
