/* tune report --platform P [--platform Q ...] [-o DIR]: charts (PNG and SVG)
 * and a self-contained HTML report. */
#include "../../report/report.h"
#include "../../store/store.h"
#include "cli.h"

int cmd_report(int argc, char **argv, struct tune_error *err)
{
	struct cmd_options o;
	struct store *st = NULL;
	int rc;

	if ((rc = cmd_parse_options("report", argc, argv, &o, err)) != 0)
		return rc;
	if (!o.nplatforms)
		return tune_fail(err, TUNE_ERR_USAGE, "report: which platform? (tune report --platform local [-o DIR])");
	if ((rc = cmd_open_store(o.db, &st, err)) != 0)
		return rc;
	rc = report_html(store_db(st), o.platforms, o.nplatforms, o.output ? o.output : "tune-report", err);
	store_close(st);
	return rc;
}
