/* The chase's charts: throughput against working-set size (the best
 * configuration of each variant) and the speedup of interleaved-prefetch
 * over scalar against g per working set, with median intervals. Names from the
 * database reach gnuplot only as its arguments (report_plot()). */
#include <stdlib.h>
#include <string.h>

#include "../../tuner/base/strbuf.h"
#include "report.h"

int chase_report_charts(sqlite3 *db, const char *platform, const char *dir, struct report_chart *made, size_t *charts,
			struct tune_error *err)
{
	static const char *const variants[] = { "scalar", "scalar-prefetch", "interleaved", "interleaved-prefetch" };
	struct chase_results rs = { NULL, 0 };
	struct chase_result *v;
	size_t n;
	char path[4200], name[200];
	struct strbuf body = STRBUF_INIT;
	long long sizes[64];
	size_t ns = 0;
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
	fprintf(f, "# size_mb Mlookups_per_s low high (best configuration of each variant)\n");
	for (int k = 0; k < 4; k++) {
		fprintf(f, "\"%s\"\n", variants[k]);
		for (size_t i = 0; i < ns; i++) {
			const struct chase_result *p = chase_report_best(v, n, variants[k], sizes[i], -1);

			if (p)
				fprintf(f, "%lld %.4f %.4f %.4f\n", sizes[i], 1e3 / p->median, 1e3 / p->ci_high,
					1e3 / p->ci_low);
		}
		fprintf(f, "\n\n");
	}
	fclose(f);
	f = NULL;
	strbuf_add(&body, "  set title 'Throughput against working set (' . ARG2 . '), best g per variant, median "
			  "intervals' noenhanced\n"
			  "  set logscale x 2\n  set xlabel 'working set (MB)'\n  set ylabel 'million lookups per second'\n"
			  "  plot for [i=0:3] datafile index i using 1:2:3:4 with yerrorlines title columnheader(1)\n"
			  "  unset logscale x");
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
	fprintf(f, "# g speedup low high (interleaved-prefetch over scalar, best hint)\n");
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
		}
		fprintf(f, "\n\n");
	}
	fclose(f);
	f = NULL;
	strbuf_release(&body);
	strbuf_addf(&body, "  set title 'Speedup of interleaved-prefetch over scalar (' . ARG2 . '), median intervals' "
		    "noenhanced\n"
		    "  set logscale x 2\n  set xlabel 'group size g'\n  set ylabel 'speedup over scalar'\n"
		    "  plot for [i=0:%zu] datafile index i using 1:2:3:4 with yerrorlines title columnheader(1)\n"
		    "  unset logscale x",
		    ns ? ns - 1 : 0);
	if ((rc = report_plot(dir, name, platform, v[n - 1].host, &body, err)) != 0)
		goto out;
	report_chart_made(made, charts, "speedup_vs_groupsize",
		   "Speedup of interleaved-prefetch over scalar against group size");
out:
	if (f)
		fclose(f);
	strbuf_release(&body);
	free(rs.v);
	return rc;
}
