/* One decision per context, the sweep's and the replay's alike: rank the
 * candidates, take the knee, re-measure the finalists side by side (with the
 * baseline beside them where the gain is measured), and take the knee again
 * from that measurement alone. How the finals are measured and what is done
 * with the outcome are the caller's (struct search_decider). */
#include <stdlib.h>

#include "../../kernels/sdk/tune_protocol.h"
#include "search.h"

/* The point of the process of t (the knee, or any finalist) that behaves as
 * the baseline, added to the finals fin[0..*nf) (copies in finals[]) unless
 * one of them is it already: the gain over the baseline then pairs run by
 * run. */
static void baseline_beside(const struct kernel_manifest *m, const struct trial *t, struct trial **fin, size_t *nf,
			    struct trial *finals)
{
	long long at = search_baseline_beside(m, t);

	if (at == PLAN_NA || *nf >= SEARCH_FINAL_MAX)
		return;
	for (size_t k = 0; k < *nf; k++)
		if (manifest_is_baseline(fin[k]) && plan_same_process(fin[k], t))
			return;
	if (manifest_trial_at(t, at, PHASE_FINAL, "final", &finals[*nf]) != 0)
		return;
	fin[*nf] = &finals[*nf];
	(*nf)++;
}

/* The final of one context: fin[0..nf) measured by d; the candidates it
 * ranked into cand (returns how many), the baselines beside it (the last nb
 * of fin) into *nb. */
static size_t final_of(const struct kernel_manifest *m, const struct search_decider *d, const struct trial *first,
		       const struct trial *knee, struct trial **fin, size_t nf, struct trial *finals, struct trial **cand,
		       size_t *nb, int *rc, struct tune_error *err)
{
	size_t n0 = nf, keep = 0, nm = 0;
	struct trial *moved[SEARCH_FINAL_MAX];

	for (size_t k = 0; k < nf; k++) {
		plan_copy_trial(fin[k], PHASE_FINAL, "final", &finals[k]);
		fin[k] = &finals[k];
	}
	/* The baseline beside the knee, then beside every other process of the
	 * final as places allow: whichever the final chooses, its gain is
	 * measured run by run in its own process. */
	if (d->beside) {
		baseline_beside(m, knee, fin, &nf, finals);
		for (size_t k = 0; k < n0; k++)
			baseline_beside(m, fin[k], fin, &nf, finals);
	}
	*nb = nf - n0;
	/* A random order, kept together by context so each is one process. */
	for (size_t k = nf; d->shuffle && k > 1; k--) {
		size_t j = (size_t)tk_rng_below(d->shuffle, k);
		struct trial *t = fin[k - 1];

		fin[k - 1] = fin[j];
		fin[j] = t;
	}
	search_group_by_process(fin, nf);
	if ((*rc = d->measure(d->arg, first, fin, nf, err)) != 0)
		return 0;
	/* A baseline beside (finals[n0 ..]) measures the gain, not a candidate: to the end. */
	for (size_t k = 0; k < nf; k++)
		if (fin[k] >= finals + n0)
			moved[nm++] = fin[k];
		else
			fin[keep++] = fin[k];
	for (size_t k = 0; k < nm; k++)
		fin[keep + k] = moved[k];
	return search_finals_ranked(m, fin, n0, cand);
}

/* The final's candidates in the best's process, cand[1..n), scored by
 * their paired ratio to it, run by run (drift within the process cancels):
 * the knee is then the smallest g whose ratio's interval ends within
 * tolerance, not whose own interval does, which a spell of drift widens.
 * The decider says which were measured apart (0: left as they are). */
static int pair_with_best(const struct search_decider *d, struct trial **cand, size_t n, struct tune_error *err)
{
	int rc = 0;

	for (size_t k = 1; k < n && !rc; k++) {
		double low, high;

		rc = d->paired(d->arg, cand[k], cand[0], &low, &high, err);
		if (rc == 1) {
			cand[k]->score_low = cand[0]->score * low;
			cand[k]->score_high = cand[0]->score * high;
			rc = 0;
		}
	}
	return rc;
}

/* The trials of trial i's decision that failed. */
static size_t failed_in(const struct plan *pl, size_t i)
{
	size_t n = 0;

	for (size_t j = i; j < pl->ntrials; j++)
		n += manifest_same_decision(&pl->trials[j], &pl->trials[i]) && pl->trials[j].status == TRIAL_FAILED;
	return n;
}

int search_decide_each(struct plan *pl, const struct sweep *sw, double drift, const struct search_decider *d,
		       struct tune_error *err)
{
	const struct kernel_manifest *m = sw->manifest;
	struct trial **cand = calloc(pl->ntrials + SEARCH_FINAL_MAX + 1, sizeof(struct trial *));
	struct trial *finals = calloc(SEARCH_FINAL_MAX, sizeof(*finals));
	int rc = 0;

	if (!cand || !finals) {
		free(cand);
		free(finals);
		return tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
	}
	for (size_t i = 0; i < pl->ntrials && !rc; i++) {
		size_t n = search_decision(pl, i, cand), measured = n, nf, nb = 0;
		struct trial *knee, *beside = NULL, *fin[SEARCH_FINAL_MAX];

		if (!n)
			continue;
		/* A candidate that failed may have been the best: no optimum from the rest. */
		if (d->undecided && (nf = failed_in(pl, i)) != 0) {
			d->undecided(d->arg, &pl->trials[i], nf);
			continue;
		}
		search_rank(m, cand, n);
		knee = search_knee(m, cand, n, cand[0], sw->tolerance);
		if (sw->final_top > 0) {
			nf = search_finalists(m, sw, cand, n, knee, drift, fin);
			n = final_of(m, d, &pl->trials[i], knee, fin, nf, finals, cand, &nb, &rc, err);
			if (rc || !n || (d->paired && (rc = pair_with_best(d, cand, n, err)) != 0))
				continue;
			knee = search_knee(m, cand, n, cand[0], sw->tolerance);
			for (size_t k = 0; k < nf + nb; k++)
				if (fin[k] >= finals + nf && plan_same_process(fin[k], knee))
					beside = fin[k];
		}
		rc = d->decided(d->arg, knee, cand, n, beside,
				(long long)measured + (long long)(n + nb) * (sw->final_top > 0), err);
	}
	free(cand);
	free(finals);
	return rc;
}
