/* The chase's charts: throughput against working-set size (the best
 * configuration of each variant) and the speedup of interleaved-prefetch
 * over scalar against g per working set, with median intervals. Names from the
 * database reach gnuplot only as its arguments (report_plot()). */
#include <stdlib.h>
#include <string.h>

#include "../../tuner/base/strbuf.h"
#include "report.h"

/* The chosen g of each working set (interleaved-prefetch optima). */
struct chosen {
	long long size_mb[64], g[64];
	size_t n;
};

static int chosen_row(sqlite3_stmt *q, void *arg, struct tune_error *err)
{
	struct chosen *c = arg;

	(void)err;
	if (c->n < 64) {
		c->size_mb[c->n] = sqlite3_column_int64(q, 0);
		c->g[c->n++] = sqlite3_column_int64(q, 1);
	}
	return 0;
}

/* A cache size of the platform's host as its newest sweep found it (a key
 * of its facts), in MB; 0 when unknown. */
static double cache_mb(sqlite3 *db, const char *platform, const char *key)
{
	sqlite3_stmt *q = NULL;
	double mb = 0;

	if (sqlite3_prepare_v2(db, "SELECT json_extract(s.env_json, '$.' || ?2) FROM sweeps s JOIN platforms p ON"
				   " p.id = s.platform_id WHERE p.name = ?1 ORDER BY s.id DESC LIMIT 1", -1, &q,
				   NULL) == SQLITE_OK) {
		sqlite3_bind_text(q, 1, platform, -1, SQLITE_STATIC);
		sqlite3_bind_text(q, 2, key, -1, SQLITE_STATIC);
		if (sqlite3_step(q) == SQLITE_ROW)
			mb = sqlite3_column_double(q, 0) / (1024.0 * 1024.0);
	}
	sqlite3_finalize(q);
	return mb;
}

int chase_report_charts(sqlite3 *db, const char *platform, const char *dir, struct report_chart *made, size_t *charts,
			struct tune_error *err)
{
	struct chosen chosen = { .n = 0 };
	static const char *const caches[][2] = { { "l1d_bytes", "L1d" }, { "l2_bytes", "L2" },
						 { "llc_bytes", "last-level cache" } };
	static const char *const variants[] = { "scalar", "scalar-prefetch", "interleaved", "interleaved-prefetch" };
	struct chase_results rs = { NULL, 0 };
	struct chase_result *v;
	size_t n;
	char path[4200], name[200];
	struct strbuf body = STRBUF_INIT, marks = STRBUF_INIT;
	long long sizes[64];
	size_t ns = 0, flagged = 0;
	FILE *f = NULL;
	int rc;

	if ((rc = chase_report_results(db, platform, &rs, err)) != 0 || !rs.n)
		goto out;
	v = rs.v;
	n = rs.n;
	for (size_t i = 0; i < n; i++) {
		size_t j;

		for (j = 0; j < ns && sizes[j] != v[i].size_mb; j++)
			;
		if (j == ns && ns < 64)
			sizes[ns++] = v[i].size_mb;
	}
	for (size_t a = 1; a < ns; a++)
		for (size_t k = a; k > 0 && sizes[k - 1] > sizes[k]; k--) {
			long long t = sizes[k];

			sizes[k] = sizes[k - 1];
			sizes[k - 1] = t;
		}

	/* Throughput against size: one data block per variant. */
	report_chart_file(platform, "throughput_vs_size", name, sizeof(name));
	if (!(f = report_chart_data(dir, name, path, sizeof(path), err))) {
		rc = TUNE_ERR_SYSTEM;
		goto out;
	}
	fprintf(f, "# size_mb Mlookups_per_s low high (best configuration of each variant); a blank line breaks\n"
		   "# the line where sizes between were not measured\n");
	for (int k = 0; k < 4; k++) {
		long long last = 0;

		fprintf(f, "\"%s\"\n", variants[k]);
		for (size_t i = 0; i < ns; i++) {
			const struct chase_result *p = chase_report_best(v, n, variants[k], sizes[i], -1);

			if (!p)
				continue;
			/* More than twice the last size: sizes between were never measured. */
			if (last && sizes[i] > 2 * last)
				fputc('\n', f);
			fprintf(f, "%lld %.4f %.4f %.4f\n", sizes[i], 1e3 / p->median, 1e3 / p->ci_high,
				1e3 / p->ci_low);
			last = sizes[i];
		}
		fprintf(f, "\n\n");
	}
	fclose(f);
	f = NULL;
	strbuf_add(&body, "  set title 'Throughput against working set (' . ARG2 . '), best g per variant, median "
			  "intervals' noenhanced\n"
			  "  set logscale x 2\n  set xlabel 'working set (MB)'\n  set ylabel 'million lookups per second'\n"
			  "  set yrange [0:*]\n  set bars 2\n  set offsets graph 0.04, graph 0.04, 0, 0\n");
	/* The caches within the sizes measured: past each, lookups go one level
	 * further out (past the last-level cache, to memory). Numbers this
	 * process computed, not text from the database. */
	for (int c = 0; c < 3 && ns; c++) {
		double mb = cache_mb(db, platform, caches[c][0]);

		if (mb <= 0 || mb < (double)sizes[0] || mb > (double)sizes[ns - 1])
			continue;
		strbuf_addf(&body, "  set arrow %d from %.4f, graph 0 to %.4f, graph 1 nohead dt 2 lc rgb 'gray40'\n"
			    "  set label %d '%s (%.*f %s)' at %.4f, graph %.2f left offset 0.5,0 textcolor rgb "
			    "'gray30'\n", c + 1, mb, mb, c + 1, caches[c][1], mb < 1 ? 0 : mb < 10 ? 1 : 0,
			    mb < 1 ? mb * 1024 : mb, mb < 1 ? "KiB" : "MiB", mb, 0.95 - 0.06 * c);
	}
	strbuf_add(&body, "  plot for [i=0:3] datafile index i using 1:2:3:4 with yerrorlines lw 2 title columnheader(1)\n"
			  "  unset arrow\n  unset label\n  unset logscale x\n  set yrange [*:*]");
	if ((rc = report_plot(dir, name, platform, v[n - 1].host, &body, err)) != 0)
		goto out;
	report_chart_made(made, charts, "throughput_vs_size",
		   "Throughput against working-set size: the best g of each variant");

	/* Speedup of interleaved-prefetch over scalar against g, per size. */
	report_chart_file(platform, "speedup_vs_groupsize", name, sizeof(name));
	if (!(f = report_chart_data(dir, name, path, sizeof(path), err))) {
		rc = TUNE_ERR_SYSTEM;
		goto out;
	}
	if ((rc = report_each_row(db, "SELECT " CHASE_OPT_SIZE_MB ", " CHASE_OPT_G " FROM optima o JOIN"
				  " current_fingerprints USING (platform, host, fingerprint) WHERE o.platform = ?1 AND"
				  " o.kernel = 'chase' AND o.variant = 'interleaved-prefetch' ORDER BY 1", platform, "optima", chosen_row,
				  &chosen, err)) != 0)
		goto out;
	fprintf(f, "# g speedup low high (interleaved-prefetch over scalar, best hint); the last block: the chosen g\n");
	for (size_t i = 0; i < ns; i++) {
		const struct chase_result *s = chase_report_best(v, n, "scalar", sizes[i], -1);
		long long last = -1;

		fprintf(f, "\"%s\"\n", report_size_label(sizes[i]));
		for (size_t k = 0; s && k < n; k++) {
			const struct chase_result *p;

			if (strcmp(v[k].variant, "interleaved-prefetch") != 0 || v[k].size_mb != sizes[i] ||
			    v[k].group_size == last)
				continue;
			last = v[k].group_size;
			p = chase_report_best(v, n, "interleaved-prefetch", sizes[i], last);
			fprintf(f, "%lld %.4f %.4f %.4f\n", last, s->median / p->median, s->median / p->ci_high,
				s->median / p->ci_low);
			/* Some of its runs flagged as outliers (kept in the statistics,
			 * the median robust to them): where to look twice. */
			if (p->outliers > 0) {
				strbuf_addf(&marks, "%lld %.4f %lld %lld\n", last, s->median / p->median, p->outliers,
					    p->runs);
				flagged++;
			}
		}
		fprintf(f, "\n\n");
	}
	/* The chosen g of each size, where the optimum is, at its speedup. */
	fprintf(f, "\"chosen g\"\n");
	for (size_t c = 0; c < chosen.n; c++) {
		const struct chase_result *s = chase_report_best(v, n, "scalar", chosen.size_mb[c], -1);
		const struct chase_result *p = chase_report_best(v, n, "interleaved-prefetch", chosen.size_mb[c],
								 chosen.g[c]);

		if (s && p)
			fprintf(f, "%lld %.4f\n", chosen.g[c], s->median / p->median);
	}
	fprintf(f, "\n\n");
	fprintf(f, "\"runs flagged as outliers\"\n%s\n\n", strbuf_str(&marks));
	fclose(f);
	f = NULL;
	strbuf_release(&body);
	strbuf_addf(&body, "  set title 'Speedup of interleaved-prefetch over scalar (' . ARG2 . '), median intervals' "
		    "noenhanced\n"
		    "  set logscale x 2\n  set xlabel 'group size g'\n  set ylabel 'speedup over scalar'\n"
		    "  set yrange [0:*]\n  set bars 2\n"
		    "  set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead dt 2 lc rgb 'gray40'\n"
		    "  plot for [i=0:%zu] datafile index i using 1:2:3:4 with yerrorlines lw 2 title columnheader(1), "
		    "datafile index %zu using 1:2 with points pt 6 ps 2.5 lw 2 lc rgb 'black' title columnheader(1)",
		    ns ? ns - 1 : 0, ns);
	/* A block without a point would make gnuplot complain. */
	if (flagged)
		strbuf_addf(&body, ", datafile index %zu using 1:2 with points pt 3 ps 1.5 lw 2 lc rgb 'red' title "
			    "columnheader(1)", ns + 1);
	strbuf_add(&body, "\n  unset arrow 1\n  unset logscale x\n  set yrange [*:*]");
	if ((rc = report_plot(dir, name, platform, v[n - 1].host, &body, err)) != 0)
		goto out;
	report_chart_made(made, charts, "speedup_vs_groupsize",
		   "Speedup of interleaved-prefetch over scalar against group size");
out:
	if (f)
		fclose(f);
	strbuf_release(&body);
	strbuf_release(&marks);
	free(rs.v);
	return rc;
}
