/* tune report: charts on disk and one self-contained HTML file with the host
 * facts, the charts (inline SVG) and every table. */
#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../tuner/base/duration.h"
#include "../tuner/base/strbuf.h"
#include "../tuner/base/version.h"
#include "../tuner/config/config.h"
#include "report.h"

/* The SVG element of a gnuplot file, without its XML prolog; free() it. */
static char *read_svg(const char *path)
{
	char *buf = paths_read_file(path, (size_t)-1 / 2), *start;

	if (buf && !*buf) {
		free(buf);
		return NULL;
	}
	if (buf && (start = strstr(buf, "<svg")) != NULL)
		memmove(buf, start, strlen(start) + 1);
	return buf;
}

/* A fact as a reader wants it: sizes in KiB, MiB or GiB, yes or no, two
 * decimals for a load. */
static void fact_text(const char *key, json_t *val, char *out, size_t len)
{
	static const char *const units[] = { "bytes", "KiB", "MiB", "GiB", "TiB" };
	size_t klen = strlen(key);

	if (json_is_integer(val) && klen > 6 && !strcmp(key + klen - 6, "_bytes")) {
		double v = (double)json_integer_value(val);
		int u = 0;

		while (v >= 1024 && u < 4)
			v /= 1024, u++;
		snprintf(out, len, u ? "%.1f %s" : "%.0f %s", v, units[u]);
	} else if (json_is_boolean(val)) {
		snprintf(out, len, "%s", json_is_true(val) ? "yes" : "no");
	} else if (json_is_real(val)) {
		snprintf(out, len, "%.2f", json_real_value(val));
	} else if (json_is_integer(val)) {
		snprintf(out, len, "%lld", (long long)json_integer_value(val));
	} else {
		snprintf(out, len, "%s", json_is_string(val) ? json_string_value(val) : "-");
	}
}

/* Each host's facts as they were when its newest sweep of the platform
 * started (a sweep's env_json), not as they are now. */
static int add_facts(struct rdoc *d, sqlite3 *db, const char *platform, struct tune_error *err)
{
	static const char *const head[] = { "Fact", "Value" };
	sqlite3_stmt *q = NULL;
	int rc;

	if (sqlite3_prepare_v2(db, "SELECT h.hostname, s.env_json, s.name, s.started FROM " REPORT_SQL_CURRENT_SWEEPS
				   " WHERE p.name = ?1 AND s.id = (SELECT max(s2.id) FROM"
				   " sweeps s2 WHERE s2.platform_id = s.platform_id AND s2.host_id = s.host_id AND"
				   " s2.fingerprint = s.fingerprint) ORDER BY h.hostname", -1, &q, NULL) != SQLITE_OK)
		return tune_fail(err, TUNE_ERR_STORE, "cannot read hosts: %s", store_errmsg(db));
	sqlite3_bind_text(q, 1, platform, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		char title[600];
		json_t *facts = json_loads(report_text(q, 1, "{}"), 0, NULL);
		const char *key;
		json_t *val;
		size_t t;

		snprintf(title, sizeof(title), "Host %s, as sweep %s found it at %s", report_text(q, 0, ""),
			 report_text(q, 2, ""), report_text(q, 3, ""));
		t = rdoc_table(d, title, 2, head);
		json_object_foreach(facts, key, val) {
			char text[512];
			const char *row[2] = { key, text };

			fact_text(key, val, text, sizeof(text));
			rdoc_row(d, t, row);
		}
		json_decref(facts);
	}
	sqlite3_finalize(q);
	return rc == SQLITE_DONE ? 0 : tune_fail(err, TUNE_ERR_STORE, "cannot read hosts: %s", store_errmsg(db));
}

/* The sweeps behind the page, each with how it ran and its warnings beside it. */
static int sweeps_row(sqlite3_stmt *q, void *arg, struct tune_error *err)
{
	static const char *const head[] = { "Sweep", "Started", "Took", "Mode", "Status", "tune", "Strategy",
					    "Runs + warm-up", "Trials", "Load at start, highest", "Compiler flags",
					    "Warnings" };
	struct rdoc *d = arg;
	size_t t = rdoc_table_for(d, "Sweeps: how each ran (the current fingerprints')", 12, head);
	char took[32], runs[48], trials[24], load[48], *warnings = strdup(report_text(q, 12, "-"));
	double s = sqlite3_column_double(q, 2);

	(void)err;
	if (sqlite3_column_type(q, 2) == SQLITE_NULL)
		snprintf(took, sizeof(took), "-");
	else
		duration_format(s, took, sizeof(took));
	snprintf(runs, sizeof(runs), "%lld + %lld", sqlite3_column_int64(q, 7), sqlite3_column_int64(q, 8));
	snprintf(trials, sizeof(trials), "%lld", sqlite3_column_int64(q, 9));
	if (sqlite3_column_type(q, 11) == SQLITE_NULL)
		snprintf(load, sizeof(load), "%.2f, -", sqlite3_column_double(q, 10));
	else
		snprintf(load, sizeof(load), "%.2f, %.2f", sqlite3_column_double(q, 10), sqlite3_column_double(q, 11));
	/* One warning a line in the database; "; " between them here. */
	for (char *p = warnings; p && *p; p++)
		if (*p == '\n')
			*p = ';';
	{
		const char *row[] = { report_text(q, 0, ""), report_text(q, 1, ""), took,
				      sqlite3_column_int(q, 3) ? "quick" : "full", report_text(q, 4, ""),
				      report_text(q, 5, ""), report_text(q, 6, ""), runs, trials, load,
				      report_text(q, 13, ""), warnings ? warnings : "" };

		rdoc_row(d, t, row);
	}
	free(warnings);
	return 0;
}

static int add_sweeps(struct rdoc *d, sqlite3 *db, const char *platform, struct tune_error *err)
{
	return report_each_row(db,
			       "SELECT s.name, s.started, (julianday(s.finished) - julianday(s.started)) * 86400, s.quick,"
			       " s.status, s.tune_version, s.strategy, json_extract(s.spec_json, '$.runs'),"
			       " json_extract(s.spec_json, '$.warmup'), (SELECT count(*) FROM trials t WHERE"
			       " t.sweep_id = s.id AND t.status = 'done'), s.loadavg, s.loadavg_max, s.warnings, s.cflags"
			       " FROM " REPORT_SQL_CURRENT_SWEEPS " WHERE p.name = ?1 ORDER BY s.id",
			       platform, "sweeps", sweeps_row, d, err);
}

/* When, by which tune and from which database the page was made. */
static void add_about(struct rdoc *d, sqlite3 *db, const char *const *platforms, size_t np)
{
	static const char *const head[] = { "Report", "" };
	const char *file = sqlite3_db_filename(db, "main");
	struct strbuf names = STRBUF_INIT;
	char when[32];
	time_t now = time(NULL);
	struct tm tm;
	size_t t;

	when[0] = '\0';
	if (gmtime_r(&now, &tm))
		strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
	for (size_t p = 0; p < np; p++)
		strbuf_addf(&names, "%s%s", p ? ", " : "", platforms[p]);
	rdoc_heading(d, "About this report");
	t = rdoc_table(d, "Made by tune " TUNE_VERSION, 2, head);
	{
		const char *rows[][2] = { { "Generated", when }, { "tune", TUNE_VERSION },
					  { "Database", file && *file ? file : "-" },
					  { "Platforms", strbuf_str(&names) } };

		for (size_t r = 0; r < sizeof(rows) / sizeof(rows[0]); r++)
			rdoc_row(d, t, rows[r]);
	}
	strbuf_release(&names);
}

int report_html(sqlite3 *db, const char *const *platforms, size_t np, const char *dir, struct tune_error *err)
{
	struct rdoc *d = rdoc_new();
	char path[4200], file[200];
	struct strbuf title = STRBUF_INIT;
	FILE *out = NULL;
	int rc = 0;

	if (!d)
		return tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
	if (paths_mkdirs(dir) != 0) {
		rc = tune_fail(err, TUNE_ERR_SYSTEM, "report: cannot create '%s': %s", dir, strerror(errno));
		goto out;
	}
	strbuf_add(&title, "tune report:");
	add_about(d, db, platforms, np);
	rc = report_headline(d, db, platforms, np, err);
	for (size_t p = 0; p < np && !rc; p++) {
		size_t nmade = 0, rows;
		struct report_chart made[REPORT_MAX_CHARTS];
		struct rdoc *probe = rdoc_new();

		/* An empty platform is an error worth a clear message, not an empty page. */
		rc = probe ? report_all(probe, db, &platforms[p], 1, err) : TUNE_ERR_SYSTEM;
		rows = probe ? rdoc_rows(probe) : 0;
		rdoc_free(probe);
		if (rc)
			break;
		if (!rows) {
			rc = tune_fail(err, TUNE_ERR_EMPTY, "report: no results for platform '%s' (run 'tune --platform "
				       "%s' first)", platforms[p], platforms[p]);
			break;
		}
		strbuf_addf(&title, " %s", platforms[p]);
		rdoc_section(d, platforms[p], "", "", NULL);
		if ((rc = add_facts(d, db, platforms[p], err)) != 0 || (rc = add_sweeps(d, db, platforms[p], err)) != 0 ||
		    (rc = report_charts(db, platforms[p], dir, made, &nmade, err)) != 0)
			break;
		for (size_t m = 0; m < nmade; m++) {
			char *svg;

			report_chart_file(platforms[p], made[m].name, file, sizeof(file));
			snprintf(path, sizeof(path), "%s/%s.svg", dir, file);
			if ((svg = read_svg(path)) != NULL) {
				rdoc_figure(d, made[m].caption, svg);
				free(svg);
			}
		}
	}
	if (!rc)
		rc = report_all(d, db, platforms, np, err);
	if (rc)
		goto out;
	snprintf(path, sizeof(path), "%s/report.html", dir);
	if (!(out = fopen(path, "w"))) {
		rc = tune_fail(err, TUNE_ERR_SYSTEM, "report: cannot write '%s': %s", path, strerror(errno));
		goto out;
	}
	rc = title.oom ? tune_fail(err, TUNE_ERR_SYSTEM, "out of memory")
		       : rdoc_render(d, REPORT_HTML, strbuf_str(&title), out, err);
	if (fclose(out) != 0 && !rc)
		rc = tune_fail(err, TUNE_ERR_SYSTEM, "report: cannot write '%s': %s", path, strerror(errno));
	if (!rc)
		printf("%s\n", path);
out:
	strbuf_release(&title);
	rdoc_free(d);
	return rc;
}
