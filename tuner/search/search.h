/* search: which trials of a plan to measure next, by the sweep's strategy.
 *
 * grid measures every trial; random a seeded sample of max_trials of them;
 * adaptive works along g (a manifest kernel's numeric list parameter) for
 * each context (variant, hint, size, pages) of the plan (a context is one of
 * the plan's batches): a geometric probe from g_min
 * to g_max, refinement inside the best bracket, then bisection towards the
 * knee (the smallest g within tolerance of the best, since a smaller g pollutes
 * the cache less), racing away contexts whose best is clearly worse than the
 * best of their working set. Rounds are pure functions of what has been
 * measured and of the state, which search_state_json() saves for resume. */
#ifndef TUNER_SEARCH_H
#define TUNER_SEARCH_H

#include <stddef.h>

#include "../base/errors.h"
#include "../plan/plan.h"
#include "../base/stats.h"
#include "../config/sweep.h"

enum search_phase { SEARCH_PROBE, SEARCH_REFINE, SEARCH_KNEE, SEARCH_DONE, SEARCH_DROPPED };

struct search_ctx {
	int phase;      /* enum search_phase */
	long long lo, hi; /* bracket in g (refine) or knee interval (knee) */
};

struct search {
	int strategy;           /* enum sweep_strategy */
	const struct sweep *sweep;
	const struct plan *plan;
	unsigned char *tried;   /* per trial: proposed in this process */
	struct search_ctx *ctx; /* per batch of the plan */
	size_t used;            /* search trials measured, for max_trials */
	int budget_hit;
};

/* state may be NULL (a new search) or what search_state_json() saved. A
 * trial counts as measured when its stats.n > 0. */
int search_init(struct search *s, const struct sweep *sw, const struct plan *plan, const char *state,
		struct tune_error *err);
void search_free(struct search *s);

/* Fills out with up to max trial indices to measure next (pending ones, in
 * plan order); returns how many; 0 when the search is over. */
size_t search_next(struct search *s, size_t *out, size_t max);

/* The state to save; the caller frees it. */
char *search_state_json(const struct search *s);

/* The measured trial of batch b with the lowest median, or (size_t)-1. */
size_t search_best_in(const struct search *s, size_t b);

#endif
