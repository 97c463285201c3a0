#ifndef DECLUTTER_CTURBOJPEG_SHIM_H
#define DECLUTTER_CTURBOJPEG_SHIM_H

#include <stddef.h>
#include <turbojpeg.h>

#endif
