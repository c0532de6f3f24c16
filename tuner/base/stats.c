#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../kernels/common/rng.h"
#include "stats.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Sorts v in place. */
static double median_of(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

void stats_compute(const double *v, size_t n, uint64_t seed, struct stats *out, unsigned char *outlier)
{
	double *tmp = NULL, *boot = NULL, *res = NULL;
	struct rng r = { seed ^ 0xb007u };

	memset(out, 0, sizeof(*out));
	out->n = n;
	if (!n)
		return;
	tmp = malloc(n * sizeof(*tmp));
	res = malloc(n * sizeof(*res));
	boot = malloc(STATS_BOOTSTRAP * sizeof(*boot));
	if (!tmp || !res || !boot)
		goto out;
	memcpy(tmp, v, n * sizeof(*tmp));
	out->median = median_of(tmp, n);
	for (size_t i = 0; i < n; i++)
		tmp[i] = fabs(v[i] - out->median);
	out->mad = median_of(tmp, n);
	for (size_t i = 0; i < n; i++) {
		int is_out = out->mad > 0 && fabs(0.6745 * (v[i] - out->median) / out->mad) > STATS_OUTLIER_Z;

		if (outlier)
			outlier[i] = (unsigned char)is_out;
		out->outliers += (size_t)is_out;
	}
	for (size_t b = 0; b < STATS_BOOTSTRAP; b++) {
		for (size_t i = 0; i < n; i++)
			res[i] = v[rng_below(&r, n)];
		boot[b] = median_of(res, n);
	}
	qsort(boot, STATS_BOOTSTRAP, sizeof(*boot), cmp_double);
	out->ci_low = boot[(size_t)(0.025 * STATS_BOOTSTRAP)];
	out->ci_high = boot[(size_t)(0.975 * STATS_BOOTSTRAP) - 1];
out:
	free(tmp);
	free(res);
	free(boot);
}

double stats_rel_halfwidth(const struct stats *s)
{
	return s->median > 0 ? (s->ci_high - s->ci_low) / 2.0 / s->median : INFINITY;
}

int stats_clearly_worse(const struct stats *a, const struct stats *b)
{
	return a->ci_low > b->ci_high;
}
