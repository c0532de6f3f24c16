#include "report.h"

struct csv {
	FILE *out;
	size_t *rows;
};

/* One sample in amaco2's columns. */
static int csv_row(sqlite3_stmt *q, void *arg, struct tune_error *err)
{
	struct csv *c = arg;

	(void)err;
	fprintf(c->out, "%s,%lld,%lld,%lld,%s,%lld,%lld,%.4f,%.1f,%llu\n", sqlite3_column_text(q, 0),
		sqlite3_column_int64(q, 1), sqlite3_column_int64(q, 2), sqlite3_column_int64(q, 3),
		sqlite3_column_text(q, 4), sqlite3_column_int64(q, 5), sqlite3_column_int64(q, 6),
		sqlite3_column_double(q, 7), sqlite3_column_double(q, 8), (unsigned long long)sqlite3_column_int64(q, 9));
	(*c->rows)++;
	return 0;
}

int report_csv(sqlite3 *db, const char *platform, FILE *out, size_t *rows, struct tune_error *err)
{
	struct csv c = { out, rows };

	*rows = 0;
	fprintf(out, "variant,workload_size_mb,depth,group_size,hint,run_id,ns_total,ns_per_lookup,lookups_per_sec,"
		     "checksum\n");
	return report_each_row(db,
			       "SELECT r.variant, r.size_mb, r.depth, r.group_size, COALESCE(r.hint, 'none'), s.run_id,"
			       " s.ns_total, s.ns_per_lookup, s.lookups_per_sec, s.checksum"
			       " FROM latest_results r JOIN current_fingerprints USING (platform, host, fingerprint)"
			       " JOIN samples s ON s.trial_id = r.trial_id AND s.warmup = 0"
			       " WHERE (?1 IS NULL OR r.platform = ?1) AND r.kernel = 'chase'"
			       " ORDER BY r.platform, r.host, r.size_mb, r.variant, r.hint, r.group_size, s.run_id",
			       platform, "samples", csv_row, &c, err);
}
