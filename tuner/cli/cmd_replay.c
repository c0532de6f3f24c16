/* tune replay SWEEP --from RECORDED: the sweep's search replayed against the
 * runs a recorded sweep measured (search/replay.c), per strategy, over many
 * seeds; a table of how often each lands in the plateau and at what cost.
 * tune replay --kernel-tuner FILE: the strategies of a recorded space
 * (search/space.h) replayed on a space Kernel Tuner recorded, per budget;
 * a table (or JSON) of how close their best comes to the best recorded. */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../report/report.h"
#include "../../store/store.h"
#include "../search/search.h"
#include "cli.h"

#define REPLAY_MAX_BUDGETS 32

/* A number of the option named what within [lo, hi], or TUNE_ERR_USAGE. */
static int number(const char *text, const char *what, double lo, double hi, double *out, struct tune_error *err)
{
	char *end;

	errno = 0;
	*out = strtod(text, &end);
	if (errno || end == text || *end || *out < lo || *out > hi)
		return tune_fail(err, TUNE_ERR_USAGE, "replay: option '--%s': '%s' is not a number in %g..%g", what, text,
				 lo, hi);
	return 0;
}

/* --start LO,HI: 1 <= LO <= HI. */
static int start_range(const char *text, long long *lo, long long *hi, struct tune_error *err)
{
	char *end = NULL;

	errno = 0;
	*lo = strtoll(text, &end, 10);
	if (!errno && end != text && *end == ',') {
		const char *h = end + 1;

		*hi = strtoll(h, &end, 10);
		if (!errno && end != h && !*end && *lo >= 1 && *lo <= *hi)
			return 0;
	}
	return tune_fail(err, TUNE_ERR_USAGE, "replay: option '--start': '%s' is not LO,HI with 1 <= LO <= HI "
			 "(e.g. --start 36,275)", text);
}

/* The strategies asked for, adaptive first (random takes its budget). */
static int strategies(const char *list, int *out, size_t *n, struct tune_error *err)
{
	static const int order[] = { STRATEGY_ADAPTIVE, STRATEGY_JOINT, STRATEGY_GRID, STRATEGY_RANDOM };
	int want[4] = { 0, 0, 0, 0 };
	char buf[128];
	size_t at = 0;

	snprintf(buf, sizeof(buf), "%s", list ? list : "grid,random,adaptive");
	while (buf[at]) {
		size_t len = strcspn(buf + at, ",");
		int found = 0;

		for (int k = 0; sweep_strategy_names[k]; k++)
			if (strlen(sweep_strategy_names[k]) == len && !strncmp(buf + at, sweep_strategy_names[k], len))
				want[k] = found = 1;
		if (!found)
			return tune_fail(err, TUNE_ERR_USAGE, "replay: option '--strategies': '%.*s' is not a strategy "
					 "(grid, random, adaptive, joint)", (int)len, buf + at);
		at += len + (buf[at + len] == ',');
	}
	*n = 0;
	for (size_t k = 0; k < 4; k++)
		if (want[order[k]])
			out[(*n)++] = order[k];
	return 0;
}

/* --budgets LIST: percentages in (0, 100], as fractions into out[0..*n). */
static int budget_list(const char *list, double *out, size_t *n, struct tune_error *err)
{
	const char *at = list ? list : "0.2,0.5,1,2,5";

	*n = 0;
	while (*at) {
		char *end;
		double pct;

		errno = 0;
		pct = strtod(at, &end);
		if (errno || end == at || (*end && *end != ',') || !(pct > 0 && pct <= 100) || *n == REPLAY_MAX_BUDGETS)
			return tune_fail(err, TUNE_ERR_USAGE, "replay: option '--budgets': '%s' is not a list of at most %d "
					 "percentages in (0, 100] (e.g. --budgets 0.2,0.5,1,2,5)", list, REPLAY_MAX_BUDGETS);
		out[(*n)++] = pct / 100.0;
		at = *end ? end + 1 : end;
	}
	if (!*n)
		return tune_fail(err, TUNE_ERR_USAGE, "replay: option '--budgets': no budget given (e.g. --budgets 1,5)");
	return 0;
}

/* --strategies of a recorded space, in the order of search_space_strategies. */
static int space_strategies(const char *list, const struct space_strategy_ops **out, size_t *n,
			    struct tune_error *err)
{
	const char *at = list ? list : "grid,random,joint";
	int want[8] = { 0 };

	while (*at) {
		size_t len = strcspn(at, ","), k;

		for (k = 0; k < 8 && search_space_strategies[k]; k++)
			if (strlen(search_space_strategies[k]->name) == len &&
			    !strncmp(at, search_space_strategies[k]->name, len))
				break;
		if (k == 8 || !search_space_strategies[k])
			return tune_fail(err, TUNE_ERR_USAGE, "replay: option '--strategies': '%.*s' is not a strategy of "
					 "a recorded space (grid, random, joint; Optuna's TPE: bench/replay_kt_tpe.py)", (int)len, at);
		want[k] = 1;
		at += len + (at[len] == ',');
	}
	*n = 0;
	for (size_t k = 0; k < 8 && search_space_strategies[k]; k++)
		if (want[k])
			out[(*n)++] = search_space_strategies[k];
	if (!*n)
		return tune_fail(err, TUNE_ERR_USAGE, "replay: option '--strategies': no strategy given (grid, random, joint)");
	return 0;
}

static void print_space_table(const struct search_space *sp, const struct space_replay_row *rows, size_t n,
			      double drift)
{
	const struct space_config *best = &sp->configs[sp->best];

	printf("Kernel Tuner space '%s'%s%s%s%s\n", sp->path, sp->kernel[0] ? ": " : "", sp->kernel,
	       sp->device[0] ? " on " : "", sp->device);
	printf("%zu configurations of %zu parameters, %zu recorded, %zu valid; the best %.6g ms (%s); every valid one "
	       "measured once: %.1f s\n", sp->npoints, sp->nparams, sp->nconfigs, sp->nvalid, best->time, best->key,
	       sp->total_ms / 1000.0);
	printf("%zu seeds, drift %g%% per measurement (ratio: the chosen configuration's recorded time over the best's; "
	       "within 5%%: the seeds whose ratio is 1.05 or less; measured, failed, excluded: the valid configurations "
	       "measured, those recorded as failing and those not recorded asked for, per seed)\n\n",
	       n ? rows[0].seeds : 0, drift);
	printf("%-9s %7s %9s %7s %9s %8s %8s %10s\n", "strategy", "budget", "measured", "failed", "excluded", "median",
	       "p90", "within 5%");
	for (size_t i = 0; i < n; i++)
		printf("%-9s %6g%% %9.1f %7.1f %9.1f %8.3f %8.3f %9.0f%%\n", rows[i].strategy,
		       100.0 * rows[i].budget_fraction, rows[i].measured, rows[i].failed, rows[i].excluded,
		       rows[i].median_ratio, rows[i].p90_ratio, 100.0 * rows[i].within_5pct);
}

/* A ratio in JSON: null where a strategy named nothing (infinite). */
static json_t *ratio_json(double r)
{
	return isfinite(r) ? json_real(r) : json_null();
}

static int print_space_json(const struct space_replay_row *rows, size_t n, double drift, struct tune_error *err)
{
	json_t *a = json_array();
	int rc = 0;

	for (size_t i = 0; a && !rc && i < n; i++) {
		json_t *ratios = json_array();

		for (size_t s = 0; ratios && rows[i].ratios && s < rows[i].seeds; s++)
			json_array_append_new(ratios, ratio_json(rows[i].ratios[s]));
		if (json_array_append_new(a, json_pack("{s:s, s:f, s:f, s:I, s:o, s:o, s:f, s:o}", "strategy",
						       rows[i].strategy, "budget_fraction", rows[i].budget_fraction,
						       "drift_pct", drift, "seeds", (json_int_t)rows[i].seeds, "median_ratio",
						       ratio_json(rows[i].median_ratio), "p90_ratio",
						       ratio_json(rows[i].p90_ratio), "within_5pct", rows[i].within_5pct,
						       "ratios", ratios)))
			rc = tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
	}
	if (!a || (!rc && json_dumpf(a, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(12))))
		rc = tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
	if (!rc)
		printf("\n");
	json_decref(a);
	return rc;
}

/* tune replay --kernel-tuner FILE: each strategy at each budget. */
static int replay_space(const struct cmd_options *o, struct tune_error *err)
{
	const struct space_strategy_ops *which[8];
	struct search_space sp = { 0 };
	struct space_replay_row *rows = NULL;
	struct space_replay_options ro;
	double seeds = 100, drift = 10, budgets[REPLAY_MAX_BUDGETS];
	size_t nwhich = 0, nbudgets = 0;
	int rc;

	if (o->nargs || o->from || o->bridge || o->start || o->nplatforms)
		return tune_fail(err, TUNE_ERR_USAGE, "replay: --kernel-tuner replays a recorded space, %s%s%s (tune "
				 "replay --kernel-tuner FILE [--budgets LIST] [--seeds N] [--drift PCT])",
				 o->nargs ? "no sweep: '" : "without ", o->nargs ? o->args[0] : o->from ? "--from" :
				 o->bridge ? "--bridge" : o->start ? "--start" : "--platform", o->nargs ? "'" : "");
	if (o->serve && (o->budgets || o->seeds || o->strategies || o->format_given))
		return tune_fail(err, TUNE_ERR_USAGE, "replay: --serve answers requests, its optimizer keeps the budgets, "
				 "seeds and table: without '--%s' (tune replay --kernel-tuner FILE --serve [--drift PCT])",
				 o->budgets ? "budgets" : o->seeds ? "seeds" : o->strategies ? "strategies" : "format");
	if (o->format_given && o->format != REPORT_TABLE && o->format != REPORT_JSON)
		return tune_fail(err, TUNE_ERR_USAGE, "replay: option '--format': '%s' is not one of table, json",
				 report_format_names[o->format]);
	if ((o->seeds && (rc = number(o->seeds, "seeds", 1, 100000, &seeds, err)) != 0) ||
	    (o->drift && (rc = number(o->drift, "drift", 0, 100, &drift, err)) != 0) ||
	    (rc = budget_list(o->budgets, budgets, &nbudgets, err)) != 0 ||
	    (rc = space_strategies(o->strategies, which, &nwhich, err)) != 0)
		return rc;
	ro.seeds = (size_t)seeds;
	ro.drift = drift / 100.0;
	ro.budgets = budgets;
	ro.nbudgets = nbudgets;
	if ((rc = search_space_load_kt(o->kernel_tuner, &sp, err)) != 0)
		goto out;
	if (o->serve) {
		if (search_space_serve(&sp, ro.drift, stdin, stdout) != 0)
			rc = tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
		goto out;
	}
	if (!(rows = calloc(nwhich * nbudgets + 1, sizeof(*rows)))) {
		rc = tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
		goto out;
	}
	for (size_t k = 0; !rc && k < nwhich; k++)
		rc = search_space_replay(&sp, which[k], &ro, rows + k * nbudgets, err);
	if (!rc && o->format == REPORT_JSON)
		rc = print_space_json(rows, nwhich * nbudgets, drift, err);
	else if (!rc)
		print_space_table(&sp, rows, nwhich * nbudgets, drift);
out:
	search_space_replay_rows_free(rows, nwhich * nbudgets);
	free(rows);
	search_space_free(&sp);
	return rc;
}

int cmd_replay(int argc, char **argv, struct tune_error *err)
{
	struct cmd_options o;
	struct store *st = NULL;
	struct host_facts facts;
	struct platform p = { 0 };
	struct sweep sw = { 0 };
	struct plan plan = { 0 };
	struct replay_record rec = { 0 };
	struct replay_options ro;
	double seeds = 100, drift = 10, adaptive_trials = 0;
	long long lo_hi[2] = { 0, 0 };
	int which[6], rc;
	size_t nwhich = 0;

	if ((rc = cmd_parse_options("replay", argc, argv, &o, err)) != 0)
		return rc;
	if (o.kernel_tuner)
		return replay_space(&o, err);
	if (o.budgets || o.format_given)
		return tune_fail(err, TUNE_ERR_USAGE, "replay: option '--%s' is for a recorded space (--kernel-tuner "
				 "FILE)", o.budgets ? "budgets" : "format");
	if (o.nargs != 1)
		return tune_fail(err, TUNE_ERR_USAGE, "replay: which sweep? (tune replay SWEEP --from RECORDED, or tune "
				 "replay --kernel-tuner FILE)");
	if (!o.from)
		return tune_fail(err, TUNE_ERR_USAGE, "replay: whose runs? (--from RECORDED: a sweep in the database)");
	if ((o.seeds && (rc = number(o.seeds, "seeds", 1, 100000, &seeds, err)) != 0) ||
	    (o.drift && (rc = number(o.drift, "drift", 0, 100, &drift, err)) != 0) ||
	    (rc = strategies(o.strategies, which, &nwhich, err)) != 0)
		return rc;
	ro.seeds = (size_t)seeds;
	ro.drift = drift / 100.0;
	ro.start_lo = ro.start_hi = 0;
	if (o.start && (rc = start_range(o.start, &lo_hi[0], &lo_hi[1], err)) != 0)
		return rc;
	if ((rc = cmd_open_store(o.db, &st, err)) != 0)
		return rc;
	if ((rc = hostinfo_read(&facts, err)) != 0 ||
	    (rc = platform_load(o.nplatforms ? o.platforms[0] : "local", &p, err)) != 0 ||
	    (rc = platform_resolve(&p, &facts, err)) != 0 || (rc = sweep_load(o.args[0], &sw, err)) != 0 ||
	    (rc = platform_param_values(&p, &sw, err)) != 0 || (rc = plan_build(&p, &sw, &plan, err)) != 0 ||
	    (rc = search_replay_load(st, &sw, &plan, o.from, o.bridge, &rec, err)) != 0)
		goto out;
	if (!rec.points) {
		rc = tune_fail(err, TUNE_ERR_EMPTY, "replay: the database holds no runs of sweep '%s' at the points of "
			       "sweep '%s' (record them with a grid of the same parameters and runs, then replay)", o.from,
			       sw.name);
		goto out;
	}
	if (o.serve) {
		rc = search_replay_serve(&sw, &plan, &rec, &ro, stdin, stdout);
		goto out;
	}
	printf("sweep '%s' replayed against '%s': %zu of its %zu points recorded, %zu runs; %zu seeds, drift %.0f%% "
	       "per process\n", sw.name, o.from, rec.points, plan.ntrials, rec.runs, ro.seeds, drift);
	if (o.bridge)
		printf("the record's kernel processes scaled to '%s': %zu of %zu\n", o.bridge, rec.bridged,
		       rec.bridged + rec.unbridged);
	if (rec.best_point)
		printf("recorded: best at %lld; the plateau (points whose interval reaches within %lld%% of it) %lld..%lld\n", rec.best_point,
		       sw.tolerance_pct, rec.plateau_lo, rec.plateau_hi);
	printf("(in plateau: the choice's recorded interval reaches within the tolerance of the best recorded median;"
	       " by median: its median itself does; trials, anchors, finals and kernel processes per seed; time: all "
	       "measuring, finals too, over one pass of the grid)\n\n");
	printf("%-9s %16s %11s %14s %9s %8s %10s %15s %12s\n", "strategy", "in plateau", "by median", "search trials",
	       "anchors", "finals", "processes", "time vs grid", "choices");
	/* With --start, the adaptive search again, started there. */
	for (size_t k = 0; o.start && k < nwhich; k++)
		if (which[k] == STRATEGY_ADAPTIVE) {
			memmove(which + k + 2, which + k + 1, (nwhich - k - 1) * sizeof(*which));
			which[k + 1] = STRATEGY_ADAPTIVE;
			nwhich++;
			break;
		}
	for (size_t k = 0; k < nwhich; k++) {
		struct sweep one = sw;
		struct replay_result res;
		char choices[64] = "-", hits[64], name[16];
		int started = k > 0 && which[k] == STRATEGY_ADAPTIVE && which[k - 1] == STRATEGY_ADAPTIVE;

		ro.start_lo = started ? lo_hi[0] : 0;
		ro.start_hi = started ? lo_hi[1] : 0;
		snprintf(name, sizeof(name), "%s", started ? "started" : sweep_strategy_names[which[k]]);
		one.strategy = which[k];
		if (one.strategy == STRATEGY_RANDOM && !one.max_trials)
			one.max_trials = adaptive_trials > 0 ? (long long)(adaptive_trials + 0.5) : (long long)plan.ntrials / 10;
		if ((rc = search_replay(&one, &plan, &rec, &ro, &res, err)) != 0)
			goto out;
		if (one.strategy == STRATEGY_ADAPTIVE && !started)
			adaptive_trials = res.trials;
		if (res.chosen_max)
			snprintf(choices, sizeof(choices), "%lld..%lld", res.chosen_min, res.chosen_max);
		snprintf(hits, sizeof(hits), "%.0f%% (%zu/%zu)",
			 res.decisions ? 100.0 * (double)res.hits / (double)res.decisions : 0.0, res.hits, res.decisions);
		printf("%-9s %16s %10.0f%% %14.1f %9.1f %8.1f %10.1f %14.1f%% %12s\n", name, hits,
		       res.decisions ? 100.0 * (double)res.hits_median / (double)res.decisions : 0.0, res.trials,
		       res.anchors, res.finals, res.processes, 100.0 * res.time_share, choices);
		if (res.unrecorded)
			fprintf(stderr, "tune: replay: %s asked %zu times for points never recorded (they count as failed)\n",
				name, res.unrecorded);
	}
out:
	search_replay_free(&rec);
	plan_free(&plan);
	sweep_free(&sw);
	platform_free(&p);
	store_close(st);
	return rc;
}
