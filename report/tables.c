#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

struct result {
	char platform[64], host[256], variant[32], hint[16];
	long long size_mb, depth, group_size;
	int hugepages;
	double median;
};

struct results {
	struct result *v;
	size_t n;
};

static int load(sqlite3 *db, const char *platform, struct results *rs, struct tune_error *err)
{
	sqlite3_stmt *q = NULL;
	int rc;

	rs->v = NULL;
	rs->n = 0;
	if (sqlite3_prepare_v2(db,
			       "SELECT platform, host, variant, COALESCE(hint, ''), size_mb, depth, group_size,"
			       " hugepages, median_ns_per_lookup FROM latest_results JOIN current_fingerprints"
			       " USING (platform, host, fingerprint) WHERE ?1 IS NULL OR platform = ?1"
			       " ORDER BY platform, host, depth, size_mb, variant, group_size",
			       -1, &q, NULL) != SQLITE_OK)
		return tune_fail(err, TUNE_ERR_STORE, "cannot read results: %s", sqlite3_errmsg(db));
	if (platform)
		sqlite3_bind_text(q, 1, platform, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		struct result *nv = realloc(rs->v, (rs->n + 1) * sizeof(*nv)), *r;

		if (!nv) {
			sqlite3_finalize(q);
			return tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
		}
		rs->v = nv;
		r = &rs->v[rs->n++];
		snprintf(r->platform, sizeof(r->platform), "%s", (const char *)sqlite3_column_text(q, 0));
		snprintf(r->host, sizeof(r->host), "%s", (const char *)sqlite3_column_text(q, 1));
		snprintf(r->variant, sizeof(r->variant), "%s", (const char *)sqlite3_column_text(q, 2));
		snprintf(r->hint, sizeof(r->hint), "%s", (const char *)sqlite3_column_text(q, 3));
		r->size_mb = sqlite3_column_int64(q, 4);
		r->depth = sqlite3_column_int64(q, 5);
		r->group_size = sqlite3_column_int64(q, 6);
		r->hugepages = sqlite3_column_int(q, 7);
		r->median = sqlite3_column_double(q, 8);
	}
	sqlite3_finalize(q);
	if (rc != SQLITE_DONE)
		return tune_fail(err, TUNE_ERR_STORE, "cannot read results: %s", sqlite3_errmsg(db));
	return 0;
}

static int same_group(const struct result *a, const struct result *b)
{
	return !strcmp(a->platform, b->platform) && !strcmp(a->host, b->host) && a->depth == b->depth;
}

/* Best (lowest median) result of a variant at a size, optionally at one g. */
static const struct result *best(const struct result *v, size_t n, const char *variant, long long size,
				 long long g)
{
	const struct result *b = NULL;

	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i].variant, variant) && v[i].size_mb == size && (g < 0 || v[i].group_size == g) &&
		    (!b || v[i].median < b->median))
			b = &v[i];
	return b;
}

const char *report_size_label(long long mb)
{
	static char buf[8][24];
	static unsigned next;
	char *b = buf[next++ % 8];

	if (mb >= 1024 && mb % 1024 == 0)
		snprintf(b, sizeof(buf[0]), "%lld GB", mb / 1024);
	else
		snprintf(b, sizeof(buf[0]), "%lld MB", mb);
	return b;
}

static void hint_label(const struct result *r, char *out, size_t len)
{
	snprintf(out, len, "%s%s", r->hint[0] ? r->hint : "-", r->hugepages ? "+hp" : "");
}

static size_t sizes_of(const struct result *v, size_t n, long long *sizes, size_t max)
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

static void print_summary(FILE *out, const struct result *v, size_t n, const long long *sizes, size_t ns)
{
	fprintf(out, "\nSummary: scalar vs best interleaved-prefetch (median ns/lookup)\n\n");
	fprintf(out, "%-12s %10s %22s %7s %-14s %8s\n", "Working set", "Scalar", "Interleaved+prefetch", "Best g",
		"Hint", "Speedup");
	for (size_t i = 0; i < ns; i++) {
		const struct result *s = best(v, n, "scalar", sizes[i], -1);
		const struct result *p = best(v, n, "interleaved-prefetch", sizes[i], -1);
		char hint[32] = "-", sp[16] = "-", sv[16] = "-", pv[16] = "-", g[16] = "-";

		if (s)
			snprintf(sv, sizeof(sv), "%.1f", s->median);
		if (p) {
			snprintf(pv, sizeof(pv), "%.1f", p->median);
			snprintf(g, sizeof(g), "%lld", p->group_size);
			hint_label(p, hint, sizeof(hint));
		}
		if (s && p)
			snprintf(sp, sizeof(sp), "%.2fx", s->median / p->median);
		fprintf(out, "%-12s %10s %22s %7s %-14s %8s\n", report_size_label(sizes[i]), sv, pv, g, hint, sp);
	}
}

static void isolation_cell(const struct result *r, const struct result *s, int show_g, char *out, size_t len)
{
	if (!r) {
		snprintf(out, len, "-");
		return;
	}
	if (show_g)
		snprintf(out, len, "%.1f %.2fx g=%lld", r->median, s ? s->median / r->median : NAN, r->group_size);
	else
		snprintf(out, len, "%.1f %.2fx", r->median, s ? s->median / r->median : NAN);
}

static void print_isolation(FILE *out, const struct result *v, size_t n, const long long *sizes, size_t ns)
{
	static const char *const variants[] = { "scalar", "scalar-prefetch", "interleaved", "interleaved-prefetch" };

	fprintf(out, "\nVariant isolation (median ns/lookup, speedup over scalar, best g)\n\n");
	fprintf(out, "%-12s %-14s %-16s %-22s %s\n", "Working set", variants[0], variants[1], variants[2],
		variants[3]);
	for (size_t i = 0; i < ns; i++) {
		const struct result *s = best(v, n, "scalar", sizes[i], -1);
		char cells[4][64];

		for (int k = 0; k < 4; k++)
			isolation_cell(best(v, n, variants[k], sizes[i], -1), s, k >= 2, cells[k], sizeof(cells[k]));
		fprintf(out, "%-12s %-14s %-16s %-22s %s\n", report_size_label(sizes[i]), cells[0], cells[1], cells[2],
			cells[3]);
	}
}

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return (x > y) - (x < y);
}

static void print_group_sweep(FILE *out, const struct result *v, size_t n, const long long *sizes, size_t ns)
{
	long long gs[1100];
	size_t ng = 0;

	for (size_t i = 0; i < n; i++) {
		size_t j;

		if (strcmp(v[i].variant, "interleaved-prefetch") != 0)
			continue;
		for (j = 0; j < ng && gs[j] != v[i].group_size; j++)
			;
		if (j == ng && ng < sizeof(gs) / sizeof(gs[0]))
			gs[ng++] = v[i].group_size;
	}
	if (ng < 2)
		return;
	qsort(gs, ng, sizeof(gs[0]), cmp_ll);
	fprintf(out, "\nGroup-size sweep (interleaved-prefetch, speedup over scalar, best hint)\n\n%-6s", "g");
	for (size_t i = 0; i < ns; i++)
		fprintf(out, " %12s", report_size_label(sizes[i]));
	fputc('\n', out);
	for (size_t k = 0; k < ng; k++) {
		fprintf(out, "%-6lld", gs[k]);
		for (size_t i = 0; i < ns; i++) {
			const struct result *s = best(v, n, "scalar", sizes[i], -1);
			const struct result *p = best(v, n, "interleaved-prefetch", sizes[i], gs[k]);
			char cell[16] = "-";

			if (s && p)
				snprintf(cell, sizeof(cell), "%.2fx", s->median / p->median);
			fprintf(out, " %12s", cell);
		}
		fputc('\n', out);
	}
}

int report_tables(sqlite3 *db, const char *platform, FILE *out, size_t *rows, struct tune_error *err)
{
	struct results rs;
	int rc = load(db, platform, &rs, err);

	*rows = rs.n;
	if (rc)
		return rc;
	for (size_t i = 0; i < rs.n;) {
		size_t j = i;
		long long sizes[64];
		size_t ns;

		while (j < rs.n && same_group(&rs.v[i], &rs.v[j]))
			j++;
		ns = sizes_of(rs.v + i, j - i, sizes, 64);
		fprintf(out, "%sPlatform %s on host %s (depth %lld)\n", i ? "\n" : "", rs.v[i].platform, rs.v[i].host,
			rs.v[i].depth);
		print_summary(out, rs.v + i, j - i, sizes, ns);
		print_isolation(out, rs.v + i, j - i, sizes, ns);
		print_group_sweep(out, rs.v + i, j - i, sizes, ns);
		i = j;
	}
	free(rs.v);
	return 0;
}
