/* board.c - zhkit.Board (placeholder until written). */
#include "zhkit_py.h"

int
zk_board_init(PyObject *m)
{
	(void)m;
	return 0;
}
