/* A production program that uses what tune found: it includes the generated
 * tuned_config.h and the header-only chase library, runs its lookups with the
 * variant, group size and prefetch hint tuned for the size it runs, and times
 * them against the scalar chase, side by side. Build (see Makefile):
 *
 *   tune export header -o examples/lookup/tuned_config.h
 *   make -C examples/lookup && examples/lookup/lookup 256
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>

#include "tune_protocol.h"
#include "lookup.h"
#include "tuned_config.h"

#define ROUNDS 7

static lookup_fn *const by_hint[] = { lookup_hint0, lookup_hint1, lookup_hint2, lookup_hint3 };

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	unsigned long long size_mb = argc > 1 ? strtoull(argv[1], NULL, 10) : 64, bytes = size_mb << 20;
	struct chase_queries q = { 200000, 12, 42 };
	struct chase_graph g;
	struct chase_slot *slots = calloc(CHASE_MAX_GROUP, sizeof(*slots));
	double tuned_ns[ROUNDS], scalar_ns[ROUNDS];
	int variant, hint, prefetch, same = 1;
	unsigned group;

	if (!slots || size_mb == 0 || chase_graph_alloc(&g, bytes, TUNED_CHASE_HUGEPAGES) != 0) {
		fprintf(stderr, "lookup: cannot set up %llu MiB\n", size_mb);
		return 1;
	}
	chase_graph_link(&g, 42);
	variant = tuned_chase_variant_for(bytes);
	group = tuned_chase_group_size_for(bytes);
	hint = tuned_chase_hint_for(bytes);
	prefetch = variant == CHASE_VARIANT_SCALAR_PREFETCH || variant == CHASE_VARIANT_INTERLEAVED_PREFETCH;
	if (variant < 0 || variant > CHASE_VARIANT_INTERLEAVED_PREFETCH || hint < 0 || hint > CHASE_HINT_PLDL1STRM ||
	    group < 1 || group > CHASE_MAX_GROUP) {
		fprintf(stderr, "lookup: tuned_config.h gives variant %d, hint %d, g=%u: out of range\n", variant, hint,
			group);
		return 1;
	}
	/* Side by side: each round times both, the first of them alternating, so
	 * that a noisy spell of the machine falls on both alike. */
	for (int r = 0; r < ROUNDS; r++) {
		uint64_t sums[2];

		for (int k = 0; k < 2; k++) {
			int tuned = (k + r) % 2 == 0;
			uint64_t t0 = tk_now_ns();

			sums[tuned] = tuned ? by_hint[hint](&g, &q, variant, group, slots) : chase_run_scalar(&g, &q);
			(tuned ? tuned_ns : scalar_ns)[r] = (double)(tk_now_ns() - t0) / (double)q.count;
		}
		/* The same queries give the same checksum, whatever the variant. */
		same &= sums[0] == sums[1];
	}
	qsort(tuned_ns, ROUNDS, sizeof(double), by_value);
	qsort(scalar_ns, ROUNDS, sizeof(double), by_value);
	printf("platform %s: %llu MiB, %s g=%u hint %s: %.1f ns/lookup, scalar %.1f ns/lookup: %.2fx (median of %d "
	       "rounds, side by side); checksum %s\n",
	       TUNED_PLATFORM_NAME, size_mb, chase_variant_names[variant], group,
	       prefetch ? chase_hint_names[hint] : "none",
	       tuned_ns[ROUNDS / 2], scalar_ns[ROUNDS / 2], scalar_ns[ROUNDS / 2] / tuned_ns[ROUNDS / 2], ROUNDS,
	       same ? "ok" : "MISMATCH");
	chase_graph_free(&g);
	free(slots);
	return same ? 0 : 1;
}
