/* tune results [--platform P ...] [--format table|md|csv|json] [--table NAME]
 * [-o DIR]: the amaco2-style tables, the optima and the warnings, from the
 * database; with -o, one CSV file per table. */
#include <stdio.h>

#include "../../report/report.h"
#include "../../store/store.h"
#include "cli.h"

int cmd_results(int argc, char **argv, struct tune_error *err)
{
	struct cmd_options o;
	struct store *st = NULL;
	struct report_output how;
	size_t rows = 0;
	int rc;

	if ((rc = cmd_parse_options("results", argc, argv, &o, err)) != 0)
		return rc;
	if (o.output && o.format != REPORT_CSV)
		return tune_fail(err, TUNE_ERR_USAGE, "results: -o DIR writes one CSV file per table: give --format csv "
				 "too (the other formats go to standard output)");
	if ((rc = cmd_open_store(o.db, &st, err)) != 0)
		return rc;
	how = (struct report_output){ o.format, o.table, o.output, stdout };
	rc = report_print(store_db(st), o.platforms, o.nplatforms, &how, &rows, err);
	if (!rc && !rows) {
		char advice[CMD_PLATFORM_NAME_MAX * 2 + 128];

		cmd_no_results_advice(o.nplatforms ? o.platforms[0] : "local", advice, sizeof(advice));
		rc = tune_fail(err, TUNE_ERR_EMPTY, "results: no results%s%s%s in '%s' (%s)",
			       o.nplatforms ? " for platform '" : "", o.nplatforms ? o.platforms[0] : "",
			       o.nplatforms ? "'" : "", o.db, advice);
	}
	store_close(st);
	return rc;
}
