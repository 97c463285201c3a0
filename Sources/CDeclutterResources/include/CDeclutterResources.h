#ifndef C_DECLUTTER_RESOURCES_H
#define C_DECLUTTER_RESOURCES_H

#include <stddef.h>

/// The number of files compiled into the binary.
size_t declutter_resource_count(void);

/// The package-relative path of file `index` (such as "Styles/tandm.json"), or NULL past the end.
const char *declutter_resource_name(size_t index);

/// The bytes of file `index` and their count, or NULL past the end.
const unsigned char *declutter_resource_bytes(size_t index, size_t *count);

#endif
