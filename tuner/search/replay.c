/* Replay: a strategy run against recorded measurements instead of the
 * machine, to prove the search. Each measurement of a trial draws its runs
 * (with replacement) from the runs a recorded sweep measured at the same
 * point; each kernel process is scaled by a drift that moves from one
 * process to the next (a log-normal AR(1) walk, as this machine's speed
 * does between minutes). Over many seeds it counts how often the decision
 * lands in the plateau (its recorded interval reaches within tolerance of
 * the best recorded median: a knee sits at the plateau's edge, where the
 * record's own noise decides a point measured as often), the
 * search trials it measured and the measuring time it took, against the
 * grid's. The search and the decision are the sweep's own code. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../kernels/sdk/tune_protocol.h"
#include "../measure/measure.h"
#include "search.h"

/* How much of the last process's drift the next keeps (log space). */
#define DRIFT_KEEP 0.9

struct replay {
	struct plan *plan;
	struct replay_recorded *rec;   /* per plan trial */
	struct tk_rng rng;
	double sigma, log_drift;
	long long ids;          /* trial ids as a store would number them */
	double time_ns;         /* measuring time so far */
	size_t processes;       /* kernel processes so far: each builds its working set anew */
	size_t unrecorded;      /* measurements asked of points never recorded */
};

static double uniform01(struct tk_rng *r)
{
	return ((double)(tk_rng_next(r) >> 11) + 0.5) * 0x1.0p-53;
}

static double normal(struct tk_rng *r)
{
	return sqrt(-2.0 * log(uniform01(r))) * cos(6.283185307179586 * uniform01(r));
}

/* The plan trial whose record t draws from: itself, or the one it copies. */
static const struct replay_recorded *record_of(const struct replay *p, const struct trial *t)
{
	const struct plan *pl = p->plan;

	if (t >= pl->trials && t < pl->trials + pl->ntrials)
		return &p->rec[t - pl->trials];
	for (size_t i = 0; i < pl->ntrials; i++)
		if (!strcmp(pl->trials[i].params, t->params))
			return &p->rec[i];
	return NULL;
}

double search_drift_step(struct tk_rng *r, double *log_drift, double sigma)
{
	*log_drift = DRIFT_KEEP * *log_drift + sigma * normal(r);
	return exp(*log_drift);
}

/* One kernel process measuring ts[0..n): a drift step, then each trial's
 * runs drawn from its record, scaled by the drift. */
static void measure_process(struct replay *p, struct trial **ts, size_t n)
{
	double drift, v[256];
	long long batch = p->ids + 1;

	p->processes++;
	drift = search_drift_step(&p->rng, &p->log_drift, p->sigma);
	for (size_t i = 0; i < n; i++) {
		const struct replay_recorded *r = record_of(p, ts[i]);
		size_t runs = ts[i]->runs > 0 && ts[i]->runs < 256 ? (size_t)ts[i]->runs : 1;

		ts[i]->id = ++p->ids;
		ts[i]->batch = batch;
		if (!r || !r->n) {
			ts[i]->status = TRIAL_FAILED;
			p->unrecorded++;
			continue;
		}
		for (size_t k = 0; k < runs; k++) {
			v[k] = r->v[tk_rng_below(&p->rng, r->n)] * drift;
			p->time_ns += v[k] * (double)manifest_metric_units(ts[i]);
		}
		/* Warm-ups take their time too. */
		p->time_ns += (double)ts[i]->warmup * r->median * drift * (double)manifest_metric_units(ts[i]);
		stats_compute(v, runs, &ts[i]->stats, NULL);
		ts[i]->status = TRIAL_DONE;
	}
}

/* ts[0..n) as the sweep measures them, a kernel process at a time. */
static void measure_round(struct replay *p, struct trial **ts, size_t n)
{
	for (size_t i = 0, j; i < n; i = j) {
		j = measure_process_end(ts, i, n);
		measure_process(p, ts + i, j - i);
	}
}

/* The plan trial with the best recorded median of of's decision, or
 * (size_t)-1 when none is recorded. */
static size_t best_recorded(const struct plan *pl, const struct replay_recorded *rec, const struct sweep *sw,
			    const struct trial *of)
{
	int higher = sw->manifest->metric.better == BETTER_HIGHER;
	size_t best = (size_t)-1;

	for (size_t i = 0; i < pl->ntrials; i++)
		if (rec[i].n && manifest_same_decision(&pl->trials[i], of) &&
		    (best == (size_t)-1 || (higher ? rec[i].median > rec[best].median : rec[i].median < rec[best].median)))
			best = i;
	return best;
}

/* Whether c is in the plateau of a decision whose best recorded median is
 * best: its recorded interval (by_median 0) or its recorded median (1)
 * within tolerance of it. */
static int reaches(const struct replay_recorded *c, double best, const struct sweep *sw, int by_median)
{
	if (!c || !c->n)
		return 0;
	if (sw->manifest->metric.better == BETTER_HIGHER)
		return (by_median ? c->median : c->high) >= best * (1.0 - sw->tolerance);
	return (by_median ? c->median : c->low) <= best * (1.0 + sw->tolerance);
}

/* Whether the chosen trial is in the plateau of its decision. */
static int in_plateau(const struct replay *p, const struct sweep *sw, const struct trial *chosen, int by_median)
{
	size_t best = best_recorded(p->plan, p->rec, sw, chosen);

	return best != (size_t)-1 && reaches(record_of(p, chosen), p->rec[best].median, sw, by_median);
}

/* The replay's side of a decision: the final drawn from the record, the
 * choice scored against the record's plateau. */
struct replay_decision {
	struct replay *p;
	const struct sweep *sw;
	struct replay_result *out;
};

static int replay_final(void *arg, const struct trial *first, struct trial **fin, size_t nf, struct tune_error *err)
{
	struct replay_decision *rd = arg;

	(void)first;
	(void)err;
	measure_round(rd->p, fin, nf);
	rd->out->finals += (double)nf;
	return 0;
}

static int replay_decided(void *arg, struct trial *knee, struct trial **cand, size_t n, struct trial *beside,
			  long long weighed, struct tune_error *err)
{
	struct replay_decision *rd = arg;
	struct replay_result *out = rd->out;
	long long point = plan_trial_point(knee);

	(void)cand;
	(void)n;
	(void)beside;
	(void)weighed;
	(void)err;
	out->decisions++;
	out->hits += in_plateau(rd->p, rd->sw, knee, 0);
	out->hits_median += in_plateau(rd->p, rd->sw, knee, 1);
	if (point != PLAN_NA) {
		if (!out->chosen_min || point < out->chosen_min)
			out->chosen_min = point;
		if (point > out->chosen_max)
			out->chosen_max = point;
	}
	return 0;
}

/* The decision of each context as search_decide() makes it (the same loop,
 * with no baseline beside: it measures the gain, not the choice), measured
 * by the replay, with the drift the search's anchors saw (< 0: none); adds
 * to out. */
static int decide(struct replay *p, const struct sweep *sw, double drift, struct replay_result *out,
		  struct tune_error *err)
{
	struct replay_decision rd = { p, sw, out };
	struct search_decider d = { replay_final, replay_decided, NULL, &rd, 0, NULL, NULL };

	return search_decide_each(p->plan, sw, drift, &d, err);
}

/* The grid's measuring time: every trial once, at its recorded median. */
static double grid_time(const struct replay *p)
{
	double ns = 0;

	for (size_t i = 0; i < p->plan->ntrials; i++) {
		const struct trial *t = &p->plan->trials[i];

		if (p->rec[i].n)
			ns += (double)(t->runs + t->warmup) * p->rec[i].median * (double)manifest_metric_units(t);
	}
	return ns;
}

/* The plateau of the first decision's record: its best point and the
 * smallest and largest whose interval reaches within tolerance of it. */
static void plateau_of(const struct sweep *sw, const struct plan *plan, struct replay_record *r)
{
	size_t best = plan->ntrials ? best_recorded(plan, r->rec, sw, &plan->trials[0]) : (size_t)-1;

	if (best == (size_t)-1)
		return;
	r->best_point = plan_trial_point(&plan->trials[best]);
	for (size_t i = 0; i < plan->ntrials; i++) {
		long long x = plan_trial_point(&plan->trials[i]);

		if (!manifest_same_decision(&plan->trials[i], &plan->trials[0]) || x == PLAN_NA ||
		    !reaches(&r->rec[i], r->rec[best].median, sw, 0))
			continue;
		if (!r->plateau_lo || x < r->plateau_lo)
			r->plateau_lo = x;
		if (x > r->plateau_hi)
			r->plateau_hi = x;
	}
}

static void summarize(struct replay_recorded *r)
{
	struct stats s;

	stats_compute(r->v, r->n, &s, NULL);
	r->median = s.median;
	r->low = s.ci_low;
	r->high = s.ci_high;
}

/* The runs of the newest trial of sweep name at t's parameters, into *v. */
static int runs_of(struct store *st, const char *name, const struct trial *t, double **v, size_t *n, size_t *cap,
		   long long *batch, struct tune_error *err)
{
	long long id;
	int rc;

	*n = 0;
	if ((rc = store_recorded_trial(st, name, t->params, &id, batch, tune_msg(err))) != 0 || !id)
		return rc;
	return store_trial_values(st, id, v, n, cap, tune_msg(err));
}

/* The bridge: a sweep that measured points of every process of the record
 * side by side in one process. Each process of the record is scaled by how
 * its points compare with the bridge's (a geometric mean), so that the
 * record reads as if measured in one process. */
static int bridge(struct store *st, const struct plan *plan, const char *name, struct replay_record *out,
		  struct tune_error *err)
{
	double *v = NULL, *bmed = calloc(plan->ntrials ? plan->ntrials : 1, sizeof(*bmed));
	size_t cap = 0, n;
	long long b;
	int rc = 0;

	if (!bmed)
		return tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
	for (size_t i = 0; !rc && i < plan->ntrials; i++) {
		struct stats s;

		if (out->rec[i].n && (rc = runs_of(st, name, &plan->trials[i], &v, &n, &cap, &b, err)) == 0 && n) {
			stats_compute(v, n, &s, NULL);
			bmed[i] = s.median;
		}
	}
	for (size_t i = 0; !rc && i < plan->ntrials; i++) {
		long long batch = out->rec[i].batch;
		double logsum = 0, f;
		size_t k = 0;
		int first = 1;

		for (size_t j = 0; j < i && first; j++)
			first = out->rec[j].batch != batch || !out->rec[j].n;
		if (!out->rec[i].n || !first)
			continue;
		for (size_t j = i; j < plan->ntrials; j++)
			if (out->rec[j].n && out->rec[j].batch == batch && bmed[j] > 0 && out->rec[j].median > 0) {
				logsum += log(bmed[j] / out->rec[j].median);
				k++;
			}
		if (!k) {
			out->unbridged++;
			continue;
		}
		f = exp(logsum / (double)k);
		for (size_t j = i; j < plan->ntrials; j++)
			if (out->rec[j].v && out->rec[j].batch == batch) {
				for (size_t x = 0; x < out->rec[j].n; x++)
					out->rec[j].v[x] *= f;
				summarize(&out->rec[j]);
			}
		out->bridged++;
	}
	free(v);
	free(bmed);
	return rc;
}

int search_replay_load(struct store *st, const struct sweep *sw, struct plan *plan, const char *recorded,
		       const char *bridged_by, struct replay_record *out, struct tune_error *err)
{
	size_t cap = 0;
	double *v = NULL;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	out->ntrials = plan->ntrials;
	if (!(out->rec = calloc(plan->ntrials ? plan->ntrials : 1, sizeof(*out->rec))))
		return tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
	for (size_t i = 0; !rc && i < plan->ntrials; i++) {
		struct replay_recorded *r = &out->rec[i];
		size_t n = 0;

		if ((rc = runs_of(st, recorded, &plan->trials[i], &v, &n, &cap, &r->batch, err)) != 0 || !n)
			continue;
		if (!(r->v = malloc(n * sizeof(*r->v)))) {
			rc = tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
			break;
		}
		memcpy(r->v, v, n * sizeof(*v));
		r->n = n;
		summarize(r);
		out->points++;
		out->runs += n;
	}
	free(v);
	if (!rc && bridged_by)
		rc = bridge(st, plan, bridged_by, out, err);
	if (rc)
		search_replay_free(out);
	else
		plateau_of(sw, plan, out);
	return rc;
}

void search_replay_free(struct replay_record *r)
{
	for (size_t i = 0; r->rec && i < r->ntrials; i++)
		free(r->rec[i].v);
	free(r->rec);
	memset(r, 0, sizeof(*r));
}

int search_replay(const struct sweep *sw, struct plan *plan, const struct replay_record *record,
		  const struct replay_options *o, struct replay_result *out, struct tune_error *err)
{
	struct trial **round = calloc(plan->ntrials + SEARCH_ANCHORS * plan->nbatches + 1, sizeof(struct trial *));
	struct replay p = { plan, record->rec, { 0 }, o->drift, 0, 0, 0, 0, 0 };
	double time_ns = 0, grid_ns = grid_time(&p);
	int rc = 0;

	memset(out, 0, sizeof(*out));
	if (!round)
		return tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
	for (size_t seed = 0; !rc && seed < o->seeds; seed++) {
		/* The sweep as if seeded anew: random draws its own sample each time. */
		struct sweep each = *sw;
		struct search se;
		size_t n;

		each.seed = sw->seed + (long long)seed;
		p.rng.state = (uint64_t)sw->seed * 0x9e3779b97f4a7c15ull + seed + 1;
		p.log_drift = 0;
		p.time_ns = 0;
		for (size_t i = 0; i < plan->ntrials; i++) {
			struct trial *t = &plan->trials[i];

			memset(&t->stats, 0, sizeof(t->stats));
			t->status = TRIAL_PENDING;
			t->id = t->batch = 0;
		}
		if ((rc = search_init(&se, &each, plan, NULL, err)) != 0)
			break;
		for (size_t b = 0; b < plan->nbatches; b++) {
			se.ctx[b].start_lo = o->start_lo;
			se.ctx[b].start_hi = o->start_hi;
		}
		while ((n = search_next(&se, round, plan->ntrials)) > 0) {
			measure_round(&p, round, n);
			for (size_t k = 0; k < n; k++) {
				out->trials += round[k]->phase == PHASE_SEARCH;
				out->anchors += round[k]->phase == PHASE_ANCHOR;
			}
		}
		search_score(&se);
		search_mark_raced_out(&se);
		rc = decide(&p, sw, se.drift, out, err);
		search_free(&se);
		time_ns += p.time_ns;
	}
	out->seeds = o->seeds;
	out->unrecorded = p.unrecorded;
	if (o->seeds) {
		out->trials /= (double)o->seeds;
		out->anchors /= (double)o->seeds;
		out->finals /= (double)o->seeds;
		out->processes = (double)p.processes / (double)o->seeds;
		out->time_share = grid_ns > 0 ? time_ns / (double)o->seeds / grid_ns : 0;
	}
	free(round);
	return rc;
}

/* The plan trial at list value x of the first decision's context, or NULL. */
static struct trial *at_point(struct plan *plan, long long x)
{
	for (size_t i = 0; i < plan->ntrials; i++)
		if (plan_trial_point(&plan->trials[i]) == x && manifest_same_decision(&plan->trials[i], &plan->trials[0]))
			return &plan->trials[i];
	return NULL;
}

int search_replay_serve(const struct sweep *sw, struct plan *plan, const struct replay_record *record,
			const struct replay_options *o, FILE *in, FILE *out)
{
	struct replay p = { plan, record->rec, { 1 }, o->drift, 0, 0, 0, 0, 0 };
	char line[128];

	while (fgets(line, sizeof(line), in)) {
		char word[16];
		long long x;
		struct trial *t, copy;

		if (sscanf(line, "%15s %lld", word, &x) != 2) {
			fprintf(out, "error: say 'seed N', 'measure G' or 'judge G'\n");
		} else if (!strcmp(word, "seed")) {
			p.rng.state = (uint64_t)x * 0x9e3779b97f4a7c15ull + 1;
			p.log_drift = 0;
			fprintf(out, "ok\n");
		} else if (!(t = at_point(plan, x)) || !record->rec[t - plan->trials].n) {
			fprintf(out, "error: %lld is not a recorded point\n", x);
		} else if (!strcmp(word, "measure")) {
			struct trial *one = &copy;

			plan_copy_trial(t, PHASE_SEARCH, "serve", &copy);
			measure_process(&p, &one, 1);
			fprintf(out, "%.6g\n", copy.stats.median);
		} else if (!strcmp(word, "judge")) {
			fprintf(out, "%s %s\n", in_plateau(&p, sw, t, 0) ? "in" : "out", in_plateau(&p, sw, t, 1) ? "in" : "out");
		} else {
			fprintf(out, "error: unknown request '%s'\n", word);
		}
		fflush(out);
	}
	return 0;
}
