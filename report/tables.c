#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

static int same_group(const struct report_result *a, const struct report_result *b)
{
	return !strcmp(a->platform, b->platform) && !strcmp(a->host, b->host) && a->depth == b->depth;
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

static void hint_label(const struct report_result *r, char *out, size_t len)
{
	snprintf(out, len, "%s%s", r->hint[0] ? r->hint : "-", r->hugepages ? "+hp" : "");
}

static size_t sizes_of(const struct report_result *v, size_t n, long long *sizes, size_t max)
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

static void add_summary(struct rdoc *d, const struct report_result *v, size_t n, const long long *sizes, size_t ns)
{
	static const char *const head[] = { "Working set", "Scalar", "Interleaved+prefetch", "Best g", "Hint",
					    "Speedup" };
	size_t t = rdoc_table(d, "Summary: scalar vs best interleaved-prefetch (median ns/lookup)", 6, head);

	for (size_t i = 0; i < ns; i++) {
		const struct report_result *s = report_best(v, n, "scalar", sizes[i], -1);
		const struct report_result *p = report_best(v, n, "interleaved-prefetch", sizes[i], -1);
		char hint[32] = "-", sp[16] = "-", sv[16] = "-", pv[16] = "-", g[16] = "-";
		const char *row[6] = { report_size_label(sizes[i]), sv, pv, g, hint, sp };

		if (s)
			snprintf(sv, sizeof(sv), "%.1f", s->median);
		if (p) {
			snprintf(pv, sizeof(pv), "%.1f", p->median);
			snprintf(g, sizeof(g), "%lld", p->group_size);
			hint_label(p, hint, sizeof(hint));
		}
		if (s && p)
			snprintf(sp, sizeof(sp), "%.2fx", s->median / p->median);
		rdoc_row(d, t, row);
	}
}

static void isolation_cell(const struct report_result *r, const struct report_result *s, int show_g, char *out, size_t len)
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

static void add_isolation(struct rdoc *d, const struct report_result *v, size_t n, const long long *sizes, size_t ns)
{
	static const char *const head[] = { "Working set", "scalar", "scalar-prefetch", "interleaved",
					    "interleaved-prefetch" };
	size_t t = rdoc_table(d, "Variant isolation (median ns/lookup, speedup over scalar, best g)", 5, head);

	for (size_t i = 0; i < ns; i++) {
		const struct report_result *s = report_best(v, n, "scalar", sizes[i], -1);
		char cells[4][64];
		const char *row[5] = { report_size_label(sizes[i]), cells[0], cells[1], cells[2], cells[3] };

		for (int k = 0; k < 4; k++)
			isolation_cell(report_best(v, n, head[k + 1], sizes[i], -1), s, k >= 2, cells[k], sizeof(cells[k]));
		rdoc_row(d, t, row);
	}
}

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return (x > y) - (x < y);
}

static void add_group_sweep(struct rdoc *d, const struct report_result *v, size_t n, const long long *sizes, size_t ns)
{
	long long gs[1100];
	size_t ng = 0, t;
	const char *head[65] = { "g" };
	char labels[64][24];

	for (size_t i = 0; i < n; i++) {
		size_t j;

		if (strcmp(v[i].variant, "interleaved-prefetch") != 0)
			continue;
		for (j = 0; j < ng && gs[j] != v[i].group_size; j++)
			;
		if (j == ng && ng < sizeof(gs) / sizeof(gs[0]))
			gs[ng++] = v[i].group_size;
	}
	if (ng < 2 || ns > 64)
		return;
	qsort(gs, ng, sizeof(gs[0]), cmp_ll);
	for (size_t i = 0; i < ns; i++) {
		snprintf(labels[i], sizeof(labels[i]), "%s", report_size_label(sizes[i]));
		head[i + 1] = labels[i];
	}
	t = rdoc_table(d, "Group-size sweep (interleaved-prefetch, speedup over scalar, best hint)", ns + 1, head);
	for (size_t k = 0; k < ng; k++) {
		char cells[65][24];
		const char *row[65];

		snprintf(cells[0], sizeof(cells[0]), "%lld", gs[k]);
		row[0] = cells[0];
		for (size_t i = 0; i < ns; i++) {
			const struct report_result *s = report_best(v, n, "scalar", sizes[i], -1);
			const struct report_result *p = report_best(v, n, "interleaved-prefetch", sizes[i], gs[k]);

			snprintf(cells[i + 1], sizeof(cells[0]), "-");
			if (s && p)
				snprintf(cells[i + 1], sizeof(cells[0]), "%.2fx", s->median / p->median);
			row[i + 1] = cells[i + 1];
		}
		rdoc_row(d, t, row);
	}
}

/* amaco2's cross-platform table: each platform's scalar and best
 * interleaved-prefetch per working set, side by side. */
static void add_comparison(struct rdoc *d, const struct report_results *rs, const char *const *platforms, size_t np)
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
	rdoc_section(d, "Comparison of platforms", "", "", -1);
	t = rdoc_table(d, "Scalar vs best interleaved-prefetch per platform (median ns/lookup)", 1 + 4 * np, head);
	for (size_t i = 0; i < ns; i++) {
		char cells[4 * 8][24];
		const char *row[1 + 4 * 8] = { report_size_label(sizes[i]) };

		for (size_t p = 0; p < np; p++) {
			const struct report_result *s = NULL, *b = NULL;

			for (size_t k = 0; k < rs->n; k++) {
				const struct report_result *r = &rs->v[k];

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

int report_tables(struct rdoc *d, sqlite3 *db, const char *const *platforms, size_t np, struct tune_error *err)
{
	struct report_results all = { NULL, 0 };
	int rc = 0;

	for (size_t p = 0; p < (np ? np : 1) && !rc; p++) {
		struct report_results rs;

		if ((rc = report_load_results(db, np ? platforms[p] : NULL, &rs, err)) != 0)
			break;
		for (size_t i = 0; i < rs.n;) {
			size_t j = i;
			long long sizes[64];
			size_t ns;

			while (j < rs.n && same_group(&rs.v[i], &rs.v[j]))
				j++;
			ns = sizes_of(rs.v + i, j - i, sizes, 64);
			rdoc_section(d, rs.v[i].platform, rs.v[i].host, rs.v[i].fingerprint, rs.v[i].depth);
			add_summary(d, rs.v + i, j - i, sizes, ns);
			add_isolation(d, rs.v + i, j - i, sizes, ns);
			add_group_sweep(d, rs.v + i, j - i, sizes, ns);
			i = j;
		}
		/* Keep every platform's results for the comparison. */
		{
			struct report_result *nv = realloc(all.v, (all.n + rs.n + 1) * sizeof(*nv));

			if (nv && rs.n) {
				memcpy(nv + all.n, rs.v, rs.n * sizeof(*nv));
				all.v = nv;
				all.n += rs.n;
			} else if (nv) {
				all.v = nv;
			}
		}
		free(rs.v);
	}
	if (!rc)
		add_comparison(d, &all, platforms, np);
	free(all.v);
	return rc;
}
