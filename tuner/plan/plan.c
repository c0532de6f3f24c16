#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/strbuf.h"
#include "plan.h"

const char *const trial_phase_names[] = { "search", "final", "anchor", NULL };

int plan_add_trial(struct plan *pl, size_t *cap, const struct trial *t)
{
	if (pl->ntrials == *cap) {
		size_t ncap = *cap ? *cap * 2 : 64;
		struct trial *nt = realloc(pl->trials, ncap * sizeof(*nt));

		if (!nt)
			return -1;
		pl->trials = nt;
		*cap = ncap;
	}
	pl->trials[pl->ntrials++] = *t;
	return 0;
}

void plan_copy_trial(const struct trial *src, int phase, const char *suffix, struct trial *out)
{
	*out = *src;
	out->id = 0;
	out->batch = 0;
	out->status = TRIAL_PENDING;
	out->phase = phase;
	out->once = 0;
	memset(&out->stats, 0, sizeof(out->stats));
	out->score = out->score_low = out->score_high = 0;
	snprintf(out->key, sizeof(out->key), "%.300s/%s", src->key, suffix);
}

int plan_add_batch(struct plan *pl, size_t first, size_t count)
{
	struct batch *nb = realloc(pl->batches, (pl->nbatches + 1) * sizeof(*nb));

	if (!nb)
		return -1;
	nb[pl->nbatches].first = first;
	nb[pl->nbatches].count = count;
	pl->batches = nb;
	pl->nbatches++;
	return 0;
}

int plan_build(const struct platform *p, const struct sweep *s, struct plan *pl, struct tune_error *err)
{
	return manifest_plan(p, s, pl, err);
}

void plan_free(struct plan *pl)
{
	free(pl->trials);
	free(pl->batches);
	memset(pl, 0, sizeof(*pl));
}

double plan_cost(struct trial *const *trials, size_t n)
{
	/* Operations (each run's work: links followed, calls, or the run
	 * itself), plus setting up a working set once per process: linking a
	 * cycle of 64-byte nodes, a random swap per node, costs about as much
	 * as two steps. */
	double cost = n ? (double)manifest_memory_mb(trials[0]) * 16384.0 * 2.0 : 0;

	for (size_t i = 0; i < n; i++)
		cost += (double)(trials[i]->runs + trials[i]->warmup) * (double)manifest_work(trials[i]);
	return cost;
}

void plan_trial_label(const struct trial *t, char *out, size_t len)
{
	manifest_label(t, t, out, len);
}

void plan_batch_label(struct trial *const *todo, size_t n, char *out, size_t len)
{
	size_t lo = 0, hi = 0;

	/* A round lists its anchors last and a final in a random order. */
	for (size_t i = 1; i < n; i++) {
		if (plan_trial_point(todo[i]) < plan_trial_point(todo[lo]))
			lo = i;
		if (plan_trial_point(todo[i]) > plan_trial_point(todo[hi]))
			hi = i;
	}
	manifest_label(todo[lo], todo[hi], out, len);
}

long long plan_trial_point(const struct trial *t)
{
	return manifest_point(t);
}

int plan_same_process(const struct trial *a, const struct trial *b)
{
	return a->manifest == b->manifest && manifest_same_process(a, b);
}
