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

#include "../tuner/errors.h"
#include "../tuner/hostinfo.h"
#include "../tuner/plan.h"
#include "../tuner/platform.h"

#define STORE_SCHEMA_VERSION 1

struct store;

int store_open(const char *path, struct store **out, struct tune_error *err);
void store_close(struct store *st);
/* The connection, for read-only queries of the report module. */
sqlite3 *store_db(struct store *st);

int store_host(struct store *st, const struct host_facts *facts, long long *id, struct tune_error *err);
int store_platform(struct store *st, const struct platform *p, long long *id, struct tune_error *err);

struct store_build {
	const char *hash, *kernel, *variant, *hint, *compiler, *compiler_version, *cflags, *defines, *binary_path;
};
int store_build(struct store *st, const struct store_build *b, long long *id, struct tune_error *err);

struct store_sweep {
	const char *name;
	long long platform_id, host_id;
	const char *spec_hash, *spec_json, *env_json, *tune_version, *compiler, *cflags;
	const struct host_facts *facts;
	int quick;
	int fresh; /* start a new generation instead of resuming */
};
/* Opens the sweep to resume, or a new one; *resumed says which. */
int store_sweep_open(struct store *st, const struct store_sweep *s, long long *sweep_id, int *resumed,
		     struct tune_error *err);
/* Adds the plan's trials (those already there are kept) and reads back their
 * ids and statuses into the plan. */
int store_sweep_trials(struct store *st, long long sweep_id, struct plan *plan, struct tune_error *err);
int store_sweep_finish(struct store *st, long long sweep_id, const char *status, struct tune_error *err);

struct store_sample {
	const struct trial *trial;
	long long run_id;
	int warmup;
	long long ns_total;
	double ns_per_lookup, lookups_per_sec;
	unsigned long long checksum;
	int cpu;
	const char *raw_json;
};

struct store_outcome {
	struct trial *trial;
	int ok;             /* done, else failed */
	const char *reason; /* why it failed */
	long long build_id; /* 0: none */
	int cpu;            /* -1: unpinned */
};

/* Records a batch in one transaction: the samples of trials that succeeded
 * and the status of every trial in outs. Sets trial->status on success. */
int store_record_batch(struct store *st, struct store_outcome *outs, size_t nouts,
		       const struct store_sample *samples, size_t nsamples, struct tune_error *err);

/* The checksum already measured in this sweep for the same lookups, if any. */
int store_reference_checksum(struct store *st, long long sweep_id, const struct trial *t,
			     unsigned long long *sum, int *found, struct tune_error *err);

#endif
