/* The search strategies on synthetic measurements (no kernel runs): grid
 * proposes everything once; random a repeatable sample within budget;
 * adaptive finds the knee of a latency curve with a fraction of the grid,
 * races away a clearly worse context, and resumes from its saved state. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "../../kernels/chase/chase.h"
#include "../../tuner/search/search.h"
#include "../check.h"

/* ns/lookup of a curve that falls until saturation at g = sat, then rises slowly. */
static double curve(long long g, double sat, double scale)
{
	double x = (double)g;

	return scale * (x < sat ? 40.0 + 400.0 / x : 40.0 + 400.0 / sat + (x - sat) * 0.01);
}

static void fake_measure(struct trial *t, double sat, double scale)
{
	double m = curve(t->group_size, sat, scale);

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
	static const char *const strategies[] = { "grid", "random", "adaptive" };
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
	fprintf(f, "name: synthetic\nkernel: chase\nstrategy: %s\nruns: 5\nseed: 42\ng_min: 1\ng_max: 1024\n"
		   "tolerance_pct: 2\nparams:\n  variant: [scalar, interleaved-prefetch]\n  size_mb: 512\n"
		   "  hint: %s\n  hugepages: off\n  depth: 12\n  queries: 1000\n%s", strategies[strategy],
		nhints == 2 ? "[pldl1keep, pldl1strm]" : "pldl1keep",
		strategy == STRATEGY_ADAPTIVE ? "" : "  group_size: [1, 2, 4, 8]\n");
	fclose(f);
	if (sweep_load(path, s, &err) != 0) {
		fprintf(stderr, "sweep: %s\n", err.msg);
		exit(2);
	}
	unlink(path);
}

/* Runs the search to its end; returns the number of trials measured. */
static size_t run_search(struct search *se, struct plan *pl, double sat_a, double sat_b, double scale_b)
{
	size_t *idx = malloc(pl->ntrials * sizeof(*idx)), total = 0, n;

	while ((n = search_next(se, idx, pl->ntrials)) > 0) {
		for (size_t k = 0; k < n; k++) {
			struct trial *t = &pl->trials[idx[k]];
			int second = t->hint == CHASE_HINT_PLDL1STRM;

			fake_measure(t, second ? sat_b : sat_a, second ? scale_b : 1.0);
		}
		total += n;
	}
	free(idx);
	return total;
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
		size_t a[8], b[8], na, nb;

		search_init(&se, &s, &pl, NULL, &err);
		na = search_next(&se, a, 8);
		search_free(&se);
		search_init(&se, &s, &pl, NULL, &err);
		nb = search_next(&se, b, 8);
		search_free(&se);
		CHECK(na == 3 && nb == 3, "random within budget: %zu %zu", na, nb);
		CHECK(!memcmp(a, b, na * sizeof(*a)), "random is repeatable");
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

		CHECK(best != (size_t)-1 && llabs(pl.trials[best].group_size - 48) <= 4, "best g %lld, true 48",
		      pl.trials[best].group_size);
		/* The smallest measured g within 2% is close to the true knee. */
		for (size_t i = pl.batches[1].first; i < pl.batches[1].first + pl.batches[1].count; i++)
			if (pl.trials[i].stats.n && pl.trials[i].stats.median <= limit &&
			    (!knee || pl.trials[i].group_size < knee))
				knee = pl.trials[i].group_size;
		/* 40 + 400/g <= 1.02 * (40 + 400/48): g >= 40.8 */
		CHECK(knee >= 38 && knee <= 46, "knee %lld, true 41", knee);
	}
	search_free(&se);

	/* Resume: the saved state gives the same next round as the live search. */
	for (size_t i = 0; i < pl.ntrials; i++)
		memset(&pl.trials[i].stats, 0, sizeof(pl.trials[i].stats));
	{
		size_t *a = malloc(pl.ntrials * sizeof(*a)), *b = malloc(pl.ntrials * sizeof(*b)), na, nb;
		struct search live, resumed;
		char *state;

		search_init(&live, &s, &pl, NULL, &err);
		na = search_next(&live, a, pl.ntrials);
		for (size_t k = 0; k < na; k++)
			fake_measure(&pl.trials[a[k]], 20, 1);
		na = search_next(&live, a, pl.ntrials); /* into refinement */
		for (size_t k = 0; k < na; k++)
			fake_measure(&pl.trials[a[k]], 20, 1);
		state = search_state_json(&live);
		CHECK(state && strstr(state, "\"refine\""), "state: %s", state ? state : "(null)");
		CHECK(search_init(&resumed, &s, &pl, state, &err) == 0, "restore: %s", err.msg);
		na = search_next(&live, a, pl.ntrials);
		nb = search_next(&resumed, b, pl.ntrials);
		CHECK(na == nb && na > 0 && !memcmp(a, b, na * sizeof(*a)), "same next round after resume (%zu, %zu)",
		      na, nb);
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
	sweep_free(&s);
	return check_done("test_search");
}
