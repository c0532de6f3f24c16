/* tune migrate [--db FILE]: brings a database of an older schema to this
 * tune's, in place, keeping every sample. The reading commands (results,
 * report, export) leave such a file as it is and read a migrated copy; a
 * run migrates it too. */
#include <sqlite3.h>
#include <stdio.h>
#include <unistd.h>

#include "../../store/store.h"
#include "cli.h"

/* The file's schema version, read without writing anything; -1 unknown. */
static int schema_of(const char *path)
{
	sqlite3 *db = NULL;
	sqlite3_stmt *q = NULL;
	int v = -1;

	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK &&
	    sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &q, NULL) == SQLITE_OK && sqlite3_step(q) == SQLITE_ROW)
		v = sqlite3_column_int(q, 0);
	sqlite3_finalize(q);
	sqlite3_close(db);
	return v;
}

int cmd_migrate(int argc, char **argv, struct tune_error *err)
{
	struct cmd_options o;
	struct store *st = NULL;
	int rc, before;

	if ((rc = cmd_parse_options("migrate", argc, argv, &o, err)) != 0)
		return rc;
	if (access(o.db, F_OK) != 0)
		return tune_fail(err, TUNE_ERR_STORE, "migrate: database '%s' does not exist (check the path given with "
				 "--db, or $TUNE_DB)", o.db);
	before = schema_of(o.db);
	if (before == STORE_SCHEMA_VERSION) {
		printf("database '%s' is already at schema %d, this tune's: nothing to migrate\n", o.db, before);
		return 0;
	}
	if (store_open(o.db, &st, tune_msg(err)) != 0)
		return TUNE_ERR_STORE;
	store_close(st);
	printf("database '%s' migrated from schema %d to %d, every sample kept\n", o.db, before, STORE_SCHEMA_VERSION);
	return 0;
}
