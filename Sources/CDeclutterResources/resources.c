#include "CDeclutterResources.h"

// Each file's first byte and the byte after its last, laid down by resources.S.
#define FILE_SYMBOLS(name) extern const unsigned char name[]; extern const unsigned char name##_end[];
FILE_SYMBOLS(declutter_style_default)
FILE_SYMBOLS(declutter_style_tandm)
FILE_SYMBOLS(declutter_style_airports)
FILE_SYMBOLS(declutter_glyph_bicycle)
FILE_SYMBOLS(declutter_glyph_bicycle_2x)
FILE_SYMBOLS(declutter_glyph_tricycle)
FILE_SYMBOLS(declutter_glyph_tricycle_2x)
FILE_SYMBOLS(declutter_glyph_unicycle)
FILE_SYMBOLS(declutter_glyph_unicycle_2x)
FILE_SYMBOLS(declutter_demo_airports)
FILE_SYMBOLS(declutter_demo_tandm)
FILE_SYMBOLS(declutter_basemap)
FILE_SYMBOLS(declutter_example_actual_png)
FILE_SYMBOLS(declutter_example_aegean_csv)
FILE_SYMBOLS(declutter_example_airports_LICENSE)
FILE_SYMBOLS(declutter_example_airports_csv)
FILE_SYMBOLS(declutter_example_broken_json)
FILE_SYMBOLS(declutter_example_expected_png)
FILE_SYMBOLS(declutter_example_gesture_json)
FILE_SYMBOLS(declutter_example_places_csv)
FILE_SYMBOLS(declutter_example_route_geojson)
FILE_SYMBOLS(declutter_example_scene_json)
FILE_SYMBOLS(declutter_example_shops_csv)
FILE_SYMBOLS(declutter_example_stops_geojson)
FILE_SYMBOLS(declutter_example_tandm_plist)

#define ENTRY(path, name) { path, name, name##_end }
static const struct { const char *path; const unsigned char *start; const unsigned char *end; } files[] = {
    ENTRY("Styles/default.json", declutter_style_default),
    ENTRY("Styles/tandm.json", declutter_style_tandm),
    ENTRY("Styles/airports.json", declutter_style_airports),
    ENTRY("Styles/tandm/Bicycle.png", declutter_glyph_bicycle),
    ENTRY("Styles/tandm/Bicycle_2x.png", declutter_glyph_bicycle_2x),
    ENTRY("Styles/tandm/Tricycle.png", declutter_glyph_tricycle),
    ENTRY("Styles/tandm/Tricycle_2x.png", declutter_glyph_tricycle_2x),
    ENTRY("Styles/tandm/Unicycle.png", declutter_glyph_unicycle),
    ENTRY("Styles/tandm/Unicycle_2x.png", declutter_glyph_unicycle_2x),
    ENTRY("Sources/CDeclutterResources/Demo/airports.csv", declutter_demo_airports),
    ENTRY("Sources/CDeclutterResources/Demo/tandm-Data.plist", declutter_demo_tandm),
    ENTRY("Sources/CDeclutterResources/Basemap/basemap.bin", declutter_basemap),
    ENTRY("Examples/actual.png", declutter_example_actual_png),
    ENTRY("Examples/aegean.csv", declutter_example_aegean_csv),
    ENTRY("Examples/airports.LICENSE", declutter_example_airports_LICENSE),
    ENTRY("Examples/airports.csv", declutter_example_airports_csv),
    ENTRY("Examples/broken.json", declutter_example_broken_json),
    ENTRY("Examples/expected.png", declutter_example_expected_png),
    ENTRY("Examples/gesture.json", declutter_example_gesture_json),
    ENTRY("Examples/places.csv", declutter_example_places_csv),
    ENTRY("Examples/route.geojson", declutter_example_route_geojson),
    ENTRY("Examples/scene.json", declutter_example_scene_json),
    ENTRY("Examples/shops.csv", declutter_example_shops_csv),
    ENTRY("Examples/stops.geojson", declutter_example_stops_geojson),
    ENTRY("Examples/tandm.plist", declutter_example_tandm_plist),
};

size_t declutter_resource_count(void) { return sizeof files / sizeof files[0]; }

const char *declutter_resource_name(size_t index) {
    return index < declutter_resource_count() ? files[index].path : NULL;
}

const unsigned char *declutter_resource_bytes(size_t index, size_t *count) {
    if (index >= declutter_resource_count()) return NULL;
    *count = (size_t)(files[index].end - files[index].start);
    return files[index].start;
}
