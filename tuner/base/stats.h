/* stats: robust statistics of one trial's measured runs (warm-ups never
 * enter): median, MAD, a bootstrap confidence interval of the median, and
 * outliers by modified z-score (Iglewicz and Hoaglin: |0.6745 (x - median) /
 * MAD| > 3.5). Outliers are flagged, not dropped: the median is robust. */
#ifndef TUNER_STATS_H
#define TUNER_STATS_H

#include <stddef.h>
#include <stdint.h>

#define STATS_OUTLIER_Z 3.5
#define STATS_BOOTSTRAP 1000

struct stats {
	size_t n;
	double median;
	double mad;             /* median absolute deviation, unscaled */
	double ci_low, ci_high; /* 95% bootstrap interval of the median */
	size_t outliers;
};

/* v[0..n) are left in place; outlier, when not NULL, gets 1 per outlier.
 * seed makes the bootstrap repeatable. n == 0 gives all zeros. */
void stats_compute(const double *v, size_t n, uint64_t seed, struct stats *out, unsigned char *outlier);

/* Half the interval's width over the median: how tightly it is known. */
double stats_rel_halfwidth(const struct stats *s);

/* a is clearly worse (slower) than b: their intervals do not overlap. */
int stats_clearly_worse(const struct stats *a, const struct stats *b);

#endif
