/* exec: runs one sweep on one platform end to end: plan, store the trials,
 * build each variant, run each batch pinned, check its checksums and record
 * it. Re-running resumes: trials already done are not measured again. */
#ifndef TUNER_EXEC_H
#define TUNER_EXEC_H

#include <signal.h>

#include "../../store/store.h"
#include "../base/errors.h"
#include "../config/hostinfo.h"
#include "../config/platform.h"

struct exec_options {
	int quick;                    /* apply the sweep's quick: overrides */
	int fresh;                    /* measure again instead of resuming */
	volatile sig_atomic_t *stop;  /* set by a signal: stop after the batch */
	int several_hosts;            /* others run at once: name the host, log lines only */
};

struct agent_client;
struct slurm_client;

/* Where the kernels run: here (both NULL), on an agent, or as Slurm jobs on a
 * node; the sweep, search and store code does not tell them apart. */
struct exec_context {
	struct agent_client *agent;   /* the agent that builds and runs the kernels */
	struct slurm_client *slurm;   /* or the Slurm node that runs them (built here) */
	struct store *store;
	const struct host_facts *facts;
	long long host_id;
	struct platform *platform;
	long long platform_id;
};

struct exec_summary {
	size_t trials, measured, failed, already_done;
};

/* Returns 0, TUNE_ERR_TRIALS when some trials failed, TUNE_ERR_INTERRUPTED,
 * or another negative tune_err. */
int exec_sweep(const struct exec_context *ctx, const char *sweep_name, const struct exec_options *o,
	       struct exec_summary *sum, struct tune_error *err);

/* Opens everything exec_sweep needs for a platform: host facts, the platform
 * resolved for this host, and their rows in the store. */
int exec_context_open(struct exec_context *ctx, struct store *st, struct host_facts *facts,
		      struct platform *p, const char *platform_name, struct tune_error *err);
/* The rows of a host (this one or a remote one) and its resolved platform in
 * the store, and the context that points at them; the executor stays as set. */
int exec_context_bind(struct exec_context *ctx, struct store *st, const struct host_facts *facts, struct platform *p,
		      struct tune_error *err);

#endif
