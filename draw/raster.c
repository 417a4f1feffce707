/* raster.c - a scene in pixels (to come). */
#include "draw.h"

void
draw_png(const struct draw_scene *sc, struct draw_buf *out)
{
	(void)sc;
	out->fail = true;
}
