/* The search strategies on synthetic measurements (no kernel runs): grid
 * proposes everything once; random a repeatable sample within budget;
 * adaptive finds the knee of a latency curve with a fraction of the grid,
 * races away a clearly worse context, finds the knee while the machine
 * drifts between rounds (through its anchors), and resumes from its saved
 * state. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "../../kernels/chase/chase.h"
#include "../../kernels/sdk/tune_protocol.h"
#include "../../tuner/search/search.h"
#include "../check.h"

/* ns/lookup of a curve that falls until saturation at g = sat, then rises slowly. */
static double curve(long long g, double sat, double scale)
{
	double x = (double)g;

	return scale * (x < sat ? 40.0 + 400.0 / x : 40.0 + 400.0 / sat + (x - sat) * 0.01);
}

/* The chase's hint of t (a choice's index), -1 where none applies. */
static long long hint_of(const struct trial *t)
{
	const struct kernel_param *p = manifest_param(t->manifest, "hint");
	long long v = p ? t->values[p - (const struct kernel_param *)t->manifest->parameters.v] : PLAN_NA;

	return v == PLAN_NA ? -1 : v;
}

static void fake_measure(struct trial *t, double sat, double scale)
{
	double m = curve(t->list_value, sat, scale);

	t->stats.n = 5;
	t->stats.median = m;
	t->stats.mad = m * 0.002;
	t->stats.ci_low = m * 0.995;
	t->stats.ci_high = m * 1.005;
	t->status = TRIAL_DONE;
}

/* The chase at 512 MB, scalar and interleaved-prefetch over nhints hints:
 * a sweep file written and loaded as any is. */
static void setup(struct platform *p, struct sweep *s, int strategy, size_t nhints)
{
	static const char *const strategies[] = { "grid", "random", "adaptive", "joint" };
	char path[] = "/tmp/tune-test-search-XXXXXX";
	struct tune_error err;
	int fd = mkstemp(path);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;

	sweep_free(s); /* the last setup's, or nothing */
	memset(p, 0, sizeof(*p));
	p->name = "synthetic";
	p->usable_memory_mb = 1 << 20;
	if (!f)
		exit(2);
	fprintf(f, "name: synthetic\nkernel: chase\nstrategy: %s\nruns: 5\nseed: 42\nlist_min: 1\nlist_max: 1024\n"
		   "tolerance_pct: 2\nparams:\n  variant: [scalar, interleaved-prefetch]\n  size_mb: 512\n"
		   "  hint: %s\n  hugepages: %s\n  depth: 12\n  queries: 1000\n%s", strategies[strategy],
		nhints == 4 ? "[pldl1keep, pldl2keep, pldl3keep, pldl1strm]" : nhints == 2 ? "[pldl1keep, pldl1strm]"
		: "pldl1keep", nhints == 4 ? "[off, on]" : "off",
		strategy >= STRATEGY_ADAPTIVE ? "" : "  group_size: [1, 2, 4, 8]\n");
	fclose(f);
	if (sweep_load(path, s, &err) != 0) {
		fprintf(stderr, "sweep: %s\n", err.msg);
		exit(2);
	}
	unlink(path);
}

static long long last_id;
/* Kernel processes measured, those of them to run once (no repetitions),
 * and how much each drifts on its own (log). */
static size_t processes, once_processes;
static double jitter;

/* Measures a round as the sweep does: each context's trials (and anchors) in
 * one process, numbered as stored, with the machine drift times slower. */
static void fake_round(struct trial **ts, size_t n, double sat_a, double sat_b, double scale_b, double drift)
{
	const struct trial *first = NULL;
	long long batch = 0;
	double own = 1;

	for (size_t k = 0; k < n; k++) {
		struct trial *t = ts[k];
		int second = hint_of(t) == CHASE_HINT_PLDL1STRM;

		const struct kernel_param *hp = manifest_param(t->manifest, "hugepages");
		int huge = hp && t->values[hp - (const struct kernel_param *)t->manifest->parameters.v] == 1;

		if (!first || !plan_same_process(t, first)) {
			first = t;
			batch = last_id + 1;
			processes++;
			once_processes += t->once != 0;
			/* A process's own drift, the same for all its trials. */
			own = exp(jitter * (2.0 * (double)((uint64_t)batch * 0x9e3779b97f4a7c15ull >> 11) * 0x1.0p-53 - 1.0));
		}
		t->id = ++last_id;
		t->batch = batch;
		/* Huge pages 15% faster, where the sweep has them. */
		fake_measure(t, second ? sat_b : sat_a, (second ? scale_b : 1.0) * (huge ? 0.85 : 1.0) * drift * own);
	}
}

static struct trial **room(const struct plan *pl)
{
	return malloc((pl->ntrials + SEARCH_ANCHORS * pl->nbatches) * sizeof(struct trial *));
}

/* Runs the search to its end; returns the number of plan trials measured. */
static size_t run_search(struct search *se, struct plan *pl, double sat_a, double sat_b, double scale_b)
{
	struct trial **ts = room(pl);
	size_t total = 0, n;

	while ((n = search_next(se, ts, pl->ntrials)) > 0) {
		fake_round(ts, n, sat_a, sat_b, scale_b, 1.0);
		for (size_t k = 0; k < n; k++)
			total += ts[k]->phase == PHASE_SEARCH;
	}
	free(ts);
	return total;
}

/* The knee one context's adaptive search settles on while the machine
 * drifts (round r runs drift[r] times slower; the last entry holds on):
 * the smallest g whose score is within 2% of the best. anchored 0 leaves
 * the anchors unmeasured, so that medians of different batches are compared
 * as they stand. */
static long long drifting_knee(const struct platform *p, const struct sweep *s, const double *drift, size_t ndrift,
			       int anchored, double sat)
{
	struct plan pl = { 0 };
	struct search se;
	struct tune_error err;
	struct trial **ts;
	size_t n, round = 0, best;
	long long knee = 0;

	if (plan_build(p, s, &pl, &err) != 0 || search_init(&se, s, &pl, NULL, &err) != 0)
		return -1;
	ts = room(&pl);
	while ((n = search_next(&se, ts, pl.ntrials)) > 0) {
		size_t k = 0;

		for (size_t i = 0; i < n; i++)
			if (anchored || ts[i]->phase != PHASE_ANCHOR)
				ts[k++] = ts[i];
		fake_round(ts, k, sat, sat, 1, drift[round < ndrift ? round : ndrift - 1]);
		round++;
	}
	search_score(&se);
	best = search_best_in(&se, 1);
	for (size_t i = pl.batches[1].first; best != (size_t)-1 && i < pl.batches[1].first + pl.batches[1].count; i++)
		if (pl.trials[i].stats.n && pl.trials[i].score <= pl.trials[best].score * 1.02 &&
		    (!knee || pl.trials[i].list_value < knee))
			knee = pl.trials[i].list_value;
	free(ts);
	search_free(&se);
	plan_free(&pl);
	return knee;
}

/* The true plateau of the curve: g within 2% of its best. */
static void plateau(double sat, long long *lo, long long *hi)
{
	double best = curve(1, sat, 1);

	for (long long g = 1; g <= 1024; g++)
		if (curve(g, sat, 1) < best)
			best = curve(g, sat, 1);
	*lo = *hi = 0;
	for (long long g = 1; g <= 1024; g++)
		if (curve(g, sat, 1) <= best * 1.02) {
			if (!*lo)
				*lo = g;
			*hi = g;
		}
}

int main(void)
{
	struct platform p;
	struct sweep s = { 0 };
	struct plan pl = { 0 };
	struct search se;
	struct tune_error err;
	size_t n;

	/* grid: every trial once, then done. */
	setup(&p, &s, STRATEGY_GRID, 1);
	CHECK(plan_build(&p, &s, &pl, &err) == 0, "plan: %s", err.msg);
	CHECK(pl.ntrials == 5, "scalar + 4 g: %zu", pl.ntrials);
	search_init(&se, &s, &pl, NULL, &err);
	n = run_search(&se, &pl, 48, 48, 1);
	CHECK(n == 5, "grid measured %zu", n);
	search_free(&se);
	plan_free(&pl);

	/* random: max_trials of the trials, the same sample again. */
	setup(&p, &s, STRATEGY_RANDOM, 1);
	s.max_trials = 3;
	CHECK(plan_build(&p, &s, &pl, &err) == 0, "plan: %s", err.msg);
	{
		struct trial *a[8], *b[8];
		size_t na, nb;

		search_init(&se, &s, &pl, NULL, &err);
		na = search_next(&se, a, 8);
		search_free(&se);
		search_init(&se, &s, &pl, NULL, &err);
		nb = search_next(&se, b, 8);
		search_free(&se);
		CHECK(na == 3 && nb == 3, "random within budget: %zu %zu", na, nb);
		CHECK(!memcmp(a, b, na * sizeof(struct trial *)), "random is repeatable");
	}
	plan_free(&pl);

	/* adaptive: the knee of a curve saturating at g = 48, in a fraction of the grid. */
	setup(&p, &s, STRATEGY_ADAPTIVE, 2);
	CHECK(plan_build(&p, &s, &pl, &err) == 0, "plan: %s", err.msg);
	CHECK(pl.ntrials == 1 + 2 * 1024, "every g of two hints: %zu", pl.ntrials);
	search_init(&se, &s, &pl, NULL, &err);
	/* The second hint is 30% slower everywhere: racing drops it. */
	n = run_search(&se, &pl, 48, 48, 1.3);
	CHECK(n < 2 * 1024 / 10, "adaptive measured %zu of %zu", n, pl.ntrials);
	CHECK(se.ctx[2].phase == SEARCH_DROPPED, "the slower hint is raced away (phase %d)", se.ctx[2].phase);
	{
		size_t best = search_best_in(&se, 1);
		double limit = pl.trials[best].stats.median * 1.02;
		long long knee = 0;

		CHECK(best != (size_t)-1 && llabs(pl.trials[best].list_value - 48) <= 4, "best g %lld, true 48",
		      pl.trials[best].list_value);
		/* The smallest measured g within 2% is close to the true knee. */
		for (size_t i = pl.batches[1].first; i < pl.batches[1].first + pl.batches[1].count; i++)
			if (pl.trials[i].stats.n && pl.trials[i].stats.median <= limit &&
			    (!knee || pl.trials[i].list_value < knee))
				knee = pl.trials[i].list_value;
		/* 40 + 400/g <= 1.02 * (40 + 400/48): g >= 40.8 */
		CHECK(knee >= 38 && knee <= 46, "knee %lld, true 41", knee);
	}
	search_free(&se);

	/* The knee: the smallest g whose interval's far end is within 2% of
	 * the best; g=32's median is within (1.5%) but its interval reaches 3%. */
	{
		struct trial *cand[3] = { &pl.trials[pl.batches[1].first + 63], &pl.trials[pl.batches[1].first + 31],
					  &pl.trials[pl.batches[1].first + 47] };
		const double med[3] = { 100, 101.5, 101.0 }, high[3] = { 100.5, 103, 101.5 };

		for (int k = 0; k < 3; k++) {
			cand[k]->score = med[k];
			cand[k]->score_low = med[k] - 0.5;
			cand[k]->score_high = high[k];
		}
		CHECK(search_knee(s.manifest, cand, 3, cand[0], 0.02) == cand[2], "knee g=%lld, want 48 (g=32 reaches "
		      "past the tolerance)", search_knee(s.manifest, cand, 3, cand[0], 0.02)->list_value);
	}

	/* A start range (Little's law's bounds on g, from a probe): the probe
	 * looks there first and fewer trials find the same knee; a range that
	 * misses the best is left from its edge, and the knee is still found. */
	{
		static const long long ranges[][2] = { { 0, 0 }, { 20, 200 }, { 2, 4 }, { 600, 1000 } };
		size_t unseeded = 0;

		for (size_t k = 0; k < sizeof(ranges) / sizeof(ranges[0]); k++) {
			struct search sr;
			size_t best, measured;
			long long knee = 0;
			double limit;

			for (size_t i = 0; i < pl.ntrials; i++)
				memset(&pl.trials[i].stats, 0, sizeof(pl.trials[i].stats));
			search_init(&sr, &s, &pl, NULL, &err);
			for (size_t b = 0; b < pl.nbatches; b++) {
				sr.ctx[b].start_lo = ranges[k][0];
				sr.ctx[b].start_hi = ranges[k][1];
			}
			measured = run_search(&sr, &pl, 48, 48, 1.3);
			best = search_best_in(&sr, 1);
			limit = pl.trials[best].stats.median * 1.02;
			for (size_t i = pl.batches[1].first; i < pl.batches[1].first + pl.batches[1].count; i++)
				if (pl.trials[i].stats.n && pl.trials[i].stats.median <= limit &&
				    (!knee || pl.trials[i].list_value < knee))
					knee = pl.trials[i].list_value;
			if (!k)
				unseeded = measured;
			printf("start [%lld, %lld]: %zu trials, knee %lld\n", ranges[k][0], ranges[k][1], measured, knee);
			CHECK(knee >= 38 && knee <= 46, "start [%lld, %lld]: knee %lld, true 41", ranges[k][0],
			      ranges[k][1], knee);
			if (k == 1)
				CHECK(measured < unseeded, "a start around the best measures fewer: %zu, unseeded %zu",
				      measured, unseeded);
			search_free(&sr);
		}
	}

	/* Resume: the saved state gives the same next round as the live search. */
	for (size_t i = 0; i < pl.ntrials; i++)
		memset(&pl.trials[i].stats, 0, sizeof(pl.trials[i].stats));
	{
		struct trial **a = room(&pl), **b = room(&pl);
		size_t na, nb, same = 0;
		struct search live, resumed;
		char *state;

		search_init(&live, &s, &pl, NULL, &err);
		na = search_next(&live, a, pl.ntrials);
		fake_round(a, na, 20, 20, 1, 1.0);
		na = search_next(&live, a, pl.ntrials); /* into refinement */
		fake_round(a, na, 20, 20, 1, 1.0);
		state = search_state_json(&live);
		CHECK(state && strstr(state, "\"refine\"") && strstr(state, "\"anchors\":[") &&
		      !strstr(state, "\"anchors\":[]"), "state: %s", state ? state : "(null)");
		CHECK(search_init(&resumed, &s, &pl, state, &err) == 0, "restore: %s", err.msg);
		CHECK(resumed.nanchors == live.nanchors, "anchors restored: %zu of %zu", resumed.nanchors, live.nanchors);
		/* The store gives a resumed search its anchors' measurements back. */
		for (size_t k = 0; k < resumed.nanchors && k < live.nanchors; k++) {
			CHECK(!strcmp(resumed.anchors[k]->key, live.anchors[k]->key), "anchor %zu: %s, live %s", k,
			      resumed.anchors[k]->key, live.anchors[k]->key);
			resumed.anchors[k]->stats = live.anchors[k]->stats;
			resumed.anchors[k]->batch = live.anchors[k]->batch;
		}
		na = search_next(&live, a, pl.ntrials);
		nb = search_next(&resumed, b, pl.ntrials);
		for (size_t k = 0; k < na && k < nb; k++)
			same += !strcmp(a[k]->key, b[k]->key);
		CHECK(na == nb && na > 0 && same == na, "same next round after resume (%zu, %zu, %zu alike)", na, nb,
		      same);
		search_free(&resumed);
		CHECK(search_init(&resumed, &s, &pl, "{\"contexts\":[]}", &err) == TUNE_ERR_STORE,
		      "a state of another plan is refused");
		free(state);
		free(a);
		free(b);
		search_free(&live);
		search_free(&resumed);
	}
	/* Budget: max_trials caps the search. */
	for (size_t i = 0; i < pl.ntrials; i++)
		memset(&pl.trials[i].stats, 0, sizeof(pl.trials[i].stats));
	s.max_trials = 10;
	search_init(&se, &s, &pl, NULL, &err);
	n = run_search(&se, &pl, 48, 48, 1);
	CHECK(n == 10 && se.budget_hit, "budget: %zu trials, hit %d", n, se.budget_hit);
	search_free(&se);
	plan_free(&pl);
	/* Drift: slow and fast spells between rounds. Anchored, the search finds
	 * the knee every time; comparing medians of different batches misses it
	 * (the drift really fools it, so this check can fail), once below the
	 * plateau altogether. */
	{
		static const double patterns[][6] = {
			{ 1.15, 1.0, 1.0, 1.0, 1.0, 1.0 }, { 1.3, 1.0, 1.0, 1.0, 1.0, 1.0 }, { 1.0, 0.8, 1.0, 1.0, 1.0, 1.0 },
			{ 1.0, 1.2, 0.9, 1.1, 1.0, 1.0 }, { 1.25, 1.0, 0.9, 1.1, 1.0, 1.0 },
		};
		size_t cases = 0, anchored_ok = 0, crossed_off = 0, crossed_out = 0;

		setup(&p, &s, STRATEGY_ADAPTIVE, 1);
		for (size_t k = 0; k < sizeof(patterns) / sizeof(patterns[0]); k++)
			for (int step = 0; step < 6; step++) {
				double sat = 24 * pow(1.5, step);
				long long lo, hi, with = drifting_knee(&p, &s, patterns[k], 6, 1, sat),
						  without = drifting_knee(&p, &s, patterns[k], 6, 0, sat);

				plateau(sat, &lo, &hi);
				cases++;
				anchored_ok += with >= lo && (double)with <= 1.05 * (double)lo;
				CHECK(with >= lo && (double)with <= 1.05 * (double)lo,
				      "drift pattern %zu, saturation %.0f: knee %lld, true %lld (plateau to %lld)", k, sat,
				      with, lo, hi);
				crossed_off += without < lo || (double)without > 1.05 * (double)lo;
				crossed_out += without < lo || without > hi;
			}
		printf("drifting: anchored found the knee in %zu of %zu, cross-batch missed it in %zu (%zu outside the "
		       "plateau)\n", anchored_ok, cases, crossed_off, crossed_out);
		CHECK(crossed_off >= cases / 2 && crossed_out >= 1, "cross-batch comparison missed the knee in only %zu of "
		      "%zu, outside the plateau %zu: the drift does not test anything", crossed_off, cases, crossed_out);
	}
	/* Replay: the search and the decision against a record of every g (a
	 * curve with 1% noise per run), under a 10% drift per process: the
	 * adaptive search lands in the plateau nearly always, at a fraction of
	 * the grid's measuring time; the record's plateau is the curve's. */
	{
		struct replay_record rec = { 0 };
		struct replay_options ro = { 20, 0.10, 0, 0 };
		struct replay_result res;
		struct tk_rng r = { 7 };

		setup(&p, &s, STRATEGY_ADAPTIVE, 1);
		CHECK(plan_build(&p, &s, &pl, &err) == 0, "plan: %s", err.msg);
		rec.ntrials = pl.ntrials;
		rec.rec = calloc(pl.ntrials, sizeof(*rec.rec));
		for (size_t i = 0; i < pl.ntrials; i++) {
			struct replay_recorded *x = &rec.rec[i];
			struct stats st;

			x->n = 9;
			x->v = malloc(x->n * sizeof(double));
			for (size_t k = 0; k < x->n; k++)
				x->v[k] = curve(pl.trials[i].list_value, 48, pl.trials[i].variant ? 1 : 8) *
					  (1 + 0.01 * ((double)tk_rng_below(&r, 2001) / 1000.0 - 1.0));
			stats_compute(x->v, x->n, &st, NULL);
			x->median = st.median;
		}
		CHECK(search_replay(&s, &pl, &rec, &ro, &res, &err) == 0, "replay: %s", err.msg);
		printf("replay: adaptive in the plateau %zu of %zu, %.1f search trials, %.1f anchors, %.1f finals, "
		       "%.1f%% of the grid's time, choices %lld..%lld\n", res.hits, res.decisions, res.trials, res.anchors,
		       res.finals, 100 * res.time_share, res.chosen_min, res.chosen_max);
		CHECK(res.decisions == 20 && res.hits >= 18, "adaptive replayed: %zu of %zu in the plateau", res.hits,
		      res.decisions);
		CHECK(res.trials < 100 && res.time_share < 0.2, "adaptive: %.1f trials, %.3f of the grid's time", res.trials,
		      res.time_share);
		s.strategy = STRATEGY_GRID;
		CHECK(search_replay(&s, &pl, &rec, &ro, &res, &err) == 0 && res.trials == (double)pl.ntrials,
		      "grid replayed: %.1f trials of %zu", res.trials, pl.ntrials);
		/* Random draws a sample of its own for each seed, as a new sweep
		 * would: not the same points, so not the same choice, every time. */
		s.strategy = STRATEGY_RANDOM;
		s.max_trials = 4;
		CHECK(search_replay(&s, &pl, &rec, &ro, &res, &err) == 0 && res.trials == 4.0,
		      "random replayed: %.1f trials", res.trials);
		CHECK(res.chosen_min < res.chosen_max, "random: every seed chose %lld..%lld: one sample for all seeds",
		      res.chosen_min, res.chosen_max);
		s.max_trials = 0;
		for (size_t i = 0; i < pl.ntrials; i++)
			free(rec.rec[i].v);
		free(rec.rec);
		plan_free(&pl);
	}
	/* Drift between contexts: the second hint is truly 3% faster, but its
	 * first process ran in a 25% slower spell. Its anchors see that drift:
	 * racing keeps the hint, and its best goes to the final beside the
	 * first hint's, where side by side it can win. Without the drift
	 * allowed for (0), the final would not measure it. */
	{
		struct trial **ts, **cand, *fin[SEARCH_FINAL_MAX], *knee;
		size_t round = 0, nc, nf, nf0, second_best = (size_t)-1;
		int in_final = 0, in_final0 = 0;

		setup(&p, &s, STRATEGY_ADAPTIVE, 2);
		s.final_top = 2;
		CHECK(plan_build(&p, &s, &pl, &err) == 0 && search_init(&se, &s, &pl, NULL, &err) == 0, "plan: %s",
		      err.msg);
		ts = room(&pl);
		cand = calloc(pl.ntrials + 1, sizeof(struct trial *));
		while ((n = search_next(&se, ts, pl.ntrials)) > 0) {
			/* Each hint's trials (a process each) with its own spell. */
			for (size_t k = 0, j; k < n; k = j) {
				for (j = k + 1; j < n && hint_of(ts[j]) == hint_of(ts[k]); j++)
					;
				fake_round(ts + k, j - k, 48, 48, 0.97,
					   round == 0 && hint_of(ts[k]) == CHASE_HINT_PLDL1STRM ? 1.25 : 1);
			}
			round++;
		}
		search_score(&se);
		CHECK(se.drift > 0.2 && se.drift < 0.25, "the anchors saw the 25%% spell: drift %.3f", se.drift);
		CHECK(se.ctx[2].phase != SEARCH_DROPPED, "the faster hint, measured in a slow spell, is not raced away");
		nc = search_decision(&pl, 0, cand);
		CHECK(nc > 0, "a decision with %zu candidates", nc);
		search_rank(s.manifest, cand, nc);
		knee = nc ? search_knee(s.manifest, cand, nc, cand[0], s.tolerance) : NULL;
		for (size_t k = 0; k < nc && second_best == (size_t)-1; k++)
			if (hint_of(cand[k]) == CHASE_HINT_PLDL1STRM)
				second_best = k;
		nf = search_finalists(s.manifest, &s, cand, nc, knee, se.drift, fin);
		for (size_t k = 0; k < nf; k++)
			in_final |= second_best != (size_t)-1 && fin[k] == cand[second_best];
		nf0 = search_finalists(s.manifest, &s, cand, nc, knee, 0, fin);
		for (size_t k = 0; k < nf0; k++)
			in_final0 |= second_best != (size_t)-1 && fin[k] == cand[second_best];
		CHECK(in_final && !in_final0, "the second hint's best in the final: %d of %zu finalists with the drift, "
		      "%d of %zu without", in_final, nf, in_final0, nf0);
		free(ts);
		free(cand);
		search_free(&se);
		plan_free(&pl);
	}
	/* Wide intervals: every g reaches the plateau and final_top asks for
	 * as many as a final holds. The knee is still among the finalists, and a
	 * place is left for the baseline beside it, so the gain is measured;
	 * with several hints (processes) in the final, a place beside each, as
	 * the final may choose any of them. */
	for (size_t nhints = 1; nhints <= 4; nhints += 3) {
		struct trial **cand, *fin[SEARCH_FINAL_MAX], *knee;
		size_t nc, nf, besides = 0;
		int knee_in = 0;

		setup(&p, &s, STRATEGY_ADAPTIVE, nhints);
		s.final_top = SEARCH_FINAL_MAX; /* the most a sweep may ask */
		CHECK(plan_build(&p, &s, &pl, &err) == 0, "plan: %s", err.msg);
		cand = calloc(pl.ntrials + 1, sizeof(struct trial *));
		for (size_t i = 0; i < pl.ntrials; i++) {
			struct trial *t = &pl.trials[i];

			fake_measure(t, 48, 1);
			t->score = t->stats.median;
			t->score_low = t->stats.median * 0.5;
			t->score_high = t->stats.median * 1.5;
		}
		nc = search_decision(&pl, 0, cand);
		search_rank(s.manifest, cand, nc);
		knee = search_knee(s.manifest, cand, nc, cand[0], s.tolerance);
		nf = search_finalists(s.manifest, &s, cand, nc, knee, 0, fin);
		for (size_t k = 0; k < nf; k++)
			knee_in |= fin[k] == knee;
		CHECK(knee_in, "the knee g=%lld is not among the %zu finalists", knee->list_value, nf);
		CHECK(search_baseline_beside(s.manifest, knee) != PLAN_NA && nf < SEARCH_FINAL_MAX,
		      "%zu finalists of %d leave no place for g = %lld beside the knee", nf, SEARCH_FINAL_MAX,
		      search_baseline_beside(s.manifest, knee));
		for (size_t k = 0; k < nf; k++) {
			int first = search_baseline_beside(s.manifest, fin[k]) != PLAN_NA;

			for (size_t j = 0; j < k && first; j++)
				first = !plan_same_process(fin[j], fin[k]);
			besides += first;
		}
		CHECK(nf + besides <= SEARCH_FINAL_MAX, "%zu hints: %zu finalists in %zu processes leave no place beside "
		      "each of them in a final of %d", nhints, nf, besides, SEARCH_FINAL_MAX);
		free(cand);
		plan_free(&pl);
	}
	/* joint: 4 hints x 2 page sizes, huge pages 15% faster, pldl1strm 1%
	 * faster still, each process drifting by up to 4% on its own: the
	 * contexts race by halving, the choice lands in the plateau (huge
	 * pages, g within 2% of the best), with far fewer kernel processes
	 * than a search of g in every context. */
	{
		size_t procs[2], nc;
		struct trial **cand;

		for (int k = 0; k < 2; k++) {
			struct trial *knee;
			double truth;

			setup(&p, &s, k ? STRATEGY_JOINT : STRATEGY_ADAPTIVE, 4);
			CHECK(plan_build(&p, &s, &pl, &err) == 0 && search_init(&se, &s, &pl, NULL, &err) == 0, "plan: %s",
			      err.msg);
			CHECK(pl.nbatches == 10, "scalar and interleaved-prefetch, 10 contexts: %zu", pl.nbatches);
			cand = calloc(pl.ntrials + 1, sizeof(struct trial *));
			processes = once_processes = 0;
			jitter = 0.04;
			run_search(&se, &pl, 48, 48, 0.99);
			jitter = 0;
			procs[k] = processes;
			/* The race's processes run once (8 contexts: at least the
			 * first round's 8), the survivor's and the final's repeat. */
			CHECK(k ? once_processes >= 8 && once_processes < processes : once_processes == 0,
			      "%s: %zu of %zu processes to run once", k ? "joint" : "adaptive", once_processes, processes);
			search_score(&se);
			search_mark_raced_out(&se);
			nc = search_decision(&pl, 0, cand);
			search_rank(s.manifest, cand, nc);
			knee = nc ? search_knee(s.manifest, cand, nc, cand[0], s.tolerance) : NULL;
			truth = knee ? curve(knee->list_value, 48, 1) : 0;
			CHECK(knee && hint_of(knee) >= 0 && strstr(knee->key, "hugepages=on") &&
			      truth <= curve(48, 48, 1) * 1.02, "%s chose %s g=%lld (%.1f, best %.1f)", k ? "joint" : "adaptive",
			      knee ? knee->key : "nothing", knee ? knee->list_value : 0, truth, curve(48, 48, 1));
			for (size_t b = 0; k && b < pl.nbatches; b++)
				for (size_t i = 0; i < nc; i++)
					CHECK(!plan_same_process(cand[i], &pl.trials[pl.batches[b].first]) || !se.ctx[b].left_of || se.ctx[b].runner_up ||
					      manifest_is_baseline(cand[i]), "a context out of the race is no candidate");
			free(cand);
			search_free(&se);
			plan_free(&pl);
		}
		printf("joint: %zu kernel processes, adaptive %zu\n", procs[1], procs[0]);
		CHECK(procs[1] * 2 <= procs[0], "joint took %zu kernel processes, a search of g per context %zu", procs[1],
		      procs[0]);
	}
	sweep_free(&s);
	return check_done("test_search");
}
