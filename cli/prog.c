/* prog.c - the tool's name, which every message of cli/ starts with: the
   lowest layer (tmpout.c's messages from a signal need it, and cli.c
   needs tmpout.c). */
#include "cli.h"

const char *cli_prog = "zhkit";
