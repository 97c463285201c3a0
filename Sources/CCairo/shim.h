#ifndef DECLUTTER_CCAIRO_SHIM_H
#define DECLUTTER_CCAIRO_SHIM_H

#include <cairo.h>
#include <cairo-svg.h>
#include <cairo-pdf.h>
#include <pango/pangocairo.h>

#endif
