/* The joint search of a recorded space (space.h): every parameter at once,
 * as a local search over the grid of the parameters' value indices guided
 * by what its steps did, every decision from measurements taken side by
 * side.
 *
 * Why this design. The spaces' parameters are ordered values mostly, and
 * neighbours along one coordinate (one value index up or down) are
 * similar: on convolution_A100 every valid point descends to one of 98
 * local minima of that neighbourhood, a few of them good. So the search
 * measures a few random points and then, batch by batch, the untried
 * neighbours of the points scored that the steps seen so far predict best
 * (space_steps.c: a neighbour's origin's score times what that step, from
 * that value, did elsewhere, with a bonus for steps seldom seen, weighed
 * by what measuring its origin cost, as the budget is time). A climb
 * that ends in a local minimum goes on from the next best point seen, most
 * often beside it (a plateau, a second basin): hill climbing whose
 * restarts are chosen by what was measured, not drawn, and whose moves
 * skip the steps already seen to lose. Kernel Tuner's benchmark of its
 * strategies (Schoonhoven et al., 2022) found such local searches (greedy
 * ILS, multi-start local search) among the best, Willemsen et al. that
 * budgets must be counted in time, compile time included; none of them
 * faces drift. Here every batch is one
 * kernel process: a scored point is measured again in it (the anchor, as
 * the one-dimensional search's rounds carry one), and a new point's score
 * is its measurement over the anchor's in the same batch times the
 * anchor's score, so that scores read as if measured beside the first
 * batch: no number of one process is compared with one of another. The
 * anchor is the cheapest point scored: it costs least, and once found it
 * stays the anchor, so that the batches hang from one point like a star,
 * not a chain, and a slow draw of an anchor misleads one batch instead of
 * every score chained through it. A batch has JOINT_BATCH new points
 * beside its anchor. The repeats come at the end: a final measures the
 * best few by score (up to JOINT_FINAL_MAX, as the budget affords, none
 * under JOINT_FINAL_FROM measurements' worth) side by side, twice each,
 * in one batch, each judged by its lower run (a run is now and then slow,
 * never fast), drops those clearly behind and measures the rest again
 * until one is left or the budget is spent; its winner is the choice.
 *
 * Constraints are learnt as it goes: an invalid point (excluded by the
 * record, free; or failing, at its compile time) is not asked for again,
 * and a neighbour two of whose own neighbours failed is skipped (failures
 * cluster: too many threads, too much shared memory).
 *
 * Before the steps guided it, the search expanded the best point not yet
 * expanded: all its untried neighbours, and the next best's until a batch
 * had 8 (best-first). On convolution_A100, 1,000 seeds (median, share
 * within 5%): 1.623, 2% at 0.5% of its time; 1.483, 5% at 1%; 1.158, 16%
 * at 2%; 1.000, 74% at 5%. Guided: 1.604, 3%; 1.483, 5%; 1.074, 28%;
 * 1.000, 90% (the start at most 8 points, not 12, and no final under 40
 * measurements' worth, not 20, each worth a little at 0.5%). On five
 * synthetic spaces of 9,264 valid points (main effects, pairwise
 * interactions, a jagged pair of parameters), 200 seeds, the mean of their
 * medians and shares within 5% at 2% and 5%: best-first 1.355, 39% and
 * 1.226, 57%; guided 1.180, 63% and 1.113, 87%. The bonus of a step never
 * seen (log): 0.15, 0.3 or 0.45 give 83%, 91% and 91% at 5% on
 * convolution_A100 (300 seeds), 0.45 a median of 1.112 at 2%. Two random
 * points in each batch whose best prediction is no better than the
 * incumbent by 10% (restarts when the climb is stuck): the synthetic
 * spaces 1.010, 70% and 1.000, 98%, but convolution_A100 88% at 5%
 * (1,000 seeds), not 90%; one random point in every batch, 87% (300
 * seeds); all of the best point's neighbours first and the steps' picks
 * after, 1.236, 17% at 2% and 72% at 5% (100 seeds); a neighbour
 * predicted by the mean over its scored neighbours, not the lowest, 89%.
 *
 * What did worse than best-first, on convolution_A100 (median ratio and
 * share within 5% at 2% and 5% of its time, 100 seeds). In a model of the
 * replay without noise, drift or anchors: random 1.46, 0% and 1.32, 1%; the same best-first
 * search 1.16, 17% and 1.00, 93%; all values of a parameter as neighbours
 * (a line search; a step costs 28 measurements) 1.51, 16% and 1.47, 39%;
 * two-index steps added along long parameters 1.52, 16% and 1.00, 75%; the
 * incumbent's diagonal neighbours (two parameters at once) added 1.33, 12%
 * and 1.00, 71%; cyclic coordinate descent from random starts 1.52 at
 * convergence. In the replay at 10% drift, 300 seeds (best-first: 1.158,
 * 17% and 1.000, 72%; with the first point expanded as the anchor, not the
 * cheapest, and a final judging by the mean: 1.158, 17% and 71%, and then):
 * batches of 4 new points 1.199, 16% and 59%; of 16, 1.158, 16% and 59%;
 * the anchor measured twice (its lower run scaling the batch) 1.260, 16%
 * and 70%; a start of at most 6 points 1.247, 14% and 73%. Its anchors and
 * final cost about an eighth of the budget (the model, given 4.5%, is
 * within 5% in 88% of seeds), and a recorded run is now and then 20% slow
 * (one of 32): with each measurement its configuration's mean instead, it
 * is within 5% at 5% in 82% of seeds, not 71%.
 *
 * The anchor was then the cheapest of the points a batch expands, a new
 * one most batches, each scaled through the one before: within 5% at 5% in
 * 72% of 300 seeds; the cheapest point scored gives 82% (and with each
 * measurement its configuration's mean, 86%), the other budgets as before
 * (`tune replay --kernel-tuner convolution_A100.json.gz --seeds 300
 * --drift 0 --strategies joint`; the joint search's rows are the same at
 * any drift). Tried beside it, none clearly better (300 seeds, median
 * and share within 5% at 2%, share at 5%; best-first 1.158, 17%, 82%):
 * the incumbent's whole line along each parameter (every value) once it
 * has led for 10, 30, 60 or 100 measurements 1.165, 11%, 66%; 1.165, 13%,
 * 70%; 83%; 82% (only along parameters of 6 values or more: 70%, 75%, 83%,
 * 84%); batches of 12 new points 74%, of 16 64%; a start of at most 8,
 * 16 or 24 points 82%, 82% and 1.212, 11%, 79%; a final of one run each
 * 80%, of at most 2 to 4 finalists 80% and 81%, begun a whole batch
 * earlier (its round seldom cut by the budget) 81%. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "search.h"

/* Random points a batch of the start asks for (excluded ones cost nothing),
 * and the valid points the start measures at most. */
#define JOINT_START 12
#define JOINT_START_MAX 8
/* New points a batch of the search measures beside its anchor. */
#define JOINT_BATCH 8
/* Finalists at most, and how often each is measured in a final's batch. */
#define JOINT_FINAL_MAX 8
#define JOINT_FINAL_REPS 2
/* No final under this many measurements' worth of budget: it would take
 * what the search needs. */
#define JOINT_FINAL_FROM 40
/* A finalist is dropped when it is behind the leader by this (log), its
 * lower run of each round against the round's mean, averaged over rounds. */
#define JOINT_FINAL_GAP 0.03

enum joint_phase { JOINT_SEARCH, JOINT_FINAL, JOINT_DONE };

struct joint {
	const struct search_space *sp;
	struct space_shuffle draws; /* its random points: random's, for the same seed */
	double budget, spent;
	double valid_cost; /* the valid points' costs, summed, and how many */
	size_t nvalid;
	double batch_cost; /* the search's batches' costs, summed, and how many */
	size_t nbatches;
	unsigned char *kind;     /* per point: enum space_point_state */
	struct space_steps steps;
	double *score;           /* per valid point: as if measured beside the first batch */
	double *cost;            /* per point told: what measuring it cost */
	size_t nscored;
	/* The batch in flight: its anchor (a scored point measured again), or
	 * SPACE_NONE in the first. */
	size_t anchor;
	int phase;
	/* The final: the candidates still in, each one's lower log run of a
	 * round less the round's mean, summed over rounds, and the rounds. */
	size_t fin[JOINT_FINAL_MAX], nfin;
	double fin_sum[JOINT_FINAL_MAX];
	size_t fin_n[JOINT_FINAL_MAX];
	size_t chosen;
};

static void joint_stop(void *state)
{
	struct joint *j = state;

	if (!j)
		return;
	free(j->kind);
	free(j->score);
	free(j->cost);
	space_steps_free(&j->steps);
	space_shuffle_free(&j->draws);
	free(j);
}

static int joint_start(void **state, const struct search_space *sp, uint64_t seed, double budget_ms,
		       struct tune_error *err)
{
	struct joint *j = calloc(1, sizeof(*j));
	size_t n = sp->npoints ? sp->npoints : 1;

	*state = j;
	if (!j || !(j->kind = calloc(n, 1)) || !(j->score = calloc(n, sizeof(double))) ||
	    !(j->cost = calloc(n, sizeof(double))) || space_steps_init(&j->steps, sp) != 0 ||
	    space_shuffle_init(&j->draws, sp->npoints, seed) != 0) {
		joint_stop(j);
		*state = NULL;
		return tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
	}
	j->sp = sp;
	j->budget = budget_ms;
	j->anchor = SPACE_NONE;
	j->chosen = SPACE_NONE;
	return 0;
}

/* What a valid point costs to measure, as far as seen. */
static double mean_cost(const struct joint *j)
{
	return j->nvalid ? j->valid_cost / (double)j->nvalid : 0;
}

/* The best scored point not in skip[0..nskip); SPACE_NONE when none. */
static size_t best_scored(const struct joint *j, const size_t *skip, size_t nskip)
{
	size_t best = SPACE_NONE;

	for (size_t p = 0; p < j->sp->npoints; p++) {
		int skipped = 0;

		if (j->kind[p] != SPACE_SCORED)
			continue;
		for (size_t k = 0; k < nskip; k++)
			skipped |= skip[k] == p;
		if (!skipped && (best == SPACE_NONE || j->score[p] < j->score[best]))
			best = p;
	}
	return best;
}

/* The anchor: the cheapest point scored, SPACE_NONE when none. Being the
 * cheapest, it is most often one point for the whole search, so that every
 * batch is scaled to one measurement and a slow draw of an anchor misleads
 * one batch, not every score chained through it. */
static size_t cheapest_scored(const struct joint *j)
{
	size_t a = SPACE_NONE;

	for (size_t p = 0; p < j->sp->npoints; p++)
		if (j->kind[p] == SPACE_SCORED && (a == SPACE_NONE || j->cost[p] < j->cost[a]))
			a = p;
	return a;
}

/* The final's batch: each candidate still in, JOINT_FINAL_REPS times,
 * interleaved (A B C A B C). */
static void final_batch(struct joint *j, size_t *points, size_t max, size_t *n)
{
	*n = 0;
	for (int r = 0; r < JOINT_FINAL_REPS; r++)
		for (size_t k = 0; k < j->nfin && *n < max; k++)
			points[(*n)++] = j->fin[k];
}

/* What a final's round costs. */
static double final_cost(const struct joint *j)
{
	double c = 0;

	for (size_t k = 0; k < j->nfin; k++)
		c += JOINT_FINAL_REPS * j->cost[j->fin[k]];
	return c;
}

/* The budget in measurements of a valid point, as far as seen. */
static double budget_points(const struct joint *j)
{
	return mean_cost(j) > 0 ? j->budget / mean_cost(j) : 0;
}

/* The final's candidates: the best few by score, as many as the budget
 * affords (a thirtieth of it), none under JOINT_FINAL_FROM measurements'
 * worth or while fewer than two are scored. */
static void pick_finalists(struct joint *j)
{
	double afford = budget_points(j) / 30;
	size_t want = afford >= JOINT_FINAL_MAX ? JOINT_FINAL_MAX : afford >= 2 ? (size_t)afford : 2;

	j->nfin = 0;
	while (budget_points(j) >= JOINT_FINAL_FROM && j->nfin < want) {
		size_t p = best_scored(j, j->fin, j->nfin);

		if (p == SPACE_NONE)
			break;
		j->fin_sum[j->nfin] = 0;
		j->fin_n[j->nfin] = 0;
		j->fin[j->nfin++] = p;
	}
	if (j->nfin < 2)
		j->nfin = 0;
}

/* Random untried points into points[*n..), up to want of them: the next
 * in the order random draws for the same seed, skipping those tried. */
static void random_points(struct joint *j, size_t *points, size_t max, size_t *n, size_t want)
{
	size_t got = 0, p;

	while (got < want && *n < max && (p = space_shuffle_next(&j->draws)) != SPACE_NONE)
		if (j->kind[p] == SPACE_UNTRIED) {
			points[(*n)++] = p;
			got++;
		}
}

static int joint_propose(void *state, size_t *points, size_t max, size_t *n, struct tune_error *err)
{
	struct joint *j = state;
	double left = j->budget - j->spent;

	*n = 0;
	if (max < 2)
		return tune_fail(err, TUNE_ERR_SYSTEM, "the joint search measures a batch of 2 or more at a time");
	if (j->phase == JOINT_DONE)
		return 1;
	/* The final when what is left affords one round of it and no more
	 * than one batch of the search besides. */
	if (j->phase == JOINT_SEARCH && j->nscored >= 2) {
		double batch = j->nbatches ? j->batch_cost / (double)j->nbatches : 0;

		pick_finalists(j);
		if (j->nfin && left <= final_cost(j) + batch / 2)
			j->phase = JOINT_FINAL;
	}
	if (j->phase == JOINT_FINAL) {
		final_batch(j, points, max, n);
		return *n ? 0 : 1;
	}
	/* The untried neighbours of the points scored that the steps seen
	 * predict best, beside the anchor: the cheapest point scored. Not
	 * before the start has its valid points (a third of what the budget
	 * measures, 4 to JOINT_START_MAX). */
	j->anchor = cheapest_scored(j);
	if (j->anchor != SPACE_NONE) {
		double start = budget_points(j) / 3;

		if ((double)j->nvalid >= (start < 4 ? 4 : start > JOINT_START_MAX ? JOINT_START_MAX : start))
			*n = 1 + space_steps_pick(&j->steps, j->kind, j->score, j->cost, mean_cost(j), points + 1,
						  JOINT_BATCH < max - 1 ? JOINT_BATCH : max - 1);
		if (*n > 1) {
			points[0] = j->anchor;
			return 0;
		}
	}
	*n = 0;
	/* Nothing to pick: random points, beside the anchor. */
	if (j->anchor != SPACE_NONE)
		points[(*n)++] = j->anchor;
	random_points(j, points, max, n, JOINT_START);
	if (*n == (j->anchor != SPACE_NONE)) {
		/* Every point tried: the final, or the best. */
		j->phase = j->nscored >= 2 ? JOINT_FINAL : JOINT_DONE;
		pick_finalists(j);
		if (j->phase == JOINT_FINAL && j->nfin) {
			final_batch(j, points, max, n);
			return 0;
		}
		j->phase = JOINT_DONE;
		return 1;
	}
	return 0;
}

/* A final's round told: each candidate's lowest log measurement, less the
 * round's mean, added up; those clearly behind the leader dropped. */
static void final_tell(struct joint *j, const size_t *points, const double *values, size_t n)
{
	double sum[JOINT_FINAL_MAX] = { 0 }, all = 0;
	size_t cnt[JOINT_FINAL_MAX] = { 0 }, k, lead = 0, kept = 0;

	/* Each candidate's lowest run of the round: a run is now and then
	 * slow (a hiccup), never fast, so the lowest is what it does. */
	for (size_t i = 0; i < n; i++)
		for (k = 0; k < j->nfin; k++)
			if (points[i] == j->fin[k] && !isnan(values[i]) && (!cnt[k] || log(values[i]) < sum[k])) {
				sum[k] = log(values[i]);
				cnt[k] = 1;
			}
	/* A round that did not measure every candidate decides nothing. */
	for (k = 0; k < j->nfin; k++) {
		if (!cnt[k])
			return;
		all += sum[k] / (double)cnt[k];
	}
	all /= (double)j->nfin;
	for (k = 0; k < j->nfin; k++) {
		j->fin_sum[k] += sum[k] / (double)cnt[k] - all;
		j->fin_n[k]++;
		if (j->fin_sum[k] / (double)j->fin_n[k] < j->fin_sum[lead] / (double)j->fin_n[lead])
			lead = k;
	}
	j->chosen = j->fin[lead];
	for (k = 0; k < j->nfin; k++)
		if (k == lead || j->fin_sum[k] / (double)j->fin_n[k] - j->fin_sum[lead] / (double)j->fin_n[lead] <
					 JOINT_FINAL_GAP) {
			j->fin[kept] = j->fin[k];
			j->fin_sum[kept] = j->fin_sum[k];
			j->fin_n[kept++] = j->fin_n[k];
		}
	j->nfin = kept;
	/* Settled: one left, or another round would not fit. */
	if (j->nfin < 2 || j->budget - j->spent < final_cost(j))
		j->phase = JOINT_DONE;
}

static void joint_tell(void *state, const size_t *points, const double *values, const double *costs, size_t n)
{
	struct joint *j = state;
	double scale = 1;
	size_t from = 0;

	for (size_t i = 0; i < n; i++)
		j->spent += costs[i];
	if (j->phase == JOINT_FINAL) {
		final_tell(j, points, values, n);
		return;
	}
	for (size_t i = 0; i < n; i++)
		j->batch_cost += costs[i];
	j->nbatches++;
	/* The batch's scale: its anchor's score over its value now. */
	if (n && j->anchor != SPACE_NONE && points[0] == j->anchor) {
		double a = values[0];

		from = 1;
		for (size_t i = 1; i < n; i++)
			if (points[i] == j->anchor && !isnan(values[i]) && values[i] < a)
				a = values[i];
		if (!isnan(a) && a > 0)
			scale = j->score[j->anchor] / a;
	}
	for (size_t i = from; i < n; i++) {
		size_t p = points[i];

		if (p >= j->sp->npoints || j->kind[p] == SPACE_SCORED)
			continue;
		j->cost[p] = costs[i];
		if (isnan(values[i])) {
			j->kind[p] = costs[i] > 0 ? SPACE_FAILED : SPACE_EXCLUDED;
			continue;
		}
		j->kind[p] = SPACE_SCORED;
		j->score[p] = values[i] * scale;
		j->valid_cost += costs[i];
		j->nvalid++;
		j->nscored++;
		space_steps_learn(&j->steps, p, j->kind, j->score);
	}
}

static size_t joint_best(void *state)
{
	struct joint *j = state;

	return j->chosen != SPACE_NONE ? j->chosen : best_scored(j, NULL, 0);
}

const struct space_strategy_ops search_space_joint = {
	"joint", joint_start, joint_propose, joint_tell, joint_best, joint_stop,
};
