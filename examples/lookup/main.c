/* A production program that uses what tune found: it includes the generated
 * tuned_config.h and the header-only chase library, and runs its lookups with
 * the tuned group size and prefetch hint. Build (see Makefile):
 *
 *   tune export header -o examples/lookup/tuned_config.h
 *   make -C examples/lookup && examples/lookup/lookup 256
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>

#include "tuned_config.h"
#define CHASE_HINT TUNED_CHASE_PREFETCH_HINT
#include "chase/chase.h"

int main(int argc, char **argv)
{
	unsigned long long size_mb = argc > 1 ? strtoull(argv[1], NULL, 10) : 64;
	struct chase_queries q = { 100000, 12, 42 };
	struct chase_graph g;
	struct chase_slot *slots = calloc(CHASE_MAX_GROUP, sizeof(*slots));
	unsigned group;
	uint64_t tuned, plain;

	if (!slots || size_mb == 0 || chase_graph_alloc(&g, size_mb << 20, TUNED_CHASE_HUGEPAGES) != 0) {
		fprintf(stderr, "lookup: cannot set up %llu MiB\n", size_mb);
		return 1;
	}
	chase_graph_link(&g, 42);
	group = tuned_chase_group_size_for(size_mb << 20);
	tuned = chase_run_interleaved_prefetch(&g, &q, group, slots);
	plain = chase_run_scalar(&g, &q);
	printf("platform %s: %llu MiB with g=%u, hint %s: checksum %llu %s\n", TUNED_PLATFORM_NAME, size_mb, group,
	       TUNED_CHASE_PREFETCH_HINT_NAME, (unsigned long long)tuned, tuned == plain ? "ok" : "MISMATCH");
	chase_graph_free(&g);
	free(slots);
	return tuned == plain ? 0 : 1;
}
