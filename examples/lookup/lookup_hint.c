/* The lookups of one prefetch hint: CHASE_HINT and LOOKUP_FN come from the
 * compiler's command line (see Makefile). */
#define _GNU_SOURCE
#include "lookup.h"

uint64_t LOOKUP_FN(const struct chase_graph *g, const struct chase_queries *q, int variant, unsigned group,
		   struct chase_slot *slots)
{
	switch (variant) {
	case CHASE_VARIANT_SCALAR_PREFETCH: return chase_run_scalar_prefetch(g, q);
	case CHASE_VARIANT_INTERLEAVED: return chase_run_interleaved(g, q, group, slots);
	case CHASE_VARIANT_INTERLEAVED_PREFETCH: return chase_run_interleaved_prefetch(g, q, group, slots);
	default: return chase_run_scalar(g, q);
	}
}
