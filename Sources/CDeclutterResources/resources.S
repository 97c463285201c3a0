// The files compiled into every Declutter binary, so that a copied `declutter` needs no folder beside it: the styles,
// the basemap, the demo's data and the example inputs that `declutter demo --write-examples` writes out.
//
// `.incbin` paths are relative to the package root (the target's header search path). The assembler does
// not report included files as dependencies: after changing one of them, touch this file, or
// `BundledFilesTests` fails because the embedded copy differs from the file.

#if defined(__APPLE__)
#define SYMBOL(name) _##name
    .section __TEXT,__const
#else
#define SYMBOL(name) name
    .section .rodata
#endif

#define EMBED(name, path)            \
    .global SYMBOL(name);            \
    .balign 16;                      \
SYMBOL(name):                        \
    .incbin path;                    \
    .global SYMBOL(name##_end);      \
SYMBOL(name##_end):

EMBED(declutter_style_default, "Styles/default.json")
EMBED(declutter_style_tandm, "Styles/tandm.json")
EMBED(declutter_style_airports, "Styles/airports.json")
EMBED(declutter_glyph_bicycle, "Styles/tandm/Bicycle.png")
EMBED(declutter_glyph_bicycle_2x, "Styles/tandm/Bicycle_2x.png")
EMBED(declutter_glyph_tricycle, "Styles/tandm/Tricycle.png")
EMBED(declutter_glyph_tricycle_2x, "Styles/tandm/Tricycle_2x.png")
EMBED(declutter_glyph_unicycle, "Styles/tandm/Unicycle.png")
EMBED(declutter_glyph_unicycle_2x, "Styles/tandm/Unicycle_2x.png")
EMBED(declutter_demo_airports, "Sources/CDeclutterResources/Demo/airports.csv")
EMBED(declutter_demo_tandm, "Sources/CDeclutterResources/Demo/tandm-Data.plist")
EMBED(declutter_basemap, "Sources/CDeclutterResources/Basemap/basemap.bin")
EMBED(declutter_example_actual_png, "Examples/actual.png")
EMBED(declutter_example_aegean_csv, "Examples/aegean.csv")
EMBED(declutter_example_airports_LICENSE, "Examples/airports.LICENSE")
EMBED(declutter_example_airports_csv, "Examples/airports.csv")
EMBED(declutter_example_broken_json, "Examples/broken.json")
EMBED(declutter_example_expected_png, "Examples/expected.png")
EMBED(declutter_example_gesture_json, "Examples/gesture.json")
EMBED(declutter_example_places_csv, "Examples/places.csv")
EMBED(declutter_example_route_geojson, "Examples/route.geojson")
EMBED(declutter_example_scene_json, "Examples/scene.json")
EMBED(declutter_example_shops_csv, "Examples/shops.csv")
EMBED(declutter_example_stops_geojson, "Examples/stops.geojson")
EMBED(declutter_example_tandm_plist, "Examples/tandm.plist")

#if !defined(__APPLE__)
    .section .note.GNU-stack,"",@progbits
#endif
