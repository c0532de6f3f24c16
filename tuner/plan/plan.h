/* plan: a sweep on a platform expanded into trials, ordered so that each
 * working set's scalar baseline comes first, and grouped into batches that
 * one kernel process measures (same binary, size and page setting; the
 * group sizes of a batch are measured interleaved). */
#ifndef TUNER_PLAN_H
#define TUNER_PLAN_H

#include <limits.h>
#include <stddef.h>

#include "../base/errors.h"
#include "../base/stats.h"
#include "../config/platform.h"
#include "../config/sweep.h"

#define PLAN_MAX_PARAMS 16      /* parameters of a manifest kernel */
#define PLAN_NA LLONG_MIN       /* a parameter that does not apply to the trial's variant */

enum trial_status { TRIAL_PENDING, TRIAL_DONE, TRIAL_FAILED };
/* Search trials are what a strategy measures; final ones re-measure its top
 * candidates side by side before an optimum is recorded. */
enum trial_phase { PHASE_SEARCH, PHASE_FINAL };

struct trial {
	long long id;       /* row in the store, 0 until stored */
	int kernel;         /* enum kernel_id */
	int variant;        /* CHASE_VARIANT_*; ipa: IPA_IPA */
	int hint;           /* CHASE_HINT_*, -1 for variants without prefetch */
	long long size_mb, depth, queries, group_size, seed, runs, warmup;
	int hugepages;
	long long threshold_ns; /* ipa: poll below this predicted time; CONF_INF_VALUE: always */
	long long apps, speedup; /* sched: the context of the policies (variant) */
	int dispatch;           /* sched: SCHED_INLINE or SCHED_WORKER */
	int phase;          /* enum trial_phase */
	/* A manifest kernel's trial (see manifest_trial.h); NULL for the kernels run by id. */
	const struct kernel_manifest *manifest;
	const char *kernel_name, *variant_name; /* the manifest's, as stored */
	long long values[PLAN_MAX_PARAMS]; /* each parameter's value, in the manifest's order, or PLAN_NA */
	char params[384];   /* the variant and the values that apply, a JSON object, as stored */
	char context[160];  /* its context parameters, "size_mb=64 hugepages=off": what one optimum is decided for */
	char key[320];      /* identifies the trial within its sweep; a manifest kernel's: variant/name=value/... */
	int status;         /* enum trial_status */
	struct stats stats; /* of its measured runs, once done (n == 0 before) */
};

struct batch {
	size_t first, count; /* trials[first .. first+count) */
};

struct plan {
	struct trial *trials;
	size_t ntrials;
	struct batch *batches;
	size_t nbatches;
	long long skipped_sizes; /* sizes left out for memory */
};

/* Expands the sweep; sizes over half of the platform's memory are skipped
 * with a message on stderr. Returns 0 or a negative tune_err. */
int plan_build(const struct platform *p, const struct sweep *s, struct plan *out, struct tune_error *err);
void plan_free(struct plan *plan);
/* Appends a trial (growing trials, *cap its room) or a batch of the trials
 * [first, first+count); -1 when out of memory. For the planners. */
int plan_add_trial(struct plan *pl, size_t *cap, const struct trial *t);
int plan_add_batch(struct plan *pl, size_t first, size_t count);

/* Estimated cost of measuring trials (of one context, in one kernel process)
 * for the ETA: links followed (chase), nanoseconds of calls (ipa). */
double plan_cost(struct trial *const *trials, size_t n);
/* "interleaved-prefetch pldl1keep 512 MB g=64", "ipa T=8000 ns",
 * "sched inline 4x 8 apps p=eft" */
void plan_trial_label(const struct trial *t, char *out, size_t len);

#endif
