/* The chase's lookups built once per prefetch hint (lookup_hint.c, compiled
 * with -DCHASE_HINT=N as lookup_hintN): the header chase.h fixes its hint when
 * included, and the tuned hint may differ per working-set size. */
#ifndef LOOKUP_H
#define LOOKUP_H

#include "chase/chase.h"

typedef uint64_t lookup_fn(const struct chase_graph *g, const struct chase_queries *q, int variant, unsigned group,
			   struct chase_slot *slots);
lookup_fn lookup_hint0, lookup_hint1, lookup_hint2, lookup_hint3;

#endif
