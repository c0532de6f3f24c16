/* search: what to measure next, and the decision. In: a plan and what is
 * measured. Out: the next round of trials by the sweep's strategy (grid,
 * random, adaptive), then the optima: the best candidates re-measured side
 * by side and the knee recorded. search_sweep() drives one sweep end to end
 * through all the stages; the commands call it. */
#ifndef TUNER_SEARCH_STAGE_H
#define TUNER_SEARCH_STAGE_H

#include <stddef.h>

#include "../../store/store.h"
#include "../base/errors.h"
#include "../base/stats.h"
#include "../config/config.h"
#include "../plan/plan.h"
#include "../run/run.h"

/* search.c: which trials of a plan to measure next, by the sweep's strategy.
 *
 * grid measures every trial; random a seeded sample of max_trials of them;
 * adaptive works along g (a manifest kernel's numeric list parameter) for
 * each context (variant, hint, size, pages) of the plan (a context is one of
 * the plan's batches): a geometric probe from g_min
 * to g_max, refinement inside the best bracket, then bisection towards the
 * knee (the smallest g within tolerance of the best, since a smaller g pollutes
 * the cache less), racing away contexts whose best is clearly worse than the
 * best of their working set. Every round after a context's first carries
 * anchors: the incumbent (and the knee candidate) measured again in the same
 * process, so that the search compares scores (score.c), never medians of
 * different batches. Rounds are pure functions of what has been measured and
 * of the state, which search_state_json() saves for resume. */
enum search_phase { SEARCH_PROBE, SEARCH_REFINE, SEARCH_KNEE, SEARCH_DONE, SEARCH_DROPPED };

/* Anchors a context's round carries at most: the incumbent and the knee. */
#define SEARCH_ANCHORS 2

struct search_ctx {
	int phase;      /* enum search_phase */
	long long lo, hi; /* bracket in g (refine) or knee interval (knee) */
};

struct search {
	int strategy;           /* enum sweep_strategy */
	const struct sweep *sweep;
	struct plan *plan;
	unsigned char *tried;   /* per trial: proposed in this process */
	struct search_ctx *ctx; /* per batch of the plan */
	size_t used;            /* search trials measured, for max_trials */
	int budget_hit;
	struct trial **anchors; /* plan trials measured again beside a later round */
	size_t *anchor_of;      /* the plan trial each anchor measures again */
	size_t nanchors, anchors_cap;
};

/* state may be NULL (a new search) or what search_state_json() saved; its
 * anchors are made again, not yet read from the store. A trial counts as
 * measured when its stats.n > 0. */
int search_init(struct search *s, const struct sweep *sw, struct plan *plan, const char *state,
		struct tune_error *err);
void search_free(struct search *s);

/* Fills out with up to max trials of the plan to measure next, in plan
 * order, each context's anchors after its trials; out has room for max +
 * SEARCH_ANCHORS * plan->nbatches. Returns how many; 0 when the search is
 * over. */
size_t search_next(struct search *s, struct trial **out, size_t max);

/* The state to save; the caller frees it. */
char *search_state_json(const struct search *s);

/* The measured trial of batch b with the best score, or (size_t)-1. */
size_t search_best_in(const struct search *s, size_t b);

/* score.c: sets every measured trial's score (struct trial) from its batch
 * and the anchors measured with it. */
void search_score(struct search *s);

/* sweep_run.c: one sweep end to end, and decide.c: its optima. */
struct search_summary {
	size_t trials, measured, failed, already_done;
};

/* Returns 0, TUNE_ERR_TRIALS when some trials failed, TUNE_ERR_INTERRUPTED,
 * or another negative tune_err. */
int search_sweep(const struct exec_context *ctx, const char *sweep_name, const struct exec_options *o,
		 struct search_summary *sum, struct tune_error *err);

/* Opens everything search_sweep needs for a platform: host facts, the platform
 * resolved for this host, and their rows in the store. */
int search_context_open(struct exec_context *ctx, struct store *st, struct host_facts *facts,
			struct platform *p, const char *platform_name, struct tune_error *err);
/* The rows of a host (this one or a remote one) and its resolved platform in
 * the store, and the context that points at them; the executor stays as set. */
int search_context_bind(struct exec_context *ctx, struct store *st, const struct host_facts *facts, struct platform *p,
			struct tune_error *err);

/* What the progress of a round calls it: "[host: ]sweep [k/n] what", what
 * being "round 3" or "final size_mb=256 hugepages=off". */
void search_round_title(const struct sweep_run *r, const char *what, char *out, size_t len);

/* For each decision: the top candidates re-measured side by side, then the
 * optimum recorded. */
int search_decide(struct sweep_run *r, struct tune_error *err);

#endif
