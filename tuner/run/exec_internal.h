/* exec_internal: what the parts of one sweep's run share. exec.c drives it
 * (identity, checks, the search loop), exec_run.c builds a kernel and starts
 * its process (here, on an agent, as a Slurm job), exec_measure.c turns the
 * processes' output into recorded samples (adaptive repeats included), and
 * exec_decide.c re-measures the best candidates and records the optima.
 * Other modules use exec.h. */
#ifndef TUNER_EXEC_INTERNAL_H
#define TUNER_EXEC_INTERNAL_H

#include <jansson.h>

#include "../../kernels/common/flags.h"
#include "../../store/store.h"
#include "../build/build.h"
#include "exec.h"
#include "../plan/plan.h"
#include "../base/runner.h"
#include "runspec.h"
#include "../config/sweep.h"

#define MAX_BUILDS 16
/* Group sizes one kernel process measures: the kernel's list limit. */
#define MAX_BATCH FLAGS_LIST_MAX

struct built {
	int kernel, variant, hint, rc;
	char defines[1024];     /* a manifest kernel's: what tells its builds apart */
	long long build_id;
	struct build_result res;
	char reason[512];
};

struct sweep_run {
	const struct exec_context *ctx;
	const struct exec_options *opt;
	struct sweep sweep;
	struct plan plan;
	long long sweep_id;
	struct built builds[MAX_BUILDS];
	size_t nbuilds;
	char cflags[PLATFORM_MAX_CFLAGS];
	char compiler_version[256];
	char fingerprint[17];
	char kernel_hash[17];   /* a manifest kernel's manifest and sources */
	double t0;              /* for time_limit_s */
	long long measure_ns;   /* in kernels, not yet recorded */
	size_t failed;
};

/* exec_run.c */
/* The build of t's variant (and defines), made or found once per sweep;
 * NULL when the sweep has too many. An agent builds its own: then only the
 * slot, which exec_execute() fills. */
struct built *exec_get_build(struct sweep_run *r, const struct trial *t);
/* The run spec measuring todo[0..n) of one context, runs + warmup each. */
void exec_spec_of(const struct sweep_run *r, struct trial **todo, size_t n, long long runs, long long warmup,
		  struct run_spec *s);
/* Runs spec here (bin built) or on the context's agent: the kernel's result
 * in res. Returns 0, or a tune_err that stops the sweep; *reason is set when
 * the build failed on the agent. */
int exec_execute(struct sweep_run *r, struct built *bin, const struct run_spec *spec, struct run_result *res,
		 const char **reason, struct tune_error *err);
/* A manifest kernel's process for todo[0..n), the same three ways. */
int exec_execute_manifest(struct sweep_run *r, struct built *bin, struct trial **todo, size_t n, long long runs,
			  long long warmup, struct run_result *res, const char **reason, struct tune_error *err);

/* exec_measure.c */
int exec_json_number(json_t *o, const char *key, double *out);
/* What tells a process's trials apart in its output: g, T, the policy, or a
 * manifest kernel's list value. */
long long exec_trial_point(const struct trial *t);
/* Trials one kernel process measures together. */
int exec_same_process(const struct trial *a, const struct trial *b);
/* Measures the given trials, a context at a time, each batch recorded in one
 * transaction; title heads the progress. */
int exec_measure(struct sweep_run *r, struct trial **ts, size_t n, const char *title, struct tune_error *err);

/* exec_decide.c */
/* For each decision: the top candidates re-measured side by side, then the
 * optimum recorded. */
int exec_decide(struct sweep_run *r, struct tune_error *err);

#endif
