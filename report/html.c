/* tune report: charts on disk and one self-contained HTML file with the host
 * facts, the charts (inline SVG) and every table. */
#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "../tuner/base/strbuf.h"
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

static int add_facts(struct rdoc *d, sqlite3 *db, const char *platform, struct tune_error *err)
{
	static const char *const head[] = { "Fact", "Value" };
	sqlite3_stmt *q = NULL;
	int rc;

	if (sqlite3_prepare_v2(db, "SELECT h.hostname, h.facts_json FROM hosts h JOIN current_fingerprints c"
				   " ON c.host = h.hostname WHERE c.platform = ?1", -1, &q, NULL) != SQLITE_OK)
		return tune_fail(err, TUNE_ERR_STORE, "cannot read hosts: %s", sqlite3_errmsg(db));
	sqlite3_bind_text(q, 1, platform, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		char title[320];
		json_t *facts = json_loads((const char *)sqlite3_column_text(q, 1), 0, NULL);
		const char *key;
		json_t *val;
		size_t t;

		snprintf(title, sizeof(title), "Host %s", (const char *)sqlite3_column_text(q, 0));
		t = rdoc_table(d, title, 2, head);
		json_object_foreach(facts, key, val) {
			char *text = json_is_string(val) ? strdup(json_string_value(val)) : json_dumps(val, JSON_ENCODE_ANY);
			const char *row[2] = { key, text ? text : "" };

			rdoc_row(d, t, row);
			free(text);
		}
		json_decref(facts);
	}
	sqlite3_finalize(q);
	return rc == SQLITE_DONE ? 0 : tune_fail(err, TUNE_ERR_STORE, "cannot read hosts: %s", sqlite3_errmsg(db));
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
		rdoc_section(d, platforms[p], "", "", -1);
		if ((rc = add_facts(d, db, platforms[p], err)) != 0 ||
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
