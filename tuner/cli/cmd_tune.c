/* tune --platform P [--quick] [--fresh]: run the platform's sweeps, then show
 * what was found. */
#include <stdio.h>

#include "../../report/report.h"
#include "../../store/store.h"
#include "../config/config.h"
#include "cli.h"

int cmd_tune(int argc, char **argv, struct tune_error *err)
{
	struct cmd_options o;
	struct store *st = NULL;
	struct platform p;
	struct tune_error rerr;
	size_t rows;
	int rc, rrc;

	if ((rc = cmd_parse_options("tune", argc, argv, &o, err)) != 0)
		return rc;
	if (!o.nplatforms) {
		if ((rc = cmd_confirm_plan("", "tune", NULL, 0, &o, err)) != 0)
			return rc;
		o.platforms[o.nplatforms++] = cmd_default_platform;
	}
	rc = cmd_run_sweeps(o.platforms[0], NULL, 0, &o, err);
	if (rc && rc != TUNE_ERR_TRIALS)
		return rc;
	/* Show what was found even when some trials failed: by the platform's
	 * name, as stored, also when it was given as a file. */
	if ((rrc = platform_load(o.platforms[0], &p, &rerr)) == 0 && (rrc = store_open(o.db, &st, rerr.msg)) == 0) {
		const char *name = p.name;

		struct report_output how = { REPORT_TABLE, NULL, NULL, stdout };

		rrc = report_print(store_db(st), &name, 1, &how, &rows, &rerr);
		store_close(st);
	}
	platform_free(&p);
	if (rrc && !rc) {
		*err = rerr;
		return rrc;
	}
	return rc;
}
