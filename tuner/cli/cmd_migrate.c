/* tune migrate [--db FILE]: brings a database of an older schema to this
 * tune's, in place, keeping every sample. The reading commands (results,
 * report, export) leave such a file as it is and read a migrated copy; a
 * run migrates it too. */
#include <stdio.h>
#include <unistd.h>

#include "../../store/store.h"
#include "cli.h"

int cmd_migrate(int argc, char **argv, struct tune_error *err)
{
	struct cmd_options o;
	struct store *st = NULL;
	int rc, before = -1;

	if ((rc = cmd_parse_options("migrate", argc, argv, &o, err)) != 0)
		return rc;
	if (access(o.db, F_OK) != 0)
		return tune_fail(err, TUNE_ERR_STORE, "migrate: database '%s' does not exist (check the path given with "
				 "--db, or $TUNE_DB)", o.db);
	/* A file that is not a database, or of a newer schema, is store_open's to refuse. */
	if (store_schema_version(o.db, &before, tune_msg(err)) == 0 && before == STORE_SCHEMA_VERSION) {
		printf("database '%s' is already at schema %d, this tune's: nothing to migrate\n", o.db, before);
		return 0;
	}
	if (store_open(o.db, &st, tune_msg(err)) != 0)
		return TUNE_ERR_STORE;
	store_close(st);
	printf("database '%s' migrated from schema %d to %d, every sample kept\n", o.db, before, STORE_SCHEMA_VERSION);
	return 0;
}
