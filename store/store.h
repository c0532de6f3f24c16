/* store: the SQLite results database (schema in store/migrations/, one file a version).
 *
 * WAL mode, migrations by PRAGMA user_version, and one transaction per batch
 * of samples: a batch is recorded whole or not at all, so a crash or kill at
 * any moment leaves a database that passes integrity_check and resumes.
 *
 * It includes nothing of the tuner: it takes and gives its own rows
 * (struct store_host, store_platform, store_sweep, store_trial, store_sample,
 * store_outcome, store_optimum), so that it can be read and tested alone.
 *
 * Ownership: store_open() returns a handle freed by store_close(); strings
 * passed in are borrowed. */
#ifndef STORE_STORE_H
#define STORE_STORE_H

#include <limits.h>
#include <sqlite3.h>

/* Errors: a function returns 0 or a negative STORE_ERR_*, and then has
 * written what failed and what to do (git's style) into msg, which holds
 * STORE_MSG_MAX bytes (NULL: not wanted). The codes are the tuner's
 * tune_err values, so that they pass through it unchanged. */
#define STORE_MSG_MAX 4096
enum store_err {
	STORE_ERR_REFUSED = -2, /* SQL given to it (a kernel's views) is refused: the giver's file is wrong */
	STORE_ERR_DB = -3,     /* the database cannot be opened, read or written */
	STORE_ERR_SYSTEM = -5, /* out of memory, or no thread */
	STORE_ERR_BUSY = -10,  /* another process measures the sweep */
};

/* An integer column's NULL, in the rows below. */
#define STORE_NULL LLONG_MIN

#define STORE_SCHEMA_VERSION 18
#define STORE_LEASE_BEAT_S 5    /* a sweep's lease is renewed this often */
#define STORE_LEASE_STALE_S 30  /* and taken over after this long without */
#define STORE_HOLDER_MAX 256    /* a claim's machine name, with its NUL */

struct store;

int store_open(const char *path, struct store **out, char *msg);
/* For commands that only read: no migration, no WAL switch, nothing
 * written, so a database the user can only read works, and one handed over
 * is left byte for byte as it was. An older schema is read from a private
 * copy, migrated (*copied set; NULL copied: refused instead); a newer one is
 * STORE_ERR_DB. A database is outside input: a statement that runs past
 * STORE_READ_STATEMENT_S (a view that never ends) is interrupted, and no
 * text or blob may pass STORE_READ_MAX_LENGTH bytes; store_errmsg() says so. */
#define STORE_READ_STATEMENT_S 5
#define STORE_READ_MAX_MIB 16
#define STORE_READ_MAX_LENGTH (STORE_READ_MAX_MIB << 20)
int store_open_readonly(const char *path, struct store **out, int *copied, char *msg);
/* The schema version of the database at path, read as store_open_readonly()
 * reads it, writing nothing. */
int store_schema_version(const char *path, int *version, char *msg);
/* sqlite3_errmsg(db), or what a reading command's limits stopped. */
const char *store_errmsg(sqlite3 *db);
void store_close(struct store *st);
/* The connection, for read-only queries of the report module. */
sqlite3 *store_db(struct store *st);

/* A machine as measured; the tuner's facts as JSON besides. */
struct store_host {
	const char *hostname, *arch, *cpu_model, *kernel, *facts_json;
	long long cores, pus, llc_bytes, memory_bytes;
};
int store_host(struct store *st, const struct store_host *h, long long *id, char *msg);
/* A platform file as loaded; cflags joined by spaces. */
struct store_platform {
	const char *name, *arch, *path, *compiler, *cflags;
};
int store_platform(struct store *st, const struct store_platform *p, long long *id, char *msg);
/* Makes kernel's views from sql, the text of file (named in messages),
 * unless they were made from the same SQL and are all there: its old
 * views dropped and the new ones made in one transaction. sql holds only
 * CREATE VIEW <kernel>_<name> AS SELECT statements; anything else is
 * STORE_ERR_REFUSED naming file:line, and the old views stay. */
int store_kernel_views(struct store *st, const char *kernel, const char *file, const char *sql, char *msg);
/* The name of tune's own table or view that begins with "<kernel>_" (a
 * kernel so named could take it with its views), or NULL. */
const char *store_kernel_name_reserved(const char *kernel);
/* A kernel's view named <kernel>_table_<name> is a table of tune results,
 * one named <kernel>_overview_<name> a table across the platforms asked for
 * (report/declared.c): is its column a cell, shown under its name, or one
 * saying whose row it is (title, sweep_id, platform, host, fingerprint) or
 * starting with '_' (_order), not shown? */
int store_table_cell(const char *column);
/* What the columns of q (a table view's SELECT *) lack of a table's: "title",
 * "sweep_id" (or platform, host and fingerprint; across platforms,
 * "platform") or "a cell"; NULL when none. */
const char *store_table_view_lacks(sqlite3_stmt *q, int across);
/* Records what a kernel's probe measured of the host, one field at a time,
 * replacing the last measurement of that field. */
int store_host_probe(struct store *st, long long host_id, const char *kernel, const char *probe, const char *field,
		     double value, char *msg);

struct store_build {
	const char *hash, *kernel, *variant, *compiler, *compiler_version, *cflags, *defines, *binary_path;
};
int store_build(struct store *st, const struct store_build *b, long long *id, char *msg);

struct store_sweep {
	const char *name;
	long long platform_id, host_id;
	const char *spec_hash, *spec_json, *env_json, *tune_version, *compiler, *cflags;
	const char *fingerprint, *strategy;
	const char *baseline;       /* the kernel's baseline variant */
	const char *governor, *thp; /* the host's, as the sweep starts */
	const char *holder;         /* this machine's name, in its claim on the sweep */
	double loadavg;
	int quick;
	int fresh; /* start a new generation instead of resuming */
};
/* *resumed of store_sweep_open: 0 for a new sweep. */
enum { STORE_RESUMED = 1, STORE_REOPENED_DONE = 2 /* it had finished: nothing is left to decide */ };
/* Claims the sweep (name, platform, host) for this process and opens it to
 * resume, or a new one; *resumed says which. STORE_ERR_BUSY when a live
 * process holds it, here or on another machine sharing the file (its pid,
 * host and since in the message); a claim whose process is gone (a dead pid
 * on this machine, or no heartbeat for STORE_LEASE_STALE_S) is taken over.
 * The claim, look-up and insert are one transaction. */
int store_sweep_open(struct store *st, const struct store_sweep *s, long long *sweep_id, int *resumed,
		     char *msg);
/* Gives up this process's claim on the sweep (see store_sweep_open). */
int store_sweep_release(struct store *st, const char *sweep, long long platform_id, long long host_id,
			char *msg);
enum store_trial_status { STORE_PENDING, STORE_DONE, STORE_FAILED };

/* A trial's row: what the kernel ran with, its parameters as data (params,
 * a JSON object; context, "name=value ..." of those decided apart). */
struct store_trial {
	const char *key; /* identifies the trial within its sweep */
	const char *kernel, *variant, *phase, *params, *context;
	long long work;  /* of one run, as estimates count it (manifest_work) */
	long long seed, runs, warmup;
	long long id; /* out: its row, or 0 when not stored */
	int status;   /* out: enum store_trial_status */
	long long batch; /* out: the first trial of the process that measured it, 0: none recorded */
};
/* Adds the trials (those already there are kept; with insert 0, none) and
 * reads back the ids and statuses of those stored. */
int store_sweep_trials(struct store *st, long long sweep_id, struct store_trial *trials, size_t n, int insert,
		       char *msg);
/* The time in kernels of the newest finished sweep of that name, platform,
 * host name and quick setting, for an estimate of a run; -1 when none. */
int store_sweep_last_kernel_s(struct store *st, const char *name, const char *platform, const char *hostname,
			      int quick, double *seconds, char *msg);
/* The time in kernels per operation (as plan_cost() counts them) of the
 * finished sweeps of kernel on that host name, for an estimate of a sweep
 * never run there; -1 when none. */
int store_kernel_ns_per_op(struct store *st, const char *kernel, const char *hostname, double *ns, char *msg);
/* Drops the sweep's trials of a phase still pending (stored, never measured):
 * those an interrupted run had picked, which the next may not pick again. */
int store_sweep_drop_pending(struct store *st, long long sweep_id, const char *phase, char *msg);
/* Appends a line to the sweep's warnings. */
int store_sweep_warn(struct store *st, long long sweep_id, const char *warning, char *msg);
/* A field a kernel's probe stored with the host: *found 0 when none. */
int store_host_probe_value(struct store *st, long long host_id, const char *kernel, const char *probe,
			   const char *field, double *value, int *found, char *msg);
/* Sets key (an identifier) of the sweep's host facts (env_json) to value. */
int store_sweep_env_set(struct store *st, long long sweep_id, const char *key, long long value, char *msg);
/* The search state saved last, or NULL; the caller frees it. */
int store_sweep_state(struct store *st, long long sweep_id, char **state, char *msg);
int store_sweep_save_state(struct store *st, long long sweep_id, const char *state, char *msg);
/* The metric of a trial's measured (not warm-up) runs, in *v (grown with
 * realloc, *cap its room; the caller frees it), *n of them. */
int store_trial_values(struct store *st, long long trial_id, double **v, size_t *n, size_t *cap, char *msg);
/* Run by run, a's metric over b's, of two trials measured in one process
 * (their runs interleaved): paired ratios, in *v as store_trial_values. */
int store_paired_ratios(struct store *st, long long a, long long b, double **v, size_t *n, size_t *cap, char *msg);
/* The newest measured search trial of a sweep named sweep whose parameters
 * (trials.params) are params, and its batch, for a replay; *trial_id 0 when
 * none. */
int store_recorded_trial(struct store *st, const char *sweep, const char *params, long long *trial_id,
			 long long *batch, char *msg);
int store_sweep_finish(struct store *st, long long sweep_id, const char *status, char *msg);

struct store_sample {
	long long trial_id;
	long long run_id;
	int warmup;
	long long ns_total;
	double ns_per_lookup, lookups_per_sec;
	unsigned long long checksum;
	int cpu;
	int outlier;
	const char *raw_json;
};

/* The statistics of a trial's measured runs: median, median absolute
 * deviation, the interval of the median, and how many were outliers. */
struct store_summary {
	long long n;
	double median, mad, ci_low, ci_high;
	long long outliers;
};

struct store_outcome {
	long long trial_id;
	int ok;             /* done, else failed */
	const char *reason; /* why it failed */
	long long build_id; /* 0: none */
	int cpu;            /* -1: unpinned */
	struct store_summary summary; /* of the measured runs, when ok */
};

/* What else a batch's transaction records about its sweep. */
struct store_batch_meta {
	long long sweep_id;
	long long measure_ns; /* added to the sweep's time in kernels */
	double loadavg;       /* the host's load average as the batch ended; < 0: unknown */
};

/* Records a batch in one transaction: the samples of trials that succeeded
 * and the status of every trial in outs, all marked as measured by one
 * process (their batch: outs[0]'s trial). */
int store_record_batch(struct store *st, struct store_outcome *outs, size_t nouts,
		       const struct store_sample *samples, size_t nsamples, const struct store_batch_meta *meta,
		       char *msg);

struct store_optimum {
	const char *platform, *host, *fingerprint, *kernel, *size_class, *variant, *runner_up;
	long long best_point;    /* the fastest value of the list parameter (params has the chosen one) */
	long long trials, sweep_id;
	double median, ci_low, ci_high;
	long long runs;          /* the median's runs: its interval's coverage */
	const char *context;     /* "name=value ..." of the context decided */
	const char *params;      /* the knee's parameters, a JSON object */
	const char *exports;     /* its context and exported values, a JSON object; NULL: none (a kernel's own header) */
	const char *baseline_paired; /* the baseline over it run by run, a JSON object; NULL: not in one process */
};
/* Records (or replaces) the optimum for its platform, host, fingerprint,
 * kernel and context. */
int store_optimum(struct store *st, const struct store_optimum *o, char *msg);

/* Parameter param of kernel's newest optimum for platform on host with
 * fingerprint (an integer); *found is 0 when there is none. */
int store_optimum_param(struct store *st, const char *platform, const char *host, const char *fingerprint,
			const char *kernel, const char *param, long long *value, int *found, char *msg);

/* The checksum already measured in this sweep for the same work as t (the
 * same context, or without one the same size, depth, queries and seed), if any. */
int store_reference_checksum(struct store *st, long long sweep_id, const struct store_trial *t,
			     unsigned long long *sum, int *found, char *msg);

#endif
