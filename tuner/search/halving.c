/* The joint search of a sweep (strategy joint): every tuned parameter at
 * once. A sweep's searched parameters (a hint, huge pages, a variant) make
 * its contexts, each one kernel process per round; its list parameter (g)
 * is measured many values to a process. The adaptive search walks g in
 * every context to its knee and races away only a context clearly worse;
 * with 4 hints x 2 page sizes that is 8 searches of g, most of them of
 * contexts tied within the noise. Here the contexts of one decision race
 * by successive halving (Jamieson and Talwalkar, 2016; with Hyperband's
 * rate, one in three goes on): every round each context still in the race
 * measures its next points of g with its incumbent again beside them (the
 * anchor), and all but the best third of the race, by what each showed in
 * that round's process, leave it, until one is left to walk g to its knee.
 * A context whose walk of g is over stays in the race with its incumbent
 * alone, so that no comparison sets a number of this round against one of
 * an earlier. The rounds alternate the order of the contexts' processes,
 * so that a drift across a round does not favour the same ones each time.
 * The decision is every decision's: its final measures the candidates
 * side by side, the last two contexts of the race among them; a context
 * that left the race earlier is no candidate (the baseline aside: the gain
 * is measured against it). */
#include <math.h>
#include <stdlib.h>

#include "search.h"

/* One in this many contexts of a race goes on each round: Hyperband's
 * default (Li et al., 2018). */
#define SEARCH_JOINT_ETA 3

/* What context b showed in its latest process: the best median among the
 * trials and anchors that process measured (NAN when none). */
static double latest_best(const struct search *s, size_t b)
{
	const struct plan *pl = s->plan;
	const struct batch *bt = &pl->batches[b];
	const struct kernel_manifest *m = s->sweep->manifest;
	long long latest = 0;
	double best = NAN;

	for (size_t i = bt->first; i < bt->first + bt->count; i++)
		if (pl->trials[i].stats.n && pl->trials[i].batch > latest)
			latest = pl->trials[i].batch;
	for (size_t k = 0; k < s->nanchors; k++)
		if (s->anchor_of[k] >= bt->first && s->anchor_of[k] < bt->first + bt->count && s->anchors[k]->stats.n &&
		    s->anchors[k]->batch > latest)
			latest = s->anchors[k]->batch;
	if (!latest)
		return NAN;
	for (size_t i = bt->first; i < bt->first + bt->count; i++)
		if (pl->trials[i].stats.n && pl->trials[i].batch == latest &&
		    (isnan(best) || manifest_better(m, pl->trials[i].stats.median, best)))
			best = pl->trials[i].stats.median;
	for (size_t k = 0; k < s->nanchors; k++)
		if (s->anchor_of[k] >= bt->first && s->anchor_of[k] < bt->first + bt->count && s->anchors[k]->stats.n &&
		    s->anchors[k]->batch == latest && (isnan(best) || manifest_better(m, s->anchors[k]->stats.median, best)))
			best = s->anchors[k]->stats.median;
	return best;
}

int search_racing(const struct search *s, size_t b)
{
	return s->ctx[b].phase != SEARCH_DROPPED;
}

size_t search_race_size(const struct search *s, size_t b)
{
	const struct plan *pl = s->plan;
	size_t n = 0;

	for (size_t o = 0; o < pl->nbatches; o++)
		n += search_racing(s, o) && manifest_same_decision(&pl->trials[pl->batches[o].first],
								   &pl->trials[pl->batches[b].first]);
	return n;
}

void search_halve(struct search *s)
{
	const struct plan *pl = s->plan;
	const struct kernel_manifest *m = s->sweep->manifest;
	size_t *race = malloc((pl->nbatches ? pl->nbatches : 1) * sizeof(*race));
	double *shown = malloc((pl->nbatches ? pl->nbatches : 1) * sizeof(*shown));
	unsigned char *seen = calloc(pl->nbatches ? pl->nbatches : 1, 1);

	for (size_t b = 0; race && shown && seen && b < pl->nbatches; b++) {
		size_t n = 0, keep;
		int same_round = 1;

		if (seen[b])
			continue;
		for (size_t o = b; o < pl->nbatches; o++) {
			if (!manifest_same_decision(&pl->trials[pl->batches[o].first], &pl->trials[pl->batches[b].first]))
				continue;
			seen[o] = 1;
			if (!search_racing(s, o))
				continue;
			/* Only processes of the round just measured are compared. */
			same_round &= s->ctx[o].round == s->round && !isnan(shown[n] = latest_best(s, o));
			race[n++] = o;
		}
		if (n < 2 || !same_round)
			continue;
		/* Best first (a few contexts: an insertion sort). */
		for (size_t a = 1; a < n; a++)
			for (size_t k = a; k > 0 && manifest_better(m, shown[k], shown[k - 1]); k--) {
				size_t t = race[k];
				double v = shown[k];

				race[k] = race[k - 1];
				race[k - 1] = t;
				shown[k] = shown[k - 1];
				shown[k - 1] = v;
			}
		keep = (n + SEARCH_JOINT_ETA - 1) / SEARCH_JOINT_ETA;
		for (size_t k = keep; k < n; k++) {
			s->ctx[race[k]].phase = SEARCH_DROPPED;
			s->ctx[race[k]].left_of = (int)n;
			s->ctx[race[k]].runner_up = keep == 1 && k == 1;
		}
	}
	free(race);
	free(shown);
	free(seen);
}

void search_mark_raced_out(struct search *s)
{
	struct plan *pl = s->plan;

	for (size_t b = 0; b < pl->nbatches; b++)
		for (size_t i = pl->batches[b].first; i < pl->batches[b].first + pl->batches[b].count; i++)
			pl->trials[i].raced_out = s->strategy == STRATEGY_JOINT && s->ctx[b].left_of &&
						  !s->ctx[b].runner_up && !manifest_is_baseline(&pl->trials[i]);
}
