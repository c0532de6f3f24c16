/* Loading the optima of each platform for the exports. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../kernels/sched/sched.h"
#include "export_internal.h"
#include "report.h"

/* A row's decision time: the platform's newest. */
static void newest(struct platform_optima *po, const char *decided)
{
	if (strcmp(decided, po->decided) > 0)
		snprintf(po->decided, sizeof(po->decided), "%s", decided);
}

/* The host, fingerprint and arch in columns col.. of q, when nothing
 * loaded before gave them. */
static void identity(struct platform_optima *po, sqlite3_stmt *q, int col)
{
	if (po->host[0])
		return;
	report_column_text(q, col, po->host, sizeof(po->host));
	report_column_text(q, col + 1, po->fingerprint, sizeof(po->fingerprint));
	report_column_text(q, col + 2, po->arch, sizeof(po->arch));
}

static int chase_row(sqlite3_stmt *q, void *arg, struct tune_error *err)
{
	struct platform_optima *po = arg;
	struct optimum_row *r = report_grow(&po->rows, &po->n, sizeof(*r));

	if (!r)
		return tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
	r->size_mb = sqlite3_column_int64(q, 0);
	r->group_size = sqlite3_column_int64(q, 1);
	r->best_group_size = sqlite3_column_int64(q, 2);
	r->trials = sqlite3_column_int64(q, 3);
	r->hugepages = sqlite3_column_int(q, 4);
	r->median = sqlite3_column_double(q, 5);
	r->ci_low = sqlite3_column_double(q, 6);
	r->ci_high = sqlite3_column_double(q, 7);
	report_column_text(q, 8, r->size_class, sizeof(r->size_class));
	report_column_text(q, 9, r->variant, sizeof(r->variant));
	report_column_text(q, 10, r->hint, sizeof(r->hint));
	report_column_text(q, 11, r->decided, sizeof(r->decided));
	report_column_text(q, 12, r->runner_up, sizeof(r->runner_up));
	identity(po, q, 13);
	newest(po, r->decided);
	return 0;
}

/* The IPA optimum, with its host's wake-up cost. */
static int ipa_row(sqlite3_stmt *q, void *arg, struct tune_error *err)
{
	struct platform_optima *po = arg;
	struct ipa_optimum *o = &po->ipa;

	(void)err;
	o->found = 1;
	o->threshold_ns = sqlite3_column_int64(q, 0);
	o->median = sqlite3_column_double(q, 1);
	o->ci_low = sqlite3_column_double(q, 2);
	o->ci_high = sqlite3_column_double(q, 3);
	report_column_text(q, 4, o->decided, sizeof(o->decided));
	o->wakeup_cross_ns = sqlite3_column_double(q, 8);
	o->wakeup_same_ns = sqlite3_column_double(q, 9);
	identity(po, q, 5);
	newest(po, o->decided);
	return 0;
}

static int sched_row(sqlite3_stmt *q, void *arg, struct tune_error *err)
{
	struct platform_optima *po = arg;
	struct sched_row *r = report_grow(&po->sched, &po->nsched, sizeof(*r));

	if (!r)
		return tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
	r->speedup = sqlite3_column_int64(q, 0);
	r->apps = sqlite3_column_int64(q, 1);
	report_column_text(q, 2, r->policy, sizeof(r->policy));
	report_column_text(q, 3, r->dispatch, sizeof(r->dispatch));
	r->median = sqlite3_column_double(q, 4);
	r->ci_low = sqlite3_column_double(q, 5);
	r->ci_high = sqlite3_column_double(q, 6);
	report_column_text(q, 7, r->decided, sizeof(r->decided));
	report_column_text(q, 8, r->size_class, sizeof(r->size_class));
	identity(po, q, 9);
	newest(po, r->decided);
	return 0;
}

/* How many optima manifest kernels have. */
static int kernels_row(sqlite3_stmt *q, void *arg, struct tune_error *err)
{
	struct platform_optima *po = arg;
	char decided[32];

	(void)err;
	po->nkernels = (size_t)sqlite3_column_int64(q, 4);
	identity(po, q, 0);
	report_column_text(q, 3, decided, sizeof(decided));
	newest(po, decided);
	return 0;
}

/* Each kernel's optima of the platform's current fingerprint, on the host
 * that decided last: the chase's per working set, the IPA threshold with the
 * host's wake-up cost, the sched policies by speedup and apps, and how many
 * optima manifest kernels have (the host, arch and fingerprint from the
 * first that has any). */
int export_load(sqlite3 *db, const char *platform, struct platform_optima *po, struct tune_error *err)
{
	int rc;

	memset(po, 0, sizeof(*po));
	po->name = platform;
	if ((rc = report_each_row(db,
			       "SELECT o.size_mb, o.group_size, o.best_group_size, o.trials, o.hugepages, o.median,"
			       " o.ci_low, o.ci_high, o.size_class, o.variant, COALESCE(o.hint, ''), o.decided,"
			       " COALESCE(o.runner_up, ''), o.host, o.fingerprint, p.arch FROM optima o"
			       " JOIN current_fingerprints USING (platform, host, fingerprint)"
			       " JOIN platforms p ON p.name = o.platform WHERE o.platform = ?1 AND o.kernel = 'chase'"
			       " AND o.host = (SELECT host FROM optima WHERE platform = ?1 AND kernel = 'chase' ORDER BY decided DESC, id DESC"
			       " LIMIT 1) ORDER BY o.size_mb", platform, "optima", chase_row, po, err)) != 0 ||
	    (rc = report_each_row(db,
			       "SELECT json_extract(o.params, '$.threshold_ns'), o.median, o.ci_low, o.ci_high, o.decided,"
			       " o.host, o.fingerprint, p.arch, " REPORT_SQL_WAKEUP("h") " FROM optima o"
			       " JOIN current_fingerprints USING (platform, host, fingerprint)"
			       " JOIN platforms p ON p.name = o.platform JOIN sweeps s ON s.id = o.sweep_id"
			       " JOIN hosts h ON h.id = s.host_id WHERE o.platform = ?1 AND o.kernel = 'ipa'"
			       " ORDER BY o.decided DESC, o.id DESC LIMIT 1", platform, "optima", ipa_row, po, err)) != 0 ||
	    (rc = report_each_row(db,
			       "SELECT o.speedup, o.apps, o.policy, COALESCE(o.dispatch, ''), o.median, o.ci_low, o.ci_high,"
			       " o.decided, o.class, o.host, o.fingerprint, p.arch FROM sched_optima o"
			       " JOIN current_fingerprints USING (platform, host, fingerprint)"
			       " JOIN platforms p ON p.name = o.platform WHERE o.platform = ?1"
			       " AND o.host = (SELECT host FROM optima WHERE platform = ?1 AND kernel = 'sched'"
			       " ORDER BY decided DESC, id DESC LIMIT 1) ORDER BY o.speedup, o.apps", platform, "optima",
			       sched_row, po, err)) != 0 ||
	    (rc = report_each_row(db,
			       "SELECT o.host, o.fingerprint, p.arch, o.decided, (SELECT COUNT(*) FROM optima x"
			       " JOIN current_fingerprints USING (platform, host, fingerprint) WHERE x.platform = ?1 AND"
			       " x.exports IS NOT NULL) FROM optima o JOIN current_fingerprints USING (platform, host,"
			       " fingerprint) JOIN platforms p ON p.name = o.platform WHERE o.platform = ?1 AND"
			       " o.exports IS NOT NULL ORDER BY o.decided DESC, o.id DESC LIMIT 1", platform, "optima",
			       kernels_row, po, err)) != 0)
		return rc;
	if (!po->n && !po->ipa.found && !po->nsched && !po->nkernels)
		return tune_fail(err, TUNE_ERR_USAGE, "no optima for platform '%s' in the database (run 'tune "
				 "--platform %s' first)", platform, platform);
	return 0;
}

int export_load_all(sqlite3 *db, const char *const *platforms, size_t n, struct platform_optima **out,
		    struct tune_error *err)
{
	int rc = 0;

	*out = calloc(n ? n : 1, sizeof(**out));
	if (!*out)
		return tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
	for (size_t i = 0; i < n && !rc; i++)
		rc = export_load(db, platforms[i], &(*out)[i], err);
	return rc;
}

void export_free_all(struct platform_optima *po, size_t n)
{
	for (size_t i = 0; po && i < n; i++) {
		free(po[i].rows);
		free(po[i].sched);
	}
	free(po);
}

/* The optimum that production code uses by default: the largest working set
 * out of cache, where latency hiding matters. */
const struct optimum_row *export_primary(const struct platform_optima *po)
{
	const struct optimum_row *p = &po->rows[po->n - 1];

	for (size_t i = po->n; i-- > 0;)
		if (!strcmp(po->rows[i].size_class, "dram"))
			return &po->rows[i];
	return p;
}

/* The policy chosen at most points (ties: the earlier in sched.h's order). */
const struct sched_row *export_sched_primary(const struct platform_optima *po)
{
	const struct sched_row *best = NULL;
	size_t best_n = 0;

	for (size_t i = 0; i < po->nsched; i++) {
		size_t n = 0;

		for (size_t k = 0; k < po->nsched; k++)
			n += !strcmp(po->sched[k].policy, po->sched[i].policy);
		if (n > best_n || (n == best_n && tune_name_index(sched_policy_names, po->sched[i].policy) <
						     tune_name_index(sched_policy_names, best->policy))) {
			best = &po->sched[i];
			best_n = n;
		}
	}
	return best;
}

void export_now_utc(char *out, size_t len)
{
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(out, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}
