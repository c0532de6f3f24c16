/* The chase's tables: amaco2's summary, variant isolation and group-size
 * tables per platform and host, the side-by-side comparison of platforms,
 * and the optima per working set. */
#include <jansson.h>
#include <math.h>
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


static int same_group(const struct chase_result *a, const struct chase_result *b)
{
	return !strcmp(a->platform, b->platform) && !strcmp(a->host, b->host) && a->depth == b->depth;
}

static void hint_label(const struct chase_result *r, char *out, size_t len)
{
	snprintf(out, len, "%s%s", r->hint[0] ? r->hint : "-", r->hugepages ? "+hp" : "");
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

static void add_summary(struct rdoc *d, const struct chase_result *v, size_t n, const long long *sizes, size_t ns)
{
	static const char *const head[] = { "Working set", "Scalar", "Interleaved+prefetch", "Best g", "Hint",
					    "Speedup" };
	static const char *const units[] = { "MB", "ns/lookup", "ns/lookup", NULL, NULL, "x" };
	size_t t = rdoc_table(d, "Summary: scalar vs best interleaved-prefetch (median ns/lookup; best is the fastest g "
			       "measured, an optimum the knee: the smallest g within the tolerance of it)", 6, head);

	rdoc_units(d, t, units);
	for (size_t i = 0; i < ns; i++) {
		const struct chase_result *s = chase_report_best(v, n, "scalar", sizes[i], -1);
		const struct chase_result *p = chase_report_best(v, n, "interleaved-prefetch", sizes[i], -1);
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

/* "17.0 4.50x g=48" and, for JSON, {"median_ns", "speedup", "g"}. */
static json_t *isolation_cell(const struct chase_result *r, const struct chase_result *s, int show_g, char *out,
			      size_t len)
{
	json_t *v;

	if (!r) {
		snprintf(out, len, "-");
		return json_null();
	}
	if (show_g)
		snprintf(out, len, "%.1f %.2fx g=%lld", r->median, s ? s->median / r->median : NAN, r->group_size);
	else
		snprintf(out, len, "%.1f %.2fx", r->median, s ? s->median / r->median : NAN);
	v = json_pack("{s:f}", "median_ns", r->median);
	json_object_set_new(v, "speedup", s ? json_real(s->median / r->median) : json_null());
	if (show_g)
		json_object_set_new(v, "g", json_integer(r->group_size));
	return v;
}

static void add_isolation(struct rdoc *d, const struct chase_result *v, size_t n, const long long *sizes, size_t ns)
{
	static const char *const head[] = { "Working set", "scalar", "scalar-prefetch", "interleaved",
					    "interleaved-prefetch" };
	static const char *const units[] = { "MB", NULL, NULL, NULL, NULL };
	size_t t = rdoc_table(d, "Variant isolation (median ns/lookup, speedup over scalar, best g)", 5, head);

	rdoc_units(d, t, units);
	for (size_t i = 0; i < ns; i++) {
		const struct chase_result *s = chase_report_best(v, n, "scalar", sizes[i], -1);
		char cells[4][64];
		const char *row[5] = { report_size_label(sizes[i]), cells[0], cells[1], cells[2], cells[3] };
		json_t *values[4];

		for (int k = 0; k < 4; k++)
			values[k] = isolation_cell(chase_report_best(v, n, head[k + 1], sizes[i], -1), s, k >= 2, cells[k],
						   sizeof(cells[k]));
		rdoc_row(d, t, row);
		for (int k = 0; k < 4; k++)
			rdoc_value(d, t, (size_t)k + 1, values[k]);
	}
}

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return (x > y) - (x < y);
}

static void add_group_sweep(struct rdoc *d, const struct chase_result *v, size_t n, const long long *sizes, size_t ns)
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
	{
		const char *units[65] = { NULL };

		for (size_t i = 0; i < ns; i++)
			units[i + 1] = "x";
		rdoc_units(d, t, units);
	}
	for (size_t k = 0; k < ng; k++) {
		char cells[65][24];
		const char *row[65];

		snprintf(cells[0], sizeof(cells[0]), "%lld", gs[k]);
		row[0] = cells[0];
		for (size_t i = 0; i < ns; i++) {
			const struct chase_result *s = chase_report_best(v, n, "scalar", sizes[i], -1);
			const struct chase_result *p = chase_report_best(v, n, "interleaved-prefetch", sizes[i], gs[k]);

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

	for (size_t p = 0; p < (np ? np : 1) && !rc; p++) {
		struct chase_results rs;

		if ((rc = chase_report_results(db, np ? platforms[p] : NULL, &rs, err)) != 0)
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
			struct chase_result *nv = realloc(all.v, (all.n + rs.n + 1) * sizeof(*nv));

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

/* A chase optimum's row, in a table per platform and host. */
static int optimum_row(sqlite3_stmt *q, void *arg, struct tune_error *err)
{
	static const char *const head[] = { "Working set", "Class", "Variant", "Hint", "g (fastest)",
					    "Median [interval]", "Runner-up", "Trials", "Decided" };
	static const char *const units[] = { "MB", NULL, NULL, NULL, NULL, "ns/lookup", NULL, NULL, NULL };
	struct rdoc *d = arg;
	size_t t;
	char runner[128] = "-", median[96], g[48], title[400], trials[24];
	json_t *ru = json_loads(report_text(q, 13, "null"), JSON_DECODE_ANY, NULL), *interval;
	const char *row[9];

	(void)err;
	/* A table per platform and host. */
	snprintf(title, sizeof(title), "Optima of chase: platform %s, host %s", report_text(q, 0, ""), report_text(q, 1, ""));
	t = rdoc_table_for(d, title, 9, head);
	/* Named by its hint, or by its variant where it has none. */
	if (json_is_object(ru)) {
		const char *name = json_string_value(json_object_get(ru, "hint"));

		if (!name)
			name = json_string_value(json_object_get(ru, "variant"));
		snprintf(runner, sizeof(runner), "%s g=%lld %.1f", name ? name : "?",
			 (long long)json_integer_value(json_object_get(ru, "group_size")),
			 json_real_value(json_object_get(ru, "median")));
	}
	interval = report_interval(sqlite3_column_double(q, 10), sqlite3_column_double(q, 11),
				   sqlite3_column_double(q, 12), sqlite3_column_int64(q, 16), "%.1f", median, sizeof(median));
	snprintf(g, sizeof(g), "%lld (%lld)", sqlite3_column_int64(q, 7), sqlite3_column_int64(q, 8));
	snprintf(trials, sizeof(trials), "%lld", sqlite3_column_int64(q, 14));
	row[0] = report_size_label(sqlite3_column_int64(q, 3));
	row[1] = report_text(q, 4, "");
	row[2] = report_text(q, 5, "");
	row[3] = report_text(q, 6, "");
	row[4] = g;
	row[5] = median;
	row[6] = runner;
	row[7] = trials;
	row[8] = report_text(q, 15, "");
	rdoc_row(d, t, row);
	rdoc_units(d, t, units);
	rdoc_value(d, t, 4, json_pack("{s:I, s:I}", "g", (json_int_t)sqlite3_column_int64(q, 7), "fastest",
				      (json_int_t)sqlite3_column_int64(q, 8)));
	rdoc_value(d, t, 5, interval);
	rdoc_value(d, t, 6, json_is_object(ru) ? json_incref(ru) : json_null());
	json_decref(ru);
	return 0;
}

int chase_report_optima(struct rdoc *d, sqlite3 *db, const char *platform, struct tune_error *err)
{
	return report_each_row(db,
			       "SELECT o.platform, o.host, o.fingerprint, " CHASE_OPT_SIZE_MB " AS size_mb, o.size_class,"
			       " o.variant, COALESCE(NULLIF(" CHASE_OPT_HINT ", ''), '-'), " CHASE_OPT_G ", o.best_point, "
			       CHASE_OPT_HUGEPAGES ", o.median, o.ci_low, o.ci_high, o.runner_up, o.trials, o.decided, o.runs"
			       " FROM optima o JOIN current_fingerprints USING (platform, host, fingerprint)"
			       " WHERE (?1 IS NULL OR o.platform = ?1) AND o.kernel = 'chase'"
			       " ORDER BY o.platform, o.host, size_mb", platform, "optima", optimum_row, d, err);
}

