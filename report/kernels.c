/* The results and optima of kernels described by their manifest alone: any
 * kernel's trials and optima, read from the generic columns (params,
 * context, exports) and the sweep's recorded metric, so that a user's own
 * kernel gets tables with no code of its own. */
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../tuner/base/strbuf.h"
#include "report.h"

/* Is key one of the words ("name" or "name=value") of omit? */
static int omitted(const char *omit, const char *key)
{
	size_t n = strlen(key);

	for (const char *p = omit; p && *p; p = strchr(p, ' ') ? strchr(p, ' ') + 1 : NULL)
		if (!strncmp(p, key, n) && (p[n] == '=' || p[n] == ' ' || !p[n]))
			return 1;
	return 0;
}

void report_params_text(const char *params_json, const char *omit, char *out, size_t len)
{
	json_t *o = json_loads(params_json ? params_json : "{}", 0, NULL);
	size_t used = 0;

	out[0] = '\0';
	for (void *it = json_object_iter(o); it; it = json_object_iter_next(o, it)) {
		const char *key = json_object_iter_key(it);
		json_t *v = json_object_iter_value(it), *text = json_object_get(v, "text");

		if (!strcmp(key, "variant") || omitted(omit, key))
			continue;
		if (json_is_string(v))
			str_appendf(out, len, &used, "%s%s=%s", used ? " " : "", key, json_string_value(v));
		else if (json_is_integer(v) && json_integer_value(v) == LLONG_MAX)
			str_appendf(out, len, &used, "%s%s=inf", used ? " " : "", key); /* a duration's never */
		else if (json_is_integer(v))
			str_appendf(out, len, &used, "%s%s=%lld", used ? " " : "", key, (long long)json_integer_value(v));
		else if (json_is_string(text))
			str_appendf(out, len, &used, "%s%s=%s", used ? " " : "", key, json_string_value(text));
	}
	json_decref(o);
	if (!out[0])
		snprintf(out, len, "-");
}

static int results_row(sqlite3_stmt *q, void *arg, struct tune_error *err)
{
	static const char *const head[] = { "Context", "Variant", "Parameters", "Phase", "Median [interval]", "Runs",
					    "Chosen" };
	struct rdoc *d = arg;
	size_t t;
	char title[600], params[512], median[96], runs[24];
	const char *context = report_text(q, 3, "");
	json_t *interval;

	(void)err;
	snprintf(title, sizeof(title), "Kernel %s on platform %s, host %s: %s%s%s, %s is better",
		 report_text(q, 2, ""), report_text(q, 0, ""), report_text(q, 1, ""), report_text(q, 10, "?"),
		 report_text(q, 11, "")[0] ? " in " : "", report_text(q, 11, ""), report_text(q, 12, "lower"));
	t = rdoc_table_for(d, title, 7, head);
	report_params_text(report_text(q, 5, "{}"), report_text(q, 14, ""), params, sizeof(params));
	interval = report_interval(sqlite3_column_double(q, 6), sqlite3_column_double(q, 7),
				   sqlite3_column_double(q, 8), sqlite3_column_int64(q, 9), "%.4g", median, sizeof(median));
	snprintf(runs, sizeof(runs), "%lld", sqlite3_column_int64(q, 9));
	{
		const char *row[] = { context[0] ? context : "-", report_text(q, 4, ""), params, report_text(q, 15, ""),
				      median, runs, sqlite3_column_int(q, 13) ? "*" : "" };
		const char *units[] = { NULL, NULL, NULL, NULL, report_text(q, 11, ""), NULL, NULL };

		rdoc_row(d, t, row);
		rdoc_units(d, t, units);
		rdoc_value(d, t, 2, json_loads(report_text(q, 5, "{}"), 0, NULL));
		rdoc_value(d, t, 4, interval);
		rdoc_value(d, t, 6, json_boolean(sqlite3_column_int(q, 13)));
	}
	return 0;
}

/* Every search and final trial of the newest sweep of each kernel, per
 * context, saying which; the optimum's starred where it was decided: its
 * final's median, or its search's where no final measured it. */
static int results(struct rdoc *d, sqlite3 *db, const char *platform, struct tune_error *err)
{
	return report_each_row(db,
			       "SELECT r.platform, r.host, r.kernel, r.context, r.variant, r.params, r.median, r.ci_low,"
			       " r.ci_high, r.runs, json_extract(s.spec_json, '$.metric.field'),"
			       " json_extract(s.spec_json, '$.metric.unit'), json_extract(s.spec_json, '$.metric.better'),"
			       " EXISTS (SELECT 1 FROM optima o WHERE o.sweep_id = r.sweep_id AND o.kernel = r.kernel AND"
			       " o.context = r.context AND o.params = r.params) AND (r.phase = 'final' OR NOT EXISTS"
			       " (SELECT 1 FROM trials f WHERE f.sweep_id = r.sweep_id AND f.phase = 'final' AND f.status ="
			       " 'done' AND f.context = r.context AND f.params = r.params)), "
			       REPORT_SQL_OMIT("s", "r.context") ", r.phase"
			       " FROM kernel_results r JOIN newest_kernel_sweeps n ON n.sweep_id = r.sweep_id AND"
			       " n.kernel = r.kernel JOIN sweeps s ON s.id = r.sweep_id JOIN trials t ON t.id = r.trial_id"
			       " WHERE t.context IS NOT NULL AND r.phase IN ('search', 'final') AND"
			       " (?1 IS NULL OR r.platform = ?1) AND " REPORT_SQL_UNDECLARED("r.kernel", "_table_")
			       " ORDER BY r.platform, r.host, r.kernel, r.context, r.phase = 'final', r.trial_id",
			       platform, "kernel results", results_row, d, err);
}

static int optima_row(sqlite3_stmt *q, void *arg, struct tune_error *err)
{
	static const char *const head[] = { "Context", "Variant", "Exported", "Median [interval]", "Runner-up",
					    "Trials", "Decided" };
	struct rdoc *d = arg;
	size_t t;
	char title[600], exported[512], median[96], runner[600] = "-", trials[24];
	json_t *interval;
	const char *context = report_text(q, 3, "");
	json_t *ru = json_loads(report_text(q, 9, "null"), JSON_DECODE_ANY, NULL);

	(void)err;
	snprintf(title, sizeof(title), "Optima of %s: platform %s, host %s", report_text(q, 2, ""),
		 report_text(q, 0, ""), report_text(q, 1, ""));
	t = rdoc_table_for(d, title, 7, head);
	report_params_text(report_text(q, 5, "{}"), report_text(q, 12, ""), exported, sizeof(exported));
	if (json_is_object(ru)) {
		char *text = json_dumps(ru, JSON_COMPACT), params[400], omit[700];

		/* Its runs are a count, not a parameter. */
		snprintf(omit, sizeof(omit), "%s runs", report_text(q, 12, ""));
		report_params_text(text, omit, params, sizeof(params));
		snprintf(runner, sizeof(runner), "%s %s %.4g", json_string_value(json_object_get(ru, "variant"))
			 ? json_string_value(json_object_get(ru, "variant")) : "?", params,
			 json_number_value(json_object_get(ru, "median")));
		free(text);
	}
	interval = report_interval(sqlite3_column_double(q, 6), sqlite3_column_double(q, 7),
				   sqlite3_column_double(q, 8), sqlite3_column_int64(q, 13), "%.4g", median, sizeof(median));
	snprintf(trials, sizeof(trials), "%lld", sqlite3_column_int64(q, 10));
	{
		const char *row[] = { context[0] ? context : "-", report_text(q, 4, ""), exported, median, runner,
				      trials, report_text(q, 11, "") };
		const char *units[] = { NULL, NULL, NULL, report_text(q, 14, ""), NULL, NULL, NULL };

		rdoc_row(d, t, row);
		rdoc_units(d, t, units);
		rdoc_value(d, t, 2, json_loads(report_text(q, 5, "{}"), 0, NULL));
		rdoc_value(d, t, 3, interval);
		rdoc_value(d, t, 4, json_is_object(ru) ? json_incref(ru) : json_null());
	}
	json_decref(ru);
	return 0;
}

/* The optimum of each context, with the runner-up. */
static int optima(struct rdoc *d, sqlite3 *db, const char *platform, struct tune_error *err)
{
	return report_each_row(db,
			       "SELECT o.platform, o.host, o.kernel, o.context, o.variant, o.exports, o.median, o.ci_low,"
			       " o.ci_high, o.runner_up, o.trials, o.decided, " REPORT_SQL_OMIT("s", "o.context") ", o.runs,"
			       " json_extract(s.spec_json, '$.metric.unit') FROM optima o"
			       " JOIN current_fingerprints USING (platform, host, fingerprint) JOIN sweeps s ON"
			       " s.id = o.sweep_id WHERE o.exports IS NOT NULL AND (?1 IS NULL OR o.platform = ?1) AND "
			       REPORT_SQL_UNDECLARED("o.kernel", "_table_") " ORDER BY o.platform, o.host, o.kernel, o.id",
			       platform, "kernel optima", optima_row, d, err);
}

int report_kernels(struct rdoc *d, sqlite3 *db, const char *platform, struct tune_error *err)
{
	int rc = results(d, db, platform, err);

	return rc ? rc : optima(d, db, platform, err);
}
