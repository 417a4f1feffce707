/* gif.c - animated GIF (to come). */
#include <stdlib.h>
#include "draw.h"

struct draw_gif *draw_gif_new(int delay, int last) { (void)delay; (void)last; return NULL; }
int draw_gif_frame(struct draw_gif *g, const struct draw_scene *sc) { (void)g; (void)sc; return -1; }
void draw_gif_end(struct draw_gif *g, struct draw_buf *out) { (void)g; out->fail = true; }
void draw_gif_free(struct draw_gif *g) { (void)g; }
