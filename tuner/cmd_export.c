/* tune export csv [--platform P] [-o FILE]: the samples in amaco2's CSV. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "../report/report.h"
#include "../store/store.h"
#include "cmd_options.h"
#include "commands.h"

int cmd_export(int argc, char **argv, struct tune_error *err)
{
	struct cmd_options o;
	struct store *st = NULL;
	FILE *out = stdout;
	size_t rows = 0;
	int rc;

	if ((rc = cmd_parse_options("export", argc, argv, "dpo", &o, err)) != 0)
		return rc;
	if (o.nargs < 1 || strcmp(o.args[0], "csv") != 0)
		return tune_fail(err, TUNE_ERR_USAGE, "export: %s%s%s (tune export csv [--platform P] [-o FILE])",
				 o.nargs ? "unknown format '" : "which format?", o.nargs ? o.args[0] : "",
				 o.nargs ? "'; this tune writes csv" : "");
	if (o.nplatforms > 1)
		return tune_fail(err, TUNE_ERR_USAGE, "export: one --platform at a time");
	if ((rc = cmd_open_store(o.db, &st, err)) != 0)
		return rc;
	if (o.output && strcmp(o.output, "-") != 0 && !(out = fopen(o.output, "w"))) {
		rc = tune_fail(err, TUNE_ERR_SYSTEM, "export: cannot write '%s': %s", o.output, strerror(errno));
		goto out;
	}
	rc = report_csv(store_db(st), o.nplatforms ? o.platforms[0] : NULL, out, &rows, err);
	if (out != stdout && fclose(out) != 0 && !rc)
		rc = tune_fail(err, TUNE_ERR_SYSTEM, "export: cannot write '%s': %s", o.output, strerror(errno));
	if (!rc && !rows)
		fprintf(stderr, "tune: no samples to export from '%s' (run 'tune --platform local' first)\n", o.db);
out:
	store_close(st);
	return rc;
}
