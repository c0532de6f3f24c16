/* The chase's results as its charts read them, and the side-by-side
 * comparison of platforms (its other tables are declared in views.sql). */
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


static size_t sizes_of(const struct chase_result *v, size_t n, long long *sizes, size_t max)
{
	size_t ns = 0;

	for (size_t i = 0; i < n; i++) {
		size_t j;

		for (j = 0; j < ns && sizes[j] != v[i].size_mb; j++)
			;
		if (j == ns && ns < max)
			sizes[ns++] = v[i].size_mb;
	}
	return ns;
}

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return (x > y) - (x < y);
}

/* amaco2's cross-platform table: each platform's scalar and best
 * interleaved-prefetch per working set, side by side. */
static void add_comparison(struct rdoc *d, const struct chase_results *rs, const char *const *platforms, size_t np)
{
	long long sizes[64];
	size_t ns = sizes_of(rs->v, rs->n, sizes, 64), t;
	const char *head[1 + 4 * 8];
	char labels[4 * 8][96];

	if (np < 2 || np > 8)
		return;
	qsort(sizes, ns, sizeof(sizes[0]), cmp_ll);
	head[0] = "Working set";
	for (size_t p = 0; p < np; p++) {
		static const char *const what[] = { "scalar", "interleaved+prefetch", "best g", "speedup" };

		for (int k = 0; k < 4; k++) {
			snprintf(labels[p * 4 + k], sizeof(labels[0]), "%s %s", platforms[p], what[k]);
			head[1 + p * 4 + k] = labels[p * 4 + k];
		}
	}
	rdoc_heading(d, "Comparison of platforms");
	t = rdoc_table(d, "Scalar vs best interleaved-prefetch per platform (median ns/lookup)", 1 + 4 * np, head);
	{
		const char *units[1 + 4 * 8] = { "MB" };

		for (size_t p = 0; p < np; p++) {
			units[1 + p * 4] = units[2 + p * 4] = "ns/lookup";
			units[4 + p * 4] = "x";
		}
		rdoc_units(d, t, units);
	}
	for (size_t i = 0; i < ns; i++) {
		char cells[4 * 8][24];
		const char *row[1 + 4 * 8] = { report_size_label(sizes[i]) };

		for (size_t p = 0; p < np; p++) {
			const struct chase_result *s = NULL, *b = NULL;

			for (size_t k = 0; k < rs->n; k++) {
				const struct chase_result *r = &rs->v[k];

				if (strcmp(r->platform, platforms[p]) != 0 || r->size_mb != sizes[i])
					continue;
				if (!strcmp(r->variant, "scalar") && (!s || r->median < s->median))
					s = r;
				if (!strcmp(r->variant, "interleaved-prefetch") && (!b || r->median < b->median))
					b = r;
			}
			for (int k = 0; k < 4; k++)
				snprintf(cells[p * 4 + k], sizeof(cells[0]), "-");
			if (s)
				snprintf(cells[p * 4], sizeof(cells[0]), "%.1f", s->median);
			if (b) {
				snprintf(cells[p * 4 + 1], sizeof(cells[0]), "%.1f", b->median);
				snprintf(cells[p * 4 + 2], sizeof(cells[0]), "%lld", b->group_size);
			}
			if (s && b)
				snprintf(cells[p * 4 + 3], sizeof(cells[0]), "%.2fx", s->median / b->median);
			for (int k = 0; k < 4; k++)
				row[1 + p * 4 + k] = cells[p * 4 + k];
		}
		rdoc_row(d, t, row);
	}
}

int chase_report_overview(struct rdoc *d, sqlite3 *db, const char *const *platforms, size_t np, struct tune_error *err)
{
	struct chase_results all = { NULL, 0 };
	int rc = 0;

	if (np < 2)
		return 0;
	for (size_t p = 0; p < np && !rc; p++) {
		struct chase_results rs;
		struct chase_result *nv;

		if ((rc = chase_report_results(db, platforms[p], &rs, err)) != 0)
			break;
		/* Keep every platform's results for the comparison. */
		if (rs.n && (nv = realloc(all.v, (all.n + rs.n) * sizeof(*nv))) != NULL) {
			memcpy(nv + all.n, rs.v, rs.n * sizeof(*nv));
			all.v = nv;
			all.n += rs.n;
		}
		free(rs.v);
	}
	if (!rc)
		add_comparison(d, &all, platforms, np);
	free(all.v);
	return rc;
}
