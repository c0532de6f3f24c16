/* The ipa kernel's own report: wall time against the polling threshold T
 * (the paper's Fig. 12, as rows and as a chart), the chosen T against this
 * host's measured wake-up cost (its probe), and its header macros. */
#include <jansson.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "../../report/escape.h"
#include "../../report/report.h"
#include "../../tuner/base/strbuf.h"

/* SQL: the wake-up cost its probe measured on host h (hosts.id): across
 * CPUs, on one; -1 when not measured. */
#define SQL_WAKEUP(h) REPORT_SQL_PROBE(h ".id", "ipa", "wakeup", "cross_cpu_ns") ", " \
	REPORT_SQL_PROBE(h ".id", "ipa", "wakeup", "same_cpu_ns")

/* The newest sweep of each host's current fingerprint: wall time per call
 * at each threshold T (LLONG_MAX: always poll), the chosen T and the host's
 * wake-up cost (< 0: not measured). */
#define MAX_POINTS 64
struct point {
	long long threshold_ns;
	double median, ci_low, ci_high, polled_share; /* ns per call; share < 0: unknown */
	long long runs;
};

struct ipa_sweep {
	char platform[64], host[256], fingerprint[32];
	struct point points[MAX_POINTS];
	size_t npoints;
	int chosen;
	long long chosen_ns;
	double chosen_median, chosen_low, chosen_high, wakeup_cross_ns, wakeup_same_ns;
	long long chosen_runs;
};

static void ipa_sweep(sqlite3_stmt *q, void *elem)
{
	struct ipa_sweep *r = elem;

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
	r->chosen_runs = sqlite3_column_int64(q, 10);
}

static int ipa_point(sqlite3_stmt *pts, void *elem)
{
	struct ipa_sweep *r = elem;
	struct point *p;

	if (r->npoints == MAX_POINTS)
		return -1;
	p = &r->points[r->npoints++];
	p->threshold_ns = sqlite3_column_int64(pts, 0);
	p->median = sqlite3_column_double(pts, 1);
	p->ci_low = sqlite3_column_double(pts, 2);
	p->ci_high = sqlite3_column_double(pts, 3);
	p->polled_share = sqlite3_column_double(pts, 4);
	p->runs = sqlite3_column_int64(pts, 5);
	return 0;
}

/* The newest ipa sweep of each host's current fingerprint: its search
 * points (all measured in one process, interleaved), its optimum and the
 * host's wake-up cost. */
static int load(sqlite3 *db, const char *platform, struct ipa_sweep **out, size_t *n, struct tune_error *err)
{
	static const struct report_sweeps how = {
		"ipa results",
		"SELECT n.platform, n.host, n.fingerprint, n.sweep_id, " SQL_WAKEUP("h") ","
		" json_extract(o.params, '$.threshold_ns'), o.median, o.ci_low, o.ci_high, o.runs"
		" FROM newest_kernel_sweeps n JOIN sweeps s ON s.id = n.sweep_id JOIN hosts h ON"
		" h.id = s.host_id LEFT JOIN optima o ON o.sweep_id = n.sweep_id AND o.kernel = 'ipa'"
		" WHERE n.kernel = 'ipa' AND (?1 IS NULL OR n.platform = ?1) ORDER BY n.platform, n.host",
		"SELECT threshold_ns, median_ns_per_call, ci_low, ci_high, COALESCE(polled_share, -1), runs"
		" FROM ipa_results WHERE sweep_id = ?1 AND phase = 'search' ORDER BY threshold_ns",
		sizeof(struct ipa_sweep), ipa_sweep, ipa_point,
	};
	void *v = NULL;
	int rc = report_load_sweeps(db, platform, &how, &v, n, err);

	*out = v;
	return rc;
}

/* Wall time per call against T on a log axis (the paper's Fig. 12): the
 * finite T > 0 as points, always-block and always-poll as horizontal lines,
 * the chosen T and the wake-up cost as vertical ones. */
static int draw_charts(sqlite3 *db, const char *platform, const char *dir, struct report_chart *made, size_t *charts,
		     struct tune_error *err)
{
	struct ipa_sweep *v = NULL;
	size_t n = 0;
	char path[4200], name[200], host[300];
	struct strbuf body = STRBUF_INIT;
	FILE *f;
	int rc = load(db, platform, &v, &n, err);

	if (rc || !n)
		goto out;
	report_chart_file(platform, "ipa_wall_vs_threshold", name, sizeof(name));
	if (!(f = report_chart_data(dir, name, path, sizeof(path), err))) {
		rc = TUNE_ERR_SYSTEM;
		goto out;
	}
	/* One host: the newest (the tables show every host). In microseconds:
	 * block 0 the searched thresholds, 1 always block and 2 always poll
	 * across the x range (median, interval), 3 the chosen T and 4 the
	 * wake-up cost as vertical segments over the y range. Each is drawn
	 * with a title in the key, so no label lies on a line. */
	escape_file_name(v[n - 1].host, host, sizeof(host));
	{
		const struct ipa_sweep *w = &v[n - 1];
		double xlo = 0, xhi = 0, ylo = 0, yhi = 0;
		int have[5] = { 0 };

		for (size_t i = 0; i < w->npoints; i++) {
			const struct point *p = &w->points[i];
			double t = (double)p->threshold_ns / 1000.0;

			if (p->threshold_ns > 0 && p->threshold_ns != LLONG_MAX) {
				xlo = xlo == 0 || t < xlo ? t : xlo;
				xhi = t > xhi ? t : xhi;
			}
			ylo = ylo == 0 || p->ci_low < ylo ? p->ci_low : ylo;
			yhi = p->ci_high > yhi ? p->ci_high : yhi;
		}
		if (w->wakeup_cross_ns > 0) {
			xlo = xlo == 0 || w->wakeup_cross_ns / 1000.0 < xlo ? w->wakeup_cross_ns / 1000.0 : xlo;
			xhi = w->wakeup_cross_ns / 1000.0 > xhi ? w->wakeup_cross_ns / 1000.0 : xhi;
		}
		if (xlo <= 0)
			xlo = xhi = 1;
		xlo /= 2, xhi *= 2;
		ylo = ylo / 1000.0 * 0.9, yhi = yhi / 1000.0 * 1.1;
		fprintf(f, "# threshold_us us_per_call low high (host %s)\n\"ipa (T)\"\n", host);
		for (size_t i = 0; i < w->npoints; i++) {
			const struct point *p = &w->points[i];

			if (p->threshold_ns > 0 && p->threshold_ns != LLONG_MAX) {
				fprintf(f, "%.3f %.4f %.4f %.4f\n", (double)p->threshold_ns / 1000.0, p->median / 1000.0,
					p->ci_low / 1000.0, p->ci_high / 1000.0);
				have[0] = 1;
			}
		}
		for (int k = 1; k <= 2; k++) {
			fprintf(f, "\n\n\"%s\"\n", k == 1 ? "always block" : "always poll");
			for (size_t i = 0; i < w->npoints; i++) {
				const struct point *p = &w->points[i];

				if ((k == 1 && p->threshold_ns == 0) || (k == 2 && p->threshold_ns == LLONG_MAX)) {
					for (int e = 0; e < 2; e++)
						fprintf(f, "%.3f %.4f %.4f %.4f\n", e ? xhi : xlo, p->median / 1000.0,
							p->ci_low / 1000.0, p->ci_high / 1000.0);
					have[k] = 1;
					break;
				}
			}
		}
		fprintf(f, "\n\n\"chosen T\"\n");
		if (w->chosen && w->chosen_ns > 0 && w->chosen_ns != LLONG_MAX) {
			fprintf(f, "%.3f %.4f\n%.3f %.4f\n", w->chosen_ns / 1000.0, ylo, w->chosen_ns / 1000.0, yhi);
			have[3] = 1;
		}
		fprintf(f, "\n\n\"wake-up cost across CPUs\"\n");
		if (w->wakeup_cross_ns > 0) {
			fprintf(f, "%.3f %.4f\n%.3f %.4f\n", w->wakeup_cross_ns / 1000.0, ylo, w->wakeup_cross_ns / 1000.0,
				yhi);
			have[4] = 1;
		}
		fclose(f);
		strbuf_addf(&body, "  set title 'IPA: time per call against the polling threshold (' . ARG2 . ', ' . ARG3 . ')' "
			    "noenhanced\n  set key below maxrows 2\n  set logscale x 10\n  set xlabel 'threshold T (us): "
			    "poll below, block above'\n  set ylabel 'us per call'\n  set xrange [%.4f:%.4f]\n"
			    "  set yrange [%.4f:%.4f]\n  set bars 2\n  set style fill transparent solid 0.15 noborder\n"
			    "  plot NaN notitle", xlo, xhi, ylo, yhi);
		if (have[1])
			strbuf_add(&body, ", datafile index 1 using 1:3:4 with filledcurves lc rgb '#d62728' notitle, "
					  "datafile index 1 using 1:2 with lines dt 2 lw 2 lc rgb '#d62728' "
					  "title 'always block (interval shaded)'");
		if (have[2])
			strbuf_add(&body, ", datafile index 2 using 1:3:4 with filledcurves lc rgb '#1f77b4' notitle, "
					  "datafile index 2 using 1:2 with lines dt 2 lw 2 lc rgb '#1f77b4' "
					  "title 'always poll (interval shaded)'");
		if (have[0])
			strbuf_add(&body, ", datafile index 0 using 1:2:3:4 with yerrorlines lw 2 pt 7 lc rgb '#9400d3' "
					  "title 'ipa, threshold T'");
		if (have[3])
			strbuf_add(&body, ", datafile index 3 using 1:2 with lines lw 2 lc rgb '#2ca02c' title 'chosen T'");
		if (have[4])
			strbuf_add(&body, ", datafile index 4 using 1:2 with lines dt 3 lw 2 lc rgb '#8c564b' "
					  "title 'wake-up cost across CPUs'");
		strbuf_add(&body, "\n  unset logscale x\n  set xrange [*:*]\n  set yrange [*:*]\n  set key outside right top");
	}
	if ((rc = report_plot(dir, name, platform, v[n - 1].host, &body, err)) != 0)
		goto out;
	report_chart_made(made, charts, "ipa_wall_vs_threshold",
		   "IPA: wall time per call against the polling threshold, with the chosen threshold and the host's "
		   "wake-up cost");
out:
	strbuf_release(&body);
	free(v);
	return rc;
}

/* The newest optimum of platform's current fingerprint: the threshold and
 * what it was measured against. */
struct optimum {
	int found;
	long long threshold_ns; /* LLONG_MAX: always poll */
	double median, ci_low, ci_high, wakeup_cross_ns, wakeup_same_ns; /* wake-ups < 0: not measured */
	char decided[32];
};

static int optimum_row(sqlite3_stmt *q, void *arg, struct tune_error *err)
{
	struct optimum *o = arg;

	(void)err;
	o->found = 1;
	o->threshold_ns = sqlite3_column_int64(q, 0);
	o->median = sqlite3_column_double(q, 1);
	o->ci_low = sqlite3_column_double(q, 2);
	o->ci_high = sqlite3_column_double(q, 3);
	report_column_text(q, 4, o->decided, sizeof(o->decided));
	o->wakeup_cross_ns = sqlite3_column_double(q, 5);
	o->wakeup_same_ns = sqlite3_column_double(q, 6);
	return 0;
}

static int load_optimum(sqlite3 *db, const char *platform, struct optimum *o, struct tune_error *err)
{
	memset(o, 0, sizeof(*o));
	return report_each_row(db,
			       "SELECT json_extract(o.params, '$.threshold_ns'), o.median, o.ci_low, o.ci_high, o.decided, "
			       SQL_WAKEUP("h") " FROM optima o JOIN current_fingerprints USING (platform, host, fingerprint)"
			       " JOIN sweeps s ON s.id = o.sweep_id JOIN hosts h ON h.id = s.host_id"
			       " WHERE o.platform = ?1 AND o.kernel = 'ipa' ORDER BY o.decided DESC, o.id DESC LIMIT 1",
			       platform, "optima", optimum_row, o, err);
}

static int header(FILE *out, sqlite3 *db, const char *platform, struct tune_error *err)
{
	struct optimum o;
	int rc = load_optimum(db, platform, &o, err);

	if (rc)
		return rc;
	if (!o.found) {
		fprintf(out, "/* Not tuned on this platform yet: the IPA poll threshold (TUNED_IPA_POLL_THRESHOLD_NS; "
			     "run sweep ipa-threshold). */\n");
		return 0;
	}
	fprintf(out, "/* IPA: poll for a call predicted to take less than this, block otherwise.\n"
		     " * Median %.1f ns per call [%.1f, %.1f], decided at %s", o.median, o.ci_low, o.ci_high,
		report_c_comment(o.decided));
	if (o.wakeup_cross_ns >= 0)
		fprintf(out, ";\n * this host's wake-up cost: %.0f ns across CPUs, %.0f ns on one CPU */\n",
			o.wakeup_cross_ns, o.wakeup_same_ns);
	else
		fprintf(out, " */\n");
	if (o.threshold_ns == LLONG_MAX)
		fprintf(out, "#define TUNED_IPA_POLL_THRESHOLD_NS 18446744073709551615ull /* always poll */\n");
	else
		fprintf(out, "#define TUNED_IPA_POLL_THRESHOLD_NS %lldull%s\n", o.threshold_ns,
			o.threshold_ns == 0 ? " /* always block */" : "");
	if (o.wakeup_cross_ns >= 0)
		fprintf(out, "#define TUNED_IPA_WAKEUP_NS %.0f\n", o.wakeup_cross_ns);
	return 0;
}

/* The threshold (null: always poll) with the wake-up cost; null when not tuned. */
static int json(sqlite3 *db, const char *platform, json_t **out, struct tune_error *err)
{
	struct optimum o;
	int rc = load_optimum(db, platform, &o, err);
	json_t *j;

	*out = NULL;
	if (rc)
		return rc;
	if (!o.found) {
		*out = json_null();
		return 0;
	}
	j = json_pack("{s:o, s:b, s:f, s:f, s:f, s:s}", "poll_threshold_ns",
		      o.threshold_ns == LLONG_MAX ? json_null() : json_integer(o.threshold_ns), "always_poll",
		      o.threshold_ns == LLONG_MAX, "median_ns_per_call", o.median, "ci_low", o.ci_low, "ci_high",
		      o.ci_high, "decided", o.decided);
	if (o.wakeup_cross_ns >= 0) {
		json_object_set_new(j, "wakeup_cross_cpu_ns", json_real(o.wakeup_cross_ns));
		json_object_set_new(j, "wakeup_same_cpu_ns", json_real(o.wakeup_same_ns));
	}
	*out = j;
	return 0;
}

const struct kernel_report ipa_report = {
	.kernel = "ipa",
	.charts = draw_charts,
	.header = header,
	.json = json,
};
