/* The measured samples as CSV, in the columns a kernel declares: the view
 * <kernel>_csv of its views file, a row per sample. Its columns are the
 * CSV's, in its order, but for those that say whose row it is (platform,
 * host, fingerprint), which only select; a column _all_<name> is <name>,
 * added after them for --columns all; _order orders the rows. A cell may be
 * typed as a table's (cell.c): the chase's ns per lookup is C's %.4f, its
 * checksum an unsigned 64-bit integer, so that its CSV is amaco2's byte
 * for byte. What a view holds is the database's: its fields are escaped
 * (escape_csv_field). */
#include <stdlib.h>
#include <string.h>

#include "../tuner/base/names.h"
#include "../tuner/base/strbuf.h"
#include "declared_internal.h"
#include "escape.h"
#include "report.h"

/* "own" was named for the chase's, amaco2's: the name is kept. */
const char *const report_csv_column_names[] = { "amaco2", "all", "own", NULL };

/* SQL: the kernel_views row k records its kernel's CSV view. */
#define CSV_SQL_IS_VIEW(k) k "name = " k "kernel || '_csv'"

/* The kernels with a CSV view and trials, a comma-separated list into
 * list, *n of them, the first into first (a database the chase never
 * measured has its view, which migration 17 made). */
static int csv_kernels(sqlite3 *db, struct strbuf *list, int *n, char *first, size_t len, struct tune_error *err)
{
	sqlite3_stmt *q = NULL;
	int rc;

	if (sqlite3_prepare_v2(db, "SELECT k.kernel FROM kernel_views k JOIN sqlite_master m ON m.name = k.name AND"
			       " m.type = 'view' WHERE " CSV_SQL_IS_VIEW("k.") " AND EXISTS (SELECT 1 FROM trials t WHERE"
			       " t.kernel = k.kernel) ORDER BY k.kernel", -1, &q, NULL) !=
	    SQLITE_OK)
		return tune_fail(err, TUNE_ERR_STORE, "cannot read the kernels' views: %s", store_errmsg(db));
	*n = 0;
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		if (!(*n)++)
			snprintf(first, len, "%s", report_text(q, 0, ""));
		strbuf_addf(list, "%s%s", *n > 1 ? ", " : "", report_text(q, 0, ""));
	}
	sqlite3_finalize(q);
	return rc == SQLITE_DONE ? 0 : tune_fail(err, TUNE_ERR_STORE, "cannot read the kernels' views: %s",
						 store_errmsg(db));
}

/* Whether the database holds any trial. */
static int measured(sqlite3 *db)
{
	sqlite3_stmt *q = NULL;
	int any = sqlite3_prepare_v2(db, "SELECT 1 FROM trials LIMIT 1", -1, &q, NULL) == SQLITE_OK &&
		  sqlite3_step(q) == SQLITE_ROW;

	sqlite3_finalize(q);
	return any;
}

/* Whether column name is a CSV column of the column set (0 no, 1 as it is,
 * 2 past its "_all_"). */
static int csv_column(const char *name, int columns)
{
	if (!name || !strcmp(name, "platform") || !strcmp(name, "host") || !strcmp(name, "fingerprint"))
		return 0;
	if (!strncmp(name, "_all_", 5))
		return columns == REPORT_CSV_ALL && name[5] ? 2 : 0;
	return name[0] != '_';
}

/* One field: a typed cell formatted, else its text; escaped. */
static void csv_field(FILE *out, sqlite3_stmt *q, int col, int first, const char *view, int *warned)
{
	char text[160], why[200];
	json_t *value = NULL;
	int kind = report_typed_cell(report_text(q, col, NULL), text, sizeof(text), &value, why, sizeof(why));

	json_decref(value);
	if (!first)
		fputc(',', out);
	if (kind < 0 && !(*warned)++) {
		char v[200], w[300];

		names_show(view, 0, v, sizeof(v));
		names_show(why, 0, w, sizeof(w));
		fprintf(stderr, "tune: warning: the CSV view '%s': %s\n", v, w);
	}
	escape_csv_field(out, kind > 0 ? text : kind < 0 ? "?" : report_text(q, col, ""));
}

static int write_csv(sqlite3 *db, const char *kernel, const char *platform, int columns, FILE *out, size_t *rows,
		     struct tune_error *err)
{
	sqlite3_stmt *q = NULL;
	char *view = sqlite3_mprintf("%s_csv", kernel), *sql = NULL;
	int rc, ncols, first = 1, warned = 0, ordered = 0, has_platform = 0;

	if (!view)
		return tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
	/* Its columns first: whether it orders and can be filtered. */
	sql = sqlite3_mprintf("SELECT * FROM \"%w\" LIMIT 0", view);
	if (sql && sqlite3_prepare_v2(db, sql, -1, &q, NULL) == SQLITE_OK) {
		ordered = declared_column(q, "_order") >= 0;
		has_platform = declared_column(q, "platform") >= 0;
	}
	sqlite3_finalize(q);
	sqlite3_free(sql);
	q = NULL;
	sql = sqlite3_mprintf("SELECT * FROM \"%w\"%s%s", view, has_platform ? " WHERE (?1 IS NULL OR platform = ?1)" : "",
			      ordered ? " ORDER BY _order" : "");
	if (!sql || sqlite3_prepare_v2(db, sql, -1, &q, NULL) != SQLITE_OK) {
		rc = tune_fail(err, TUNE_ERR_STORE, "cannot read the CSV view '%s': %s", view,
			       sql ? store_errmsg(db) : "out of memory");
		goto out;
	}
	if (platform && !has_platform) {
		rc = tune_fail(err, TUNE_ERR_STORE, "the CSV view '%s' has no column platform to select --platform %s by",
			       view, platform);
		goto out;
	}
	if (has_platform)
		sqlite3_bind_text(q, 1, platform, -1, SQLITE_STATIC);
	ncols = sqlite3_column_count(q);
	while ((rc = sqlite3_step(q)) == SQLITE_ROW && sqlite3_column_count(q) == ncols) {
		/* The header with the first row (none without one): the kernel's
		 * columns, then those of --columns all. */
		for (int pass = 1; !*rows && pass <= 2; pass++)
			for (int i = 0; i < ncols; i++)
				if (csv_column(sqlite3_column_name(q, i), columns) == pass) {
					if (!first)
						fputc(',', out);
					escape_csv_field(out, sqlite3_column_name(q, i) + (pass == 2 ? 5 : 0));
					first = 0;
				}
		if (!*rows)
			fputc('\n', out);
		first = 1;
		for (int pass = 1; pass <= 2; pass++)
			for (int i = 0; i < ncols; i++)
				if (csv_column(sqlite3_column_name(q, i), columns) == pass) {
					csv_field(out, q, i, first, view, &warned);
					first = 0;
				}
		fputc('\n', out);
		(*rows)++;
	}
	rc = rc == SQLITE_DONE || rc == SQLITE_ROW ? 0 :
		tune_fail(err, TUNE_ERR_STORE, "cannot read the CSV view '%s': %s", view, store_errmsg(db));
out:
	sqlite3_finalize(q);
	sqlite3_free(sql);
	sqlite3_free(view);
	return rc;
}

int report_csv(sqlite3 *db, const char *platform, const char *kernel, int columns, FILE *out, size_t *rows,
	       struct tune_error *err)
{
	struct strbuf list = STRBUF_INIT;
	char first[256] = "";
	int n = 0, rc = csv_kernels(db, &list, &n, first, sizeof(first), err);

	*rows = 0;
	if (!rc && kernel) {
		/* Named: it must be one of them, whole. */
		char *named = sqlite3_mprintf("%s_csv", kernel);
		sqlite3_stmt *q = NULL;
		int found = 0;

		if (named && sqlite3_prepare_v2(db, "SELECT 1 FROM kernel_views k JOIN sqlite_master m ON m.name = k.name"
						" AND m.type = 'view' WHERE k.kernel = ?1 AND " CSV_SQL_IS_VIEW("k."), -1, &q,
						NULL) == SQLITE_OK) {
			sqlite3_bind_text(q, 1, kernel, -1, SQLITE_STATIC);
			found = sqlite3_step(q) == SQLITE_ROW;
		}
		sqlite3_finalize(q);
		sqlite3_free(named);
		if (!found)
			rc = tune_fail(err, TUNE_ERR_EMPTY, "export: kernel '%s' declares no CSV (a view %s_csv in its views "
				       "file; those that do: %s)", kernel, kernel, n ? strbuf_str(&list) : "none");
	} else if (!rc && n == 0 && measured(db)) {
		rc = tune_fail(err, TUNE_ERR_EMPTY, "export: no kernel in this database declares a CSV of its samples "
			       "(a view <kernel>_csv in its views file)");
	} else if (!rc && n == 0) {
		strbuf_release(&list);
		return 0; /* nothing measured: no rows, which the caller says */
	} else if (!rc && n > 1) {
		rc = tune_fail(err, TUNE_ERR_USAGE, "export: several kernels declare a CSV (%s): say which with "
			       "--kernel K", strbuf_str(&list));
	}
	if (!rc)
		rc = write_csv(db, kernel ? kernel : first, platform, columns == 2 ? REPORT_CSV_OWN : columns, out, rows,
			       err);
	strbuf_release(&list);
	return rc;
}
