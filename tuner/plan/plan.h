/* plan: a sweep on a platform expanded into trials. In: struct platform,
 * struct sweep (and the kernel's manifest). Out: struct plan, the trials in
 * measuring order, grouped into batches that one kernel process measures,
 * each trial with its key, parameters and context as the store records
 * them; and for a manifest kernel the defines, command line and sample
 * decoding of its trials. Pure: no process, no file, no database. */
#ifndef TUNER_PLAN_STAGE_H
#define TUNER_PLAN_STAGE_H

#include <jansson.h>
#include <limits.h>
#include <stddef.h>

#include "../base/errors.h"
#include "../base/stats.h"
#include "../base/strbuf.h"
#include "../config/config.h"

/* plan.c: a sweep on a platform expanded into trials (manifest_plan
 * below), ordered so that each context's baseline comes first, and grouped
 * into batches that one kernel process measures (the list's values, or the
 * variants, of a batch measured interleaved). */
#define PLAN_MAX_PARAMS 16      /* parameters of a manifest kernel */
#define PLAN_NA LLONG_MIN       /* a parameter that does not apply to the trial's variant */

enum trial_status { TRIAL_PENDING, TRIAL_DONE, TRIAL_FAILED };
/* Search trials are what a strategy measures; final ones re-measure its top
 * candidates side by side before an optimum is recorded. */
/* A search's trial, the final re-measure of a candidate, or an anchor: a
 * measured trial measured again beside a later batch, so that the later
 * batch can be compared with the earlier one. */
enum trial_phase { PHASE_SEARCH, PHASE_FINAL, PHASE_ANCHOR };
extern const char *const trial_phase_names[];

struct trial {
	long long id;       /* row in the store, 0 until stored */
	int kernel;         /* an index into kernel_choices */
	int variant;        /* an index into the manifest's variants */
	/* The manifest's numeric list parameter's value: what the adaptive
	 * search walks (1 when the kernel has none, or it does not apply). */
	long long list_value;
	long long seed, runs, warmup;
	int phase;          /* enum trial_phase */
	const struct kernel_manifest *manifest; /* the kernel's */
	const char *kernel_name, *variant_name; /* the manifest's, as stored */
	long long values[PLAN_MAX_PARAMS]; /* each parameter's value, in the manifest's order, or PLAN_NA */
	char params[384];   /* the variant and the values that apply, a JSON object, as stored */
	char context[160];  /* its context parameters, "size_mb=64 hugepages=off": what one optimum is decided for */
	char key[320];      /* identifies the trial within its sweep; a manifest kernel's: variant/name=value/... */
	int status;         /* enum trial_status */
	struct stats stats; /* of its measured runs, once done (n == 0 before) */
	long long batch;    /* the id of the first trial of the process that measured it; 0: unknown */
	/* Its median as if measured beside the search's first batch of its
	 * context (search.c), its interval likewise; the median when not searched. */
	double score, score_low, score_high;
	/* Its context left a joint search's race (search/halving.c): no
	 * candidate of the decision. */
	int raced_out;
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
/* A trial to measure again: src's parameters under key "<src key>/suffix",
 * in the given phase, not yet stored or measured. */
void plan_copy_trial(const struct trial *src, int phase, const char *suffix, struct trial *out);

/* Estimated cost of measuring trials (of one context, in one kernel process)
 * for the ETA: operations (links followed, calls, tasks, a manifest
 * kernel's runs) and setting up the working set. */
double plan_cost(struct trial *const *trials, size_t n);
/* "interleaved-prefetch pldl1keep 512 MB g=64", "ipa ipa threshold_ns=8000" */
void plan_trial_label(const struct trial *t, char *out, size_t len);
/* The trials one process measures, todo[0..n): "... g=1..64" */
void plan_batch_label(struct trial *const *todo, size_t n, char *out, size_t len);
/* What tells a process's trials apart in its output: chase's g, or a
 * manifest kernel's list value (or variant). */
long long plan_trial_point(const struct trial *t);
/* Trials one kernel process measures together. */
int plan_same_process(const struct trial *a, const struct trial *b);

/* manifest_trial.c: the trials of a kernel described by its manifest,
 * from plan to output. The sweep's values become trials (one kernel process
 * per context, variant and searched values, measuring the list parameter's
 * values interleaved); a trial becomes its defines (the build) and its
 * command line (the run); an output line becomes a sample.
 *
 * The trial key is the variant, then name=value for each parameter that
 * applies to it, '/'-separated, then r<runs>+<warmup>: the store records the
 * name=value pairs as the trial's parameters. */
/* Expands s (a manifest kernel's sweep) into pl's trials and batches; a
 * trial whose memory_mb value is over half of p's memory is left out with a
 * message on stderr. */
int manifest_plan(const struct platform *p, const struct sweep *s, struct plan *pl, struct tune_error *err);

/* The trial of kernel m's variant at values (one per parameter, in the
 * manifest's order; those that do not apply to the variant become PLAN_NA),
 * with its key, parameters and context. Returns 0, -1 out of memory, 1 when
 * its parameters are too long to store. */
int manifest_trial(const struct kernel_manifest *m, int variant, const long long *values, long long seed,
		   long long runs, long long warmup, struct trial *t);
/* Measured in one kernel process: same variant and every value but the list's. */
int manifest_same_process(const struct trial *a, const struct trial *b);
/* Decided together: the same context. */
int manifest_same_decision(const struct trial *a, const struct trial *b);
/* The list parameter's value, what tells a process's trials apart (PLAN_NA: none). */
long long manifest_point(const struct trial *t);
/* A copy of src (as plan_copy_trial) at another value of the list
 * parameter: the baseline_as point beside it. -1: src has no list value,
 * or the copy's parameters are too long to store. */
int manifest_trial_at(const struct trial *src, long long point, int phase, const char *suffix, struct trial *out);
/* The largest value of t's working-set parameters (memory_mb), in MiB; 0: none. */
long long manifest_memory_mb(const struct trial *t);
/* The metric's units in one of t's runs (the manifest's metric.count), 1
 * when it names none: a run takes the metric times this. */
long long manifest_metric_units(const struct trial *t);
/* The work of one of t's runs: its units times the steps of a unit
 * (metric.limit_times), each 1 when not given; what estimates of a sweep's
 * time count (chase: lookups times links per lookup). */
long long manifest_work(const struct trial *t);
/* Is t the baseline: its variant, or the variant and list value the
 * manifest's baseline_as says behave as it? */
int manifest_is_baseline(const struct trial *t);
/* Is a better than b by the metric? */
int manifest_better(const struct kernel_manifest *m, double a, double b);

/* manifest_command.c: a trial as its build and its command line. */
/* What t's build is, for messages: "scalar-prefetch, pldl1strm" (the
 * variant when compiled in, then each compile-time value). */
void manifest_build_label(const struct trial *t, char *out, size_t len);
/* "-DNAME=value" of the variant and of each compile-time parameter, space
 * separated: what the build cache tells builds apart by. */
void manifest_defines(const struct trial *t, struct strbuf *out);
/* A kernel process's command line, with room for its values. */
struct manifest_argv {
	char *argv[2 * PLAN_MAX_PARAMS + 18]; /* with the variant, the tuner's and where it runs */
	int argc;
	char text[16384];
	size_t used;
};
/* Where a kernel process runs: whether to pin, the platform's CPUs (the
 * first is where a process is pinned) and a device thread's CPU (-1: the
 * host has one CPU). */
struct run_place {
	int pin;
	const struct conf_ints *cpus;
	long long device_cpu;
};
/* binary, --runs, --warmup, --seed, the variant's flag, each run-time
 * parameter's (the list's values from todo[0..n), joined by commas), the
 * manifest's flags of where it runs, NULL. *cpu: the CPU to pin the process
 * to, -1 when not pinned or when the kernel pins its own threads. -1 when
 * the values do not fit. */
int manifest_args(const char *binary, struct trial *const *todo, size_t n, long long runs, long long warmup,
		  const struct run_place *place, struct manifest_argv *a, int *cpu);
/* A command kernel's process for trial t (each run is one): its command
 * with each {name} replaced by t's value, then each run-time parameter's
 * flag and value, NULL. *cpu: where to pin it, -1: not pinned. -1 when the
 * values do not fit. */
int manifest_program_args(const struct trial *t, const struct run_place *place, struct manifest_argv *a, int *cpu);
/* command_output.c: a command kernel's metric, read from its process's
 * output (out: stdout, errout: stderr) by the manifest's json path or
 * regex. Returns 0, or -1 with what was not found in why. */
int manifest_program_metric(const struct kernel_manifest *m, const char *out, const char *errout, double *value,
			    char *why, size_t len);
/* manifest_trial.c, again: output lines as samples, labels, parameters as
 * JSON. */
/* One output line of kernel m, for a process measuring t among others. */
struct manifest_line {
	long long point;          /* what tells its trial apart (see plan_trial_point), PLAN_NA: none */
	double metric;            /* divided by its per fields */
	double total, rate;       /* the run's whole ns (0 unsaid) and operations per second */
	unsigned long long check; /* the correctness value, 0 without one */
	double cpu;               /* where it ran, -1 when not said */
};
/* Decodes o as m's manifest says. Returns 0, or -1 with the missing or bad
 * field in why, or MANIFEST_OUT_OF_RANGE when the metric is outside the
 * manifest's metric.range (why says so). */
#define MANIFEST_OUT_OF_RANGE (-2)
int manifest_sample(const struct kernel_manifest *m, const struct trial *t, json_t *o, struct manifest_line *out,
		    char *why, size_t len);
/* "hashprobe interleaved size_mb=64 g=8": trial t, or the trials of one
 * process from t to last ("g=1..64", "sched co..eft speedup=4 ..."). */
void manifest_label(const struct trial *t, const struct trial *last, char *out, size_t len);
/* A value of p as JSON: a number, or a choice's name (on/off for a bool). */
json_t *manifest_value_json(const struct kernel_param *p, long long value);
/* The parameters of t as a JSON object (name: value, a choice by name), for
 * an optimum's runner-up and the spec. */
json_t *manifest_params_json(const struct trial *t);

/* What the header needs of an optimum, without the manifest: each context
 * parameter and each exported one (default: the variant, the searched and
 * the list parameters), name -> {"value": integer, "text": as written,
 * "role": "context" or "export"}, in the manifest's order. An exported
 * parameter the variant does not use is {"value": -1, "text": null}. */
json_t *manifest_exports_json(const struct trial *t);

#endif
