/* tune results [--platform P]: the amaco2-style tables from the database. */
#include <stdio.h>

#include "../report/report.h"
#include "../store/store.h"
#include "cmd_options.h"
#include "commands.h"

int cmd_results(int argc, char **argv, struct tune_error *err)
{
	struct cmd_options o;
	struct store *st = NULL;
	size_t rows = 0;
	int rc;

	if ((rc = cmd_parse_options("results", argc, argv, "dp", &o, err)) != 0)
		return rc;
	if (o.nargs)
		return tune_fail(err, TUNE_ERR_USAGE, "results: unexpected argument '%s' (see 'tune help results')",
				 o.args[0]);
	if ((rc = cmd_open_store(o.db, &st, err)) != 0)
		return rc;
	for (size_t i = 0; i < (o.nplatforms ? o.nplatforms : 1) && !rc; i++) {
		const char *p = o.nplatforms ? o.platforms[i] : NULL;

		rc = report_all(store_db(st), p, stdout, &rows, err);
		if (!rc && !rows)
			fprintf(stderr, "tune: no results%s%s%s in '%s' yet (run 'tune --platform %s' first)\n",
				p ? " for platform '" : "", p ? p : "", p ? "'" : "", o.db, p ? p : "local");
	}
	store_close(st);
	return rc;
}
