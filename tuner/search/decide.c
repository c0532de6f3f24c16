/* Deciding: for each context (a working set, a sched point) every candidate
 * that may be in the plateau (the top ones, the knee, and any whose interval
 * reaches within tolerance of the best score) re-measured side by side in a
 * random order, then the optimum chosen from that measurement alone and
 * recorded with its runner-up. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../kernels/common/rng.h"
#include "../config/config.h"
#include "../measure/measure.h"
#include "../plan/plan.h"
#include "../run/run.h"
#include "search.h"

static const char *size_class(const struct platform *p, long long size_mb)
{
	long long kb = size_mb * 1024;

	if (p->llc_kb > 0 && kb * 2 <= p->llc_kb)
		return "cache";
	if (p->llc_kb > 0 && kb <= 2 * p->llc_kb)
		return "llc";
	return "dram";
}

/* Trial a against the knee run by run, when one process measured both
 * (their runs interleaved): the median of the paired ratios (a's metric
 * over the knee's) and its interval, as a JSON object into *out; NULL when
 * measured apart. Drift between runs cancels in each ratio. */
static int paired(struct sweep_run *r, const struct trial *a, const struct trial *knee, json_t **out,
		  struct tune_error *err)
{
	double *v = NULL;
	size_t n = 0, cap = 0;
	struct stats s;
	int rc;

	*out = NULL;
	if (!a->id || !knee->id || !a->batch || a->batch != knee->batch)
		return 0;
	if ((rc = store_paired_ratios(r->ctx->store, a->id, knee->id, &v, &n, &cap, tune_msg(err))) == 0 && n) {
		stats_compute(v, n, &s, NULL);
		*out = json_pack("{s:f, s:f, s:f, s:I, s:f}", "ratio", s.median, "low", s.ci_low, "high", s.ci_high,
				 "runs", (json_int_t)s.n, "coverage", s.coverage);
	}
	free(v);
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
	/* A kernel with a report of its own gets no generic header block. */
	int own = m->report == REPORT_OWN;
	json_t *exports = own ? NULL : manifest_exports_json(knee);
	char *params_text = NULL, *runner_text = NULL, *exports_text = NULL, *baseline_text = NULL;
	long long point = manifest_point(knee), best_point = manifest_point(best);
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
	if (!rc && (!params_text || (!own && !exports_text) || (runner && !runner_text) ||
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
				cls = size_class(r->ctx->platform, knee->values[i]);
		o = (struct store_optimum){ .platform = r->ctx->platform->name, .host = r->ctx->facts->hostname,
					    .fingerprint = r->fingerprint, .kernel = m->name, .size_class = cls,
					    .variant = m->variants.v[knee->variant],
					    .hint = manifest_column_choice(knee, COLUMN_HINT), .runner_up = runner_text,
					    .size_mb = knee->size_mb, .group_size = point == PLAN_NA ? 0 : point,
					    .best_group_size = best_point == PLAN_NA ? 0 : best_point, .trials = trials,
					    .sweep_id = r->sweep_id, .hugepages = knee->hugepages,
					    .median = knee->stats.median, .ci_low = knee->stats.ci_low,
					    .ci_high = knee->stats.ci_high, .runs = (long long)knee->stats.n, .context = knee->context, .params = params_text,
					    .exports = exports_text, .baseline_paired = baseline_text };

		rc = store_optimum(r->ctx->store, &o, tune_msg(err));
	}
	free(params_text);
	free(runner_text);
	free(exports_text);
	free(baseline_text);
	return rc;
}

/* The point of the process of knee (or of any finalist) that behaves as the
 * baseline, added to the finals fin[0..*nf) (copies in finals[]) unless one
 * of them is it already: the gain over the baseline then pairs run by run. */
static struct trial *baseline_beside(const struct kernel_manifest *m, const struct trial *knee, struct trial **fin,
				     size_t *nf, struct trial *finals)
{
	long long at = search_baseline_beside(m, knee);

	if (at == PLAN_NA || *nf >= SEARCH_FINAL_MAX)
		return NULL;
	for (size_t k = 0; k < *nf; k++)
		if (manifest_is_baseline(fin[k]) && plan_same_process(fin[k], knee))
			return NULL;
	if (manifest_trial_at(knee, at, PHASE_FINAL, "final", &finals[*nf]) != 0)
		return NULL;
	fin[*nf] = &finals[*nf];
	return fin[(*nf)++];
}

/* For each working set: re-measure its candidates side by side in a
 * random order, then record the optimum (the knee of the best context). */
int search_decide(struct sweep_run *r, double drift, struct tune_error *err)
{
	const struct sweep *sw = &r->sweep;
	struct trial **cand = calloc(r->plan.ntrials + 1, sizeof(struct trial *));
	struct trial *finals = calloc(SEARCH_FINAL_MAX, sizeof(*finals));
	struct rng rng = { (uint64_t)sw->seed ^ 0x66696e616cull };
	char final_title[400], what[200];
	int rc = 0;

	if (!cand || !finals) {
		free(cand);
		free(finals);
		return tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
	}
	for (size_t i = 0; i < r->plan.ntrials && !rc; i++) {
		const struct trial *first = &r->plan.trials[i];
		size_t n = search_decision(&r->plan, i, cand), nf = 0, nb = 0, measured = n;
		struct trial *best, *knee, *runner = NULL, *baseline = NULL, *beside = NULL, *fin[SEARCH_FINAL_MAX];

		if (!n)
			continue;
		search_rank(r->kernel, cand, n);
		knee = search_knee(r->kernel, cand, n, cand[0], sw->tolerance);
		if (sw->final_top > 0) {
			nf = search_finalists(r->kernel, sw, cand, n, knee, drift, fin);
			for (size_t k = 0; k < nf; k++) {
				plan_copy_trial(fin[k], PHASE_FINAL, "final", &finals[k]);
				fin[k] = &finals[k];
			}
			/* The baseline beside the knee, then beside every other process
			 * of the final as places allow: whichever the final chooses,
			 * its gain is measured run by run in its own process. */
			nb = nf;
			baseline_beside(r->kernel, knee, fin, &nf, finals);
			for (size_t k = 0; k < nb; k++)
				baseline_beside(r->kernel, fin[k], fin, &nf, finals);
			nb = nf - nb;
			/* A random order, kept together by context so each is one process. */
			for (size_t k = nf; k > 1; k--) {
				size_t j = (size_t)rng_below(&rng, k);
				struct trial *t = fin[k - 1];

				fin[k - 1] = fin[j];
				fin[j] = t;
			}
			search_group_by_process(fin, nf);
			snprintf(what, sizeof(what), "final%s%s", first->context[0] ? " " : "", first->context);
			search_round_title(r, what, final_title, sizeof(final_title));
			if ((rc = measure_trials(r, fin, nf, final_title, err)) != 0)
				break;
			/* A baseline beside (finals[nf - nb ..]) measures the gain, not a
			 * candidate: to the end. */
			{
				struct trial *moved[SEARCH_FINAL_MAX];
				size_t keep = 0, nm = 0;

				for (size_t k = 0; k < nf; k++)
					if (fin[k] >= finals + (nf - nb))
						moved[nm++] = fin[k];
					else
						fin[keep++] = fin[k];
				for (size_t k = 0; k < nm; k++)
					fin[keep + k] = moved[k];
			}
			if (!(n = search_finals_ranked(r->kernel, fin, nf - nb, cand)))
				continue;
			knee = search_knee(r->kernel, cand, n, cand[0], sw->tolerance);
			for (size_t k = nf - nb; k < nf; k++)
				if (plan_same_process(fin[k], knee))
					beside = fin[k];
		}
		best = cand[0];
		for (size_t k = 0; k < n; k++)
			if (cand[k] != knee) {
				runner = cand[k];
				break;
			}
		/* The baseline measured in this decision, the headline's: beside
		 * the knee, else the best of it. */
		if (beside && beside->stats.n)
			baseline = beside;
		for (size_t k = 0; k < n && !baseline; k++)
			if (cand[k] != knee && manifest_is_baseline(cand[k]))
				baseline = cand[k];
		rc = record_optimum(r, knee, best, runner, baseline,
				    (long long)measured + (long long)(n + nb) * (sw->final_top > 0), err);
	}
	free(cand);
	free(finals);
	return rc;
}
