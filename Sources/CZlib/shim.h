#ifndef DECLUTTER_CZLIB_SHIM_H
#define DECLUTTER_CZLIB_SHIM_H

#include <zlib.h>

#endif
