/* chase: pointer chase over one random cycle of 64-byte nodes, in four
 * variants that return the same checksum for the same queries.
 *
 * Header-only. The prefetch hint is fixed when this header is included:
 * define CHASE_HINT to one of CHASE_HINT_* first (default PLDL1KEEP). Hint
 * names are amaco2's AArch64 names; on x86-64 they map to prefetcht0, t1, t2
 * and nta. The interleaved variants keep g lookups in flight in a ring of
 * slots (AMAC style): each step loads one slot's node, advances it, prefetches
 * its next node and moves to the next slot, so the load comes g steps after
 * its prefetch.
 *
 * Ownership: chase_graph_alloc() maps the node array; chase_graph_free()
 * unmaps it. The slot ring passed to the interleaved variants is the caller's.
 *
 * Needs _DEFAULT_SOURCE or _GNU_SOURCE before the first system header, for
 * MAP_ANONYMOUS and madvise(). */
#ifndef KERNELS_CHASE_CHASE_H
#define KERNELS_CHASE_CHASE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/mman.h>

#include "tune_protocol.h"

#define CHASE_HINT_PLDL1KEEP 0 /* prefetcht0,  prfm pldl1keep */
#define CHASE_HINT_PLDL2KEEP 1 /* prefetcht1,  prfm pldl2keep */
#define CHASE_HINT_PLDL3KEEP 2 /* prefetcht2,  prfm pldl3keep */
#define CHASE_HINT_PLDL1STRM 3 /* prefetchnta, prfm pldl1strm */

#ifndef CHASE_HINT
#define CHASE_HINT CHASE_HINT_PLDL1KEEP
#endif

#define CHASE_VARIANT_SCALAR 0
#define CHASE_VARIANT_SCALAR_PREFETCH 1
#define CHASE_VARIANT_INTERLEAVED 2
#define CHASE_VARIANT_INTERLEAVED_PREFETCH 3

#define CHASE_MAX_GROUP 1024

static const char *const chase_variant_names[] __attribute__((unused)) = {
	"scalar", "scalar-prefetch", "interleaved", "interleaved-prefetch", NULL,
};
static const char *const chase_hint_names[] __attribute__((unused)) = {
	"pldl1keep", "pldl2keep", "pldl3keep", "pldl1strm", NULL,
};
/* What each hint is on x86-64, for messages and the database. */
static const char *const chase_hint_x86[] __attribute__((unused)) = {
	"prefetcht0", "prefetcht1", "prefetcht2", "prefetchnta", NULL,
};

#if defined(__x86_64__)
#if CHASE_HINT == CHASE_HINT_PLDL1KEEP
#define CHASE_PREFETCH_INSN "prefetcht0 %0"
#elif CHASE_HINT == CHASE_HINT_PLDL2KEEP
#define CHASE_PREFETCH_INSN "prefetcht1 %0"
#elif CHASE_HINT == CHASE_HINT_PLDL3KEEP
#define CHASE_PREFETCH_INSN "prefetcht2 %0"
#elif CHASE_HINT == CHASE_HINT_PLDL1STRM
#define CHASE_PREFETCH_INSN "prefetchnta %0"
#else
#error "CHASE_HINT must be one of CHASE_HINT_*"
#endif
#define chase_prefetch(p) __asm__ volatile(CHASE_PREFETCH_INSN : : "m"(*(const char *)(p)))
#elif defined(__aarch64__)
#if CHASE_HINT == CHASE_HINT_PLDL1KEEP
#define CHASE_PREFETCH_INSN "prfm pldl1keep, %0"
#elif CHASE_HINT == CHASE_HINT_PLDL2KEEP
#define CHASE_PREFETCH_INSN "prfm pldl2keep, %0"
#elif CHASE_HINT == CHASE_HINT_PLDL3KEEP
#define CHASE_PREFETCH_INSN "prfm pldl3keep, %0"
#elif CHASE_HINT == CHASE_HINT_PLDL1STRM
#define CHASE_PREFETCH_INSN "prfm pldl1strm, %0"
#else
#error "CHASE_HINT must be one of CHASE_HINT_*"
#endif
#define chase_prefetch(p) __asm__ volatile(CHASE_PREFETCH_INSN : : "Q"(*(const char *)(p)))
#else
/* Other ISAs: the compiler's builtin with the matching temporal locality. */
#define chase_prefetch(p) __builtin_prefetch((p), 0, 3 - CHASE_HINT)
#endif

struct chase_node {
	_Alignas(64) struct chase_node *next;
	uint64_t pad[7];
};

_Static_assert(sizeof(struct chase_node) == 64, "a node is one cache line");

struct chase_graph {
	struct chase_node *nodes;
	size_t count;
	size_t bytes;
};

struct chase_queries {
	uint64_t count; /* independent lookups */
	unsigned depth; /* links followed by each lookup */
	uint64_t seed;  /* chooses the start nodes */
};

struct chase_slot {
	const struct chase_node *p;
	unsigned left;
};

/* Maps bytes (rounded down to whole nodes, at least 2) and asks for or
 * against transparent huge pages. Returns 0, or -1 with errno set. */
static inline int chase_graph_alloc(struct chase_graph *g, uint64_t bytes, int hugepages)
{
	size_t count = (size_t)(bytes / sizeof(struct chase_node));
	void *mem;

	if (count < 2)
		count = 2;
	g->count = count;
	g->bytes = count * sizeof(struct chase_node);
	mem = mmap(NULL, g->bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED) {
		g->nodes = NULL;
		return -1;
	}
	/* Advice only: a kernel without THP still runs the chase. */
	(void)madvise(mem, g->bytes, hugepages ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
	g->nodes = mem;
	return 0;
}

static inline void chase_graph_free(struct chase_graph *g)
{
	if (g->nodes)
		munmap(g->nodes, g->bytes);
	g->nodes = NULL;
}

/* Links every node into one random cycle (Sattolo's algorithm). */
static inline void chase_graph_link(struct chase_graph *g, uint64_t seed)
{
	struct tk_rng r = { seed };
	struct chase_node *n = g->nodes;

	for (size_t i = 0; i < g->count; i++)
		n[i].next = &n[i];
	for (size_t i = g->count - 1; i > 0; i--) {
		size_t j = (size_t)tk_rng_below(&r, i);
		struct chase_node *t = n[i].next;

		n[i].next = n[j].next;
		n[j].next = t;
	}
}

/* Start nodes come from their own stream so that every variant, whatever its
 * order of completion, issues the same lookups. */
static inline struct tk_rng chase_query_rng(const struct chase_queries *q)
{
	struct tk_rng r = { q->seed ^ 0x5175657279ull };

	return r;
}

/* The checksum is the sum of the nodes where lookups end: independent of the
 * order in which they complete. With prefetch, each node is prefetched right
 * before it is used: no gap to hide latency (amaco2's scalar-prefetch). */
static inline __attribute__((always_inline)) uint64_t
chase_scalar_loop(const struct chase_graph *g, const struct chase_queries *q, const int prefetch)
{
	struct tk_rng r = chase_query_rng(q);
	const struct chase_node *base = g->nodes;
	uint64_t sum = 0;

	for (uint64_t k = 0; k < q->count; k++) {
		const struct chase_node *p = base + tk_rng_below(&r, g->count);

		if (prefetch)
			chase_prefetch(p);
		for (unsigned d = 0; d < q->depth; d++) {
			p = p->next;
			if (prefetch)
				chase_prefetch(p);
		}
		sum += (uint64_t)(p - base);
	}
	return sum;
}

static inline uint64_t chase_run_scalar(const struct chase_graph *g, const struct chase_queries *q)
{
	return chase_scalar_loop(g, q, 0);
}

static inline uint64_t chase_run_scalar_prefetch(const struct chase_graph *g, const struct chase_queries *q)
{
	return chase_scalar_loop(g, q, 1);
}

/* The ring: slots[0..n) are live lookups. A finished slot takes the next
 * query; when none is left it is replaced by the last live slot, so the loop
 * never tests for empty slots. */
static inline __attribute__((always_inline)) uint64_t
chase_ring(const struct chase_graph *g, const struct chase_queries *q, unsigned group,
	   struct chase_slot *slots, const int prefetch)
{
	struct tk_rng r = chase_query_rng(q);
	const struct chase_node *base = g->nodes;
	uint64_t issued = 0, sum = 0;
	unsigned n = 0, i = 0;

	if (q->depth == 0) {
		for (uint64_t k = 0; k < q->count; k++)
			sum += tk_rng_below(&r, g->count);
		return sum;
	}
	while (n < group && issued < q->count) {
		slots[n].p = base + tk_rng_below(&r, g->count);
		slots[n].left = q->depth;
		if (prefetch)
			chase_prefetch(slots[n].p);
		n++;
		issued++;
	}
	while (n) {
		struct chase_slot *s = &slots[i];
		const struct chase_node *next = s->p->next;

		if (--s->left == 0) {
			sum += (uint64_t)(next - base);
			if (issued < q->count) {
				next = base + tk_rng_below(&r, g->count);
				s->left = q->depth;
				issued++;
			} else {
				*s = slots[--n];
				if (i >= n)
					i = 0;
				continue;
			}
		}
		s->p = next;
		if (prefetch)
			chase_prefetch(next);
		if (++i == n)
			i = 0;
	}
	return sum;
}

static inline uint64_t chase_run_interleaved(const struct chase_graph *g, const struct chase_queries *q,
					     unsigned group, struct chase_slot *slots)
{
	return chase_ring(g, q, group, slots, 0);
}

static inline uint64_t chase_run_interleaved_prefetch(const struct chase_graph *g, const struct chase_queries *q,
						      unsigned group, struct chase_slot *slots)
{
	return chase_ring(g, q, group, slots, 1);
}

/* Dispatch by variant number; slots must hold group entries for the
 * interleaved variants (group in [0, CHASE_MAX_GROUP]). Group 0, no lookup
 * interleaved, is the scalar chase: amaco2's baseline run in the interleaved
 * variants' own process, so the gain over it is measured run by run. */
static inline uint64_t chase_run(int variant, const struct chase_graph *g, const struct chase_queries *q,
				 unsigned group, struct chase_slot *slots)
{
	switch (variant) {
	case CHASE_VARIANT_SCALAR:
		return chase_run_scalar(g, q);
	case CHASE_VARIANT_SCALAR_PREFETCH:
		return chase_run_scalar_prefetch(g, q);
	case CHASE_VARIANT_INTERLEAVED:
		return group ? chase_run_interleaved(g, q, group, slots) : chase_run_scalar(g, q);
	default:
		return group ? chase_run_interleaved_prefetch(g, q, group, slots) : chase_run_scalar(g, q);
	}
}

#endif
