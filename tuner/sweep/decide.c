/* Deciding, the sweep's side: for each context (a working set, a sched
 * point) every candidate that may be in the plateau re-measured side by side
 * in a random order, with the baseline beside it, by the loop the replay
 * shares (decision.c); then the optimum chosen from that measurement alone
 * recorded with its runner-up, its gain and where it stands. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../kernels/sdk/tune_protocol.h"
#include "../config/config.h"
#include "../measure/measure.h"
#include "../plan/plan.h"
#include "../run/run.h"
#include "../search/search.h"
#include "sweep.h"

static const char *size_class(const struct platform *p, long long mb)
{
	long long kb = mb * 1024;

	if (p->llc_kb > 0 && kb * 2 <= p->llc_kb)
		return "cache";
	if (p->llc_kb > 0 && kb <= 2 * p->llc_kb)
		return "llc";
	return "dram";
}

/* Trial a against b run by run, when one process measured both (their runs
 * interleaved): the paired ratios (a's metric over b's) into *s; returns 1
 * when there are some, 0 when measured apart, negative on a store error.
 * Drift between runs cancels in each ratio. */
static int paired_stats(struct sweep_run *r, const struct trial *a, const struct trial *b, struct stats *s,
			struct tune_error *err)
{
	double *v = NULL;
	size_t n = 0, cap = 0;
	int rc;

	memset(s, 0, sizeof(*s));
	if (!a->id || !b->id || !a->batch || a->batch != b->batch)
		return 0;
	if ((rc = store_paired_ratios(r->ms.ctx->store, a->id, b->id, &v, &n, &cap, tune_msg(err))) == 0 && n) {
		stats_compute(v, n, s, NULL);
		rc = 1;
	}
	free(v);
	return rc;
}

/* The same, as a JSON object into *out (NULL when measured apart). */
static int paired(struct sweep_run *r, const struct trial *a, const struct trial *knee, json_t **out,
		  struct tune_error *err)
{
	struct stats s;
	int rc = paired_stats(r, a, knee, &s, err);

	*out = rc == 1 ? json_pack("{s:f, s:f, s:f, s:I, s:f}", "ratio", s.median, "low", s.ci_low, "high", s.ci_high,
				   "runs", (json_int_t)s.n, "coverage", s.coverage) : NULL;
	return rc < 0 ? rc : 0;
}

/* The decider's paired interval (struct search_decider). */
static int paired_interval(void *arg, const struct trial *a, const struct trial *best, double *low, double *high,
			   struct tune_error *err)
{
	struct stats s;
	int rc = paired_stats(arg, a, best, &s, err);

	if (rc == 1) {
		*low = s.ci_low;
		*high = s.ci_high;
	}
	return rc;
}

/* Records the optimum of a decision: its context, every parameter of the
 * knee and the fastest's list value, the runner-up's parameters, and the
 * baseline (when measured) against it run by run. */
static int record_optimum(struct sweep_run *r, const struct trial *knee, const struct trial *best,
			  const struct trial *runner, const struct trial *baseline, long long trials,
			  struct tune_error *err)
{
	const struct kernel_manifest *m = knee->manifest;
	json_t *params = manifest_params_json(knee), *ru = runner ? manifest_params_json(runner) : NULL;
	json_t *ru_paired = NULL, *base_paired = NULL;
	json_t *exports = manifest_exports_json(knee);
	char *params_text = NULL, *runner_text = NULL, *exports_text = NULL, *baseline_text = NULL;
	long long best_point = manifest_point(best);
	int rc = 0;

	if (ru) {
		json_object_set_new(ru, "median", json_real(runner->stats.median));
		json_object_set_new(ru, "ci_low", json_real(runner->stats.ci_low));
		json_object_set_new(ru, "ci_high", json_real(runner->stats.ci_high));
		json_object_set_new(ru, "runs", json_integer((json_int_t)runner->stats.n));
		if ((rc = paired(r, runner, knee, &ru_paired, err)) == 0 && ru_paired)
			json_object_set_new(ru, "paired", ru_paired);
	}
	if (!rc && baseline && (rc = paired(r, baseline, knee, &base_paired, err)) == 0 && base_paired) {
		baseline_text = json_dumps(base_paired, JSON_COMPACT);
		json_decref(base_paired);
	}
	params_text = params ? json_dumps(params, JSON_COMPACT) : NULL;
	runner_text = ru ? json_dumps(ru, JSON_COMPACT) : NULL;
	exports_text = exports ? json_dumps(exports, JSON_COMPACT) : NULL;
	json_decref(params);
	json_decref(ru);
	json_decref(exports);
	if (!rc && (!params_text || !exports_text || (runner && !runner_text) ||
		    (base_paired && !baseline_text)))
		rc = tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
	if (rc) {
		free(params_text);
		free(runner_text);
		free(exports_text);
		free(baseline_text);
		return rc;
	}
	{
		/* A working set (a memory_mb context) is classed against the caches. */
		const char *cls = knee->context[0] ? knee->context : "-";
		struct store_optimum o;

		for (size_t i = 0; i < m->parameters.n; i++)
			if (MANIFEST_PARAM(m, i)->memory_mb && MANIFEST_PARAM(m, i)->role == ROLE_CONTEXT)
				cls = size_class(r->ms.ctx->platform, knee->values[i]);
		o = (struct store_optimum){ .platform = r->ms.ctx->platform->name, .host = r->ms.ctx->facts->hostname,
					    .fingerprint = r->id.fingerprint, .kernel = m->name, .size_class = cls,
					    .variant = m->variants.v[knee->variant],
					    .runner_up = runner_text, .best_point = best_point == PLAN_NA ? 0 : best_point,
					    .trials = trials, .sweep_id = r->ms.sweep_id,
					    .median = knee->stats.median, .ci_low = knee->stats.ci_low,
					    .ci_high = knee->stats.ci_high, .runs = (long long)knee->stats.n, .context = knee->context, .params = params_text,
					    .exports = exports_text, .baseline_paired = baseline_text };

		rc = store_optimum(r->ms.ctx->store, &o, tune_msg(err));
	}
	free(params_text);
	free(runner_text);
	free(exports_text);
	free(baseline_text);
	return rc;
}

/* The sweep's side of a decision (arg: its struct sweep_run): the finals
 * measured on the host, each optimum recorded with runner-up and baseline. */
static int measure_final(void *arg, const struct trial *first, struct trial **fin, size_t nf, struct tune_error *err)
{
	struct sweep_run *r = arg;
	char final_title[400], what[200];

	snprintf(what, sizeof(what), "final%s%s", first->context[0] ? " " : "", first->context);
	sweep_round_title(r, what, final_title, sizeof(final_title));
	return measure_trials(&r->ms, fin, nf, final_title, err);
}

/* The best at the largest value of the list parameter measured, short of
 * the parameter's end: a larger value, never measured, may be better. */
static void warn_at_edge(struct sweep_run *r, const struct trial *best)
{
	const struct kernel_manifest *m = best->manifest;
	const struct kernel_param *list = manifest_list_param(m);
	const struct conf_ints *measured;
	long long point = manifest_point(best), top = 0;

	if (!list || list->type == PARAM_CHOICE || point == PLAN_NA)
		return;
	measured = &r->sweep.values[list - MANIFEST_PARAM(m, 0)];
	for (size_t k = 0; k < measured->n; k++)
		if (!k || measured->v[k] > top)
			top = measured->v[k];
	if (measured->n > 1 && point == top && top < list->max)
		sweep_warn(r, "%s%sthe best %s is %lld, the largest measured: a larger one may be better (raise "
			   "list_max, or list larger values)", best->context, best->context[0] ? ": " : "", list->name,
			   point);
}

static int record_decision(void *arg, struct trial *knee, struct trial **cand, size_t n, struct trial *beside,
			   long long weighed, struct tune_error *err)
{
	struct sweep_run *r = arg;
	struct trial *runner = NULL, *baseline = NULL;

	for (size_t k = 0; k < n; k++)
		if (cand[k] != knee) {
			runner = cand[k];
			break;
		}
	/* The baseline measured in this decision, the headline's: beside the
	 * knee, else the best of it. */
	if (beside && beside->stats.n)
		baseline = beside;
	for (size_t k = 0; k < n && !baseline; k++)
		if (cand[k] != knee && manifest_is_baseline(cand[k]))
			baseline = cand[k];
	warn_at_edge(r, cand[0]);
	return record_optimum(r, knee, cand[0], runner, baseline, weighed, err);
}

static void undecided(void *arg, const struct trial *first, size_t nfailed)
{
	(void)arg;
	fprintf(stderr, "tune: %s%s%s: no optimum recorded: %zu of its trials failed, and one of them may have been the "
		"best (their reasons are above; fix them and run again)\n", first->kernel_name, first->context[0] ? " " : "",
		first->context, nfailed);
}

/* For each working set: re-measure its candidates side by side in a
 * random order, the baseline beside them, then record the optimum (the knee
 * of the best context). */
int sweep_decide(struct sweep_run *r, double drift, struct tune_error *err)
{
	struct tk_rng rng = { (uint64_t)r->sweep.seed ^ 0x66696e616cull };
	struct search_decider d = { measure_final, record_decision, undecided, r, 1, &rng, paired_interval };

	return search_decide_each(&r->plan, &r->sweep, drift, &d, err);
}
