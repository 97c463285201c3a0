#ifndef DECLUTTER_CLIBDEFLATE_SHIM_H
#define DECLUTTER_CLIBDEFLATE_SHIM_H

#include <libdeflate.h>

#endif
