/* measure: output into samples. In: the trials of a round. Out: their
 * samples recorded, a batch per transaction, with statistics, outliers and
 * adaptive repeats until each trial's standing is settled or max_runs; the
 * progress line while it goes. The one stage that turns a trial into the
 * store's row and back (record.c). */
#ifndef TUNER_MEASURE_STAGE_H
#define TUNER_MEASURE_STAGE_H

#include <jansson.h>
#include <pthread.h>
#include <stddef.h>

#include "../base/errors.h"
#include "../base/stats.h"
#include "../plan/plan.h"
#include "../run/run.h"

/* progress.c: one line with a bar, the trial count, the time taken and an
 * ETA, redrawn in place every second when stderr is a terminal; a
 * timestamped log line per batch when it is not. */
struct progress {
	int tty;
	const char *title;  /* borrowed: the sweep, its round and context */
	size_t total, done;  /* trials */
	double cost_total, cost_done;
	double t0, t_end;   /* started; the last batch ended */
	char label[160];    /* what is measured now */
	pthread_mutex_t lock;
	pthread_cond_t wake;
	pthread_t thread;   /* the redraw on a terminal */
	int ticking, stop;
};

void progress_init(struct progress *p, const char *title, size_t total, double cost_total);
/* When the whole run (several sweeps) is expected to end, on tk_now_s()'s
 * clock, for the line's "run ~1m05s"; 0: unknown. */
void progress_run_end(double when);
/* Log lines even on a terminal: several sweeps share it. */
void progress_plain(void);
/* Shows that label is being measured now. */
void progress_begin(struct progress *p, const char *label);
/* Counts trials and cost as finished; note goes on the log line ("ok", "failed: ..."). */
void progress_end(struct progress *p, size_t trials, double cost, const char *label, const char *note);
/* Clears the line and says how many trials took how long (when any did);
 * every progress_init() has one, also when the round stops early. */
void progress_finish(struct progress *p);

/* record.c: trials as the store's rows. */
/* The row t is stored as (its strings borrowed from t). */
void measure_trial_row(const struct trial *t, struct store_trial *row);
struct store_summary measure_summary(const struct stats *s);
/* Stores trials[0..n) (with insert 0, only looks them up) and reads their
 * ids and statuses back into them. */
int measure_store_trials(struct store *st, long long sweep_id, struct trial *const *trials, size_t n, int insert,
			 struct tune_error *err);
/* Fills the stats of each done trial from its recorded runs. */
int measure_trial_stats(struct store *st, struct trial *const *trials, size_t n, struct tune_error *err);

/* settle.c: whether a batch of ntrials, each with runs measured runs
 * (x[i][k]: run k of trial i, runs of one index measured together), has
 * settled every trial's "within tolerance of the best?" (see there). higher:
 * the metric is better higher. target: a ratio known to within this
 * fraction is settled too (ci_target_pct). A lone trial: its own interval
 * tight at 95% coverage. */
int measure_settled(const double *const *x, size_t ntrials, size_t runs, int higher, double tolerance, double target);

/* measure.c: a batch's output lines into samples, recorded. */
int measure_json_number(json_t *o, const char *key, double *out);
/* ts[i..end) is what one kernel process measures: the consecutive trials of
 * one process from i, at most MAX_BATCH; returns end. */
size_t measure_process_end(struct trial *const *ts, size_t i, size_t n);
/* plan_cost() of ts[0..n), each kernel process's trials costed together
 * as measure_trials() runs them. */
double measure_cost(struct trial *const *ts, size_t n);
/* What measuring a sweep's kernel processes takes, and what it keeps. */
struct measure_session {
	const struct exec_context *ctx;
	const struct exec_options *opt;
	const struct sweep *sweep;    /* its kernel: sweep->manifest */
	long long sweep_id;
	const char *kernel_hash;  /* of the kernel's manifest and sources */
	struct exec_builds builds;
	long long measure_ns;     /* in kernels, not yet recorded */
	size_t failed;
	size_t batches;           /* kernel processes measured and recorded by this run of the sweep */
	double load_max;          /* the highest load average as they ended; < 0: none known */
};
/* Measures the given trials, a context at a time, each batch recorded in one
 * transaction; title heads the progress. A trial a previous run finished is
 * not measured again: its statistics are read back. */
int measure_trials(struct measure_session *r, struct trial **ts, size_t n, const char *title,
		   struct tune_error *err);

#endif
