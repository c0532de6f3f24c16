/* The steps of the joint search of a recorded space (space.h): what a
 * step along one parameter (its value index one up or down, from a given
 * value; or, for a short parameter, to any other of its values) did to
 * the score wherever both ends were scored, and from that a ranking of the
 * untried neighbours of the points scored.
 *
 * A step's effect is learnt as the log of its end's score over its
 * origin's, averaged over every pair of scored neighbours it joins (both
 * ways: the step back is the same log, negated), shrunk towards no effect
 * by one pseudo-observation. An untried neighbour q of a scored point p is
 * predicted at p's score times the step's effect, less an allowance for
 * how seldom the step was seen (STEPS_EXPLORE over the square root of one
 * plus its count, as an upper confidence bound does), the lowest such
 * prediction over its scored neighbours, and ranked by that prediction
 * times the cost of measuring p (a neighbour costs about what its origin
 * did) over the mean cost, to the power STEPS_COST_WEIGHT. The points are
 * scored from measurements side by side (space_joint.c); a prediction
 * only chooses what to measure next, never what is best.
 *
 * Why: on convolution_A100, of a point's 12 or so neighbours most are
 * predictably worse (use_shmem off, block_size_y of 16, a tile of 3 or 4
 * along x), and the steps' effects are much alike from point to point:
 * measuring all of the best point's neighbours spends most of the budget
 * on steps already seen to lose. Kernel Tuner's benchmark (Schoonhoven et
 * al., 2022) and the literature on combinatorial bandits (UCB) suggest the
 * rest: local moves, ranked by what similar moves did, with a bonus for
 * the moves seldom seen.
 *
 * Why the cost: the budget is time (Willemsen et al.: compile time
 * included), so of two moves alike a cheap one leaves more for the next,
 * as Bayesian optimisation ranks by expected improvement per second
 * (Snoek, Larochelle and Adams, 2012). On convolution_A100 a tile of 1 x
 * 3 compiles in half the time of a larger one; 1,000 seeds, share within
 * 5% and 10% of the best at 2% of its time, within 5% at 5%: without the
 * cost 30%, 50%, 88%; weight 0.25 60%, 88%, 95%; 0.5 70%, 91%, 95%. Over
 * 27 of the benchmark hub's spaces and the two shared ones (100 seeds,
 * rows behind random's of 145, geometric mean of the medians, mean share
 * within 5%): without 30, 1.160, 0.419; 0.25 26, 1.153, 0.429; 0.5 27,
 * 1.155, 0.423, losing where the cheap are not the good (convolution on
 * an RTX A4000, GEMM on an RTX 3090, pnpoly). The
 * neighbour's own cost predicted by what each step did to the cost, as
 * the score: 0.25 25, 1.153, 0.428 (97% at 5%), 0.5 31, 1.155, 0.415: no
 * better than the origin's, so not kept.
 *
 * Why short parameters jump: a parameter of a few values is often a
 * choice whose indices mean no order (pnpoly's between_method, 0 to 3),
 * and a walk of one index at a time stops at a value worse than both its
 * neighbours' far side. Every value of a parameter of up to STEPS_SHORT
 * values is one step away; such a jump never seen has a smaller allowance
 * (STEPS_JUMP_EXPLORE), so that the ordered tiles of convolution (four
 * values each) are still walked first. The benchmark hub's spaces with the
 * two shared ones (33 spaces, 100 seeds, no drift:
 * bench/replay_kt_spaces.sh build/tune DIR 100 0; rows behind random of
 * 165, geometric mean of the medians, mean share within 5%): one index
 * only 27, 1.147, 0.458; jumps up to 3 values 29, 1.147, 0.459; up to 4
 * with the full allowance 31, 1.140, 0.480 (convolution_A100 at 2%: 1.074,
 * 45%); up to 4 with none 25, 1.141, 0.471; with 0.1 22, 1.140, 0.474
 * (MI250X's convolution within 5% at 2% in 63% of seeds, not 30%; W7800's
 * at 5% 72%, not 31%). convolution_A100 over 1,000 seeds pays a little: 54%
 * within 5% at 2% (60% before), 94% at 5% (95%). */
#include <math.h>
#include <stdlib.h>

#include "search.h"

/* The allowance (log) of a step never seen. */
#define STEPS_EXPLORE 0.3
/* A parameter of at most this many values has every value a step away
 * from every other (a choice walked as if ordered is a trap), and a step
 * of more than one index, never seen, this allowance. */
#define STEPS_SHORT 4
#define STEPS_JUMP_EXPLORE 0.1
/* How much what a neighbour likely costs weighs in its rank: its
 * prediction times its origin's cost over the mean cost, to this power. */
#define STEPS_COST_WEIGHT 0.25

/* A parameter's entries: from each value to every other of a short one,
 * else down and up. */
static size_t entries(size_t nvalues)
{
	return nvalues <= STEPS_SHORT ? nvalues * nvalues : 2 * nvalues;
}

int space_steps_init(struct space_steps *s, const struct search_space *sp)
{
	size_t n = sp->npoints ? sp->npoints : 1, d = sp->nparams ? sp->nparams : 1;

	s->sp = sp;
	s->sum = NULL;
	s->count = NULL;
	s->pred = NULL;
	s->cand = NULL;
	if (!(s->off = calloc(d + 1, sizeof(size_t))) || !(s->coord = calloc(d, sizeof(size_t))))
		return -1;
	for (size_t i = 0; i < sp->nparams; i++)
		s->off[i + 1] = s->off[i] + entries(sp->params[i].nvalues);
	if (!(s->sum = calloc(s->off[sp->nparams] + 1, sizeof(double))) ||
	    !(s->count = calloc(s->off[sp->nparams] + 1, sizeof(size_t))) || !(s->pred = calloc(n, sizeof(double))) ||
	    !(s->cand = calloc(n, sizeof(size_t))))
		return -1;
	return 0;
}

void space_steps_free(struct space_steps *s)
{
	free(s->off);
	free(s->coord);
	free(s->sum);
	free(s->count);
	free(s->pred);
	free(s->cand);
}

/* A step's entry: parameter i from value a to value b (adjacent). */
static size_t entry(const struct space_steps *s, size_t i, size_t a, size_t b)
{
	size_t n = s->sp->params[i].nvalues;

	return s->off[i] + (n <= STEPS_SHORT ? a * n + b : 2 * a + (b > a));
}

/* Whether values a and b of parameter i are a step apart: one index, or
 * any two values of a short parameter. */
static int adjacent(const struct space_steps *s, size_t i, size_t a, size_t b)
{
	return a != b && (a + 1 == b || b + 1 == a || s->sp->params[i].nvalues <= STEPS_SHORT);
}

/* The point of s->coord with parameter i at value b. */
static size_t moved_to(struct space_steps *s, size_t i, size_t b)
{
	size_t c = s->coord[i], q;

	s->coord[i] = b;
	q = search_space_point(s->sp, s->coord);
	s->coord[i] = c;
	return q;
}

/* The neighbour of s->coord one index along parameter i (-1 or +1), or
 * SPACE_NONE past either end. */
static size_t stepped(struct space_steps *s, size_t i, int step)
{
	size_t c = s->coord[i];

	if ((step < 0 && c == 0) || (step > 0 && c + 1 >= s->sp->params[i].nvalues))
		return SPACE_NONE;
	return moved_to(s, i, step < 0 ? c - 1 : c + 1);
}

/* The values of parameter i that may be a step from value c, [*lo, *hi]:
 * all of a short parameter's, else c's neighbours (the loops over them
 * run per scored point and batch, so a long parameter's are not all
 * visited). */
static void step_span(const struct space_steps *s, size_t i, size_t c, size_t *lo, size_t *hi)
{
	size_t n = s->sp->params[i].nvalues;

	*lo = n <= STEPS_SHORT || c == 0 ? 0 : c - 1;
	*hi = n <= STEPS_SHORT || c + 1 >= n ? n - 1 : c + 1;
}

void space_steps_learn(struct space_steps *s, size_t p, const unsigned char *state, const double *score)
{
	search_space_coords(s->sp, p, s->coord);
	for (size_t i = 0; i < s->sp->nparams; i++) {
		size_t c = s->coord[i], lo, hi;

		step_span(s, i, c, &lo, &hi);
		for (size_t b = lo; b <= hi; b++) {
			size_t r, t;
			double d;

			if (!adjacent(s, i, c, b) || (r = moved_to(s, i, b)) == SPACE_NONE || r == p ||
			    state[r] != SPACE_SCORED)
				continue;
			d = log(score[p] / score[r]);
			t = entry(s, i, b, c);
			s->sum[t] += d;
			s->count[t]++;
			t = entry(s, i, c, b);
			s->sum[t] -= d;
			s->count[t]++;
		}
	}
}

int space_steps_likely_failing(struct space_steps *s, size_t q, const unsigned char *state)
{
	size_t failed = 0;

	search_space_coords(s->sp, q, s->coord);
	for (size_t i = 0; i < s->sp->nparams; i++)
		for (int step = -1; step <= 1; step += 2) {
			size_t r = stepped(s, i, step);

			failed += r != SPACE_NONE && state[r] == SPACE_FAILED;
		}
	return failed >= 2;
}

/* The allowance of a step from value a to b never seen: a jump's is smaller. */
static double explore(size_t a, size_t b)
{
	return a + 1 == b || b + 1 == a ? STEPS_EXPLORE : STEPS_JUMP_EXPLORE;
}

/* Each untried neighbour of a scored point into s->cand, its prediction
 * in s->pred; how many. */
static size_t predict(struct space_steps *s, const unsigned char *state, const double *score, const double *cost,
		      double mean_cost)
{
	const struct search_space *sp = s->sp;
	size_t nc = 0;

	for (size_t p = 0; p < sp->npoints; p++) {
		if (state[p] != SPACE_SCORED)
			continue;
		search_space_coords(sp, p, s->coord);
		for (size_t i = 0; i < sp->nparams; i++) {
			size_t c = s->coord[i], lo, hi;

			step_span(s, i, c, &lo, &hi);
			for (size_t b = lo; b <= hi; b++) {
				size_t q, t;
				double v, seen;

				if (!adjacent(s, i, c, b) || (q = moved_to(s, i, b)) == SPACE_NONE ||
				    state[q] != SPACE_UNTRIED)
					continue;
				t = entry(s, i, c, b);
				seen = (double)s->count[t] + 1;
				v = score[p] * exp(s->sum[t] / seen - explore(c, b) / sqrt(seen));
				if (mean_cost > 0 && cost[p] > 0)
					v *= pow(cost[p] / mean_cost, STEPS_COST_WEIGHT);
				if (s->pred[q] == 0)
					s->cand[nc++] = q;
				if (s->pred[q] == 0 || v < s->pred[q])
					s->pred[q] = v;
			}
		}
	}
	return nc;
}

size_t space_steps_pick(struct space_steps *s, const unsigned char *state, const double *score, const double *cost,
			double mean_cost, size_t *points, size_t want)
{
	size_t nc = predict(s, state, score, cost, mean_cost), got = 0;

	for (size_t k = 0; k < nc; k++)
		if (space_steps_likely_failing(s, s->cand[k], state))
			s->pred[s->cand[k]] = INFINITY;
	while (got < want) {
		size_t b = SPACE_NONE;

		for (size_t k = 0; k < nc; k++)
			if (isfinite(s->pred[s->cand[k]]) && (b == SPACE_NONE || s->pred[s->cand[k]] < s->pred[s->cand[b]]))
				b = k;
		if (b == SPACE_NONE)
			break;
		points[got++] = s->cand[b];
		s->pred[s->cand[b]] = INFINITY;
	}
	for (size_t k = 0; k < nc; k++)
		s->pred[s->cand[k]] = 0;
	return got;
}
