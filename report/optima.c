#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

/* A chase optimum's row, in a table per platform and host. */
static int optimum_row(sqlite3_stmt *q, void *arg, struct tune_error *err)
{
	static const char *const head[] = { "Working set", "Class", "Variant", "Hint", "g (fastest)",
					    "Median [95% CI]", "Runner-up", "Trials", "Decided" };
	struct rdoc *d = arg;
	size_t t;
	char runner[128] = "-", median[96], g[48], title[400], trials[24];
	json_t *ru = json_loads(report_text(q, 13, "null"), JSON_DECODE_ANY, NULL);
	const char *row[9];

	(void)err;
	/* A table per platform and host. */
	snprintf(title, sizeof(title), "Optima of platform %s on host %s", report_text(q, 0, ""), report_text(q, 1, ""));
	t = rdoc_table_for(d, title, 9, head);
	if (json_is_object(ru))
		snprintf(runner, sizeof(runner), "%s g=%lld %.1f", json_string_value(json_object_get(ru, "hint")),
			 (long long)json_integer_value(json_object_get(ru, "group_size")),
			 json_real_value(json_object_get(ru, "median")));
	json_decref(ru);
	snprintf(median, sizeof(median), "%.1f [%.1f, %.1f]", sqlite3_column_double(q, 10),
		 sqlite3_column_double(q, 11), sqlite3_column_double(q, 12));
	snprintf(g, sizeof(g), "%lld (%lld)", sqlite3_column_int64(q, 7), sqlite3_column_int64(q, 8));
	snprintf(trials, sizeof(trials), "%lld", sqlite3_column_int64(q, 14));
	row[0] = report_size_label(sqlite3_column_int64(q, 3));
	row[1] = report_text(q, 4, "");
	row[2] = report_text(q, 5, "");
	row[3] = report_text(q, 6, "");
	row[4] = g;
	row[5] = median;
	row[6] = runner;
	row[7] = trials;
	row[8] = report_text(q, 15, "");
	rdoc_row(d, t, row);
	return 0;
}

int report_optima(struct rdoc *d, sqlite3 *db, const char *platform, struct tune_error *err)
{
	return report_each_row(db,
			       "SELECT o.platform, o.host, o.fingerprint, o.size_mb, o.size_class, o.variant,"
			       " COALESCE(o.hint, '-'), o.group_size, o.best_group_size, o.hugepages, o.median, o.ci_low,"
			       " o.ci_high, o.runner_up, o.trials, o.decided FROM optima o JOIN current_fingerprints"
			       " USING (platform, host, fingerprint) WHERE (?1 IS NULL OR o.platform = ?1)"
			       " AND o.kernel = 'chase' ORDER BY o.platform, o.host, o.size_mb", platform, "optima", optimum_row, d, err);
}

/* A sweep's warnings, a row each. */
static int warnings_row(sqlite3_stmt *q, void *arg, struct tune_error *err)
{
	static const char *const head[] = { "Sweep", "Started", "Warning" };
	struct rdoc *d = arg;
	size_t t = rdoc_table_for(d, "Warnings", 3, head);
	char *w = strdup(report_text(q, 2, "")), *save = NULL;

	(void)err;
	for (char *line = w ? strtok_r(w, "\n", &save) : NULL; line; line = strtok_r(NULL, "\n", &save)) {
		const char *row[3] = { report_text(q, 0, ""), report_text(q, 1, ""), line };

		rdoc_row(d, t, row);
	}
	free(w);
	return 0;
}

int report_warnings(struct rdoc *d, sqlite3 *db, const char *platform, struct tune_error *err)
{
	return report_each_row(db,
			       "SELECT s.name, s.started, s.warnings FROM sweeps s JOIN platforms p ON p.id = s.platform_id"
			       " JOIN hosts h ON h.id = s.host_id JOIN current_fingerprints c ON c.platform = p.name AND"
			       " c.host = h.hostname AND c.fingerprint = s.fingerprint WHERE s.warnings IS NOT NULL AND"
			       " (?1 IS NULL OR p.name = ?1) ORDER BY s.id", platform, "warnings", warnings_row, d, err);
}

int report_all(struct rdoc *d, sqlite3 *db, const char *const *platforms, size_t np, struct tune_error *err)
{
	int rc = report_tables(d, db, platforms, np, err);

	for (size_t p = 0; !rc && p < (np ? np : 1); p++) {
		if ((rc = report_optima(d, db, np ? platforms[p] : NULL, err)) == 0 &&
		    (rc = report_ipa(d, db, np ? platforms[p] : NULL, err)) == 0 &&
		    (rc = report_sched(d, db, np ? platforms[p] : NULL, err)) == 0 &&
		    (rc = report_kernels(d, db, np ? platforms[p] : NULL, err)) == 0)
			rc = report_warnings(d, db, np ? platforms[p] : NULL, err);
	}
	return rc;
}

const char *const report_format_names[] = { "table", "md", "csv", "json", "html", NULL };

int report_print(sqlite3 *db, const char *const *platforms, size_t np, int format, FILE *out, size_t *rows,
		 struct tune_error *err)
{
	struct rdoc *d = rdoc_new();
	int rc;

	*rows = 0;
	if (!d)
		return tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
	rc = report_all(d, db, platforms, np, err);
	*rows = rdoc_rows(d);
	if (!rc && *rows)
		rc = rdoc_render(d, format, "tune results", out, err);
	rdoc_free(d);
	return rc;
}
