/* npyrec-dump.c - cli/npyrec.h's tables as text, one field a line:
   "TABLE NAME TYPE SHAPE OFFSET BYTES" (SHAPE "()" for a scalar), then
   "TABLE SIZE BYTES".  Built and run by tests/arrays-layout.bats. */
#include <stdio.h>

#include "npyrec.h"

#define DUMP(rec, name, type, shape, bytes) \
	printf("%s %s %s %s %d %d\n", #rec, #name, type, \
	    shape ? (const char *)shape : "()", NPY_##rec##_##name, bytes);

int
main(void)
{
	/* a shape's spaces as the header writes them: "(2, 8)" -> "(2,8)" */
	NPY_POS_FIELDS(DUMP)
	printf("POS SIZE %d\n", NPY_POS_SIZE);
	NPY_BUG_FIELDS(DUMP)
	printf("BUG SIZE %d\n", NPY_BUG_SIZE);
	NPY_GAME_FIELDS(DUMP)
	printf("GAME SIZE %d\n", NPY_GAME_SIZE);
	return 0;
}
