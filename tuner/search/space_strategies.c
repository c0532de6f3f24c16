/* The strategies of a recorded space (space.h): grid and random, each
 * proposing one point at a time (a batch of one: a kernel process each) and
 * naming as its best the point whose measurement was the lowest.
 *
 * grid walks the whole space in one fixed order. The order in which Kernel
 * Tuner's brute force enumerates it (the first parameter slowest) is not a
 * fair one under a budget: 5% of convolution's space is the first value or
 * two of block_size_x with everything else, so what it finds depends on
 * the order in which the file happens to list parameters and values. A fair
 * order spreads every prefix evenly over each parameter's values and over
 * their pairs: the points of a Kronecker sequence (Roberts' R_d, the
 * generalised golden ratio; low discrepancy in every dimension and
 * projection) over the parameters' value indices, each new point in the
 * order it first appears, and when the sequence stops finding new ones,
 * the rest in Kernel Tuner's order. It draws nothing: the seed changes only
 * what its measurements draw.
 *
 * random draws points without replacement (a partial Fisher-Yates shuffle
 * of the whole product), seeded; an invalid or excluded point costs it no
 * draw of another. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "search.h"

/* The lowest measurement so far. */
struct lowest {
	size_t point;
	double value;
};

static void lowest_tell(struct lowest *l, size_t point, double value)
{
	if (!isnan(value) && (l->point == SPACE_NONE || value < l->value)) {
		l->point = point;
		l->value = value;
	}
}

struct grid {
	const struct search_space *sp;
	unsigned char *seen; /* per point: proposed */
	double *alpha;       /* per parameter: the sequence's step */
	size_t *coord;
	size_t step, steps;  /* the sequence's next index, and where it gives up */
	size_t scan;         /* then: the next point in order */
	struct lowest low;
};

static void grid_stop(void *state)
{
	struct grid *g = state;

	if (!g)
		return;
	free(g->seen);
	free(g->alpha);
	free(g->coord);
	free(g);
}

static int grid_start(void **state, const struct search_space *sp, uint64_t seed, double budget_ms,
		      struct tune_error *err)
{
	struct grid *g = calloc(1, sizeof(*g));
	size_t d = sp->nparams ? sp->nparams : 1;
	double phi = 2.0, inv = 1.0;

	(void)seed;
	(void)budget_ms;
	*state = g;
	if (!g || !(g->seen = calloc(sp->npoints ? sp->npoints : 1, 1)) || !(g->alpha = calloc(d, sizeof(double))) ||
	    !(g->coord = calloc(d, sizeof(size_t)))) {
		grid_stop(g);
		*state = NULL;
		return tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
	}
	g->sp = sp;
	g->low.point = SPACE_NONE;
	/* phi_d: the positive root of x^(d+1) = x + 1. */
	for (int k = 0; k < 64; k++)
		phi = pow(1.0 + phi, 1.0 / (double)(d + 1));
	for (size_t i = 0; i < d; i++)
		g->alpha[i] = inv /= phi;
	g->steps = 4 * sp->npoints + 16;
	return 0;
}

static int grid_propose(void *state, size_t *point, size_t max, size_t *n, struct tune_error *err)
{
	struct grid *g = state;
	const struct search_space *sp = g->sp;

	(void)max;
	(void)err;
	*n = 1;
	while (g->step < g->steps) {
		double n = (double)++g->step;
		size_t p;

		for (size_t i = 0; i < sp->nparams; i++) {
			double x = 0.5 + n * g->alpha[i];
			size_t c = (size_t)((x - floor(x)) * (double)sp->params[i].nvalues);

			g->coord[i] = c < sp->params[i].nvalues ? c : sp->params[i].nvalues - 1;
		}
		p = search_space_point(sp, g->coord);
		if (!g->seen[p]) {
			g->seen[p] = 1;
			*point = p;
			return 0;
		}
	}
	while (g->scan < sp->npoints && g->seen[g->scan])
		g->scan++;
	if (g->scan == sp->npoints)
		return 1;
	g->seen[g->scan] = 1;
	*point = g->scan++;
	return 0;
}

static void grid_tell(void *state, const size_t *points, const double *values, const double *costs, size_t n)
{
	(void)costs;
	for (size_t i = 0; i < n; i++)
		lowest_tell(&((struct grid *)state)->low, points[i], values[i]);
}

static size_t grid_best(void *state)
{
	return ((struct grid *)state)->low.point;
}

static const struct space_strategy_ops grid_ops = {
	"grid", grid_start, grid_propose, grid_tell, grid_best, grid_stop,
};

int space_shuffle_init(struct space_shuffle *s, size_t n, uint64_t seed)
{
	s->next = 0;
	s->n = n;
	s->rng.state = seed;
	if (!(s->order = malloc((n ? n : 1) * sizeof(*s->order))))
		return -1;
	for (size_t i = 0; i < n; i++)
		s->order[i] = (uint32_t)i;
	return 0;
}

size_t space_shuffle_next(struct space_shuffle *s)
{
	size_t k;
	uint32_t t;

	if (s->next == s->n)
		return SPACE_NONE;
	k = s->next + (size_t)tk_rng_below(&s->rng, s->n - s->next);
	t = s->order[k];
	s->order[k] = s->order[s->next];
	s->order[s->next++] = t;
	return t;
}

void space_shuffle_free(struct space_shuffle *s)
{
	free(s->order);
	s->order = NULL;
}

struct random_search {
	struct space_shuffle draws;
	struct lowest low;
};

static void random_stop(void *state)
{
	struct random_search *r = state;

	if (r)
		space_shuffle_free(&r->draws);
	free(r);
}

static int random_start(void **state, const struct search_space *sp, uint64_t seed, double budget_ms,
			struct tune_error *err)
{
	struct random_search *r = calloc(1, sizeof(*r));

	(void)budget_ms;
	*state = r;
	if (!r || space_shuffle_init(&r->draws, sp->npoints, seed) != 0) {
		random_stop(r);
		*state = NULL;
		return tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
	}
	r->low.point = SPACE_NONE;
	return 0;
}

static int random_propose(void *state, size_t *point, size_t max, size_t *n, struct tune_error *err)
{
	struct random_search *r = state;

	(void)max;
	(void)err;
	*n = 1;
	*point = space_shuffle_next(&r->draws);
	return *point == SPACE_NONE;
}

static void random_tell(void *state, const size_t *points, const double *values, const double *costs, size_t n)
{
	(void)costs;
	for (size_t i = 0; i < n; i++)
		lowest_tell(&((struct random_search *)state)->low, points[i], values[i]);
}

static size_t random_best(void *state)
{
	return ((struct random_search *)state)->low.point;
}

static const struct space_strategy_ops random_ops = {
	"random", random_start, random_propose, random_tell, random_best, random_stop,
};

const struct space_strategy_ops *const search_space_strategies[] = { &grid_ops, &random_ops, &search_space_joint,
								     NULL };

const struct space_strategy_ops *search_space_strategy(const char *name)
{
	for (size_t i = 0; search_space_strategies[i]; i++)
		if (!strcmp(search_space_strategies[i]->name, name))
			return search_space_strategies[i];
	return NULL;
}
