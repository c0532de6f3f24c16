/* tune report [--platform P ...] [-o DIR]: charts (PNG and SVG) and a
 * self-contained HTML report, of the platforms given, else of every
 * platform with optima. */
#include "../../report/report.h"
#include "../../store/store.h"
#include "cli.h"

int cmd_report(int argc, char **argv, struct tune_error *err)
{
	struct cmd_options o;
	struct store *st = NULL;
	char names[CMD_MAX_PLATFORMS][CMD_PLATFORM_NAME_MAX];
	const char *found[CMD_MAX_PLATFORMS];
	const char *const *platforms;
	size_t np;
	int rc;

	if ((rc = cmd_parse_options("report", argc, argv, &o, err)) != 0)
		return rc;
	if ((rc = cmd_open_store(o.db, &st, err)) != 0)
		return rc;
	platforms = o.platforms;
	np = o.nplatforms;
	if (!np && !(np = cmd_platforms_with_optima(store_db(st), found, CMD_MAX_PLATFORMS, names))) {
		store_close(st);
		return tune_fail(err, TUNE_ERR_EMPTY, "report: no optima in '%s' yet (run 'tune --platform local' first, "
				 "or name one with --platform)", o.db);
	}
	if (!o.nplatforms)
		platforms = found;
	rc = report_html(store_db(st), platforms, np, o.output ? o.output : "tune-report", err);
	store_close(st);
	return rc;
}
