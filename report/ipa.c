/* The ipa kernel's results: wall time against the polling threshold T (the
 * paper's Fig. 12 as rows), and the chosen T against this host's measured
 * wake-up cost. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

static void ipa_sweep(sqlite3_stmt *q, void *elem)
{
	struct report_ipa *r = elem;

	report_column_text(q, 0, r->platform, sizeof(r->platform));
	report_column_text(q, 1, r->host, sizeof(r->host));
	report_column_text(q, 2, r->fingerprint, sizeof(r->fingerprint));
	r->wakeup_cross_ns = sqlite3_column_double(q, 4);
	r->wakeup_same_ns = sqlite3_column_double(q, 5);
	r->chosen = sqlite3_column_type(q, 6) != SQLITE_NULL;
	r->chosen_ns = sqlite3_column_int64(q, 6);
	r->chosen_median = sqlite3_column_double(q, 7);
	r->chosen_low = sqlite3_column_double(q, 8);
	r->chosen_high = sqlite3_column_double(q, 9);
}

static int ipa_point(sqlite3_stmt *pts, void *elem)
{
	struct report_ipa *r = elem;
	struct report_ipa_point *p;

	if (r->npoints == REPORT_IPA_MAX_POINTS)
		return -1;
	p = &r->points[r->npoints++];
	p->threshold_ns = sqlite3_column_int64(pts, 0);
	p->median = sqlite3_column_double(pts, 1);
	p->ci_low = sqlite3_column_double(pts, 2);
	p->ci_high = sqlite3_column_double(pts, 3);
	p->polled_share = sqlite3_column_double(pts, 4);
	return 0;
}

/* The newest ipa sweep of each host's current fingerprint: its search
 * points (all measured in one process, interleaved), its optimum and the
 * host's wake-up cost. */
int report_load_ipa(sqlite3 *db, const char *platform, struct report_ipa **out, size_t *n, struct tune_error *err)
{
	static const struct report_sweeps how = {
		"ipa results",
		"SELECT n.platform, n.host, n.fingerprint, n.sweep_id, " REPORT_SQL_WAKEUP("h") ","
		" json_extract(o.params, '$.threshold_ns'), o.median, o.ci_low, o.ci_high"
		" FROM newest_kernel_sweeps n JOIN sweeps s ON s.id = n.sweep_id JOIN hosts h ON"
		" h.id = s.host_id LEFT JOIN optima o ON o.sweep_id = n.sweep_id AND o.kernel = 'ipa'"
		" WHERE n.kernel = 'ipa' AND (?1 IS NULL OR n.platform = ?1) ORDER BY n.platform, n.host",
		"SELECT threshold_ns, median_ns_per_call, ci_low, ci_high, COALESCE(polled_share, -1)"
		" FROM ipa_results WHERE sweep_id = ?1 AND phase = 'search' ORDER BY threshold_ns",
		sizeof(struct report_ipa), ipa_sweep, ipa_point,
	};
	void *v = NULL;
	int rc = report_load_sweeps(db, platform, &how, &v, n, err);

	*out = v;
	return rc;
}

void report_threshold_label(long long t, char *out, size_t len)
{
	if (t == LLONG_MAX)
		snprintf(out, len, "inf (always poll)");
	else if (t == 0)
		snprintf(out, len, "0 (always block)");
	else if (t >= 1000 && t % 1000 == 0)
		snprintf(out, len, "%lld us", t / 1000);
	else
		snprintf(out, len, "%lld ns", t);
}

static const struct report_ipa_point *point_at(const struct report_ipa *r, long long t)
{
	for (size_t i = 0; i < r->npoints; i++)
		if (r->points[i].threshold_ns == t)
			return &r->points[i];
	return NULL;
}

static void ratio(char *out, size_t len, double num, const struct report_ipa_point *den)
{
	if (den && den->median > 0)
		snprintf(out, len, "%.3f", num / den->median);
	else
		snprintf(out, len, "-");
}

static void add_curve(struct rdoc *d, const struct report_ipa *r)
{
	static const char *const head[] = { "Threshold T", "Median ns/call [95% CI]", "Polled", "vs always poll",
					    "vs always block", "" };
	const struct report_ipa_point *poll = point_at(r, LLONG_MAX), *block = point_at(r, 0);
	size_t t = rdoc_table(d, "IPA: wall time per call against the polling threshold T (lower is better)", 6, head);

	for (size_t i = 0; i < r->npoints; i++) {
		const struct report_ipa_point *p = &r->points[i];
		char thr[40], med[96], polled[16] = "-", vp[16], vb[16];
		const char *row[6] = { thr, med, polled, vp, vb, r->chosen && r->chosen_ns == p->threshold_ns ?
							  "chosen" : "" };

		report_threshold_label(p->threshold_ns, thr, sizeof(thr));
		snprintf(med, sizeof(med), "%.1f [%.1f, %.1f]", p->median, p->ci_low, p->ci_high);
		if (p->polled_share >= 0)
			snprintf(polled, sizeof(polled), "%.0f%%", p->polled_share * 100.0);
		ratio(vp, sizeof(vp), p->median, poll);
		ratio(vb, sizeof(vb), p->median, block);
		rdoc_row(d, t, row);
	}
}

static void add_choice(struct rdoc *d, const struct report_ipa *r)
{
	static const char *const head[] = { "Chosen T", "Median ns/call [95% CI]", "Wake-up across CPUs",
					    "Wake-up on one CPU", "T / wake-up", "vs always poll", "vs always block" };
	const struct report_ipa_point *poll = point_at(r, LLONG_MAX), *block = point_at(r, 0);
	char thr[40], med[96], cross[32] = "not measured", same[32] = "not measured", rel[32] = "-", vp[16], vb[16];
	const char *row[7] = { thr, med, cross, same, rel, vp, vb };
	size_t t;

	if (!r->chosen)
		return;
	t = rdoc_table(d, "IPA optimum: the chosen threshold against this host's wake-up cost", 7, head);
	report_threshold_label(r->chosen_ns, thr, sizeof(thr));
	snprintf(med, sizeof(med), "%.1f [%.1f, %.1f]", r->chosen_median, r->chosen_low, r->chosen_high);
	if (r->wakeup_cross_ns >= 0) {
		snprintf(cross, sizeof(cross), "%.1f us", r->wakeup_cross_ns / 1000.0);
		snprintf(same, sizeof(same), "%.1f us", r->wakeup_same_ns / 1000.0);
		if (r->chosen_ns != LLONG_MAX && r->wakeup_cross_ns > 0)
			snprintf(rel, sizeof(rel), "%.2f", (double)r->chosen_ns / r->wakeup_cross_ns);
	}
	/* Against the search points, measured in one process with the chosen T's own point. */
	{
		const struct report_ipa_point *c = point_at(r, r->chosen_ns);

		ratio(vp, sizeof(vp), c ? c->median : r->chosen_median, poll);
		ratio(vb, sizeof(vb), c ? c->median : r->chosen_median, block);
	}
	rdoc_row(d, t, row);
}

int report_ipa(struct rdoc *d, sqlite3 *db, const char *platform, struct tune_error *err)
{
	struct report_ipa *v;
	size_t n;
	int rc = report_load_ipa(db, platform, &v, &n, err);

	for (size_t i = 0; !rc && i < n; i++) {
		rdoc_section(d, v[i].platform, v[i].host, v[i].fingerprint, -1);
		add_curve(d, &v[i]);
		add_choice(d, &v[i]);
	}
	free(v);
	return rc;
}
