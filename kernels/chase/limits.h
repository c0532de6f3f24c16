/* The machine's own limits for the chase on a working set, which an
 * optimum is set against: the latency of one dependent hop (a lookup of
 * depth d cannot finish sooner than d of them one after another), and the
 * ceiling of latency hiding: random lines whose addresses are known ahead,
 * each prefetched `ahead` lines before it is read, so that only the memory
 * system bounds the rate. No interleaving of dependent lookups beats the
 * ceiling; a chase optimum per hop near it has hidden all it can.
 *
 * One line in each block of CHASE_LIMITS_BLOCK lines of the working set is
 * used, in a random order, so that the probe touches every page (as the chase
 * does) in a fraction of the chase's set-up time. */
#ifndef KERNELS_CHASE_LIMITS_H
#define KERNELS_CHASE_LIMITS_H

#include <stdint.h>
#include <stdlib.h>

#include "../common/rng.h"
#include "../common/timing.h"
#include "chase.h"

#define CHASE_LIMITS_BLOCK 8
#define CHASE_LIMITS_REPEATS 5
#define CHASE_LIMITS_HOPS 200000 /* per repeat: a dependent hop is slow */
#define CHASE_LIMITS_AHEADS 5

struct chase_limits {
	double hop_ns;  /* one dependent hop, the median of the repeats */
	double line_ns; /* one line at the ceiling, the fastest lead's median */
	unsigned ahead; /* the lead (lines prefetched ahead) that gave it */
	size_t lines;   /* lines used */
};

static int chase_limits_cmp(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return (a > b) - (a < b);
}

static inline double chase_limits_median(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), chase_limits_cmp);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Nanoseconds per line reading order[0..n) of g's nodes, each prefetched
 * ahead lines before; the sum of what was read goes to *sink. */
static inline double chase_limits_stream(const struct chase_graph *g, const uint32_t *order, size_t n, unsigned ahead,
					 uint64_t *sink)
{
	uint64_t sum = 0, t0 = timing_now_ns();

	for (size_t i = 0; i < n; i++) {
		if (i + ahead < n)
			__builtin_prefetch(&g->nodes[order[i + ahead]], 0, 3);
		sum += (uint64_t)(uintptr_t)g->nodes[order[i]].next;
	}
	*sink += sum;
	return (double)(timing_now_ns() - t0) / (double)n;
}

/* Measures g's limits (g allocated, not linked: this links its own cycle).
 * Returns 0, or -1 when out of memory. */
static inline int chase_limits_measure(struct chase_graph *g, uint64_t seed, struct chase_limits *out, uint64_t *sink)
{
	static const unsigned aheads[CHASE_LIMITS_AHEADS] = { 8, 16, 32, 64, 128 };
	size_t n = g->count / CHASE_LIMITS_BLOCK ? g->count / CHASE_LIMITS_BLOCK : 1;
	size_t hops = n < CHASE_LIMITS_HOPS ? n : CHASE_LIMITS_HOPS;
	uint32_t *order = malloc(n * sizeof(*order));
	double hop[CHASE_LIMITS_REPEATS], line[CHASE_LIMITS_AHEADS][CHASE_LIMITS_REPEATS];
	struct rng r = { seed ^ 0x6c696d697473ull };

	if (!order || g->count > UINT32_MAX)
		goto fail;
	/* One line of each block, the blocks in a random order. */
	for (size_t i = 0; i < n; i++)
		order[i] = (uint32_t)(i * CHASE_LIMITS_BLOCK + (n > 1 ? rng_below(&r, CHASE_LIMITS_BLOCK) : 0));
	for (size_t i = n - 1; i > 0; i--) {
		size_t j = (size_t)rng_below(&r, i + 1);
		uint32_t t = order[i];

		order[i] = order[j];
		order[j] = t;
	}
	/* The same lines as one cycle, for the dependent hops. */
	for (size_t i = 0; i < n; i++)
		g->nodes[order[i]].next = &g->nodes[order[(i + 1) % n]];
	for (int k = 0; k < CHASE_LIMITS_REPEATS; k++) {
		const struct chase_node *p = &g->nodes[order[0]];
		uint64_t t0 = timing_now_ns();

		for (size_t i = 0; i < hops; i++)
			p = p->next;
		hop[k] = (double)(timing_now_ns() - t0) / (double)hops;
		*sink += (uint64_t)(uintptr_t)p;
	}
	out->hop_ns = chase_limits_median(hop, CHASE_LIMITS_REPEATS);
	/* The leads interleaved, rotated, as the chase measures its g. */
	for (int k = 0; k < CHASE_LIMITS_REPEATS; k++)
		for (int a = 0; a < CHASE_LIMITS_AHEADS; a++) {
			int x = (a + k) % CHASE_LIMITS_AHEADS;

			line[x][k] = chase_limits_stream(g, order, n, aheads[x], sink);
		}
	out->line_ns = 0;
	for (int a = 0; a < CHASE_LIMITS_AHEADS; a++) {
		double m = chase_limits_median(line[a], CHASE_LIMITS_REPEATS);

		if (!out->line_ns || m < out->line_ns) {
			out->line_ns = m;
			out->ahead = aheads[a];
		}
	}
	out->lines = n;
	free(order);
	return 0;
fail:
	free(order);
	return -1;
}

#endif
