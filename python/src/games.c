/* games.c - zhkit.games (placeholder until written). */
#include "zhkit_py.h"

PyMethodDef zk_games_methods[] = { { NULL, NULL, 0, NULL } };

int
zk_games_init(PyObject *m)
{
	(void)m;
	return 0;
}
