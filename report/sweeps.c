/* A kernel's newest sweeps and their points, loaded into the caller's
 * array: the loop kernels' own reports share. */
#include <stdlib.h>
#include <string.h>

#include "report.h"

int report_load_sweeps(sqlite3 *db, const char *platform, const struct report_sweeps *how, void **out, size_t *n,
		       struct tune_error *err)
{
	sqlite3_stmt *q = NULL, *pts = NULL;
	int rc;

	*out = NULL;
	*n = 0;
	if (sqlite3_prepare_v2(db, how->sweeps_sql, -1, &q, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db, how->points_sql, -1, &pts, NULL) != SQLITE_OK) {
		rc = tune_fail(err, TUNE_ERR_STORE, "cannot read %s: %s", how->what, store_errmsg(db));
		goto out;
	}
	if (platform)
		sqlite3_bind_text(q, 1, platform, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		char *nv = realloc(*out, (*n + 1) * how->size), *elem;

		if (!nv) {
			rc = tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
			goto out;
		}
		*out = nv;
		elem = nv + (*n)++ * how->size;
		memset(elem, 0, how->size);
		how->sweep(q, elem);
		sqlite3_reset(pts);
		sqlite3_bind_int64(pts, 1, sqlite3_column_int64(q, 3));
		while ((rc = sqlite3_step(pts)) == SQLITE_ROW && how->point(pts, elem) == 0)
			;
		if (rc != SQLITE_ROW && rc != SQLITE_DONE)
			break;
	}
	rc = rc == SQLITE_DONE ? 0 : tune_fail(err, TUNE_ERR_STORE, "cannot read %s: %s", how->what, store_errmsg(db));
out:
	sqlite3_finalize(q);
	sqlite3_finalize(pts);
	if (rc) {
		free(*out);
		*out = NULL;
		*n = 0;
	}
	return rc;
}
