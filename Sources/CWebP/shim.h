#ifndef DECLUTTER_CWEBP_SHIM_H
#define DECLUTTER_CWEBP_SHIM_H

#include <webp/decode.h>

#endif
