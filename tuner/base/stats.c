#include <math.h>
#include <stdlib.h>
#include <string.h>

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

size_t stats_median_rank(size_t n, double *coverage)
{
	double tail = 0, term = ldexp(1.0, -(int)n); /* P(Bin(n, 1/2) = i), from i = 0 */
	size_t j = 1;

	*coverage = 0;
	if (!n)
		return 0;
	*coverage = 1 - 2 * term;
	/* Raise j while the interval one rank narrower still reaches the aim. */
	for (size_t i = 0; i + 1 < (n + 1) / 2; i++) {
		double next;

		tail += term;
		term = term * (double)(n - i) / (double)(i + 1);
		next = 1 - 2 * (tail + term);
		if (next < STATS_COVERAGE)
			break;
		j = i + 2;
		*coverage = next;
	}
	if (*coverage < 0)
		*coverage = 0;
	return j;
}

void stats_compute(const double *v, size_t n, struct stats *out, unsigned char *outlier)
{
	double *tmp;
	size_t j;

	memset(out, 0, sizeof(*out));
	out->n = n;
	if (!n || !(tmp = malloc(n * sizeof(*tmp))))
		return;
	memcpy(tmp, v, n * sizeof(*tmp));
	out->median = median_of(tmp, n);
	j = stats_median_rank(n, &out->coverage);
	out->ci_low = tmp[j - 1];
	out->ci_high = tmp[n - j];
	for (size_t i = 0; i < n; i++)
		tmp[i] = fabs(v[i] - out->median);
	out->mad = median_of(tmp, n);
	for (size_t i = 0; i < n; i++) {
		int is_out = out->mad > 0 && fabs(0.6745 * (v[i] - out->median) / out->mad) > STATS_OUTLIER_Z;

		if (outlier)
			outlier[i] = (unsigned char)is_out;
		out->outliers += (size_t)is_out;
	}
	free(tmp);
}

double stats_rel_halfwidth(const struct stats *s)
{
	return s->median > 0 ? (s->ci_high - s->ci_low) / 2.0 / s->median : INFINITY;
}

int stats_better(int higher, double a, double b)
{
	return higher ? a > b : a < b;
}

int stats_clearly_worse(const struct stats *a, const struct stats *b)
{
	return a->ci_low > b->ci_high;
}
