/* store: the SQLite results database (schema in store/migrations/, one file a version).
 *
 * WAL mode, migrations by PRAGMA user_version, and one transaction per batch
 * of samples: a batch is recorded whole or not at all, so a crash or kill at
 * any moment leaves a database that passes integrity_check and resumes.
 *
 * Ownership: store_open() returns a handle freed by store_close(); strings
 * passed in are borrowed. */
#ifndef STORE_STORE_H
#define STORE_STORE_H

#include <sqlite3.h>

#include "../tuner/base/errors.h"
#include "../tuner/base/stats.h"
#include "../tuner/config/config.h"
#include "../tuner/plan/plan.h"

#define STORE_SCHEMA_VERSION 6
#define STORE_LEASE_BEAT_S 5    /* a sweep's lease is renewed this often */
#define STORE_LEASE_STALE_S 30  /* and taken over after this long without */

struct store;

int store_open(const char *path, struct store **out, struct tune_error *err);
/* For commands that only read: no migration, no WAL switch, nothing
 * written, so a database the user can only read works. TUNE_ERR_STORE when
 * its schema is not this tune's (an older one needs one writable open). */
int store_open_readonly(const char *path, struct store **out, struct tune_error *err);
void store_close(struct store *st);
/* The connection, for read-only queries of the report module. */
sqlite3 *store_db(struct store *st);

int store_host(struct store *st, const struct host_facts *facts, long long *id, struct tune_error *err);
int store_platform(struct store *st, const struct platform *p, long long *id, struct tune_error *err);
/* Records the host's measured wake-up cost (median ns, across CPUs and on one). */
int store_host_wakeup(struct store *st, long long host_id, double cross_ns, double same_ns, struct tune_error *err);

struct store_build {
	const char *hash, *kernel, *variant, *hint, *compiler, *compiler_version, *cflags, *defines, *binary_path;
};
int store_build(struct store *st, const struct store_build *b, long long *id, struct tune_error *err);

struct store_sweep {
	const char *name;
	long long platform_id, host_id;
	const char *spec_hash, *spec_json, *env_json, *tune_version, *compiler, *cflags;
	const char *fingerprint, *strategy;
	const struct host_facts *facts;
	int quick;
	int fresh; /* start a new generation instead of resuming */
};
/* Claims the sweep (name, platform, host) for this process and opens it to
 * resume, or a new one; *resumed says which. TUNE_ERR_BUSY when a live
 * process holds it, here or on another machine sharing the file (its pid,
 * host and since in the message); a claim whose process is gone (a dead pid
 * on this machine, or no heartbeat for STORE_LEASE_STALE_S) is taken over.
 * The claim, look-up and insert are one transaction. */
int store_sweep_open(struct store *st, const struct store_sweep *s, long long *sweep_id, int *resumed,
		     struct tune_error *err);
/* Gives up this process's claim on the sweep (see store_sweep_open). */
int store_sweep_release(struct store *st, const char *sweep, long long platform_id, long long host_id,
			struct tune_error *err);
/* Adds the trials (those already there are kept; with insert 0, none) and
 * reads back the ids and statuses of those stored. */
int store_sweep_trials(struct store *st, long long sweep_id, struct trial *const *trials, size_t n, int insert,
		       struct tune_error *err);
/* Appends a line to the sweep's warnings. */
int store_sweep_warn(struct store *st, long long sweep_id, const char *warning, struct tune_error *err);
/* The search state saved last, or NULL; the caller frees it. */
int store_sweep_state(struct store *st, long long sweep_id, char **state, struct tune_error *err);
int store_sweep_save_state(struct store *st, long long sweep_id, const char *state, struct tune_error *err);
/* Fills the stats of each done trial from its measured samples. */
int store_trial_stats(struct store *st, struct trial *const *trials, size_t n, struct tune_error *err);
int store_sweep_finish(struct store *st, long long sweep_id, const char *status, struct tune_error *err);

struct store_sample {
	const struct trial *trial;
	long long run_id;
	int warmup;
	long long ns_total;
	double ns_per_lookup, lookups_per_sec;
	unsigned long long checksum;
	int cpu;
	int outlier;
	const char *raw_json;
};

struct store_outcome {
	struct trial *trial;
	int ok;             /* done, else failed */
	const char *reason; /* why it failed */
	long long build_id; /* 0: none */
	int cpu;            /* -1: unpinned */
	struct stats stats; /* of the measured runs, when ok */
};

/* What else a batch's transaction records about its sweep. */
struct store_batch_meta {
	long long sweep_id;
	long long measure_ns; /* added to the sweep's time in kernels */
};

/* Records a batch in one transaction: the samples of trials that succeeded
 * and the status of every trial in outs. Sets trial->status on success. */
int store_record_batch(struct store *st, struct store_outcome *outs, size_t nouts,
		       const struct store_sample *samples, size_t nsamples, const struct store_batch_meta *meta,
		       struct tune_error *err);

struct store_optimum {
	const char *platform, *host, *fingerprint, *kernel, *size_class, *variant, *hint, *runner_up;
	long long size_mb, group_size, best_group_size, trials, sweep_id;
	long long threshold_ns; /* ipa; -1: none */
	int hugepages;
	struct stats stats;
	long long speedup, apps; /* sched: the point decided; 0 for other kernels */
	const char *dispatch;    /* sched: inline or worker; NULL for other kernels */
	const char *context;     /* manifest kernels: "name=value ..." of the context decided; NULL: none */
	const char *params;      /* manifest kernels: the knee's parameters, a JSON object; NULL: from the columns */
	const char *exports;     /* manifest kernels: its context and exported values, a JSON object */
};
/* Records (or replaces) the optimum for its platform, host, fingerprint,
 * kernel, size (0 for ipa and sched) and sched point. */
int store_optimum(struct store *st, const struct store_optimum *o, struct tune_error *err);

/* The newest IPA threshold chosen for platform on host with fingerprint;
 * *found is 0 when the ipa sweep has not run there. */
int store_ipa_threshold(struct store *st, const char *platform, const char *host, const char *fingerprint,
			long long *threshold_ns, int *found, struct tune_error *err);

/* The checksum already measured in this sweep for the same lookups, if any. */
int store_reference_checksum(struct store *st, long long sweep_id, const struct trial *t,
			     unsigned long long *sum, int *found, struct tune_error *err);

#endif
