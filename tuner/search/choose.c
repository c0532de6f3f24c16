/* The rules of a decision, shared by a sweep (decide.c) and the replay: the
 * candidates ranked by score, the knee, and who is measured again before
 * an optimum is chosen. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "search.h"

static int by_score(const void *x, const void *y)
{
	const struct trial *a = *(struct trial *const *)x, *b = *(struct trial *const *)y;

	return (a->score > b->score) - (a->score < b->score);
}

/* The knee: the smallest list value (chase's g) of best's process whose
 * whole interval lies within tolerance of best (its far end, not its
 * median: a median at the edge lands outside as often as in), among cand,
 * unless the manifest says the list has none (ipa's T): then, as without a
 * numeric list, the fastest is chosen. */
struct trial *search_knee(const struct kernel_manifest *m, struct trial **cand, size_t n, const struct trial *best,
			  double tolerance)
{
	const struct kernel_param *list = manifest_list_param(m);
	struct trial *k = (struct trial *)best;

	if (!list || list->type == PARAM_CHOICE || list->knee == KNEE_NONE || plan_trial_point(best) == PLAN_NA)
		return k;
	for (size_t i = 0; i < n; i++)
		if (plan_same_process(cand[i], best) &&
		    !manifest_better(m, best->score, m->metric.better == BETTER_HIGHER
				     ? cand[i]->score_low / (1.0 - tolerance)
				     : cand[i]->score_high / (1.0 + tolerance)) &&
		    plan_trial_point(cand[i]) < plan_trial_point(k))
			k = cand[i];
	return k;
}

/* cand[0..n) best first by m's metric. */
void search_rank(const struct kernel_manifest *m, struct trial **cand, size_t n)
{
	qsort(cand, n, sizeof(struct trial *), by_score);
	if (m->metric.better == BETTER_HIGHER)
		for (size_t i = 0; i < n / 2; i++) {
			struct trial *t = cand[i];

			cand[i] = cand[n - 1 - i];
			cand[n - 1 - i] = t;
		}
}

/* Whether c's interval reaches the plateau: within tolerance of best's score. */
static int reaches_plateau(const struct kernel_manifest *m, const struct trial *c, const struct trial *best,
			   double tolerance)
{
	if (m->metric.better == BETTER_HIGHER)
		return c->score_high >= best->score * (1.0 - tolerance);
	return c->score_low <= best->score * (1.0 + tolerance);
}

static int holds(struct trial *const *fin, size_t nf, const struct trial *c)
{
	for (size_t j = 0; j < nf; j++)
		if (fin[j] == c)
			return 1;
	return 0;
}

/* Whether list[k] is the first of its process in list[0..k]. */
static int first_of_process(const struct trial *const *list, size_t k)
{
	for (size_t j = 0; j < k; j++)
		if (plan_same_process(list[j], list[k]))
			return 0;
	return 1;
}

/* Whether c joins the finalists fin[0..nf) with a place left for the knee
 * and for a baseline beside each of their processes: whichever the final
 * chooses, its gain over the baseline is then measured run by run. */
static int fits(const struct kernel_manifest *m, struct trial *const *fin, size_t nf, const struct trial *c,
		const struct trial *knee)
{
	const struct trial *all[SEARCH_FINAL_MAX + 2];
	size_t n = 0, besides = 0;

	if (nf >= SEARCH_FINAL_MAX)
		return 0;
	for (size_t k = 0; k < nf; k++)
		all[n++] = fin[k];
	all[n++] = c;
	if (c != knee && !holds(fin, nf, knee))
		all[n++] = knee;
	for (size_t k = 0; k < n; k++)
		besides += search_baseline_beside(m, all[k]) != PLAN_NA && first_of_process(all, k);
	/* Without a baseline beside (another variant), one place for the baseline's best. */
	return n + (besides ? besides : 1) <= SEARCH_FINAL_MAX;
}

/* Who is measured again for a decision, cand[0..n) ranked: the top final_top,
 * the knee, then every other whose interval reaches the plateau, best first,
 * as places allow (fits); then the baseline. Returns how many,
 * into fin. */
size_t search_finalists(const struct kernel_manifest *m, const struct sweep *sw, struct trial **cand, size_t n,
			struct trial *knee, double drift, struct trial **fin)
{
	size_t nf = 0;

	for (size_t k = 0; k < n && k < (size_t)sw->final_top; k++)
		if (fits(m, fin, nf, cand[k], knee))
			fin[nf++] = cand[k];
	for (size_t k = 0; k <= n; k++) {
		struct trial *c = k == 0 ? knee : cand[k - 1];

		if (!holds(fin, nf, c) && (c == knee || reaches_plateau(m, c, cand[0], sw->tolerance)) &&
		    fits(m, fin, nf, c, knee))
			fin[nf++] = c;
	}
	/* Processes ran minutes apart: the best of another (a hint, a page
	 * size) that only drift may have put behind is measured beside it. */
	for (size_t k = 1; drift > 0 && k < n; k++)
		if (first_of_process((const struct trial *const *)cand, k) && !holds(fin, nf, cand[k]) &&
		    reaches_plateau(m, cand[k], cand[0], search_drift_tolerance(sw->tolerance, drift)) &&
		    fits(m, fin, nf, cand[k], knee))
			fin[nf++] = cand[k];
	/* The baseline's best too, so that the gain over it is measured in the
	 * same final, not minutes apart; the caller adds it to the knee's own
	 * process where it can. */
	if (search_baseline_beside(m, knee) != PLAN_NA)
		return nf;
	for (size_t k = 0; k < n && nf < SEARCH_FINAL_MAX; k++) {
		if (!manifest_is_baseline(cand[k]))
			continue;
		if (!holds(fin, nf, cand[k]))
			fin[nf++] = cand[k];
		break;
	}
	return nf;
}

double search_drift_tolerance(double tolerance, double drift)
{
	return (1.0 + tolerance) * exp(drift) - 1.0;
}

long long search_baseline_beside(const struct kernel_manifest *m, const struct trial *knee)
{
	int variant;
	long long point;

	if (!manifest_baseline_as(m, &variant, &point) || knee->variant != variant || plan_trial_point(knee) == PLAN_NA)
		return PLAN_NA;
	return point;
}

void search_group_by_process(struct trial **fin, size_t n)
{
	struct trial *grouped[SEARCH_FINAL_MAX] = { NULL };
	size_t g = 0;

	for (size_t a = 0; a < n && a < SEARCH_FINAL_MAX; a++) {
		if (!first_of_process((const struct trial *const *)fin, a))
			continue;
		for (size_t b = a; b < n; b++)
			if (plan_same_process(fin[b], fin[a]))
				grouped[g++] = fin[b];
	}
	memcpy(fin, grouped, g * sizeof(struct trial *));
}

size_t search_decision(struct plan *pl, size_t i, struct trial **cand)
{
	size_t n = 0;

	for (size_t j = 0; j < i; j++)
		if (manifest_same_decision(&pl->trials[j], &pl->trials[i]))
			return 0;
	for (size_t j = i; j < pl->ntrials; j++)
		if (manifest_same_decision(&pl->trials[j], &pl->trials[i]) && pl->trials[j].stats.n && !pl->trials[j].raced_out)
			cand[n++] = &pl->trials[j];
	return n;
}

size_t search_finals_ranked(const struct kernel_manifest *m, struct trial **fin, size_t nf, struct trial **cand)
{
	size_t n = 0;

	for (size_t k = 0; k < nf; k++)
		if (fin[k]->stats.n) {
			fin[k]->score = fin[k]->stats.median;
			fin[k]->score_low = fin[k]->stats.ci_low;
			fin[k]->score_high = fin[k]->stats.ci_high;
			cand[n++] = fin[k];
		}
	search_rank(m, cand, n);
	return n;
}
