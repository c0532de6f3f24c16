/* stats: robust statistics of one trial's measured runs (warm-ups never
 * enter): median, MAD, a distribution-free interval of the median from order
 * statistics with its real coverage, and outliers by modified z-score
 * (Iglewicz and Hoaglin: |0.6745 (x - median) / MAD| > 3.5). Outliers are
 * flagged, not dropped: the median is robust. */
#ifndef TUNER_STATS_H
#define TUNER_STATS_H

#include <stddef.h>

#define STATS_OUTLIER_Z 3.5
/* The coverage an interval of the median aims at; fewer runs reach less. */
#define STATS_COVERAGE 0.95

struct stats {
	size_t n;
	double median;
	double mad;             /* median absolute deviation, unscaled */
	/* [x(j), x(n+1-j)] of the sorted runs, j the largest rank whose
	 * interval still covers the median STATS_COVERAGE of the time, or the
	 * whole range when no rank does (3 runs: 75%). */
	double ci_low, ci_high;
	double coverage;        /* that interval's probability of holding the median */
	size_t outliers;
};

/* v[0..n) are left in place; outlier, when not NULL, gets 1 per outlier.
 * n == 0 gives all zeros. */
void stats_compute(const double *v, size_t n, struct stats *out, unsigned char *outlier);

/* The interval of the median of n runs: its lower rank j (1-based; the
 * upper is n + 1 - j), and its coverage, P(x(j) <= median <= x(n+1-j)) =
 * 1 - 2 P(Binomial(n, 1/2) < j) for any continuous distribution. n 0: 0. */
size_t stats_median_rank(size_t n, double *coverage);

/* Half the interval's width over the median: how tightly it is known. */
double stats_rel_halfwidth(const struct stats *s);

/* Value a is better than b on a metric where higher (else lower) is better. */
int stats_better(int higher, double a, double b);

/* a is clearly worse (slower) than b: their intervals do not overlap. */
int stats_clearly_worse(const struct stats *a, const struct stats *b);

#endif
