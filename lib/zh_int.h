/* zh_int.h - declarations shared inside libzh, not installed. */
#ifndef ZH_INT_H
#define ZH_INT_H
#include "zh.h"

/* Could the piece on 'from' reach 'to' by its movement alone (ignoring
 * checks and pins)?  Pawns: pushes, double steps and captures. */
bool zh__reaches(const struct zh_pos *p, int from, int to);
/* Legal non-drop moves of the side to move's pieces of 'type' to 'to'
 * (all promotion choices); returns their number. */
int zh__moves_to(const struct zh_pos *p, int type, int to, struct zh_move *out);
/* Is dropping 'type' on 'to' legal? */
bool zh__drop_ok(const struct zh_pos *p, int type, int to);
/* SAN of a legal move without the check/mate suffix; returns the length. */
size_t zh__san_body(const struct zh_pos *p, struct zh_move m, int d, char *buf);
/* The same, told how many legal moves of the piece's type reach the
 * square (-1: not known; 1: no disambiguation needed). */
size_t zh__san_body_n(const struct zh_pos *p, struct zh_move m, int d,
    char *buf, int ncand);
/* zh_san_read, also telling that number when the fast path knew it. */
int zh__san_read_n(const struct zh_pos *p, const char *s, size_t n,
    struct zh_move *m, struct zh_error *err, int *ncand);
#endif
