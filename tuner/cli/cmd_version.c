#include <sqlite3.h>
#include <stdio.h>

#include "../../store/store.h"
#include "../base/version.h"
#include "cli.h"

int cmd_version(int argc, char **argv, struct tune_error *err)
{
	(void)argc;
	(void)argv;
	(void)err;
	printf("tune %s (schema %d, sqlite %s)\n", TUNE_VERSION, STORE_SCHEMA_VERSION, sqlite3_libversion());
	return 0;
}
