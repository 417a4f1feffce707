/*
 * error.c - the library's one error report: a code, the column it was
 * found at and a line of text, set once (the first error found is the
 * one a caller sees) and cleared by the caller.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "zh_int.h"

void
zh_error_set(struct zh_error *err, int code, long col, const char *fmt, ...)
{
	va_list ap;

	if (err == NULL || err->code != ZH_OK)
		return;
	err->code = code;
	err->col = col;
	va_start(ap, fmt);
	vsnprintf(err->text, sizeof err->text, fmt, ap);
	va_end(ap);
}

void
zh_error_clear(struct zh_error *err)
{
	if (err != NULL)
		memset(err, 0, sizeof *err);
}
