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
 * does) in a fraction of the chase's set-up time.
 *
 * It also measures where the last-level cache ends, for the tuner to check
 * what hwloc reports (a VM may report a 508 MB cache): a dependent hop over
 * every line of 4, 8, 16 ... MiB, and the size where its latency crosses
 * the geometric middle between the smallest of them (in the cache) and the
 * whole working set's hop (in memory).
 *
 * And where the search should look: by Little's law the lookups in flight
 * that keep up a rate are a hop's latency times that rate. Fewer than
 * hop_ns / line_ns cannot reach the ceiling (g_low); more than hop_ns /
 * step_ns, with step_ns the interleaved ring's time per step when nothing
 * waits on memory (a cache-resident set), outrun what the core can issue
 * (g_high). The best g lies between them, or near. */
#ifndef KERNELS_CHASE_LIMITS_H
#define KERNELS_CHASE_LIMITS_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "tune_protocol.h"
#include "chase.h"

#define CHASE_LIMITS_BLOCK 8
#define CHASE_LIMITS_REPEATS 5
#define CHASE_LIMITS_HOPS 200000 /* per repeat: a dependent hop is slow */
#define CHASE_LIMITS_AHEADS 5
#define CHASE_LIMITS_CURVE_FROM_MB 4 /* past any L2, so the curve starts in the last level */
#define CHASE_LIMITS_CURVE_HOPS 100000
#define CHASE_LIMITS_STEP_MB 1      /* cache-resident */
#define CHASE_LIMITS_STEP_GROUP 32
#define CHASE_LIMITS_STEP_LOOKUPS 20000

struct chase_limits {
	double hop_ns;  /* one dependent hop, the median of the repeats */
	double line_ns; /* one line at the ceiling, the fastest lead's median */
	unsigned ahead; /* the lead (lines prefetched ahead) that gave it */
	size_t lines;   /* lines used */
	double llc_mb;  /* where the hop's latency leaves the cache, MiB; 0: not seen */
	double step_ns; /* one step of the interleaved ring on a cache-resident set */
	double g_low;   /* hop_ns / line_ns: fewer in flight cannot reach the ceiling */
	double g_high;  /* hop_ns / step_ns: more in flight than the core can issue */
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
	uint64_t sum = 0, t0 = tk_now_ns();

	for (size_t i = 0; i < n; i++) {
		if (i + ahead < n)
			__builtin_prefetch(&g->nodes[order[i + ahead]], 0, 3);
		sum += (uint64_t)(uintptr_t)g->nodes[order[i]].next;
	}
	*sink += sum;
	return (double)(tk_now_ns() - t0) / (double)n;
}

/* Shuffles order[0..n) (the lines used), links them in that order into one
 * cycle and returns the median ns of a dependent hop along it, over
 * CHASE_LIMITS_REPEATS walks of hops each. Each walk goes on from where
 * the last stopped: a line seen again would be in the cache. */
static inline double chase_limits_walk(struct chase_graph *g, uint32_t *order, size_t n, size_t hops, struct tk_rng *r,
				       uint64_t *sink)
{
	double hop[CHASE_LIMITS_REPEATS];
	const struct chase_node *p;

	for (size_t i = n - 1; i > 0; i--) {
		size_t j = (size_t)tk_rng_below(r, i + 1);
		uint32_t t = order[i];

		order[i] = order[j];
		order[j] = t;
	}
	for (size_t i = 0; i < n; i++)
		g->nodes[order[i]].next = &g->nodes[order[(i + 1) % n]];
	p = &g->nodes[order[0]];
	for (int k = 0; k < CHASE_LIMITS_REPEATS; k++) {
		uint64_t t0 = tk_now_ns();

		for (size_t i = 0; i < hops; i++)
			p = p->next;
		hop[k] = (double)(tk_now_ns() - t0) / (double)hops;
	}
	*sink += (uint64_t)(uintptr_t)p;
	return chase_limits_median(hop, CHASE_LIMITS_REPEATS);
}

/* The median ns of a dependent hop over a random cycle of every line of
 * g's first `lines` (order: room for them). */
static inline double chase_limits_hop_over(struct chase_graph *g, size_t lines, uint32_t *order, struct tk_rng *r,
					   uint64_t *sink)
{
	size_t hops = lines / CHASE_LIMITS_REPEATS < CHASE_LIMITS_CURVE_HOPS ? lines / CHASE_LIMITS_REPEATS + 1
									   : CHASE_LIMITS_CURVE_HOPS;

	for (size_t i = 0; i < lines; i++)
		order[i] = (uint32_t)i;
	return chase_limits_walk(g, order, lines, hops, r, sink);
}

/* Where the hop's latency crosses the geometric middle of the curve's
 * first point and memory's (mem_ns), interpolated on log2 of the size; 0
 * when the curve never crosses it (the cache holds the whole set, or there
 * is no curve). */
static inline double chase_limits_llc_mb(const double *lat, size_t n, double mem_ns)
{
	double middle;

	if (n < 2 || lat[0] <= 0 || mem_ns <= lat[0])
		return 0;
	middle = sqrt(lat[0] * mem_ns);
	for (size_t i = 0; i + 1 < n; i++)
		if (lat[i] <= middle && lat[i + 1] > middle) {
			double f = (log(middle) - log(lat[i])) / (log(lat[i + 1]) - log(lat[i]));

			return (double)(CHASE_LIMITS_CURVE_FROM_MB << i) * exp2(f);
		}
	return 0;
}

/* The median ns per step (one link of one lookup) of the interleaved,
 * prefetching ring over g's first CHASE_LIMITS_STEP_MB, linked as the chase
 * links its graph; 0 when out of memory. */
static inline double chase_limits_step_ns(struct chase_graph *g, unsigned depth, uint64_t seed, uint64_t *sink)
{
	struct chase_graph small = { g->nodes, 0, 0 };
	struct chase_queries q = { CHASE_LIMITS_STEP_LOOKUPS, depth ? depth : 1, seed };
	struct chase_slot *slots = calloc(CHASE_LIMITS_STEP_GROUP, sizeof(*slots));
	double step[CHASE_LIMITS_REPEATS];

	small.count = ((size_t)CHASE_LIMITS_STEP_MB << 20) / sizeof(struct chase_node);
	if (small.count > g->count)
		small.count = g->count;
	small.bytes = small.count * sizeof(struct chase_node);
	if (!slots)
		return 0;
	chase_graph_link(&small, seed);
	*sink += chase_run_interleaved_prefetch(&small, &q, CHASE_LIMITS_STEP_GROUP, slots); /* warm */
	for (int k = 0; k < CHASE_LIMITS_REPEATS; k++) {
		uint64_t t0 = tk_now_ns();

		*sink += chase_run_interleaved_prefetch(&small, &q, CHASE_LIMITS_STEP_GROUP, slots);
		step[k] = (double)(tk_now_ns() - t0) / ((double)q.count * q.depth);
	}
	free(slots);
	/* Unlinked again: the probe's own cycle is one line per block. */
	for (size_t i = 0; i < small.count; i++)
		small.nodes[i].next = NULL;
	return chase_limits_median(step, CHASE_LIMITS_REPEATS);
}

/* Measures g's limits (g allocated, not linked: this links its own cycle).
 * Returns 0, or -1 when out of memory. */
static inline int chase_limits_measure(struct chase_graph *g, unsigned depth, uint64_t seed, struct chase_limits *out,
					uint64_t *sink)
{
	static const unsigned aheads[CHASE_LIMITS_AHEADS] = { 8, 16, 32, 64, 128 };
	size_t n = g->count / CHASE_LIMITS_BLOCK ? g->count / CHASE_LIMITS_BLOCK : 1;
	size_t hops = n / CHASE_LIMITS_REPEATS < CHASE_LIMITS_HOPS ? n / CHASE_LIMITS_REPEATS + 1 : CHASE_LIMITS_HOPS;
	uint32_t *order = malloc(n * sizeof(*order));
	double line[CHASE_LIMITS_AHEADS][CHASE_LIMITS_REPEATS];
	struct tk_rng r = { seed ^ 0x6c696d697473ull };

	double curve[16] = { 0 };
	size_t ncurve = 0;

	if (!order || g->count > UINT32_MAX)
		goto fail;
	out->step_ns = chase_limits_step_ns(g, depth, seed, sink);
	/* The latency curve, up to half the working set, before its cycle. */
	for (size_t mb = CHASE_LIMITS_CURVE_FROM_MB; ncurve < 16 && (mb << 20) * 2 <= g->bytes; mb *= 2) {
		size_t lines = (mb << 20) / sizeof(struct chase_node);
		uint32_t *room = lines > n ? realloc(order, lines * sizeof(*order)) : order;

		if (!room)
			goto fail;
		order = room;
		curve[ncurve++] = chase_limits_hop_over(g, lines, order, &r, sink);
	}
	/* One line of each block, the blocks in a random order, one cycle. */
	for (size_t i = 0; i < n; i++)
		order[i] = (uint32_t)(i * CHASE_LIMITS_BLOCK + (n > 1 ? tk_rng_below(&r, CHASE_LIMITS_BLOCK) : 0));
	out->hop_ns = chase_limits_walk(g, order, n, hops, &r, sink);
	out->llc_mb = chase_limits_llc_mb(curve, ncurve, out->hop_ns);
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
	out->g_low = out->line_ns > 0 ? out->hop_ns / out->line_ns : 0;
	out->g_high = out->step_ns > 0 ? out->hop_ns / out->step_ns : 0;
	free(order);
	return 0;
fail:
	free(order);
	return -1;
}

#endif
