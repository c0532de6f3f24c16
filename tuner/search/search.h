/* search: what to measure next, and the decision. In: a plan and what is
 * measured. Out: the next round of trials by the sweep's strategy (grid,
 * random, adaptive), then the optima: the best candidates re-measured side
 * by side and the knee recorded. Pure: it measures nothing itself (sweep/
 * drives it on a host, replay.c on a record). */
#ifndef TUNER_SEARCH_STAGE_H
#define TUNER_SEARCH_STAGE_H

#include <stddef.h>
#include <stdio.h>

#include "../../store/store.h"
#include "../base/errors.h"
#include "../../kernels/sdk/tune_protocol.h"
#include "../base/stats.h"
#include "../config/config.h"
#include "../plan/plan.h"

/* search.c: which trials of a plan to measure next, by the sweep's strategy.
 *
 * grid measures every trial; random a seeded sample of max_trials of them;
 * adaptive works along g (a manifest kernel's numeric list parameter) for
 * each context (variant, hint, size, pages) of the plan (a context is one of
 * the plan's batches): a geometric probe from list_min
 * to list_max, refinement inside the best bracket, then bisection towards the
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
	/* Where the probe looks first (a kernel's probe's start: Little's
	 * law's bounds on chase's g), 0: everywhere from list_min to list_max. */
	long long start_lo, start_hi;
	int round;      /* the last round that measured it (joint: halving.c) */
	int left_of;    /* joint: how many raced when it left the race (0: racing) */
	int runner_up;  /* joint: second when the race came down to one: a candidate still */
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
	/* The largest drift between two kernel processes its anchors have seen,
	 * |log| of a source's median over its anchor's (search_score); < 0
	 * while no anchor is measured. A comparison of processes (contexts
	 * racing, who goes to the final) allows for it. */
	double drift;
	int round;      /* rounds proposed so far */
	int inner_grid; /* joint: the list is no number to walk (or better higher): all of it at once */
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

/* halving.c: the joint search's race of the contexts of each decision.
 * Drops the worse half of each decision's race (down to one) by what each
 * context showed in the round just measured. */
void search_halve(struct search *s);
/* Whether context b is still in its decision's race, and how many are. */
int search_racing(const struct search *s, size_t b);
size_t search_race_size(const struct search *s, size_t b);
/* Before the decision: the trials of contexts that left the race (but the
 * baseline's, and the runner-up's of its last round) are no candidates of
 * it (struct trial's raced_out): the last two meet in the final. */
void search_mark_raced_out(struct search *s);

/* score.c: sets every measured trial's score (struct trial) from its batch
 * and the anchors measured with it. */
void search_score(struct search *s);

/* choose.c: the rules of a decision, for a sweep and for the replay. */
#define SEARCH_FINAL_MAX 16 /* candidates re-measured for one decision at most */
/* cand[0..n) best first by score, by m's metric. */
void search_rank(const struct kernel_manifest *m, struct trial **cand, size_t n);
/* The knee: the smallest list value (chase's g) of best's process within
 * tolerance of best among cand, or best itself where the list has none. */
struct trial *search_knee(const struct kernel_manifest *m, struct trial **cand, size_t n, const struct trial *best,
			  double tolerance);
/* Who is measured again for a decision, cand[0..n) ranked: the top
 * final_top, the knee, then every other whose interval reaches within
 * tolerance of the best score, the best of every other process whose
 * interval reaches within tolerance and drift (a search's, 0 when none is
 * known) of it, and the baseline's best (unless it can be measured beside
 * the knee, search_baseline_beside), up to SEARCH_FINAL_MAX with a place
 * always left for the baseline; returns how many. */
size_t search_finalists(const struct kernel_manifest *m, const struct sweep *sw, struct trial **cand, size_t n,
			struct trial *knee, double drift, struct trial **fin);

/* The tolerance widened by a drift between processes (in log, >= 0):
 * how far behind a value measured in another process may read and still
 * be as good. */
double search_drift_tolerance(double tolerance, double drift);
/* The list value that behaves as the baseline in knee's own process (the
 * manifest's baseline_as: chase's g = 0, the scalar chase), PLAN_NA when
 * there is none: the final measures it beside the knee, not as a candidate,
 * so that the gain over the baseline is paired run by run. */
long long search_baseline_beside(const struct kernel_manifest *m, const struct trial *knee);
/* The decision of plan trial i, unless an earlier trial's: its measured
 * trials into cand; returns how many (0: none, or decided already). */
size_t search_decision(struct plan *pl, size_t i, struct trial **cand);
/* The finals fin[0..nf) measured side by side: their medians are their
 * scores; those measured into cand, ranked; returns how many. */
size_t search_finals_ranked(const struct kernel_manifest *m, struct trial **fin, size_t nf, struct trial **cand);
/* fin[0..n) (n <= SEARCH_FINAL_MAX) reordered so that each process's
 * trials are together, in the order each process first appears. */
void search_group_by_process(struct trial **fin, size_t n);

/* replay.c: a strategy run against a recorded sweep's runs instead of the
 * machine (drawn with replacement, under a drift that walks from process
 * to process), over many seeds: how often the decision lands in the
 * plateau (its recorded interval reaches within tolerance of the best
 * recorded median), at what cost. */
struct replay_recorded {
	double *v;     /* the recorded runs' metric */
	size_t n;
	double median; /* over all of them: what the replay judges by */
	double low, high; /* their median's interval */
	long long batch;  /* the process that recorded them */
};
struct replay_record {
	struct replay_recorded *rec; /* per trial of the plan */
	size_t ntrials, points, runs;
	size_t bridged, unbridged; /* the record's processes scaled to a bridge, or not */
	/* The first decision's: its best recorded point, and the smallest and
	 * largest within tolerance of it (0 where the list has no points). */
	long long best_point, plateau_lo, plateau_hi;
};
struct replay_options {
	size_t seeds;
	double drift; /* the drift's step from one process to the next (log sd) */
	long long start_lo, start_hi; /* the adaptive search's start range, 0: none */
};
struct replay_result {
	size_t seeds, decisions, hits, unrecorded;
	size_t hits_median; /* of them, those whose recorded median itself is within tolerance */
	double trials, anchors, finals; /* per seed */
	double processes;               /* kernel processes per seed (each builds its working set) */
	double time_share;              /* measuring time over the grid's */
	long long chosen_min, chosen_max;
};
/* The runs the newest sweep named recorded measured for each trial of plan;
 * with bridged_by (or NULL) a sweep that measured points of each of its
 * processes in one process, to which each process is scaled. */
int search_replay_load(struct store *st, const struct sweep *sw, struct plan *plan, const char *recorded,
		       const char *bridged_by, struct replay_record *out, struct tune_error *err);
void search_replay_free(struct replay_record *r);
int search_replay(const struct sweep *sw, struct plan *plan, const struct replay_record *record,
		  const struct replay_options *o, struct replay_result *out, struct tune_error *err);
/* The drift's walk from one kernel process to the next: a log-normal
 * AR(1) step of sd sigma from *log_drift (0 at the start); the factor the
 * new process's measurements are scaled by. */
double search_drift_step(struct tk_rng *r, double *log_drift, double sigma);
/* The replay as an objective for another optimizer (bench/replay_tpe.py):
 * answers a line per request on in: "seed N" (ok: a new drift walk),
 * "measure G" (a median of the sweep's runs drawn at list value G, as one
 * kernel process under the drift) and "judge G" (in or out of the plateau,
 * by its interval, then by its median). */
int search_replay_serve(const struct sweep *sw, struct plan *plan, const struct replay_record *record,
			const struct replay_options *o, FILE *in, FILE *out);

/* What is the caller's in a decision (decision.c), the sweep's or the
 * replay's: how a final is measured, and what becomes of the outcome. */
struct tk_rng;
struct search_decider {
	/* Measures fin[0..nf), the final of the decision that first opens,
	 * side by side; non-zero stops. */
	int (*measure)(void *arg, const struct trial *first, struct trial **fin, size_t nf, struct tune_error *err);
	/* A context's outcome: the knee, the candidates ranked (the final's
	 * where one ran, cand[0] the best), the baseline measured beside the
	 * knee or NULL, and how many trials the decision weighed; non-zero stops. */
	int (*decided)(void *arg, struct trial *knee, struct trial **cand, size_t n, struct trial *beside,
		       long long weighed, struct tune_error *err);
	/* A context whose optimum is not recorded: nfailed of its trials
	 * failed, and one of them may have been the best. NULL: decide from
	 * the trials measured (the replay: its failures are the record's gaps). */
	void (*undecided)(void *arg, const struct trial *first, size_t nfailed);
	void *arg;
	int beside;          /* measure the baseline beside each process of the final: the gain, run by run */
	struct tk_rng *shuffle; /* the final in a random order (by process still), or NULL: as chosen */
	/* a's metric over best's run by run, both measured in one final
	 * process: the paired ratios' interval into *low, *high (1: there is
	 * one), which the knee is then taken by; NULL: each trial's own
	 * interval (the replay, whose runs are drawn apart). */
	int (*paired)(void *arg, const struct trial *a, const struct trial *best, double *low, double *high,
		      struct tune_error *err);
};
/* Each decision of the plan, by the one loop the sweep and the replay share:
 * rank, knee, finalists (drift widening the tolerance), the final measured
 * by d, the knee again from that measurement alone (by paired ratios to the
 * best where d gives them), d told the outcome. */
int search_decide_each(struct plan *pl, const struct sweep *sw, double drift, const struct search_decider *d,
		       struct tune_error *err);

/* space.h: recorded search spaces (Kernel Tuner's cache files) and the
 * strategies that search one, replayed by the same drift. */
#include "space.h"

#endif
