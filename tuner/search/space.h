/* space.h (of search.h): a recorded search space, and the strategies that
 * search one. A space is every configuration of a set of parameters (the
 * product of their values), each recorded once by a brute force: its runs'
 * times, what measuring it cost, or that it failed; one absent from the
 * record is one the record's constraints excluded. Kernel Tuner's cache
 * files are such records (space_kt.c reads them). A strategy searches a
 * space by asking for one configuration at a time and being told what its
 * measurement gave; the replay (space_replay.c) measures for it from the
 * record, under a drift, until a budget of measuring time is spent, and
 * judges the configuration it names best by its recorded time. */
#ifndef TUNER_SEARCH_SPACE_H
#define TUNER_SEARCH_SPACE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../base/errors.h"
#include "../../kernels/sdk/tune_protocol.h"

/* No configuration: a strategy with nothing (valid) measured. */
#define SPACE_NONE ((size_t)-1)
/* The most configurations a space's product may hold. */
#define SPACE_MAX_POINTS ((size_t)1 << 22)

struct space_param {
	char *name;
	char **values; /* each value as a cache key writes it ("16", "0.5", "True") */
	size_t nvalues;
};

/* A configuration of the record. */
struct space_config {
	char *key;       /* the record's name of it: its values joined by commas */
	int valid;       /* 0: recorded as failing (an invalid configuration) */
	double time;     /* valid: the recorded objective, the mean of its runs (ms) */
	double *times;   /* valid: each recorded run (ms) */
	size_t ntimes;
	double cost_ms;  /* what measuring it took: compile plus benchmark time as recorded */
};

struct search_space {
	char *path;                /* the file, as given */
	char *kernel, *device;     /* as the file names them, or "" */
	struct space_param *params; /* the order of the keys' values */
	size_t nparams;
	/* Points: the product of the parameters' values, numbered as Kernel
	 * Tuner enumerates them (the first parameter slowest). */
	size_t npoints;
	int32_t *config_of;        /* per point: its configuration, -1 when the record has none */
	struct space_config *configs;
	size_t nconfigs, nvalid;
	size_t best;               /* the valid configuration of the best recorded time */
	double total_ms;           /* every valid configuration measured once: the sum of their costs */
};

/* Kernel Tuner's cache file (JSON, or JSON compressed by gzip: by its name's
 * .gz or its first bytes, decompressed by running gzip -dc) into sp. A file
 * that cannot be read or is malformed is TUNE_ERR_CONFIG naming the file and
 * the key (a JSON syntax error its line:column). sp is freed by
 * search_space_free(), also after an error. */
int search_space_load_kt(const char *path, struct search_space *sp, struct tune_error *err);
/* The same from the file's text, len bytes (pure: it reads nothing); name
 * is what the messages call it. */
int search_space_parse_kt(const char *text, size_t len, const char *name, struct search_space *sp,
			  struct tune_error *err);
void search_space_free(struct search_space *sp);
/* A point's value index of each parameter into coord[0..nparams), and back. */
void search_space_coords(const struct search_space *sp, size_t point, size_t *coord);
size_t search_space_point(const struct search_space *sp, const size_t *coord);

/* A strategy: one search of a space at a time, each in its own state. It
 * proposes a batch of points, is told what their measurements gave,
 * proposes again, and names its best when the budget is spent. A batch is
 * measured in one kernel process, side by side (under one drift), each
 * point still costing its compile and benchmark time: what a strategy
 * compares within one batch is free of the drift between processes. The
 * one loop that drives them (the replay's, or one measuring a machine)
 * never asks which it has. grid and random (space_strategies.c) propose
 * batches of one; the joint search (space_joint.c) batches a point's
 * neighbours with the point itself; an optimizer of another program
 * (Optuna's TPE, bench/replay_kt_tpe.py) drives the replay over a pipe
 * instead (search_space_serve). */
#define SPACE_BATCH_MAX 64
struct space_strategy_ops {
	const char *name;
	/* A new search of sp into *state: seed for what it draws, budget_ms
	 * the measuring time it will be given (for a strategy that plans by
	 * it). Returns 0, or a negative tune_err with the message. */
	int (*start)(void **state, const struct search_space *sp, uint64_t seed, double budget_ms,
		     struct tune_error *err);
	/* The next batch into points[0..*n), 1 <= *n <= max (max <=
	 * SPACE_BATCH_MAX); a point again, beside new ones or twice in one
	 * batch, is allowed: each is measured again. Returns 0, 1 when it has
	 * none left, or a negative tune_err. */
	int (*propose)(void *state, size_t *points, size_t max, size_t *n, struct tune_error *err);
	/* What came of the batch last proposed, points[0..n) in its order:
	 * each measured value (ms; lower is better), or NAN for an invalid
	 * point (a constraint violation), and what measuring it cost (0 for a
	 * point the record excludes). n is less than proposed when the budget
	 * ran out within the batch (the measurement that crosses it is the
	 * last one made); nothing more is proposed then. */
	void (*tell)(void *state, const size_t *points, const double *values, const double *costs, size_t n);
	/* The point it names best, or SPACE_NONE when it measured none. */
	size_t (*best)(void *state);
	void (*stop)(void *state);
};
/* Points drawn without replacement, in a seeded order (a partial
 * Fisher-Yates shuffle of 0..n): random's draws, and the joint search's
 * random points, so that both draw the same points for a seed (common
 * random numbers). space_shuffle_init: 0, or -1 out of memory
 * (space_shuffle_free() it still); next: SPACE_NONE once every point is
 * drawn. */
struct space_shuffle {
	uint32_t *order; /* order[0..next): drawn; the rest not yet */
	size_t next, n;
	struct tk_rng rng;
};
int space_shuffle_init(struct space_shuffle *s, size_t n, uint64_t seed);
size_t space_shuffle_next(struct space_shuffle *s);
void space_shuffle_free(struct space_shuffle *s);
/* The joint search (space_joint.c). */
extern const struct space_strategy_ops search_space_joint;

/* What the joint search knows of a point. */
enum space_point_state { SPACE_UNTRIED, SPACE_SCORED, SPACE_FAILED, SPACE_EXCLUDED };
/* The joint search's steps (space_steps.c): what a step along one
 * parameter (a value index one up or down) did to the score wherever both
 * ends were scored, and the untried neighbours of scored points ranked by
 * it and by what measuring their origin cost. Per point a state (enum
 * space_point_state) and, scored, a score and a cost. */
struct space_steps {
	const struct search_space *sp;
	size_t *off;     /* per parameter: its first entry (short: a to b at a x nvalues + b; else 2 a value, down, up) */
	double *sum;     /* per entry: the log score ratios of the step, summed */
	size_t *count;   /* per entry: how many */
	size_t *coord;
	double *pred;    /* per point: its prediction while ranking, else 0 */
	size_t *cand;
};
/* s for sp: 0, or -1 out of memory (space_steps_free() it still). */
int space_steps_init(struct space_steps *s, const struct search_space *sp);
void space_steps_free(struct space_steps *s);
/* What the steps between p, newly scored, and its scored neighbours did. */
void space_steps_learn(struct space_steps *s, size_t p, const unsigned char *state, const double *score);
/* Whether q is likely to fail: two of its neighbours failed (failures
 * cluster: too many threads, too much shared memory). */
int space_steps_likely_failing(struct space_steps *s, size_t q, const unsigned char *state);
/* The untried neighbours of scored points predicted best for what they
 * are likely to cost (none likely to fail) into points[0..want), best
 * first; how many there were. mean_cost: what a point measured cost, on
 * average. */
size_t space_steps_pick(struct space_steps *s, const unsigned char *state, const double *score, const double *cost,
			double mean_cost, size_t *points, size_t want);
/* The strategies, NULL-ended, and the one of a name (or NULL). */
extern const struct space_strategy_ops *const search_space_strategies[];
const struct space_strategy_ops *search_space_strategy(const char *name);

/* A measurement from the record: a recorded run of the configuration,
 * drawn at random, times the drift of the kernel process that measures it
 * (each batch is one: compiled, run and timed on its own). Which run the
 * k-th measurement of a configuration draws depends on the seed, the
 * configuration and k only, not on what was measured before it: common
 * random numbers, so that two strategies measuring the same configuration
 * for a seed read the same runs, and what tells them apart is what they
 * asked for. The drift walks on a stream of its own. */
struct space_measurer {
	const struct search_space *sp;
	struct tk_rng rng;       /* the drift's */
	uint64_t runs_seed;      /* the runs' */
	uint32_t *measured;      /* per point: how often measured so far */
	double sigma, log_drift; /* the drift's step (log sd) and where it is */
};
/* A measurer of sp for a replay's seed: the draws and drift walk that the
 * replay's seed makes, whoever measures (search_space_serve too). 0, or -1
 * out of memory; search_space_measurer_free() it either way. */
int search_space_measurer_init(struct space_measurer *m, const struct search_space *sp, size_t seed, double sigma);
void search_space_measurer_free(struct space_measurer *m);
/* The measured value of point in a process of its own, NAN when it is
 * invalid or not recorded. */
double search_space_measure(struct space_measurer *m, size_t point);
/* points[0..n) measured in one process (one drift step) into values. */
void search_space_measure_batch(struct space_measurer *m, const size_t *points, size_t n, double *values);

/* The replay as an objective for another optimizer (bench/replay_kt_tpe.py):
 * answers a line per request on in: "space" (one line of JSON: the kernel,
 * each parameter's name and values as keys write them, the points, the
 * valid configurations and total_ms), "seed N" (ok: the replay's draws and
 * drift walk of seed N, anew), "measure CONFIG" (CONFIG its values joined
 * by commas: "VALUE COST", the measured ms and what measuring it cost, in a
 * kernel process of its own, or "invalid COST" for a configuration recorded
 * as failing, or excluded at cost 0) and "judge CONFIG" (its recorded time
 * over the best recorded, or "invalid"); a request it cannot answer gets
 * "error: ..." and the next is read. 0 at the end of in, -1 if out of
 * memory. */
int search_space_serve(const struct search_space *sp, double sigma, FILE *in, FILE *out);

struct space_replay_options {
	size_t seeds;
	double drift;          /* the drift's step from one measurement to the next (log sd) */
	const double *budgets; /* fractions of the space's total_ms */
	size_t nbudgets;
};
/* One strategy at one budget, over the seeds: its choice's recorded time
 * over the best recorded time (INFINITY for a seed where it named none). */
struct space_replay_row {
	const char *strategy;
	double budget_fraction;
	size_t seeds;
	double median_ratio, p90_ratio;
	double within_5pct; /* the share of seeds whose ratio is <= 1.05 (0..1) */
	double measured;    /* valid configurations measured per seed, mean */
	double failed;      /* configurations recorded as failing asked for per seed, mean */
	double excluded;    /* points the record has not asked for per seed, mean */
	double *ratios;     /* each seed's ratio, in seed order: strategies compare seed by seed (the caller frees) */
};
/* Replays strategy st on sp at each budget over o->seeds seeds into
 * rows[0..o->nbudgets). The same options give the same rows. */
int search_space_replay(const struct search_space *sp, const struct space_strategy_ops *st,
			const struct space_replay_options *o, struct space_replay_row *rows, struct tune_error *err);
/* Frees what rows[0..n) hold (each seed's ratios). */
void search_space_replay_rows_free(struct space_replay_row *rows, size_t n);

#endif
