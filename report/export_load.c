/* Who decided each platform's optima, for the exports. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "export_internal.h"
#include "report.h"

static int identity_row(sqlite3_stmt *q, void *arg, struct tune_error *err)
{
	struct platform_optima *po = arg;

	(void)err;
	report_column_text(q, 0, po->host, sizeof(po->host));
	report_column_text(q, 1, po->fingerprint, sizeof(po->fingerprint));
	report_column_text(q, 2, po->arch, sizeof(po->arch));
	report_column_text(q, 3, po->decided, sizeof(po->decided));
	return 0;
}

int export_load(sqlite3 *db, const char *platform, struct platform_optima *po, struct tune_error *err)
{
	int rc;

	memset(po, 0, sizeof(*po));
	po->name = platform;
	rc = report_each_row(db,
			     "SELECT o.host, o.fingerprint, p.arch, o.decided FROM optima o"
			     " JOIN current_fingerprints USING (platform, host, fingerprint)"
			     " JOIN platforms p ON p.name = o.platform WHERE o.platform = ?1"
			     " ORDER BY o.decided DESC, o.id DESC LIMIT 1", platform, "optima", identity_row, po, err);
	if (!rc && !po->decided[0])
		rc = tune_fail(err, TUNE_ERR_EMPTY, "no optima for platform '%s' in the database (run 'tune "
			       "--platform %s' first)", platform, platform);
	return rc;
}

int export_load_all(sqlite3 *db, const char *const *platforms, size_t n, struct platform_optima **out,
		    struct tune_error *err)
{
	int rc = 0;

	*out = calloc(n ? n : 1, sizeof(**out));
	if (!*out)
		return tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
	for (size_t i = 0; i < n && !rc; i++)
		rc = export_load(db, platforms[i], &(*out)[i], err);
	return rc;
}

void export_now_utc(char *out, size_t len)
{
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(out, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}
