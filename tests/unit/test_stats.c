/* The interval of the median: its ranks, its stated coverage, and that
 * coverage checked by simulation (fixed seed) on skewed, noisy timings. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "../../kernels/sdk/tune_protocol.h"
#include "../../tuner/base/stats.h"
#include "../check.h"

static double uniform(struct tk_rng *r)
{
	return ((double)(tk_rng_next(r) >> 11) + 0.5) / 9007199254740992.0;
}

/* A timing: a log-normal body (median 100) with a 10% tail of slow runs. */
static double timing(struct tk_rng *r)
{
	double u1 = uniform(r), u2 = uniform(r);
	double z = sqrt(-2 * log(u1)) * cos(2 * M_PI * u2);
	double t = 100 * exp(0.1 * z);

	return uniform(r) < 0.1 ? t * (1.5 + uniform(r)) : t;
}

/* The population median of timing(), from a large sample. */
static double true_median(void)
{
	enum { N = 200001 };
	double *v = malloc(N * sizeof(*v));
	struct tk_rng r = { 99 };
	struct stats s;

	for (size_t i = 0; i < N; i++)
		v[i] = timing(&r);
	stats_compute(v, N, &s, NULL);
	free(v);
	return s.median;
}

int main(void)
{
	double cov, m = true_median();
	struct tk_rng r = { 2026 };

	/* The ranks and coverages are exact binomial sums. */
	CHECK(stats_median_rank(0, &cov) == 0 && cov == 0, "n=0");
	CHECK(stats_median_rank(1, &cov) == 1 && cov == 0, "n=1: a single run covers nothing, cov %g", cov);
	CHECK(stats_median_rank(3, &cov) == 1 && fabs(cov - 0.75) < 1e-12, "n=3: min-max covers 75%%, got %g", cov);
	CHECK(stats_median_rank(5, &cov) == 1 && fabs(cov - 0.9375) < 1e-12, "n=5: 93.75%%, got %g", cov);
	CHECK(stats_median_rank(6, &cov) == 1 && fabs(cov - 0.96875) < 1e-12, "n=6: 96.9%%, got %g", cov);
	CHECK(stats_median_rank(9, &cov) == 2 && fabs(cov - (1 - 2 * 10.0 / 512)) < 1e-12, "n=9: j=2, got %g", cov);
	CHECK(stats_median_rank(20, &cov) == 6 && cov >= 0.95, "n=20: j=6, cov %g", cov);
	for (size_t n = 1; n <= 60; n++) {
		size_t j = stats_median_rank(n, &cov), j1;
		double c1;

		CHECK(j >= 1 && 2 * j <= n + 1, "n=%zu: rank %zu out of range", n, j);
		if (n >= 6)
			CHECK(cov >= 0.95, "n=%zu: coverage %g under 95%%", n, cov);
		/* The narrowest such: one rank further in falls under 95%. */
		if (2 * (j + 1) <= n + 1) {
			j1 = j + 1;
			c1 = 1;
			for (size_t i = 0; i < j1; i++) {
				double p = 1;

				for (size_t k = 0; k < i; k++)
					p = p * (double)(n - k) / (double)(k + 1);
				c1 -= 2 * p * ldexp(1.0, -(int)n);
			}
			CHECK(c1 < 0.95, "n=%zu: rank %zu would still cover %g", n, j1, c1);
		}
	}

	/* The interval of a trial holds the median of the distribution as often
	 * as it says, within simulation error (3 sigma), for the run counts the
	 * sweeps use. */
	static const size_t ns[] = { 3, 5, 7, 10, 15 };
	for (size_t k = 0; k < sizeof(ns) / sizeof(ns[0]); k++) {
		enum { TRIALS = 20000 };
		size_t hits = 0, n = ns[k];
		double v[16], said = 0;

		for (size_t t = 0; t < TRIALS; t++) {
			struct stats s;

			for (size_t i = 0; i < n; i++)
				v[i] = timing(&r);
			stats_compute(v, n, &s, NULL);
			said = s.coverage;
			hits += s.ci_low <= m && m <= s.ci_high;
			CHECK(s.ci_low <= s.median && s.median <= s.ci_high, "n=%zu: median outside its interval", n);
		}
		double seen = (double)hits / TRIALS, sigma = sqrt(said * (1 - said) / TRIALS);

		printf("n=%2zu runs: stated coverage %.4f, simulated %.4f\n", n, said, seen);
		CHECK(fabs(seen - said) < 3 * sigma + 1e-3, "n=%zu: simulated coverage %.4f, stated %.4f", n, seen, said);
	}

	/* Outliers are flagged, the slow tail kept out of the median. */
	double runs[7] = { 100, 101, 99, 100, 102, 98, 400 };
	unsigned char out[7];
	struct stats s;

	stats_compute(runs, 7, &s, out);
	CHECK(s.median == 100 && s.outliers == 1 && out[6] == 1 && !out[0], "outlier: median %g, %zu flagged", s.median,
	      s.outliers);
	CHECK(s.ci_low == 98 && s.ci_high == 400 && fabs(s.coverage - (1 - 2.0 / 128)) < 1e-12,
	      "7 runs: [min, max] covering 98.4%%, got [%g, %g] %g", s.ci_low, s.ci_high, s.coverage);
	return check_done("stats");
}
