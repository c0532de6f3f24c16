/* tune results [--platform P ...] [--format table|md|csv|json]: the
 * amaco2-style tables, the optima and the warnings, from the database. */
#include <stdio.h>

#include "../../report/report.h"
#include "../../store/store.h"
#include "cli.h"

int cmd_results(int argc, char **argv, struct tune_error *err)
{
	struct cmd_options o;
	struct store *st = NULL;
	size_t rows = 0;
	int rc;

	if ((rc = cmd_parse_options("results", argc, argv, &o, err)) != 0)
		return rc;
	if ((rc = cmd_open_store(o.db, &st, err)) != 0)
		return rc;
	rc = report_print(store_db(st), o.platforms, o.nplatforms, o.format, stdout, &rows, err);
	if (!rc && !rows)
		rc = tune_fail(err, TUNE_ERR_EMPTY, "results: no results%s%s%s in '%s' (run 'tune --platform %s' first)",
			       o.nplatforms ? " for platform '" : "", o.nplatforms ? o.platforms[0] : "",
			       o.nplatforms ? "'" : "", o.db, o.nplatforms ? o.platforms[0] : "local");
	store_close(st);
	return rc;
}
