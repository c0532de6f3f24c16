/* The replay of a recorded space (space.h): a strategy searches it as it
 * would a machine, each measurement a recorded run of the configuration
 * drawn at random, times a drift that walks from one kernel process (a
 * strategy's batch) to the next as the sweep replay's does (replay.c); each
 * measurement costs the configuration's recorded compile plus benchmark
 * time, until the budget is spent. Its choice is judged by its recorded time over the
 * best recorded, for many seeds. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "search.h"

/* The recorded configuration of point, NULL when it is invalid or absent. */
static const struct space_config *valid_config(const struct search_space *sp, size_t point)
{
	const struct space_config *c;

	if (point >= sp->npoints || sp->config_of[point] < 0)
		return NULL;
	c = &sp->configs[sp->config_of[point]];
	return c->valid ? c : NULL;
}

/* The run the next measurement of point draws: a hash of the seed, the
 * point and how often it was measured before. */
static size_t run_of(struct space_measurer *m, size_t point)
{
	const struct space_config *c = valid_config(m->sp, point);
	struct tk_rng r = { m->runs_seed ^ ((uint64_t)point * 0xbf58476d1ce4e5b9ull) ^
			    ((uint64_t)m->measured[point]++ * 0x94d049bb133111ebull) };

	tk_rng_next(&r);
	return (size_t)tk_rng_below(&r, c->ntimes);
}

void search_space_measure_batch(struct space_measurer *m, const size_t *points, size_t n, double *values)
{
	double drift = 0;

	/* The process's drift is drawn at its first valid point: a batch of
	 * one draws as a measurement of its own does. */
	for (size_t i = 0; i < n; i++) {
		const struct space_config *c = valid_config(m->sp, points[i]);

		if (!c) {
			values[i] = NAN;
			continue;
		}
		if (drift == 0)
			drift = search_drift_step(&m->rng, &m->log_drift, m->sigma);
		values[i] = c->times[run_of(m, points[i])] * drift;
	}
}

double search_space_measure(struct space_measurer *m, size_t point)
{
	double v;

	search_space_measure_batch(m, &point, 1, &v);
	return v;
}

/* A generator's state for seed and what it draws (the measurements' runs
 * and drift, or the strategy's choices): splitmix64 of both. */
static uint64_t seed_of(size_t seed, uint64_t what)
{
	struct tk_rng r = { (uint64_t)seed * 0x9e3779b97f4a7c15ull + what };

	return tk_rng_next(&r);
}

int search_space_measurer_init(struct space_measurer *m, const struct search_space *sp, size_t seed, double sigma)
{
	m->sp = sp;
	m->rng.state = seed_of(seed, 1);
	m->runs_seed = seed_of(seed, 3);
	m->sigma = sigma;
	m->log_drift = 0;
	m->measured = calloc(sp->npoints ? sp->npoints : 1, sizeof(*m->measured));
	return m->measured ? 0 : -1;
}

void search_space_measurer_free(struct space_measurer *m)
{
	free(m->measured);
	m->measured = NULL;
}

/* One search at one budget: its choice's ratio into *ratio. */
static int search_once(const struct search_space *sp, const struct space_strategy_ops *st, size_t seed, double sigma,
		       double budget_ms, double *ratio, struct space_replay_row *row, struct tune_error *err)
{
	struct space_measurer m;
	size_t points[SPACE_BATCH_MAX], n, made, best, free_asks = 0;
	double values[SPACE_BATCH_MAX], costs[SPACE_BATCH_MAX], spent = 0;
	void *state = NULL;
	int rc;

	if (search_space_measurer_init(&m, sp, seed, sigma) != 0) {
		search_space_measurer_free(&m);
		return tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
	}
	if ((rc = st->start(&state, sp, seed_of(seed, 2), budget_ms, err)) != 0) {
		search_space_measurer_free(&m);
		return rc;
	}
	/* Until the budget is spent: the measurement that crosses it is
	 * made and counts (a tuner checks its clock between measurements),
	 * those after it in its batch are not. */
	while (spent < budget_ms && (rc = st->propose(state, points, SPACE_BATCH_MAX, &n, err)) == 0) {
		if (n < 1 || n > SPACE_BATCH_MAX) {
			rc = tune_fail(err, TUNE_ERR_SYSTEM, "strategy '%s' proposed a batch of %zu points", st->name, n);
			break;
		}
		for (made = 0; made < n && spent < budget_ms; made++) {
			int32_t c = points[made] < sp->npoints ? sp->config_of[points[made]] : -1;

			costs[made] = c >= 0 ? sp->configs[c].cost_ms : 0;
			spent += costs[made];
			/* Points that cost nothing (excluded by the record) end a
			 * search that asks for nothing else, past 4 times the space. */
			if (costs[made] <= 0)
				free_asks++;
		}
		search_space_measure_batch(&m, points, made, values);
		for (size_t i = 0; i < made; i++) {
			int32_t c = points[i] < sp->npoints ? sp->config_of[points[i]] : -1;

			if (c < 0)
				row->excluded++;
			else if (isnan(values[i]))
				row->failed++;
			else
				row->measured++;
		}
		st->tell(state, points, values, costs, made);
		if (free_asks > 4 * sp->npoints)
			break;
	}
	if (rc >= 0) {
		const struct space_config *c;

		rc = 0;
		best = st->best(state);
		c = valid_config(sp, best);
		*ratio = c ? c->time / sp->configs[sp->best].time : INFINITY;
	}
	st->stop(state);
	search_space_measurer_free(&m);
	return rc;
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The q-quantile of v[0..n) sorted, interpolated between order statistics
 * (the default of numpy and R); INFINITY where it reaches one. */
static double quantile(const double *v, size_t n, double q)
{
	double h = (double)(n - 1) * q, f = h - floor(h);
	size_t lo = (size_t)h;

	if (!n)
		return NAN;
	if (lo + 1 >= n || f == 0)
		return v[lo];
	if (isinf(v[lo + 1]))
		return INFINITY;
	return v[lo] + f * (v[lo + 1] - v[lo]);
}

void search_space_replay_rows_free(struct space_replay_row *rows, size_t n)
{
	for (size_t i = 0; rows && i < n; i++) {
		free(rows[i].ratios);
		rows[i].ratios = NULL;
	}
}

int search_space_replay(const struct search_space *sp, const struct space_strategy_ops *st,
			const struct space_replay_options *o, struct space_replay_row *rows, struct tune_error *err)
{
	double *ratio = calloc(o->seeds ? o->seeds : 1, sizeof(*ratio));
	int rc = 0;

	memset(rows, 0, o->nbudgets * sizeof(*rows));
	if (!ratio)
		return tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
	for (size_t b = 0; !rc && b < o->nbudgets; b++) {
		struct space_replay_row *row = &rows[b];
		size_t within = 0;

		row->strategy = st->name;
		row->budget_fraction = o->budgets[b];
		row->seeds = o->seeds;
		if (!(row->ratios = calloc(o->seeds ? o->seeds : 1, sizeof(double)))) {
			rc = tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
			break;
		}
		for (size_t s = 0; !rc && s < o->seeds; s++) {
			rc = search_once(sp, st, s, o->drift, o->budgets[b] * sp->total_ms, &ratio[s], row, err);
			within += !rc && ratio[s] <= 1.05;
			row->ratios[s] = ratio[s];
		}
		if (rc || !o->seeds)
			break;
		qsort(ratio, o->seeds, sizeof(*ratio), by_value);
		row->median_ratio = quantile(ratio, o->seeds, 0.5);
		row->p90_ratio = quantile(ratio, o->seeds, 0.9);
		row->within_5pct = (double)within / (double)o->seeds;
		row->measured /= (double)o->seeds;
		row->failed /= (double)o->seeds;
		row->excluded /= (double)o->seeds;
	}
	free(ratio);
	return rc;
}
