/* When a batch has measured enough (settle.c): paired ratios settle what
 * unpaired intervals cannot under drift, nothing settles below 95%
 * coverage, a ratio at the tolerance stays open until it is tight, both
 * metric directions; and the paired ratio's interval holds the true ratio as
 * often as it says (fixed seed). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "../../kernels/sdk/tune_protocol.h"
#include "../../tuner/base/stats.h"
#include "../../tuner/measure/measure.h"
#include "../check.h"

enum { MAXR = 64 };

static double uniform(struct tk_rng *r)
{
	return ((double)(tk_rng_next(r) >> 11) + 0.5) / 9007199254740992.0;
}

static double normal(struct tk_rng *r)
{
	return sqrt(-2 * log(uniform(r))) * cos(2 * M_PI * uniform(r));
}

/* runs of two trials measured together: the machine's speed drifts from run
 * to run (both see it), each run has its own noise of sd noise. */
static void pair(struct tk_rng *r, double ratio, double drift, double noise, size_t runs, double *best, double *other)
{
	for (size_t k = 0; k < runs; k++) {
		double d = exp(drift * normal(r));

		best[k] = 100.0 * d * exp(noise * normal(r));
		other[k] = 100.0 * ratio * d * exp(noise * normal(r));
	}
}

static int settled2(const double *a, const double *b, size_t runs, int higher, double tol, double target)
{
	const double *x[2] = { a, b };

	return measure_settled(x, 2, runs, higher, tol, target);
}

int main(void)
{
	struct tk_rng r = { 515 };
	double a[MAXR], b[MAXR];
	struct stats st;

	/* 1.5x slower under 20% drift: the unpaired interval is wide, the
	 * paired ratio clearly outside the 2% plateau. */
	pair(&r, 1.5, 0.2, 0.005, 6, a, b);
	stats_compute(a, 6, &st, NULL);
	CHECK(stats_rel_halfwidth(&st) > 0.02, "drift should widen the unpaired interval (%g)", stats_rel_halfwidth(&st));
	CHECK(settled2(a, b, 6, 0, 0.02, 0.02), "a 1.5x slower trial under drift is settled at 6 runs");
	CHECK(!settled2(a, b, 5, 0, 0.02, 0.02), "5 runs cover the median 93.75%%: not settled");

	/* Clearly inside the plateau: 0.2% slower, 0.1% noise, asked for a
	 * tightness it does not reach. */
	pair(&r, 1.002, 0.2, 0.001, 6, a, b);
	CHECK(settled2(a, b, 6, 0, 0.02, 1e-6), "0.2%% slower is settled inside a 2%% plateau");

	/* At the tolerance with 2% noise: open, however many runs, until the
	 * ratio is known to the target. */
	pair(&r, 1.02, 0.2, 0.02, 30, a, b);
	CHECK(!settled2(a, b, 30, 0, 0.02, 0.001), "a ratio at the tolerance stays open");
	CHECK(settled2(a, b, 30, 0, 0.02, 0.05), "a ratio known to 5%% is settled when that is the target");

	/* Higher is better: 1/1.5 of the best's rate is outside, 0.998 inside. */
	pair(&r, 1 / 1.5, 0.2, 0.005, 6, a, b);
	CHECK(settled2(a, b, 6, 1, 0.02, 0.001), "a rate 1/1.5 of the best is settled (higher better)");
	pair(&r, 0.99, 0.2, 0.03, 6, a, b);
	CHECK(!settled2(a, b, 6, 1, 0.02, 0.001), "a rate 1%% under the best with 3%% noise is open (higher better)");

	/* The best is whichever is better: order does not matter. */
	pair(&r, 1.5, 0.2, 0.005, 6, a, b);
	CHECK(settled2(b, a, 6, 0, 0.02, 0.02), "settled with the best second");

	/* A lone trial: its own interval, tight at 95% coverage. */
	pair(&r, 1, 0.001, 0.001, 6, a, b);
	CHECK(measure_settled((const double *const[]){ a }, 1, 6, 0, 0.02, 0.02), "a tight lone trial is settled");
	CHECK(!measure_settled((const double *const[]){ a }, 1, 5, 0, 0.02, 0.02), "a lone trial of 5 runs is not");
	pair(&r, 1, 0.2, 0.001, 6, a, b);
	CHECK(!measure_settled((const double *const[]){ a }, 1, 6, 0, 0.02, 0.02), "a drifting lone trial is not");

	/* The paired ratio's interval holds the true ratio as often as its
	 * coverage says, under drift that would swamp unpaired intervals. */
	for (size_t runs = 6; runs <= 15; runs += 3) {
		const int trials = 4000;
		int held = 0;
		double said = 0;

		for (int t = 0; t < trials; t++) {
			double ratio[MAXR];

			pair(&r, 1.05, 0.3, 0.02, runs, a, b);
			for (size_t k = 0; k < runs; k++)
				ratio[k] = b[k] / a[k];
			stats_compute(ratio, runs, &st, NULL);
			held += st.ci_low <= 1.05 && 1.05 <= st.ci_high;
			said = st.coverage;
		}
		printf("%2zu paired runs: stated coverage %.4f, simulated %.4f\n", runs, said, (double)held / trials);
		CHECK(fabs((double)held / trials - said) < 3 * sqrt(said * (1 - said) / trials) + 1e-3,
		      "%zu runs: the paired interval held %.4f, said %.4f", runs, (double)held / trials, said);
	}
	return check_done("settle");
}
