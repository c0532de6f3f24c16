/* chase: every variant returns the scalar checksum for the same queries,
 * for the hint this file is compiled with (-DCHASE_HINT) and a range of g,
 * depths and query counts; the graph is one cycle through every node. Built
 * natively and for AArch64 (run under qemu-user). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* MAP_ANONYMOUS, madvise */
#endif
#include <stdint.h>
#include <stdlib.h>

#include "../../kernels/chase/chase.h"
#include "../../kernels/chase/limits.h"
#include "../check.h"

/* The limits probe uses one line of each block, all of them in one cycle,
 * and says which lead was fastest. */
static void test_limits(uint64_t bytes)
{
	struct chase_graph g = { 0 };
	struct chase_limits l = { 0 };
	uint64_t sink = 0;
	size_t used = 0, first = 0, n = 0, blocks_ok = 1;
	const struct chase_node *p;

	if (chase_graph_alloc(&g, bytes, 0) != 0) {
		CHECK(0, "cannot map %llu bytes", (unsigned long long)bytes);
		return;
	}
	CHECK(chase_limits_measure(&g, 12, 42, &l, &sink) == 0, "limits of %llu bytes", (unsigned long long)bytes);
	for (size_t b = 0; b * CHASE_LIMITS_BLOCK < g.count; b++) {
		size_t in_block = 0;

		for (size_t i = b * CHASE_LIMITS_BLOCK; i < (b + 1) * CHASE_LIMITS_BLOCK && i < g.count; i++)
			if (g.nodes[i].next) {
				in_block++;
				first = i;
			}
		used += in_block;
		blocks_ok &= in_block == 1 || (b + 1) * CHASE_LIMITS_BLOCK > g.count;
	}
	p = &g.nodes[first];
	do {
		p = p->next;
		n++;
	} while (p != &g.nodes[first] && n <= used);
	CHECK(blocks_ok && used == l.lines && n == used, "%llu bytes: %zu lines used, %zu in the cycle, probe says %zu",
	      (unsigned long long)bytes, used, n, l.lines);
	CHECK(l.hop_ns > 0 && l.line_ns > 0 && (l.ahead == 8 || l.ahead == 16 || l.ahead == 32 || l.ahead == 64 ||
						l.ahead == 128),
	      "%llu bytes: hop %g ns, line %g ns, ahead %u", (unsigned long long)bytes, l.hop_ns, l.line_ns, l.ahead);
	chase_graph_free(&g);
}

static size_t cycle_length(const struct chase_graph *g)
{
	const struct chase_node *p = g->nodes;
	size_t n = 0;

	do {
		p = p->next;
		n++;
	} while (p != g->nodes && n <= g->count);
	return n;
}

int main(void)
{
	static const uint64_t sizes[] = { 128, 64 << 10, 3u << 20, 9u << 20 };
	static const unsigned depths[] = { 0, 1, 12, 33 };
	static const uint64_t queries[] = { 1, 7, 1000, 20011 };
	static const unsigned groups[] = { 1, 2, 3, 7, 8, 48, 192, 1023, 1024 };
	struct chase_slot *slots = calloc(CHASE_MAX_GROUP, sizeof(*slots));
	uint64_t first_sum = 0;
	int sums_differ = 0;

	for (size_t si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++) {
		for (int hp = 0; hp <= 1; hp++) {
			struct chase_graph g;
			uint64_t seed = 42 + si;

			CHECK(chase_graph_alloc(&g, sizes[si], hp) == 0, "alloc %llu", (unsigned long long)sizes[si]);
			chase_graph_link(&g, seed);
			CHECK(cycle_length(&g) == g.count, "one cycle through all %zu nodes", g.count);
			for (size_t di = 0; di < sizeof(depths) / sizeof(depths[0]); di++) {
				for (size_t qi = 0; qi < sizeof(queries) / sizeof(queries[0]); qi++) {
					struct chase_queries q = { queries[qi], depths[di], seed * 7 + qi };
					uint64_t ref = chase_run_scalar(&g, &q);

					if (!first_sum)
						first_sum = ref;
					else if (ref != first_sum)
						sums_differ = 1;
					CHECK(chase_run_scalar_prefetch(&g, &q) == ref, "scalar-prefetch size %llu depth %u q %llu",
					      (unsigned long long)sizes[si], depths[di], (unsigned long long)queries[qi]);
					/* g = 0 in an interleaved binary: the scalar chase. */
					CHECK(chase_run(CHASE_VARIANT_INTERLEAVED_PREFETCH, &g, &q, 0, slots) == ref &&
					      chase_run(CHASE_VARIANT_INTERLEAVED, &g, &q, 0, slots) == ref,
					      "g=0 size %llu depth %u q %llu", (unsigned long long)sizes[si], depths[di],
					      (unsigned long long)queries[qi]);
					for (size_t gi = 0; gi < sizeof(groups) / sizeof(groups[0]); gi++) {
						uint64_t a = chase_run_interleaved(&g, &q, groups[gi], slots);
						uint64_t b = chase_run_interleaved_prefetch(&g, &q, groups[gi], slots);

						CHECK(a == ref, "interleaved g=%u size %llu depth %u q %llu: %llu != %llu",
						      groups[gi], (unsigned long long)sizes[si], depths[di],
						      (unsigned long long)queries[qi], (unsigned long long)a,
						      (unsigned long long)ref);
						CHECK(b == ref, "interleaved-prefetch g=%u size %llu depth %u q %llu",
						      groups[gi], (unsigned long long)sizes[si], depths[di],
						      (unsigned long long)queries[qi]);
					}
				}
			}
			chase_graph_free(&g);
		}
	}
	{
		/* Where the curve (4, 8, 16 ... MiB) crosses the middle of its
		 * first point and memory's: 12 and 192 ns give 48 ns, between 16
		 * MiB (24 ns) and 32 MiB (96 ns), half way on the log scale. */
		const double curve[] = { 12, 12.5, 24, 96, 150 }, flat[] = { 12, 12, 12, 12 };

		CHECK(fabs(chase_limits_llc_mb(curve, 5, 192) - 16 * M_SQRT2) < 1e-9, "llc of the curve: %g",
		      chase_limits_llc_mb(curve, 5, 192));
		CHECK(chase_limits_llc_mb(flat, 4, 192) == 0, "a curve that never leaves the cache: none");
		CHECK(chase_limits_llc_mb(curve, 1, 192) == 0, "one point: none");
		CHECK(chase_limits_llc_mb(curve, 5, 10) == 0, "memory faster than the cache: none");
	}
	test_limits(1u << 20);
	test_limits((3u << 20) + 320); /* a last block not whole */
	/* The checksum depends on the queries: a constant would pass the above. */
	CHECK(sums_differ, "checksums differ between query sets");
	free(slots);
	return check_done(chase_hint_names[CHASE_HINT]);
}
