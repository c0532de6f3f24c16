/* manifest_trial: the trials of a kernel described by its manifest alone,
 * from plan to output. The sweep's values become trials (one kernel process
 * per context, variant and searched values, measuring the list parameter's
 * values interleaved); a trial becomes its defines (the build) and its
 * command line (the run); an output line becomes a sample.
 *
 * The trial key is the variant, then name=value for each parameter that
 * applies to it, '/'-separated, then r<runs>+<warmup>: the store records the
 * name=value pairs as the trial's parameters. */
#ifndef TUNER_MANIFEST_TRIAL_H
#define TUNER_MANIFEST_TRIAL_H

#include <jansson.h>

#include "../config/manifest.h"
#include "plan.h"
#include "../config/platform.h"
#include "../base/strbuf.h"
#include "../config/sweep.h"

/* Expands s (a manifest kernel's sweep) into pl's trials and batches; a
 * trial whose memory_mb value is over half of p's memory is left out with a
 * message on stderr. */
int manifest_plan(const struct platform *p, const struct sweep *s, struct plan *pl, struct tune_error *err);

/* Measured in one kernel process: same variant and every value but the list's. */
int manifest_same_process(const struct trial *a, const struct trial *b);
/* Decided together: the same context. */
int manifest_same_decision(const struct trial *a, const struct trial *b);
/* The list parameter's value, what tells a process's trials apart (PLAN_NA: none). */
long long manifest_point(const struct trial *t);
/* Is a better than b by the metric? */
int manifest_better(const struct kernel_manifest *m, double a, double b);

/* "-DNAME=value" of the variant and of each compile-time parameter, space
 * separated: what the build cache tells builds apart by. */
void manifest_defines(const struct trial *t, struct strbuf *out);
/* A kernel process's command line, with room for its values. */
struct manifest_argv {
	char *argv[2 * PLAN_MAX_PARAMS + 12];
	int argc;
	char text[16384];
	size_t used;
};
/* binary, --runs, --warmup, --seed, the variant's flag, each run-time
 * parameter's (the list's values from todo[0..n), joined by commas), NULL.
 * -1 when the values do not fit. */
int manifest_args(const char *binary, struct trial *const *todo, size_t n, long long runs, long long warmup,
		  struct manifest_argv *a);
/* One output line: its list value (*point, PLAN_NA when the kernel has no
 * list for this variant), the metric (divided by its per fields), the
 * correctness value (0 without one) and the CPU (-1 when not said).
 * Returns 0, or -1 with the missing or bad field in why. */
int manifest_sample(const struct trial *t, json_t *o, long long *point, double *metric, unsigned long long *check,
		    double *cpu, char *why, size_t len);
/* "hashprobe interleaved size_mb=64 g=8" */
void manifest_label(const struct trial *t, char *out, size_t len);
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
