/* What `tune results` shows: each kernel's own tables and the generic
 * kernels', then the warnings, rendered in the format asked for. */
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../tuner/base/stats.h"
#include "report.h"

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

/* A sweep's runs and those flagged as outliers, a row each. */
static int outliers_row(sqlite3_stmt *q, void *arg, struct tune_error *err)
{
	static const char *const head[] = { "Sweep", "Runs", "Flagged", "Share", "Trials with any",
					    "Most in one trial" };
	struct rdoc *d = arg;
	size_t t = rdoc_table_for(d, "Outliers: measured runs of a modified z-score above 3.5, kept in the "
				     "statistics (a median is robust to them)", 6, head);
	long long runs = sqlite3_column_int64(q, 1), flagged = sqlite3_column_int64(q, 2);
	char nruns[24], nflagged[24], share[24], trials[48], most[600] = "-", params[400];

	(void)err;
	snprintf(nruns, sizeof(nruns), "%lld", runs);
	snprintf(nflagged, sizeof(nflagged), "%lld", flagged);
	snprintf(share, sizeof(share), "%.0f%%", runs ? 100.0 * (double)flagged / (double)runs : 0.0);
	snprintf(trials, sizeof(trials), "%lld of %lld", sqlite3_column_int64(q, 3), sqlite3_column_int64(q, 4));
	if (flagged) {
		report_params_text(report_text(q, 6, "{}"), "", params, sizeof(params));
		snprintf(most, sizeof(most), "%lld of %lld: %s %s %s", sqlite3_column_int64(q, 5),
			 sqlite3_column_int64(q, 7), report_text(q, 8, ""), report_text(q, 9, "?"), params);
	}
	{
		const char *row[] = { report_text(q, 0, ""), nruns, nflagged, share, trials, most };

		rdoc_row(d, t, row);
		rdoc_value(d, t, 4, json_pack("{s:I, s:I}", "with_outliers", (json_int_t)sqlite3_column_int64(q, 3),
					      "trials", (json_int_t)sqlite3_column_int64(q, 4)));
	}
	return 0;
}

int report_outliers(struct rdoc *d, sqlite3 *db, const char *platform, struct tune_error *err)
{
	/* Per trial its measured runs and outliers; then per sweep of the current
	 * fingerprints the totals and the trial with the most (SQLite takes the
	 * other columns of a max() from the row that has it). */
	return report_each_row(db,
			       "WITH per AS (SELECT t.sweep_id, t.params, t.kernel, count(*) AS n, sum(x.outlier) AS o"
			       " FROM trials t JOIN samples x ON x.trial_id = t.id AND x.warmup = 0 GROUP BY t.id)"
			       " SELECT s.name, sum(per.n), sum(per.o), sum(per.o > 0), count(*), max(per.o), per.params,"
			       " per.n, per.kernel, json_extract(per.params, '$.variant') FROM " REPORT_SQL_CURRENT_SWEEPS
			       " JOIN per ON per.sweep_id = s.id"
			       " WHERE (?1 IS NULL OR p.name = ?1) GROUP BY s.id ORDER BY s.id",
			       platform, "outliers", outliers_row, d, err);
}

/* What the kernels' probes measured of a host, a row per field. */
static int probes_row(sqlite3_stmt *q, void *arg, struct tune_error *err)
{
	static const char *const head[] = { "Host", "Kernel", "Probe", "Field", "Value", "Measured" };
	struct rdoc *d = arg;
	size_t t = rdoc_table_for(d, "Probes: what each kernel's probe (its manifest's probe:) measured of the "
				     "host", 6, head);
	char value[48];

	(void)err;
	snprintf(value, sizeof(value), "%.4g", sqlite3_column_double(q, 4));
	{
		const char *row[] = { report_text(q, 0, ""), report_text(q, 1, ""), report_text(q, 2, ""),
				      report_text(q, 3, ""), value, report_text(q, 5, "") };
		const char *units[] = { NULL, NULL, NULL, NULL, strstr(report_text(q, 3, ""), "_ns") ? "ns" : NULL,
					NULL };

		rdoc_row(d, t, row);
		rdoc_units(d, t, units);
		rdoc_value(d, t, 4, json_real(sqlite3_column_double(q, 4)));
	}
	return 0;
}

int report_probes(struct rdoc *d, sqlite3 *db, const char *platform, struct tune_error *err)
{
	/* The hosts a platform's current results were measured on. */
	return report_each_row(db,
			       "SELECT h.hostname, hp.kernel, hp.probe, hp.field, hp.value, hp.measured FROM host_probes hp"
			       " JOIN hosts h ON h.id = hp.host_id WHERE h.hostname IN (SELECT c.host FROM"
			       " current_fingerprints c WHERE ?1 IS NULL OR c.platform = ?1)"
			       " ORDER BY h.hostname, hp.kernel, hp.probe, hp.field",
			       platform, "probes", probes_row, d, err);
}

int report_warnings(struct rdoc *d, sqlite3 *db, const char *platform, struct tune_error *err)
{
	return report_each_row(db,
			       "SELECT s.name, s.started, s.warnings FROM " REPORT_SQL_CURRENT_SWEEPS " WHERE s.warnings IS NOT NULL AND"
			       " (?1 IS NULL OR p.name = ?1) ORDER BY s.id", platform, "warnings", warnings_row, d, err);
}

/* A failed trial, a row each. */
static int failure_row(sqlite3_stmt *q, void *arg, struct tune_error *err)
{
	static const char *const head[] = { "Sweep", "Kernel", "Variant", "Parameters", "Reason" };
	struct rdoc *d = arg;
	size_t t = rdoc_table_for(d, "Failed trials: not measured, no part of any decision (run the sweep again to retry "
				     "them)", 5, head);
	char params[400];

	(void)err;
	report_params_text(report_text(q, 3, "{}"), "", params, sizeof(params));
	{
		const char *row[] = { report_text(q, 0, ""), report_text(q, 1, ""), report_text(q, 2, ""), params,
				      report_text(q, 4, "-") };

		rdoc_row(d, t, row);
	}
	return 0;
}

int report_failures(struct rdoc *d, sqlite3 *db, const char *platform, struct tune_error *err)
{
	return report_each_row(db,
			       "SELECT s.name, t.kernel, t.variant, t.params, t.reason FROM " REPORT_SQL_CURRENT_SWEEPS
			       " JOIN trials t ON t.sweep_id = s.id WHERE t.status = 'failed' AND"
			       " (?1 IS NULL OR p.name = ?1) ORDER BY s.id, t.id", platform, "failed trials", failure_row, d,
			       err);
}

int report_all(struct rdoc *d, sqlite3 *db, const char *const *platforms, size_t np, struct tune_error *err)
{
	int rc = 0;

	rc = report_declared_overviews(d, db, platforms, np, err);
	for (size_t p = 0; !rc && p < (np ? np : 1); p++) {
		const char *platform = np ? platforms[p] : NULL;

		if ((rc = report_declared_tables(d, db, platform, err)) == 0 &&
		    (rc = report_kernels(d, db, platform, err)) == 0 &&
		    (rc = report_outliers(d, db, platform, err)) == 0 && (rc = report_probes(d, db, platform, err)) == 0 &&
		    (rc = report_warnings(d, db, platform, err)) == 0)
			rc = report_failures(d, db, platform, err);
	}
	return rc;
}

const char *const report_format_names[] = { "table", "md", "csv", "json", "html", NULL };

int report_print(sqlite3 *db, const char *const *platforms, size_t np, const struct report_output *how,
		 size_t *rows, struct tune_error *err)
{
	struct rdoc *d = rdoc_new();
	int rc;

	*rows = 0;
	if (!d)
		return tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
	rc = report_headline(d, db, platforms, np, err);
	if (!rc)
		rc = report_all(d, db, platforms, np, err);
	*rows = rdoc_rows(d);
	if (!rc && *rows && how->table)
		rc = rdoc_keep_tables(d, how->table, err);
	if (!rc && *rows && how->csv_dir)
		rc = rdoc_csv_files(d, how->csv_dir, how->out, err);
	else if (!rc && *rows)
		rc = rdoc_render(d, how->format, "tune results", how->out, err);
	rdoc_free(d);
	return rc;
}

json_t *report_interval(double median, double low, double high, long long runs, const char *numfmt, char *text,
			size_t len)
{
	json_t *v = json_pack("{s:f, s:f, s:f}", "median", median, "low", low, "high", high);
	double coverage = 0;
	char m[32], lo[32], hi[32];

	/* A count of runs no sweep reaches (a hostile database's, a declared
	 * cell's) has no coverage said: its rank would take that long. */
	if (runs > 1000000)
		runs = 0;
	/* numfmt is one of the report's own constants, or built from a digit. */
	snprintf(m, sizeof(m), numfmt, median);
	snprintf(lo, sizeof(lo), numfmt, low);
	snprintf(hi, sizeof(hi), numfmt, high);
	if (runs > 0) {
		stats_median_rank((size_t)runs, &coverage);
		json_object_set_new(v, "runs", json_integer(runs));
		json_object_set_new(v, "coverage", json_real(round(coverage * 1e4) / 1e4));
	}
	if (runs > 0 && coverage < STATS_COVERAGE)
		snprintf(text, len, "%s [%s, %s] (%.0f%%)", m, lo, hi, floor(coverage * 100));
	else
		snprintf(text, len, "%s [%s, %s]", m, lo, hi);
	return v;
}
