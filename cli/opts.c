/* opts.c - the options every tool takes alike (opts.h): above cli.c and
   warn.c, which each know their own part and not each other. */
#include "cli.h"
#include "opts.h"
#include "parquet_read.h"
#include "warn.h"

bool
cli_common_option(int c, const char *arg, int *status)
{
	*status = -1;
	switch (c) {
	case 'q':
		cli_quiet = 1;
		return true;
	case 'w':
	case 'W':
	case WARN_NULL:
	case WARN_ALL:
		if (warn_getopt(c, arg) != 0)
			*status = EXIT_USAGE;
		return true;
	case CLI_COLUMN:	/* the Parquet readers' (parquet_read.c) */
		if (pqr_column_map(arg) != 0) {
			cli_fail("--column: '%s' is not TAG=COLUMN", arg);
			*status = EXIT_USAGE;
		}
		return true;
	case 'V':
		cli_version();
		*status = cli_exit(EXIT_VALID);
		return true;
	}
	return false;
}
