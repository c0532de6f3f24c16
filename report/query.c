/* Reading the store for the reports: one query's rows handed to a callback
 * (prepare, bind the platform, step, finalize and the error said once), the
 * columns as text, and the arrays the loaders grow. */
#include <stdlib.h>
#include <string.h>

#include "report.h"

int report_each_row(sqlite3 *db, const char *sql, const char *platform, const char *what,
		    int (*row)(sqlite3_stmt *q, void *arg, struct tune_error *err), void *arg, struct tune_error *err)
{
	sqlite3_stmt *q = NULL;
	int rc, stop = 0;

	if (sqlite3_prepare_v2(db, sql, -1, &q, NULL) != SQLITE_OK)
		return tune_fail(err, TUNE_ERR_STORE, "cannot read %s: %s", what, store_errmsg(db));
	if (platform)
		sqlite3_bind_text(q, 1, platform, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(q, 1);
	while (!stop && (rc = sqlite3_step(q)) == SQLITE_ROW)
		stop = row(q, arg, err);
	sqlite3_finalize(q);
	if (stop)
		return stop;
	return rc == SQLITE_DONE ? 0 : tune_fail(err, TUNE_ERR_STORE, "cannot read %s: %s", what, store_errmsg(db));
}

void *report_grow(void *v, size_t *n, size_t size)
{
	void **array = v;
	char *nv = realloc(*array, (*n + 1) * size);

	if (!nv)
		return NULL;
	*array = nv;
	memset(nv + *n * size, 0, size);
	return nv + (*n)++ * size;
}

const char *report_text(sqlite3_stmt *q, int col, const char *dflt)
{
	const unsigned char *t = sqlite3_column_text(q, col);

	return t ? (const char *)t : dflt;
}

void report_column_text(sqlite3_stmt *q, int col, char *out, size_t len)
{
	const unsigned char *t = sqlite3_column_text(q, col);

	snprintf(out, len, "%s", t ? (const char *)t : "");
}
