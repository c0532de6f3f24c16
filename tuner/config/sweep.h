/* sweep: one parameter space to measure, read from sweeps/<name>.yaml. Lists
 * it leaves out come from the platform; `quick:` overrides for --quick. */
#ifndef TUNER_SWEEP_H
#define TUNER_SWEEP_H

#include "conf.h"
#include "../base/errors.h"
#include "kernel.h"
#include "manifest.h"

enum sweep_strategy { STRATEGY_GRID, STRATEGY_RANDOM, STRATEGY_ADAPTIVE };

struct sweep_quick {
	struct conf_ints sizes_mb, group_sizes, hints, thresholds_ns, apps, speedups;
	long long queries, calls, tasks, runs, warmup, max_runs; /* -1: not overridden */
	struct conf_entries params; /* manifest kernels: the parameters given here replace the sweep's */
};

/* The ipa kernel's workload: what the apps do and what the device takes. */
struct sweep_ipa {
	int dist;                 /* IPA_FIXED .. IPA_BIMODAL */
	long long lat_a_ns, lat_b_ns, work_ns, apps, calls;
};

/* The sched kernel's space and workload: each (speedup, apps, dispatch) is
 * one kernel process measuring every policy interleaved. */
struct sweep_sched {
	struct conf_ints policies, dispatch, speedups, apps;
	long long tasks, accels, cost_a_ns, cost_b_ns;
	int cost_dist;            /* IPA_FIXED .. IPA_BIMODAL */
	int completion;           /* how callers wait for an accelerator: poll, interrupt, ipa */
	long long threshold_ns;   /* ipa completion; CONF_AUTO_VALUE: the platform's IPA optimum */
};

struct sweep {
	char *name;
	char *description;
	int kernel;              /* enum kernel_id, or an index into kernel_choices past them: a manifest kernel */
	int strategy;            /* enum sweep_strategy */
	struct conf_ints variants;                /* chase */
	struct conf_ints thresholds_ns;           /* ipa: CONF_INF_VALUE is always poll */
	struct sweep_ipa ipa;
	struct sweep_sched sched;
	struct conf_ints sizes_mb, group_sizes, hints, hugepages; /* empty: the platform's */
	long long depth, queries, runs, warmup, seed, timeout_s;
	long long max_runs;      /* repeat a trial until its interval is tight, up to this */
	long long ci_target_pct; /* tight: interval half-width under this % of the median */
	long long max_trials;    /* budget of search trials; 0: none */
	long long time_limit_s;  /* budget of time; 0: none */
	long long g_min, g_max;  /* adaptive: the range of g */
	long long tolerance_pct; /* knee: within this % of the best */
	long long final_top;     /* candidates re-measured before an optimum is recorded */
	int record_optima;       /* a sweep that only measures leaves the optima alone */
	double tolerance;        /* tolerance_pct / 100 */
	struct sweep_quick quick;
	struct conf_entries params; /* manifest kernels: parameter (or variant) -> values */
	/* A manifest kernel's sweep, resolved against its manifest: */
	struct kernel_manifest *manifest; /* NULL for the kernels the tuner runs by id */
	struct conf_ints *values;         /* each parameter's values, in the manifest's order */
	struct conf_ints kvariants;       /* the variants measured, as indices */
	struct conf_ints *quick_values;   /* the quick: section's, where it gives them */
	struct conf_ints quick_kvariants;
	char *path;
};

extern const struct conf_key sweep_keys[];
extern const char *const sweep_strategy_names[];
extern const char *const sweep_completion_names[]; /* "poll", "interrupt", "ipa": IPA_POLL.. */

/* Loads a sweep by name or path; free with sweep_free(), also after an error. */
int sweep_load(const char *name, struct sweep *s, struct tune_error *err);
/* Applies the quick: overrides in place. */
void sweep_apply_quick(struct sweep *s);
void sweep_free(struct sweep *s);

#endif
