/* Scores: medians made comparable across batches. Trials of one batch were
 * measured side by side in one process; batches of a search run minutes
 * apart, while the machine drifts by up to 2x. A later batch carries anchors,
 * trials measured before and measured again in it: how the anchors' new
 * medians compare with their sources' scores scales the whole batch (a
 * geometric mean over its anchors), so that every score of a context reads
 * as if measured beside its first batch. Chains of batches scale in turn. */
#include <math.h>
#include <stdlib.h>

#include "search.h"

static void scale(struct trial *t, double f)
{
	t->score = t->stats.median * f;
	t->score_low = t->stats.ci_low * f;
	t->score_high = t->stats.ci_high * f;
}

static struct trial *nth(const struct search *s, size_t i)
{
	return i < s->plan->ntrials ? &s->plan->trials[i] : s->anchors[i - s->plan->ntrials];
}

static const struct trial *source_of(const struct search *s, size_t i)
{
	return i < s->plan->ntrials ? NULL : &s->plan->trials[s->anchor_of[i - s->plan->ntrials]];
}

/* The scale of batch b from its anchors whose sources are scored (resolved in
 * another batch); 0 when one is not yet, 1 without usable anchors. */
static double batch_scale(const struct search *s, long long b, const long long *batches, const unsigned char *done,
			  size_t nb)
{
	size_t n = s->plan->ntrials + s->nanchors, k = 0;
	double logsum = 0;

	for (size_t i = s->plan->ntrials; i < n; i++) {
		const struct trial *a = nth(s, i), *src = source_of(s, i);
		size_t sb = 0;

		if (a->batch != b || !a->stats.n || !(a->stats.median > 0) || !src->stats.n || !src->batch ||
		    src->batch == b)
			continue;
		while (sb < nb && batches[sb] != src->batch)
			sb++;
		if (sb == nb || !done[sb])
			return 0;
		logsum += log(src->score / a->stats.median);
		k++;
	}
	return k ? exp(logsum / (double)k) : 1;
}

static int by_value(const void *x, const void *y)
{
	long long a = *(const long long *)x, b = *(const long long *)y;

	return (a > b) - (a < b);
}

void search_score(struct search *s)
{
	size_t n = s->plan->ntrials + s->nanchors, nb = 0, left;
	long long *batches = malloc((n ? n : 1) * sizeof(*batches));
	unsigned char *done = calloc(n ? n : 1, 1);

	for (size_t i = 0; i < n; i++) {
		struct trial *t = nth(s, i);

		if (!t->stats.n)
			continue;
		scale(t, 1);
		if (t->batch > 0 && batches)
			batches[nb++] = t->batch;
	}
	if (!batches || !done)
		goto out;
	/* The drift between processes, as each anchor saw it. */
	s->drift = -1;
	for (size_t i = s->plan->ntrials; i < n; i++) {
		const struct trial *a = nth(s, i), *src = source_of(s, i);
		double d;

		if (!a->stats.n || !src->stats.n || !(a->stats.median > 0) || !(src->stats.median > 0) ||
		    a->batch == src->batch)
			continue;
		d = fabs(log(src->stats.median / a->stats.median));
		if (d > s->drift)
			s->drift = d;
	}
	qsort(batches, nb, sizeof(*batches), by_value);
	left = nb;
	nb = 0;
	for (size_t i = 0; i < left; i++)
		if (!nb || batches[nb - 1] != batches[i])
			batches[nb++] = batches[i];
	/* Sources are measured before their anchors: resolve batches in passes,
	 * each once all the batches its anchors point back to are. */
	for (size_t pass = 0, progress = 1; progress && pass <= nb; pass++) {
		progress = 0;
		for (size_t b = 0; b < nb; b++) {
			double f;

			if (done[b] || (f = batch_scale(s, batches[b], batches, done, nb)) == 0)
				continue;
			for (size_t i = 0; i < n; i++)
				if (nth(s, i)->batch == batches[b] && nth(s, i)->stats.n)
					scale(nth(s, i), f);
			done[b] = 1;
			progress = 1;
		}
	}
out:
	free(batches);
	free(done);
}
