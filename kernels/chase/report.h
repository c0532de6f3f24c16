/* The chase's own report (kernels/reports.c lists chase_report): amaco2's
 * tables, the optima per working set, the charts, the header macros with
 * their lookup functions, and amaco2's CSV. Shared by this folder's
 * report_*.c; the tuner never sees it. */
#ifndef KERNELS_CHASE_REPORT_H
#define KERNELS_CHASE_REPORT_H

#include "../../report/report.h"

/* SQL: the chase's parameters of optimum o, as the columns they once were
 * (schema 14 keeps them in o.params only): working set, g, hint ('' none),
 * huge pages (0 or 1). */
#define CHASE_OPT_SIZE_MB "json_extract(o.params, '$.size_mb')"
#define CHASE_OPT_G "COALESCE(json_extract(o.params, '$.group_size'), 0)"
#define CHASE_OPT_HINT "COALESCE(json_extract(o.params, '$.hint'), '')"
#define CHASE_OPT_HUGEPAGES "(json_extract(o.params, '$.hugepages') IN ('on', 1))"

/* g = 0 of an interleaved variant is the scalar chase, measured beside the
 * g's (chase.h): the tables and the CSV read it as scalar, of a trials row
 * or view with prefix r ("" or "r."). */
#define CHASE_SQL_VARIANT(r) "CASE WHEN " r "group_size = 0 THEN 'scalar' ELSE " r "variant END"
#define CHASE_SQL_HINT(r) "CASE WHEN " r "group_size = 0 THEN NULL ELSE " r "hint END"
#define CHASE_SQL_GROUP_SIZE(r) "MAX(" r "group_size, 1)"

/* The newest result of each configuration (current fingerprints only),
 * ordered by platform, host, depth, size, variant and g. Free rs->v. */
struct chase_result {
	char platform[64], host[256], fingerprint[32], variant[32], hint[16];
	long long size_mb, depth, group_size;
	int hugepages;
	double median, ci_low, ci_high; /* ns/lookup; the interval is the median when unknown */
	long long outliers, runs;       /* runs flagged as outliers (kept in the statistics), of runs */
};

struct chase_results {
	struct chase_result *v;
	size_t n;
};

int chase_report_results(sqlite3 *db, const char *platform, struct chase_results *rs, struct tune_error *err);
/* The fastest result of variant at size (g < 0: any g), or NULL. */
const struct chase_result *chase_report_best(const struct chase_result *v, size_t n, const char *variant,
					     long long size, long long g);

/* Throughput against size, and the speedup over scalar against g. */
int chase_report_charts(sqlite3 *db, const char *platform, const char *dir, struct report_chart *made, size_t *charts,
			struct tune_error *err);

#endif
