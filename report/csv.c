#include "report.h"

int report_csv(sqlite3 *db, const char *platform, FILE *out, size_t *rows, struct tune_error *err)
{
	sqlite3_stmt *q = NULL;
	int rc;

	*rows = 0;
	if (sqlite3_prepare_v2(db,
			       "SELECT r.variant, r.size_mb, r.depth, r.group_size, COALESCE(r.hint, 'none'), s.run_id,"
			       " s.ns_total, s.ns_per_lookup, s.lookups_per_sec, s.checksum"
			       " FROM latest_results r JOIN current_fingerprints USING (platform, host, fingerprint)"
			       " JOIN samples s ON s.trial_id = r.trial_id AND s.warmup = 0"
			       " WHERE (?1 IS NULL OR r.platform = ?1) AND r.kernel = 'chase'"
			       " ORDER BY r.platform, r.host, r.size_mb, r.variant, r.hint, r.group_size, s.run_id",
			       -1, &q, NULL) != SQLITE_OK)
		return tune_fail(err, TUNE_ERR_STORE, "cannot read samples: %s", sqlite3_errmsg(db));
	if (platform)
		sqlite3_bind_text(q, 1, platform, -1, SQLITE_STATIC);
	fprintf(out, "variant,workload_size_mb,depth,group_size,hint,run_id,ns_total,ns_per_lookup,lookups_per_sec,"
		     "checksum\n");
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		fprintf(out, "%s,%lld,%lld,%lld,%s,%lld,%lld,%.4f,%.1f,%llu\n", sqlite3_column_text(q, 0),
			sqlite3_column_int64(q, 1), sqlite3_column_int64(q, 2), sqlite3_column_int64(q, 3),
			sqlite3_column_text(q, 4), sqlite3_column_int64(q, 5), sqlite3_column_int64(q, 6),
			sqlite3_column_double(q, 7), sqlite3_column_double(q, 8),
			(unsigned long long)sqlite3_column_int64(q, 9));
		(*rows)++;
	}
	sqlite3_finalize(q);
	if (rc != SQLITE_DONE)
		return tune_fail(err, TUNE_ERR_STORE, "cannot read samples: %s", sqlite3_errmsg(db));
	return 0;
}
