/* zh_int.h - declarations shared inside libzh, not installed. */
#ifndef ZH_INT_H
#define ZH_INT_H
#include "zh.h"

/* Could the piece on 'from' reach 'to' by its movement alone (ignoring
 * checks and pins)?  Pawns: pushes, double steps and captures. */
bool zh__reaches(const struct zh_pos *p, int from, int to);
#endif
