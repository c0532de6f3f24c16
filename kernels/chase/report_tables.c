/* The chase's results as its charts read them (its tables are declared in
 * views.sql). */
#include <stdlib.h>
#include <string.h>

#include "report.h"

/* One configuration's newest result. */
static int result_row(sqlite3_stmt *q, void *arg, struct tune_error *err)
{
	struct chase_results *rs = arg;
	struct chase_result *r = report_grow(&rs->v, &rs->n, sizeof(*r));

	if (!r)
		return tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
	snprintf(r->platform, sizeof(r->platform), "%s", (const char *)sqlite3_column_text(q, 0));
	snprintf(r->host, sizeof(r->host), "%s", (const char *)sqlite3_column_text(q, 1));
	snprintf(r->variant, sizeof(r->variant), "%s", (const char *)sqlite3_column_text(q, 2));
	snprintf(r->hint, sizeof(r->hint), "%s", (const char *)sqlite3_column_text(q, 3));
	r->size_mb = sqlite3_column_int64(q, 4);
	r->depth = sqlite3_column_int64(q, 5);
	r->group_size = sqlite3_column_int64(q, 6);
	r->hugepages = sqlite3_column_int(q, 7);
	r->median = sqlite3_column_double(q, 8);
	snprintf(r->fingerprint, sizeof(r->fingerprint), "%s", (const char *)sqlite3_column_text(q, 9));
	r->ci_low = sqlite3_column_double(q, 10);
	r->ci_high = sqlite3_column_double(q, 11);
	r->outliers = sqlite3_column_int64(q, 12);
	r->runs = sqlite3_column_int64(q, 13);
	return 0;
}

int chase_report_results(sqlite3 *db, const char *platform, struct chase_results *rs, struct tune_error *err)
{
	rs->v = NULL;
	rs->n = 0;
	return report_each_row(db,
			       "SELECT platform, host, " CHASE_SQL_VARIANT("") " AS variant, COALESCE(" CHASE_SQL_HINT("") ", ''),"
			       " size_mb, depth, " CHASE_SQL_GROUP_SIZE("") " AS group_size,"
			       " hugepages, median_ns_per_lookup, fingerprint, COALESCE(ci_low, median_ns_per_lookup),"
			       " COALESCE(ci_high, median_ns_per_lookup), COALESCE(outliers, 0), COALESCE(runs, 0)"
			       " FROM chase_latest JOIN current_fingerprints"
			       " USING (platform, host, fingerprint) WHERE (?1 IS NULL OR platform = ?1)"
			       " AND kernel = 'chase' ORDER BY platform, host, depth, size_mb, variant, group_size",
			       platform, "results", result_row, rs, err);
}

/* Best (lowest median) result of a variant at a size, optionally at one g. */
const struct chase_result *chase_report_best(const struct chase_result *v, size_t n, const char *variant, long long size,
				 long long g)
{
	const struct chase_result *b = NULL;

	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i].variant, variant) && v[i].size_mb == size && (g < 0 || v[i].group_size == g) &&
		    (!b || v[i].median < b->median))
			b = &v[i];
	return b;
}
