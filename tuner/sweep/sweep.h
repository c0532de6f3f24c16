/* sweep: one sweep end to end, on one host. In: a sweep's name, the
 * context of its host (where kernels run, the store). Out: its trials
 * measured round by round as search/ picks them, the kernel's probe, and
 * the optima decided and recorded; the commands call sweep_drive(). */
#ifndef TUNER_SWEEP_STAGE_H
#define TUNER_SWEEP_STAGE_H

#include <stddef.h>

#include "../../store/store.h"
#include "../base/errors.h"
#include "../config/config.h"
#include "../measure/measure.h"
#include "../plan/plan.h"
#include "../run/run.h"
#include "../search/search.h"

/* A sweep being run: what drive.c, probe.c and decide.c share. */
struct sweep_run {
	struct measure_session ms; /* what measuring its processes takes and keeps */
	struct sweep sweep;
	struct plan plan;
	struct exec_identity id;   /* its builds' compiler, flags and fingerprint */
	char kernel_hash[17];      /* the kernel's manifest and sources */
	double t0;                 /* for time_limit_s */
	char held[2][512];         /* warnings kept until something is measured */
	size_t nheld;
};

/* drive.c: one sweep end to end, and decide.c: its optima. */
struct sweep_summary {
	size_t trials, measured, failed, already_done;
};

/* Returns 0, TUNE_ERR_TRIALS when some trials failed, TUNE_ERR_INTERRUPTED,
 * or another negative tune_err. */
int sweep_drive(const struct exec_context *ctx, const char *sweep_name, const struct exec_options *o,
		struct sweep_summary *sum, struct tune_error *err);

/* Opens everything sweep_drive needs for a platform: host facts, the platform
 * resolved for this host, and their rows in the store. */
int sweep_context_open(struct exec_context *ctx, struct store *st, struct host_facts *facts, struct platform *p,
		       const char *platform_name, struct tune_error *err);
/* The rows of a host (this one or a remote one) and its resolved platform in
 * the store, and the context that points at them; the executor stays as set. */
int sweep_context_bind(struct exec_context *ctx, struct store *st, const struct host_facts *facts, struct platform *p,
		       struct tune_error *err);

/* A warning to stderr and into the sweep's row, for `tune results`. */
void sweep_warn(struct sweep_run *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* What the progress of a round calls it: "[host: ]sweep [k/n] what", what
 * being "round 3" or "final size_mb=256 hugepages=off". */
void sweep_round_title(const struct sweep_run *r, const char *what, char *out, size_t len);

/* probe.c: the kernel's probe, before the sweep measures (0, or a host
 * that stopped answering, or an interrupt). */
int sweep_probe(struct sweep_run *r, struct tune_error *err);
/* Sets each context's start range from the probe's start fields stored with
 * host_id, where the probe speaks of the context (its working set at least
 * the probe's, its per value). */
int sweep_probe_starts(struct store *st, long long host_id, const struct kernel_manifest *m, struct search *s,
		       char *msg);

/* decide.c: for each decision, the top candidates re-measured side by side,
 * then the optimum recorded; drift is the search's (search.drift). */
int sweep_decide(struct sweep_run *r, double drift, struct tune_error *err);

#endif
