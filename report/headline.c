/* The headline: per kernel and context of each platform and host, what to
 * use, how sure that is (its interval, and against the runner-up: a tie, a
 * lead, or the knee rule keeping a smaller setting within the tolerance),
 * how much better than the kernel's baseline it is, with an interval, and
 * how far from the host's limit (a kernel's probe, its manifest's
 * metric.limit) it stands. */
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../tuner/base/stats.h"
#include "report.h"

/* Columns of the query below. */
enum {
	H_PLATFORM, H_HOST, H_KERNEL, H_CONTEXT, H_VARIANT, H_PARAMS, H_MEDIAN, H_LOW, H_HIGH, H_RUNS, H_RUNNER,
	H_OMIT, H_UNIT, H_BETTER, H_TOLERANCE, H_BASELINE, H_B_MEDIAN, H_B_LOW, H_B_HIGH, H_L_STEP, H_L_TIMES,
	H_L_APPLIES, H_L_SIZE, H_IS_BASELINE, H_B_PAIRED
};

/* Four significant digits or more, never an exponent: 7.193, 46.27, 65440. */
static const char *digits_for(double v)
{
	v = fabs(v);
	return v >= 1000 ? "%.0f" : v >= 100 ? "%.1f" : v >= 10 ? "%.2f" : "%.3f";
}

/* "interleaved-prefetch hint=pldl1keep group_size=83": a variant and the
 * parameters that tell it apart (not the context's, not the fixed ones). */
static void setting(const char *variant, const char *params_json, const char *omit, char *out, size_t len)
{
	char params[400], skip[600];
	int none;

	snprintf(skip, sizeof(skip), "%s runs", omit);
	report_params_text(params_json, skip, params, sizeof(params));
	none = !strcmp(params, "-");

	snprintf(out, len, "%s%s%s", variant, variant[0] && !none ? " " : "", !none || !variant[0] ? params : "");
}

const char *report_runner_verdict(json_t *ru, double m, double lo, double hi, int higher)
{
	json_t *p = json_object_get(ru, "paired");

	if (json_is_object(p)) {
		double r = json_number_value(json_object_get(p, "ratio"));

		return stats_better(higher, r, 1.0) ? "knee"
		       : json_number_value(json_object_get(p, "low")) <= 1.0 &&
				 1.0 <= json_number_value(json_object_get(p, "high"))
			       ? "tie"
			       : "ahead";
	}
	if (!json_is_number(json_object_get(ru, "median")))
		return NULL;
	return stats_better(higher, json_number_value(json_object_get(ru, "median")), m) ? "knee"
	       : json_number_value(json_object_get(ru, "ci_low")) <= hi &&
			 lo <= json_number_value(json_object_get(ru, "ci_high"))
		       ? "tie"
		       : "ahead";
}

/* Against the runner-up measured in the same process: the paired ratio of
 * their runs (the runner-up's over the chosen one's) decides: better, the
 * knee rule; its interval holding 1, a tie; else a lead. */
static json_t *versus_paired(json_t *ru, int higher, const char *label, sqlite3_stmt *q, char *out, size_t len)
{
	json_t *p = json_object_get(ru, "paired");
	double r = json_number_value(json_object_get(p, "ratio")), lo = json_number_value(json_object_get(p, "low"));
	double hi = json_number_value(json_object_get(p, "high"));
	json_int_t runs = json_integer_value(json_object_get(p, "runs"));
	const char *verdict = report_runner_verdict(ru, 0, 0, 0, higher);

	if (!strcmp(verdict, "knee")) {
		snprintf(out, len, "knee: %s is %.1f%% better [%+.1f%%, %+.1f%%] run by run, within the %lld%% "
			 "tolerance; the smaller setting is kept", label, 100.0 * fabs(r - 1), 100.0 * (lo - 1),
			 100.0 * (hi - 1), sqlite3_column_int64(q, H_TOLERANCE));
	} else if (!strcmp(verdict, "tie")) {
		snprintf(out, len, "tie: %s is %.1f%% worse, run by run [%+.1f%%, %+.1f%%] holds 0 (%lld paired runs)",
			 label, 100.0 * fabs(r - 1), 100.0 * (lo - 1), 100.0 * (hi - 1), (long long)runs);
	} else {
		snprintf(out, len, "ahead: %s is %.1f%% worse, run by run [%+.1f%%, %+.1f%%] (%lld paired runs)", label,
			 100.0 * fabs(r - 1), 100.0 * (lo - 1), 100.0 * (hi - 1), (long long)runs);
	}
	return json_pack("{s:s, s:s, s:f, s:f, s:f, s:I, s:b}", "verdict", verdict, "runner_up", label, "ratio",
			 round(r * 10000) / 10000, "low", round(lo * 10000) / 10000, "high", round(hi * 10000) / 10000,
			 "runs", runs, "paired", 1);
}

/* Against the runner-up: which of a tie, a lead, or the knee rule. */
static json_t *versus_runner(sqlite3_stmt *q, int higher, char *out, size_t len)
{
	json_t *ru = json_loads(report_text(q, H_RUNNER, "null"), JSON_DECODE_ANY, NULL), *v;
	double m = sqlite3_column_double(q, H_MEDIAN), lo = sqlite3_column_double(q, H_LOW);
	double hi = sqlite3_column_double(q, H_HIGH), rm, rlo, rhi, pct;
	char label[500], *text;
	const char *verdict;

	if (!json_is_object(ru) || !json_is_number(json_object_get(ru, "median"))) {
		json_decref(ru);
		snprintf(out, len, "-");
		return json_null();
	}
	rm = json_number_value(json_object_get(ru, "median"));
	rlo = json_number_value(json_object_get(ru, "ci_low"));
	rhi = json_number_value(json_object_get(ru, "ci_high"));
	text = json_dumps(ru, JSON_COMPACT);
	/* Older databases' runner-ups name no variant: their parameters say it. */
	setting(json_string_value(json_object_get(ru, "variant")) ? json_string_value(json_object_get(ru, "variant")) :
		"", text, report_text(q, H_OMIT, ""), label, sizeof(label));
	free(text);
	pct = m > 0 ? 100.0 * fabs(rm - m) / m : 0;
	if (json_is_object(json_object_get(ru, "paired"))) {
		v = versus_paired(ru, higher, label, q, out, len);
		json_decref(ru);
		return v;
	}
	verdict = report_runner_verdict(ru, m, lo, hi, higher);
	if (!strcmp(verdict, "knee")) {
		/* The chosen one is not the fastest: the knee of a searched value. */
		snprintf(out, len, "knee: %s %.*f is %.1f%% better, within the %lld%% tolerance; the smaller setting is "
			 "kept", label, rm >= 100 ? 0 : 2, rm, pct, sqlite3_column_int64(q, H_TOLERANCE));
	} else if (!strcmp(verdict, "tie")) {
		snprintf(out, len, "tie: %s %.*f is %.1f%% worse, intervals overlap", label, rm >= 100 ? 0 : 2, rm, pct);
	} else {
		snprintf(out, len, "ahead: %s %.*f is %.1f%% worse, intervals apart", label, rm >= 100 ? 0 : 2, rm, pct);
	}
	v = json_pack("{s:s, s:s, s:f, s:f, s:f, s:f}", "verdict", verdict, "runner_up", label, "median", rm, "low", rlo,
		      "high", rhi, "difference_pct", round(pct * 10) / 10);
	json_decref(ru);
	return v;
}

/* Over the baseline: run by run where one process measured both (the
 * median of each run's ratio, and its interval), else the ratio of medians
 * and the ratio of the intervals' far ends (the widest it can be, given
 * both intervals). */
static json_t *over_baseline(sqlite3_stmt *q, int higher, char *out, size_t len)
{
	double m = sqlite3_column_double(q, H_MEDIAN), lo = sqlite3_column_double(q, H_LOW);
	double hi = sqlite3_column_double(q, H_HIGH), bm = sqlite3_column_double(q, H_B_MEDIAN);
	double blo = sqlite3_column_double(q, H_B_LOW), bhi = sqlite3_column_double(q, H_B_HIGH), r, rlo, rhi;
	const char *base = report_text(q, H_BASELINE, "");
	json_t *p = json_loads(report_text(q, H_B_PAIRED, "null"), JSON_DECODE_ANY, NULL), *v;

	if (sqlite3_column_int(q, H_IS_BASELINE)) {
		json_decref(p);
		snprintf(out, len, "- (the baseline, %s, is chosen)", base);
		return json_null();
	}
	if (json_is_object(p) && json_number_value(json_object_get(p, "low")) > 0) {
		/* The baseline's metric over the optimum's, each run's. */
		double pr = json_number_value(json_object_get(p, "ratio")), plo = json_number_value(json_object_get(p, "low"));
		double phi = json_number_value(json_object_get(p, "high"));
		json_int_t runs = json_integer_value(json_object_get(p, "runs"));

		r = higher ? 1 / pr : pr;
		rlo = higher ? 1 / phi : plo;
		rhi = higher ? 1 / plo : phi;
		snprintf(out, len, "%.2fx [%.2f, %.2f] over %s, run by run (%lld paired runs)", r, rlo, rhi, base,
			 (long long)runs);
		v = json_pack("{s:f, s:f, s:f, s:s, s:b, s:I, s:O}", "ratio", round(r * 1000) / 1000, "low",
			      round(rlo * 1000) / 1000, "high", round(rhi * 1000) / 1000, "baseline", base, "paired", 1,
			      "runs", runs, "coverage", json_object_get(p, "coverage") ? json_object_get(p, "coverage")
											: json_null());
		json_decref(p);
		return v;
	}
	json_decref(p);
	if (sqlite3_column_type(q, H_B_MEDIAN) == SQLITE_NULL || m <= 0 || lo <= 0 || bm <= 0 || blo <= 0) {
		snprintf(out, len, "-");
		return json_null();
	}
	r = higher ? m / bm : bm / m;
	rlo = higher ? lo / bhi : blo / hi;
	rhi = higher ? hi / blo : bhi / lo;
	snprintf(out, len, "%.2fx [%.2f, %.2f] over %s", r, rlo, rhi, base);
	return json_pack("{s:f, s:f, s:f, s:s, s:b}", "ratio", round(r * 1000) / 1000, "low", round(rlo * 1000) / 1000,
			 "high", round(rhi * 1000) / 1000, "baseline", base, "paired", 0);
}

/* Against the host's limit: how many times the limit the optimum is (1.00x:
 * at the limit; the limit itself is measured apart, by the probe). A limit
 * measured on a working set holds for that size and larger ones only: a
 * smaller one misses the TLB and the caches less. */
static json_t *against_limit(sqlite3_stmt *q, int higher, char *out, size_t len)
{
	double m = sqlite3_column_double(q, H_MEDIAN), step = sqlite3_column_double(q, H_L_STEP);
	double times = sqlite3_column_double(q, H_L_TIMES), limit = step * times, r;

	/* Said before whether a probe ran: a smaller sweep never runs it. */
	if (sqlite3_column_type(q, H_L_SIZE) != SQLITE_NULL && !sqlite3_column_int(q, H_L_APPLIES)) {
		snprintf(out, len, "- (the limit holds from %lld MiB)", sqlite3_column_int64(q, H_L_SIZE));
		return json_null();
	}
	if (sqlite3_column_type(q, H_L_STEP) == SQLITE_NULL || step <= 0 || m <= 0) {
		snprintf(out, len, "-");
		return json_null();
	}
	r = higher ? limit / m : m / limit;
	if (times != 1)
		snprintf(out, len, "%.2fx of the limit %.*f (%.3g x %.0f)", r, limit >= 100 ? 1 : 2, limit, step, times);
	else
		snprintf(out, len, "%.2fx of the limit %.*f", r, limit >= 100 ? 1 : 2, limit);
	return json_pack("{s:f, s:f, s:f, s:f}", "ratio", round(r * 1000) / 1000, "limit", round(limit * 1000) / 1000,
			 "per_step", step, "times", times);
}

struct headline {
	struct rdoc *d;
	size_t rows;
};

static int headline_row(sqlite3_stmt *q, void *arg, struct tune_error *err)
{
	static const char *const head[] = { "Platform", "Host", "Kernel", "Context", "Use", "Median [interval]",
					    "Against the runner-up", "Over the baseline", "Against the host's limit" };
	struct headline *h = arg;
	struct rdoc *d = h->d;
	size_t t;
	int higher = !strcmp(report_text(q, H_BETTER, "lower"), "higher");
	char use[500], median[96], runner[700], gain[160], limit[120];
	const char *context = report_text(q, H_CONTEXT, "");
	json_t *interval, *vr, *vb, *vl;

	(void)err;
	/* Its own heading, above every platform's tables. */
	if (!h->rows++)
		rdoc_heading(d, "Headline");
	t = rdoc_table_for(d, "Headline: what to use, how sure, how much it gains, how near the limit", 9, head);
	setting(report_text(q, H_VARIANT, "?"), report_text(q, H_PARAMS, "{}"), report_text(q, H_OMIT, ""), use,
		sizeof(use));
	interval = report_interval(sqlite3_column_double(q, H_MEDIAN), sqlite3_column_double(q, H_LOW),
				   sqlite3_column_double(q, H_HIGH), sqlite3_column_int64(q, H_RUNS),
				   digits_for(sqlite3_column_double(q, H_MEDIAN)), median, sizeof(median));
	vr = versus_runner(q, higher, runner, sizeof(runner));
	vb = over_baseline(q, higher, gain, sizeof(gain));
	vl = against_limit(q, higher, limit, sizeof(limit));
	{
		const char *row[] = { report_text(q, H_PLATFORM, ""), report_text(q, H_HOST, ""),
				      report_text(q, H_KERNEL, ""), context[0] ? context : "-", use, median, runner, gain,
				      limit };
		const char *units[] = { NULL, NULL, NULL, NULL, NULL, report_text(q, H_UNIT, ""), NULL, NULL, NULL };

		rdoc_row(d, t, row);
		rdoc_units(d, t, units);
		rdoc_value(d, t, 4, json_loads(report_text(q, H_PARAMS, "{}"), 0, NULL));
		rdoc_value(d, t, 5, interval);
		rdoc_value(d, t, 6, vr);
		rdoc_value(d, t, 7, vb);
		rdoc_value(d, t, 8, vl);
	}
	return 0;
}

/* SQL: row (a trial or an optimum, with variant and params) of sweep s is
 * its baseline: the baseline variant, or the baseline_as point. */
#define IS_BASELINE(row) "(" row ".variant = s.baseline OR (" row ".variant = json_extract(s.spec_json," \
	" '$.baseline_as.variant') AND json_extract(" row ".params, '$.' || json_extract(s.spec_json," \
	" '$.baseline_as.param')) = json_extract(s.spec_json, '$.baseline_as.value')))"
/* SQL: the best trial that IS_BASELINE in optimum o's sweep s
 * and context, the final's where the final measured it beside the optimum (an
 * ORDER BY of a subquery cannot name the outer query's columns, so each
 * direction has its own). */
#define BASELINE_TRIAL(order) "(SELECT t.id FROM trials t JOIN trial_summary x ON x.trial_id = t.id WHERE" \
	" t.sweep_id = o.sweep_id AND t.status = 'done' AND " IS_BASELINE("t") " AND COALESCE(t.context, '') =" \
	" o.context AND (o.legacy_key = '' OR t.legacy_key = o.legacy_key)" \
	" ORDER BY t.phase = 'final' DESC, x.median " order " LIMIT 1)"

static int headline_of(struct headline *h, sqlite3 *db, const char *platform, struct tune_error *err)
{
	/* The baseline: the best trial of the baseline variant in the optimum's
	 * sweep and context (for optima from before contexts were recorded, the
	 * trials of the same legacy_key). */
	return report_each_row(db,
			       "SELECT o.platform, o.host, o.kernel, o.context, o.variant, o.params, o.median, o.ci_low,"
			       " o.ci_high, o.runs, o.runner_up, " REPORT_SQL_OMIT("s", "o.context") ","
			       " json_extract(s.spec_json, '$.metric.unit'), json_extract(s.spec_json, '$.metric.better'),"
			       " COALESCE(json_extract(s.spec_json, '$.search.tolerance_pct'), 2), s.baseline,"
			       " b.median, b.ci_low, b.ci_high,"
			       " (SELECT hp.value FROM host_probes hp WHERE hp.host_id = s.host_id AND hp.kernel = o.kernel"
			       " AND hp.probe = json_extract(s.spec_json, '$.metric.limit.probe')"
			       " AND hp.field = json_extract(s.spec_json, '$.metric.limit.field') || COALESCE('/' ||"
			       " json_extract(s.spec_json, '$.metric.limit.per') || '=' || json_extract(o.params, '$.' ||"
			       " json_extract(s.spec_json, '$.metric.limit.per')), '')),"
			       " COALESCE(json_extract(o.params, '$.' || json_extract(s.spec_json, '$.metric.limit.times')), 1),"
			       " json_extract(s.spec_json, '$.metric.limit.memory.mb') IS NULL"
			       " OR json_extract(o.params, '$.' || json_extract(s.spec_json, '$.metric.limit.memory.param'))"
			       " >= json_extract(s.spec_json, '$.metric.limit.memory.mb'),"
			       " json_extract(s.spec_json, '$.metric.limit.memory.mb'),"
			       " " IS_BASELINE("o") ", o.baseline_paired"
			       " FROM optima o JOIN current_fingerprints USING (platform, host, fingerprint)"
			       " JOIN sweeps s ON s.id = o.sweep_id"
			       " LEFT JOIN trial_summary b ON b.trial_id = CASE json_extract(s.spec_json, '$.metric.better')"
			       " WHEN 'higher' THEN " BASELINE_TRIAL("DESC") " ELSE " BASELINE_TRIAL("ASC") " END"
			       " WHERE (?1 IS NULL OR o.platform = ?1)"
			       " ORDER BY o.platform, o.host, o.kernel, o.id",
			       platform, "the headline", headline_row, h, err);
}

int report_headline(struct rdoc *d, sqlite3 *db, const char *const *platforms, size_t np, struct tune_error *err)
{
	struct headline h = { d, 0 };
	int rc = 0;

	for (size_t p = 0; !rc && p < (np ? np : 1); p++)
		rc = headline_of(&h, db, np ? platforms[p] : NULL, err);
	return rc;
}

