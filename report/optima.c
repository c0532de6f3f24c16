#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

static const char *text_or(sqlite3_stmt *q, int col, const char *dflt)
{
	const unsigned char *t = sqlite3_column_text(q, col);

	return t ? (const char *)t : dflt;
}

int report_optima(sqlite3 *db, const char *platform, FILE *out, size_t *rows, struct tune_error *err)
{
	sqlite3_stmt *q = NULL;
	char last[600] = "";
	int rc;

	*rows = 0;
	if (sqlite3_prepare_v2(db,
			       "SELECT o.platform, o.host, o.fingerprint, o.size_mb, o.size_class, o.variant,"
			       " COALESCE(o.hint, '-'), o.group_size, o.best_group_size, o.hugepages, o.median, o.ci_low,"
			       " o.ci_high, o.runner_up, o.trials, o.decided FROM optima o JOIN current_fingerprints"
			       " USING (platform, host, fingerprint) WHERE ?1 IS NULL OR o.platform = ?1"
			       " ORDER BY o.platform, o.host, o.size_mb", -1, &q, NULL) != SQLITE_OK)
		return tune_fail(err, TUNE_ERR_STORE, "cannot read optima: %s", sqlite3_errmsg(db));
	if (platform)
		sqlite3_bind_text(q, 1, platform, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		char head[600], runner[128] = "-", median[96], g[48];
		json_t *ru = json_loads(text_or(q, 13, "null"), JSON_DECODE_ANY, NULL);

		snprintf(head, sizeof(head), "%s|%s|%s", text_or(q, 0, ""), text_or(q, 1, ""), text_or(q, 2, ""));
		if (strcmp(head, last) != 0) {
			fprintf(out, "\nOptima of platform %s on host %s (fingerprint %s)\n\n", text_or(q, 0, ""),
				text_or(q, 1, ""), text_or(q, 2, ""));
			fprintf(out, "%-12s %-6s %-21s %-10s %-10s %-24s %-30s %6s  %s\n", "Working set", "Class",
				"Variant", "Hint", "g (best)", "Median [95% CI]", "Runner-up", "Trials", "Decided");
			snprintf(last, sizeof(last), "%s", head);
		}
		if (json_is_object(ru))
			snprintf(runner, sizeof(runner), "%s g=%lld %.1f",
				 json_string_value(json_object_get(ru, "hint")),
				 (long long)json_integer_value(json_object_get(ru, "group_size")),
				 json_real_value(json_object_get(ru, "median")));
		json_decref(ru);
		snprintf(median, sizeof(median), "%.1f [%.1f, %.1f]", sqlite3_column_double(q, 10),
			 sqlite3_column_double(q, 11), sqlite3_column_double(q, 12));
		snprintf(g, sizeof(g), "%lld (%lld)", sqlite3_column_int64(q, 7), sqlite3_column_int64(q, 8));
		fprintf(out, "%-12s %-6s %-21s %-10s %-10s %-24s %-30s %6lld  %s\n",
			report_size_label(sqlite3_column_int64(q, 3)), text_or(q, 4, ""), text_or(q, 5, ""),
			text_or(q, 6, ""), g, median, runner, sqlite3_column_int64(q, 14), text_or(q, 15, ""));
		(*rows)++;
	}
	sqlite3_finalize(q);
	if (rc != SQLITE_DONE)
		return tune_fail(err, TUNE_ERR_STORE, "cannot read optima: %s", sqlite3_errmsg(db));
	return 0;
}

int report_warnings(sqlite3 *db, const char *platform, FILE *out, struct tune_error *err)
{
	sqlite3_stmt *q = NULL;
	int rc, first = 1;

	if (sqlite3_prepare_v2(db,
			       "SELECT s.name, s.started, s.warnings FROM sweeps s JOIN platforms p ON p.id = s.platform_id"
			       " JOIN hosts h ON h.id = s.host_id JOIN current_fingerprints c ON c.platform = p.name AND"
			       " c.host = h.hostname AND c.fingerprint = s.fingerprint WHERE s.warnings IS NOT NULL AND"
			       " (?1 IS NULL OR p.name = ?1) ORDER BY s.id", -1, &q, NULL) != SQLITE_OK)
		return tune_fail(err, TUNE_ERR_STORE, "cannot read warnings: %s", sqlite3_errmsg(db));
	if (platform)
		sqlite3_bind_text(q, 1, platform, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		char *w = strdup(text_or(q, 2, "")), *save = NULL;

		if (first)
			fprintf(out, "\nWarnings\n\n");
		first = 0;
		for (char *line = w ? strtok_r(w, "\n", &save) : NULL; line; line = strtok_r(NULL, "\n", &save))
			fprintf(out, "  %s (%s): %s\n", text_or(q, 0, ""), text_or(q, 1, ""), line);
		free(w);
	}
	sqlite3_finalize(q);
	return rc == SQLITE_DONE ? 0 : tune_fail(err, TUNE_ERR_STORE, "cannot read warnings: %s", sqlite3_errmsg(db));
}

int report_all(sqlite3 *db, const char *platform, FILE *out, size_t *rows, struct tune_error *err)
{
	size_t optima = 0;
	int rc = report_tables(db, platform, out, rows, err);

	if (!rc && *rows)
		rc = report_optima(db, platform, out, &optima, err);
	if (!rc && *rows)
		rc = report_warnings(db, platform, out, err);
	return rc;
}
