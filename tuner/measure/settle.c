/* When a batch has measured enough. A batch asks one question of each
 * trial: is it within tolerance of the batch's best? Its paired ratio to the
 * best (run k over the best's run k, both from one kernel process) answers
 * it once the ratio's interval covers the median at least STATS_COVERAGE of
 * the time and lies wholly on one side of the tolerance, or is tight; until
 * then the batch runs again (up to max_runs). */
#include <math.h>
#include <stdlib.h>

#include "measure.h"

static int ratio_settled(const double *x, const double *best, size_t runs, int higher, double tolerance,
			 double target, double *r)
{
	struct stats st;
	double limit = higher ? 1.0 - tolerance : 1.0 + tolerance;

	for (size_t k = 0; k < runs; k++)
		r[k] = best[k] > 0 ? x[k] / best[k] : INFINITY;
	stats_compute(r, runs, &st, NULL);
	if (st.coverage < STATS_COVERAGE)
		return 0;
	if (stats_rel_halfwidth(&st) <= target)
		return 1;
	/* Wholly inside the plateau, or wholly outside it. */
	return higher ? st.ci_low >= limit || st.ci_high < limit : st.ci_high <= limit || st.ci_low > limit;
}

int measure_settled(const double *const *x, size_t ntrials, size_t runs, int higher, double tolerance, double target)
{
	double *r, best_median = 0;
	size_t best = 0;
	int settled = 1;

	if (!ntrials || !runs)
		return 1;
	if (ntrials == 1) {
		struct stats st;

		stats_compute(x[0], runs, &st, NULL);
		return st.coverage >= STATS_COVERAGE && stats_rel_halfwidth(&st) <= target;
	}
	if (!(r = malloc(runs * sizeof(*r))))
		return 1; /* no memory to ask: stop repeating */
	for (size_t i = 0; i < ntrials; i++) {
		struct stats st;

		stats_compute(x[i], runs, &st, NULL);
		if (!i || stats_better(higher, st.median, best_median)) {
			best = i;
			best_median = st.median;
		}
	}
	for (size_t i = 0; i < ntrials && settled; i++)
		if (i != best)
			settled = ratio_settled(x[i], x[best], runs, higher, tolerance, target, r);
	free(r);
	return settled;
}
