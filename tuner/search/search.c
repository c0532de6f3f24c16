#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../kernels/sdk/tune_protocol.h"
#include "search.h"

static const char *const phase_names[] = { "probe", "refine", "knee", "done", "dropped", NULL };

static int measured(const struct search *s, size_t i)
{
	return s->plan->trials[i].stats.n > 0;
}

/* Done with this trial for now: measured, or proposed already in this process
 * (a failed trial is retried by the next run, not in a loop). */
static int settled(const struct search *s, size_t i)
{
	return measured(s, i) || s->tried[i];
}

size_t search_best_in(const struct search *s, size_t b)
{
	const struct batch *bt = &s->plan->batches[b];
	size_t best = (size_t)-1;

	for (size_t i = bt->first; i < bt->first + bt->count; i++)
		if (measured(s, i) && (best == (size_t)-1 || s->plan->trials[i].score < s->plan->trials[best].score))
			best = i;
	return best;
}

/* The trial of batch b at the list parameter's value, or (size_t)-1. */
static size_t trial_at(const struct search *s, size_t b, long long value)
{
	const struct batch *bt = &s->plan->batches[b];

	for (size_t i = bt->first; i < bt->first + bt->count; i++)
		if (s->plan->trials[i].list_value == value)
			return i;
	return (size_t)-1;
}

/* Nearest measured value below and above value in batch b (value itself when none). */
static void neighbours(const struct search *s, size_t b, long long value, long long *below, long long *above)
{
	const struct batch *bt = &s->plan->batches[b];

	*below = *above = value;
	for (size_t i = bt->first; i < bt->first + bt->count; i++) {
		long long x = s->plan->trials[i].list_value;

		if (!measured(s, i))
			continue;
		if (x < value && (*below == value || x > *below))
			*below = x;
		if (x > value && (*above == value || x < *above))
			*above = x;
	}
}

/* Half of value, not below vmin: a step down towards the range's start. */
static long long halved(long long value, long long vmin)
{
	return value / 2 > vmin ? value / 2 : vmin;
}

static long long geo_mid(long long a, long long b)
{
	return (long long)llround(sqrt((double)a * (double)b));
}

struct proposals {
	size_t *out, n, max;
};

static void propose(struct search *s, struct proposals *p, size_t i)
{
	if (i == (size_t)-1 || settled(s, i) || p->n == p->max)
		return;
	for (size_t k = 0; k < p->n; k++)
		if (p->out[k] == i)
			return;
	p->out[p->n++] = i;
}

/* Values a round measures between two it has: the adaptive search
 * one (the geometric midpoint), the joint search three (a round's process
 * measures a few more points, and the walk needs fewer rounds, a kernel
 * process each: from a bracket of 4x to the noise's 1.12x in two rounds,
 * not four). */
static int splits(const struct search *s)
{
	return s->strategy == STRATEGY_JOINT ? 3 : 1;
}

/* (a, c) split geometrically into splits(s) + 1 parts: the trial of batch b
 * at each inner point, strictly between a and c, proposed. */
static void propose_between(struct search *s, struct proposals *p, size_t b, long long a, long long c)
{
	int k = splits(s);

	for (int j = 1; j <= k; j++) {
		long long x = k == 1 ? geo_mid(a, c) : (long long)llround((double)a * pow((double)c / (double)a,
										      (double)j / (double)(k + 1)));

		if (x > a && x < c)
			propose(s, p, trial_at(s, b, x));
	}
}

/* Advances batch b's phase on what is measured, then proposes its trials. */
static void adaptive_step(struct search *s, size_t b, struct proposals *p)
{
	const struct batch *bt = &s->plan->batches[b];
	struct search_ctx *c = &s->ctx[b];
	const struct sweep *sw = s->sweep;
	long long vmin = s->plan->trials[bt->first].list_value;
	long long vmax = s->plan->trials[bt->first + bt->count - 1].list_value;
	size_t before = p->n;

	if (bt->count == 1) {
		propose(s, p, bt->first);
		if (settled(s, bt->first))
			c->phase = SEARCH_DONE;
		return;
	}
	for (int guard = 0; guard < 8 && p->n == before && c->phase < SEARCH_DONE; guard++) {
		size_t best = search_best_in(s, b);
		long long vbest = best == (size_t)-1 ? 0 : s->plan->trials[best].list_value;

		switch (c->phase) {
		case SEARCH_PROBE: {
			long long below, above;

			/* Powers of 2 from list_min, within a factor of 2 of the start
			 * range when there is one, else all of them and list_max. */
			for (long long value = vmin; value <= vmax; value *= 2)
				if (!c->start_hi || (2 * value >= c->start_lo && value <= 2 * c->start_hi))
					propose(s, p, trial_at(s, b, value));
			if (!c->start_hi)
				propose(s, p, trial_at(s, b, vmax));
			if (p->n > before)
				return;
			if (best == (size_t)-1) {
				c->phase = SEARCH_DONE;
				break;
			}
			/* A best at the edge of what was probed: the next power out
			 * (the joint search: the next two, in one process). */
			neighbours(s, b, vbest, &below, &above);
			if (below == vbest && vbest > vmin) {
				propose(s, p, trial_at(s, b, halved(vbest, vmin)));
				if (splits(s) > 1)
					propose(s, p, trial_at(s, b, halved(halved(vbest, vmin), vmin)));
			}
			if (above == vbest && vbest < vmax) {
				propose(s, p, trial_at(s, b, vbest * 2 < vmax ? vbest * 2 : vmax));
				if (splits(s) > 1)
					propose(s, p, trial_at(s, b, vbest * 4 < vmax ? vbest * 4 : vmax));
			}
			if (p->n > before)
				return;
			c->lo = below;
			c->hi = above;
			c->phase = SEARCH_REFINE;
			break;
		}
		case SEARCH_REFINE: {
			long long l, h;

			/* The bracket closes around the best measured inside it. */
			neighbours(s, b, vbest, &l, &h);
			if (l > c->lo)
				c->lo = l;
			if (h < c->hi)
				c->hi = h;
			/* Finer than the noise is not worth measuring. */
			if ((double)c->hi / (double)(c->lo ? c->lo : 1) <= 1.0 + 6.0 * sw->tolerance)
				goto refined;
			if (c->lo > 0 && c->lo < vbest)
				propose_between(s, p, b, c->lo, vbest);
			if (c->hi > vbest)
				propose_between(s, p, b, vbest, c->hi);
			if (p->n > before)
				return;
refined:
			c->phase = SEARCH_KNEE;
			c->lo = 0;
			c->hi = vbest;
			break;
		}
		case SEARCH_KNEE: {
			/* Bisect between the largest value over tolerance and the smallest
			 * within it, below the best. */
			double limit = s->plan->trials[best].score * (1.0 + sw->tolerance);
			long long over = 0, within = vbest;

			for (size_t i = bt->first; i < bt->first + bt->count; i++) {
				long long value = s->plan->trials[i].list_value;

				if (!measured(s, i) || value > vbest)
					continue;
				if (s->plan->trials[i].score > limit && value > over)
					over = value;
			}
			for (size_t i = bt->first; i < bt->first + bt->count; i++) {
				long long value = s->plan->trials[i].list_value;

				if (measured(s, i) && value > over && value <= vbest && s->plan->trials[i].score <= limit && value < within)
					within = value;
			}
			c->lo = over;
			c->hi = within;
			if (over > 0 && (double)within / (double)over > 1.05)
				propose_between(s, p, b, over, within);
			/* Nothing below measured over the tolerance (a probe that
			 * started above list_min): halve until something is. */
			if (over == 0 && within > vmin)
				propose(s, p, trial_at(s, b, halved(within, vmin)));
			if (p->n == before)
				c->phase = SEARCH_DONE;
			return;
		}
		default:
			return;
		}
	}
}

/* A list that is no number to walk (the joint search's): every value of
 * context b in one process, once. */
static void grid_step(struct search *s, size_t b, struct proposals *p)
{
	const struct batch *bt = &s->plan->batches[b];
	size_t left = 0;

	for (size_t i = bt->first; i < bt->first + bt->count; i++)
		left += !settled(s, i);
	if (!left)
		s->ctx[b].phase = SEARCH_DONE;
	for (size_t i = bt->first; i < bt->first + bt->count; i++)
		propose(s, p, i);
}

/* Racing over the categorical choices (variant, hint, huge pages): a context
 * whose best is clearly worse than the best of its working set, by more
 * than the tolerance and the drift seen between processes, stops being
 * searched; not before the anchors have seen the drift, as contexts are
 * measured in processes of their own. */
static void race(struct search *s)
{
	const struct plan *pl = s->plan;
	double margin = 1.0 + search_drift_tolerance(s->sweep->tolerance, s->drift);

	if (s->drift < 0)
		return;
	for (size_t b = 0; b < pl->nbatches; b++) {
		size_t mine = search_best_in(s, b);

		if (s->ctx[b].phase >= SEARCH_DONE || mine == (size_t)-1 || s->ctx[b].phase == SEARCH_PROBE)
			continue;
		for (size_t o = 0; o < pl->nbatches; o++) {
			size_t theirs = search_best_in(s, o);
			const struct trial *a = &pl->trials[pl->batches[b].first], *t = &pl->trials[pl->batches[o].first];

			/* Raced within one decision: a context (chase's working set). */
			if (o == b || theirs == (size_t)-1 || !manifest_same_decision(a, t))
				continue;
			if (stats_clearly_worse(&s->plan->trials[mine].stats, &s->plan->trials[theirs].stats) &&
			    s->plan->trials[mine].stats.median > s->plan->trials[theirs].stats.median * margin) {
				s->ctx[b].phase = SEARCH_DROPPED;
				break;
			}
		}
	}
}

/* Adds an anchor of plan trial src to the round; NULL when out of memory. */
static struct trial *add_anchor(struct search *s, size_t src)
{
	struct trial *a;
	char suffix[32];

	if (s->nanchors == s->anchors_cap) {
		size_t cap = s->anchors_cap ? 2 * s->anchors_cap : 16;
		struct trial **na = realloc(s->anchors, cap * sizeof(struct trial *));
		size_t *no;

		if (!na)
			return NULL;
		s->anchors = na;
		if (!(no = realloc(s->anchor_of, cap * sizeof(*no))))
			return NULL;
		s->anchor_of = no;
		s->anchors_cap = cap;
	}
	if (!(a = malloc(sizeof(*a))))
		return NULL;
	/* Numbered in the order made: the same keys again on resume. */
	snprintf(suffix, sizeof(suffix), "anchor%zu", s->nanchors + 1);
	plan_copy_trial(&s->plan->trials[src], PHASE_ANCHOR, suffix, a);
	s->anchors[s->nanchors] = a;
	s->anchor_of[s->nanchors++] = src;
	return a;
}

/* The batch (context) of plan trial i. */
static size_t batch_of(const struct plan *pl, size_t i)
{
	size_t b = 0;

	while (b + 1 < pl->nbatches && i >= pl->batches[b + 1].first)
		b++;
	return b;
}

/* The anchors of context b's round: its best so far and, bisecting towards
 * the knee, the smallest value within tolerance; each measured, none proposed. */
static size_t anchors_for(struct search *s, size_t b, struct trial **out)
{
	size_t src[SEARCH_ANCHORS], n = 0, k = 0;
	size_t best = search_best_in(s, b);

	if (best == (size_t)-1)
		return 0;
	src[n++] = best;
	if (s->ctx[b].phase == SEARCH_KNEE && s->ctx[b].hi > 0) {
		size_t knee = trial_at(s, b, s->ctx[b].hi);

		if (knee != (size_t)-1 && knee != best && measured(s, knee))
			src[n++] = knee;
	}
	for (size_t i = 0; i < n; i++)
		if ((out[k] = add_anchor(s, src[i])) != NULL)
			k++;
	return k;
}

/* The joint search's round (halving.c): each context's trials, then its
 * anchors; a context in its decision's race whose walk of the list is over,
 * its incumbent alone, so that the race compares processes of one round.
 * The contexts in plan order, reversed every other round. While a race goes
 * on, its processes run once: successive halving spends little on the many
 * and the repetitions that settle a batch on the few that are left. */
static size_t joint_round(struct search *s, const size_t *idx, size_t np, struct trial **out)
{
	const struct plan *pl = s->plan;
	size_t n = 0;

	s->round++;
	for (size_t r = 0; r < pl->nbatches; r++) {
		size_t b = s->round % 2 ? r : pl->nbatches - 1 - r, before = n;
		int race_goes_on = search_race_size(s, b) > 1;

		for (size_t k = 0; k < np; k++)
			if (batch_of(pl, idx[k]) == b)
				out[n++] = &pl->trials[idx[k]];
		if (n > before || (search_racing(s, b) && s->ctx[b].phase == SEARCH_DONE && race_goes_on))
			n += anchors_for(s, b, out + n);
		if (n > before)
			s->ctx[b].round = s->round;
		for (size_t k = before; k < n; k++)
			out[k]->once = race_goes_on;
	}
	return n;
}

size_t search_next(struct search *s, struct trial **out, size_t max)
{
	size_t *idx = calloc(max ? max : 1, sizeof(*idx)), n = 0;
	struct proposals p = { idx, 0, max };
	struct plan *pl = s->plan;
	long long budget = s->sweep->max_trials;

	if (!idx)
		return 0;
	search_score(s);
	s->used = 0;
	for (size_t i = 0; i < pl->ntrials; i++)
		s->used += measured(s, i);
	if (budget > 0 && (long long)s->used >= budget) {
		s->budget_hit = 1;
		free(idx);
		return 0;
	}
	if (budget > 0 && (long long)(budget - (long long)s->used) < (long long)p.max)
		p.max = (size_t)(budget - (long long)s->used);
	switch (s->strategy) {
	case STRATEGY_GRID:
		for (size_t i = 0; i < pl->ntrials; i++)
			propose(s, &p, i);
		break;
	case STRATEGY_RANDOM: {
		/* A seeded permutation: the same sample on every resume. */
		struct tk_rng r = { (uint64_t)s->sweep->seed ^ 0x72616e64ull };
		size_t *perm = malloc((pl->ntrials ? pl->ntrials : 1) * sizeof(*perm));
		size_t want = budget > 0 && (size_t)budget < pl->ntrials ? (size_t)budget : pl->ntrials;

		if (!perm)
			break;
		for (size_t i = 0; i < pl->ntrials; i++)
			perm[i] = i;
		for (size_t i = pl->ntrials; i > 1; i--) {
			size_t j = (size_t)tk_rng_below(&r, i), t = perm[i - 1];

			perm[i - 1] = perm[j];
			perm[j] = t;
		}
		for (size_t k = 0; k < want; k++)
			propose(s, &p, perm[k]);
		free(perm);
		break;
	}
	default:
		if (s->strategy == STRATEGY_JOINT)
			search_halve(s);
		else
			race(s);
		for (size_t b = 0; b < pl->nbatches; b++)
			if (s->ctx[b].phase < SEARCH_DONE) {
				if (s->inner_grid)
					grid_step(s, b, &p);
				else
					adaptive_step(s, b, &p);
			}
		break;
	}
	for (size_t k = 0; k < p.n; k++)
		s->tried[idx[k]] = 1;
	/* Plan order keeps each context's trials together, as batches. */
	for (size_t a = 1; a < p.n; a++)
		for (size_t k = a; k > 0 && idx[k - 1] > idx[k]; k--) {
			size_t t = idx[k];

			idx[k] = idx[k - 1];
			idx[k - 1] = t;
		}
	if (s->strategy == STRATEGY_JOINT) {
		n = joint_round(s, idx, p.n, out);
		free(idx);
		return n;
	}
	for (size_t k = 0; k < p.n; k++) {
		size_t b = batch_of(pl, idx[k]);

		out[n++] = &pl->trials[idx[k]];
		/* After a context's last trial of the round, its anchors. */
		if (s->strategy == STRATEGY_ADAPTIVE && (k + 1 == p.n || batch_of(pl, idx[k + 1]) != b))
			n += anchors_for(s, b, out + n);
	}
	free(idx);
	return n;
}

int search_init(struct search *s, const struct sweep *sw, struct plan *plan, const char *state,
		struct tune_error *err)
{
	memset(s, 0, sizeof(*s));
	s->drift = -1;
	s->strategy = sw->strategy;
	s->sweep = sw;
	s->plan = plan;
	if (sw->strategy == STRATEGY_JOINT) {
		const struct kernel_param *list = manifest_list_param(sw->manifest);

		s->inner_grid = !list || list->type == PARAM_CHOICE || sw->manifest->metric.better != BETTER_LOWER;
	}
	s->tried = calloc(plan->ntrials ? plan->ntrials : 1, 1);
	s->ctx = calloc(plan->nbatches ? plan->nbatches : 1, sizeof(*s->ctx));
	if (!s->tried || !s->ctx) {
		search_free(s);
		return tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
	}
	if (state) {
		json_error_t jerr;
		json_t *o = json_loads(state, 0, &jerr), *ctxs = json_object_get(o, "contexts");
		size_t n = json_array_size(ctxs);

		if (!o || (ctxs && n != plan->nbatches)) {
			json_decref(o);
			search_free(s);
			return tune_fail(err, TUNE_ERR_STORE, "the saved search state does not match sweep '%s' (run it "
					 "with --fresh)", sw->name);
		}
		for (size_t b = 0; b < n; b++) {
			json_t *c = json_array_get(ctxs, b);
			const char *ph = json_string_value(json_object_get(c, "phase"));

			for (int k = 0; ph && phase_names[k]; k++)
				if (!strcmp(ph, phase_names[k]))
					s->ctx[b].phase = k;
			s->ctx[b].lo = json_integer_value(json_object_get(c, "lo"));
			s->ctx[b].hi = json_integer_value(json_object_get(c, "hi"));
			s->ctx[b].round = (int)json_integer_value(json_object_get(c, "round"));
			s->ctx[b].left_of = (int)json_integer_value(json_object_get(c, "left_of"));
			s->ctx[b].runner_up = json_is_true(json_object_get(c, "runner_up"));
		}
		for (size_t k = 0; k < json_array_size(json_object_get(o, "anchors")); k++) {
			json_int_t src = json_integer_value(json_array_get(json_object_get(o, "anchors"), k));

			if (src < 0 || (size_t)src >= plan->ntrials || !add_anchor(s, (size_t)src)) {
				json_decref(o);
				search_free(s);
				return tune_fail(err, TUNE_ERR_STORE, "the saved search state of sweep '%s' names "
						 "an anchor outside its plan (run it with --fresh)", sw->name);
			}
		}
		s->round = (int)json_integer_value(json_object_get(o, "round"));
		json_decref(o);
	}
	return 0;
}

char *search_state_json(const struct search *s)
{
	json_t *ctxs = json_array(), *anchors = json_array();
	json_t *o;
	char *out;

	for (size_t b = 0; b < s->plan->nbatches; b++)
		json_array_append_new(ctxs, json_pack("{s:s, s:I, s:I, s:i, s:i, s:b}", "phase", phase_names[s->ctx[b].phase],
						      "lo", (json_int_t)s->ctx[b].lo, "hi", (json_int_t)s->ctx[b].hi, "round",
						      s->ctx[b].round, "left_of", s->ctx[b].left_of, "runner_up",
						      s->ctx[b].runner_up));
	for (size_t k = 0; k < s->nanchors; k++)
		json_array_append_new(anchors, json_integer((json_int_t)s->anchor_of[k]));
	o = json_pack("{s:s, s:o, s:o, s:I, s:b, s:i}", "strategy", sweep_strategy_names[s->strategy], "contexts", ctxs,
		      "anchors", anchors, "measured", (json_int_t)s->used, "budget_hit", s->budget_hit, "round", s->round);
	out = o ? json_dumps(o, JSON_COMPACT) : NULL;
	json_decref(o);
	return out;
}

void search_free(struct search *s)
{
	for (size_t k = 0; k < s->nanchors; k++)
		free(s->anchors[k]);
	free(s->anchors);
	free(s->anchor_of);
	free(s->tried);
	free(s->ctx);
	s->anchors = NULL;
	s->anchor_of = NULL;
	s->nanchors = s->anchors_cap = 0;
	s->tried = NULL;
	s->ctx = NULL;
}
