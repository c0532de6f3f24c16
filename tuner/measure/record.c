/* Trials as the store's rows (store/store.h): what a trial is stored as,
 * its id and status read back, and its statistics from its recorded runs. */
#include <stdlib.h>
#include <string.h>

#include "../base/stats.h"
#include "../config/config.h"
#include "../plan/plan.h"
#include "../run/run.h"
#include "measure.h"

void measure_trial_row(const struct trial *t, struct store_trial *row)
{
	*row = (struct store_trial){
		.key = t->key,
		.kernel = t->kernel_name,
		.variant = t->variant_name,
		.phase = trial_phase_names[t->phase],
		.params = t->params,
		.context = t->context,
		.work = manifest_work(t), .seed = t->seed, .runs = t->runs,
		.warmup = t->warmup,
		.id = t->id,
	};
}

struct store_summary measure_summary(const struct stats *s)
{
	struct store_summary sum = { (long long)s->n, s->median, s->mad, s->ci_low, s->ci_high, (long long)s->outliers };

	return sum;
}

int measure_store_trials(struct store *st, long long sweep_id, struct trial *const *trials, size_t n, int insert,
			 struct tune_error *err)
{
	struct store_trial *rows = calloc(n ? n : 1, sizeof(*rows));
	int rc;

	if (!rows)
		return tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
	for (size_t i = 0; i < n; i++)
		measure_trial_row(trials[i], &rows[i]);
	rc = store_sweep_trials(st, sweep_id, rows, n, insert, tune_msg(err));
	for (size_t i = 0; !rc && i < n; i++) {
		trials[i]->id = rows[i].id;
		trials[i]->batch = rows[i].batch;
		trials[i]->status = rows[i].status == STORE_DONE     ? TRIAL_DONE
				    : rows[i].status == STORE_FAILED ? TRIAL_FAILED
								     : TRIAL_PENDING;
	}
	free(rows);
	return rc;
}

int measure_trial_stats(struct store *st, struct trial *const *trials, size_t n, struct tune_error *err)
{
	double *v = NULL;
	size_t k, cap = 0;
	int rc = 0;

	for (size_t i = 0; !rc && i < n; i++) {
		memset(&trials[i]->stats, 0, sizeof(trials[i]->stats));
		if (trials[i]->status != TRIAL_DONE)
			continue;
		if ((rc = store_trial_values(st, trials[i]->id, &v, &k, &cap, tune_msg(err))) == 0)
			stats_compute(v, k, &trials[i]->stats, NULL);
	}
	free(v);
	return rc;
}
