/* The sched kernel's own report: makespan per policy against apps at each
 * speedup as a chart (the paper's Fig. 10; its tables are declared in
 * views.sql), and its header macros with a lookup by (speedup, apps). */
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../report/escape.h"
#include "../../report/report.h"
#include "../../tuner/base/strbuf.h"
#include "sched.h"

/* The newest sweep of each host's current fingerprint: the makespan of
 * each policy and dispatch at each (speedup, apps). */
#define MAX_POINTS 1024
struct point {
	char policy[16], dispatch[16];
	long long speedup, apps;
	double makespan_ms, ci_low_ms, ci_high_ms, accel_share, overhead_ns; /* < 0: unknown */
	int chosen; /* the optimum of its (speedup, apps) */
};

struct sched_sweep {
	char platform[64], host[256], fingerprint[32];
	struct point points[MAX_POINTS];
	size_t npoints;
};

static void sched_sweep(sqlite3_stmt *q, void *elem)
{
	struct sched_sweep *r = elem;

	report_column_text(q, 0, r->platform, sizeof(r->platform));
	report_column_text(q, 1, r->host, sizeof(r->host));
	report_column_text(q, 2, r->fingerprint, sizeof(r->fingerprint));
}

static int sched_point(sqlite3_stmt *pts, void *elem)
{
	struct sched_sweep *r = elem;
	struct point *p;

	if (r->npoints == MAX_POINTS)
		return -1;
	p = &r->points[r->npoints++];
	report_column_text(pts, 0, p->policy, sizeof(p->policy));
	report_column_text(pts, 1, p->dispatch, sizeof(p->dispatch));
	p->speedup = sqlite3_column_int64(pts, 2);
	p->apps = sqlite3_column_int64(pts, 3);
	p->makespan_ms = sqlite3_column_double(pts, 4);
	p->ci_low_ms = sqlite3_column_double(pts, 5);
	p->ci_high_ms = sqlite3_column_double(pts, 6);
	p->accel_share = sqlite3_column_double(pts, 7);
	p->overhead_ns = sqlite3_column_double(pts, 8);
	p->chosen = sqlite3_column_int(pts, 9);
	return 0;
}

static int load(sqlite3 *db, const char *platform, struct sched_sweep **out, size_t *n, struct tune_error *err)
{
	static const struct report_sweeps how = {
		"sched results",
		"SELECT platform, host, fingerprint, sweep_id FROM newest_kernel_sweeps WHERE kernel = 'sched'"
		" AND (?1 IS NULL OR platform = ?1) ORDER BY platform, host",
		"SELECT r.policy, r.dispatch, r.speedup, r.apps, r.median_makespan_ms,"
		" r.ci_low * r.tasks_per_run / 1e6, r.ci_high * r.tasks_per_run / 1e6,"
		" COALESCE(r.accel_share, -1), COALESCE(r.mean_overhead_ns, -1),"
		" COALESCE((SELECT 1 FROM sched_optima o WHERE o.sweep_id = r.sweep_id AND"
		" o.speedup = r.speedup AND o.apps = r.apps AND o.policy = r.policy AND"
		" o.dispatch = r.dispatch), 0) FROM sched_results r WHERE r.sweep_id = ?1 AND"
		" r.phase = 'search' ORDER BY r.speedup, r.dispatch, r.apps, r.policy",
		sizeof(struct sched_sweep), sched_sweep, sched_point,
	};
	void *v = NULL;
	int rc = report_load_sweeps(db, platform, &how, &v, n, err);

	*out = v;
	return rc;
}

static const struct point *point_at(const struct sched_sweep *r, const char *policy,
						  const char *dispatch, long long speedup, long long apps)
{
	for (size_t i = 0; i < r->npoints; i++) {
		const struct point *p = &r->points[i];

		if ((!policy || !strcmp(p->policy, policy)) && !strcmp(p->dispatch, dispatch) && p->speedup == speedup &&
		    p->apps == apps)
			return p;
	}
	return NULL;
}

/* The distinct values of a field over the points, ascending. */
static size_t distinct(const struct sched_sweep *r, int apps, long long *out, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < r->npoints; i++) {
		long long v = apps ? r->points[i].apps : r->points[i].speedup;
		size_t k = 0;

		while (k < n && out[k] < v)
			k++;
		if ((k < n && out[k] == v) || n == max)
			continue;
		memmove(out + k + 1, out + k, (n - k) * sizeof(*out));
		out[k] = v;
		n++;
	}
	return n;
}

static size_t speedups_of(const struct sched_sweep *r, long long *out, size_t max)
{
	return distinct(r, 0, out, max);
}

static size_t apps_of(const struct sched_sweep *r, long long *out, size_t max)
{
	return distinct(r, 1, out, max);
}

/* Makespan against apps, a line per policy and dispatch, a panel per
 * speedup on one scale: the paper's Fig. 10. */
static int draw_charts(sqlite3 *db, const char *platform, const char *dir, struct report_chart *made, size_t *charts,
		       struct tune_error *err)
{
	static const char *const policies[] = { "co", "ao", "fuse", "random", "eft" };
	struct sched_sweep *v = NULL;
	size_t n = 0, ns, na;
	long long speedups[8], apps[64];
	double ymax = 0;
	char path[4200], name[200], host[300];
	struct strbuf body = STRBUF_INIT;
	FILE *f;
	int rc = load(db, platform, &v, &n, err);

	if (rc || !n)
		goto out;
	ns = speedups_of(&v[n - 1], speedups, 8);
	na = apps_of(&v[n - 1], apps, 64);
	report_chart_file(platform, "sched_makespan_vs_apps", name, sizeof(name));
	if (!(f = report_chart_data(dir, name, path, sizeof(path), err))) {
		rc = TUNE_ERR_SYSTEM;
		goto out;
	}
	/* Blocks of speedup s, dispatch d (inline, worker) and policy k at
	 * index (s * 2 + d) * 5 + k; one y range for every panel, so that the
	 * speedups compare at a glance. */
	escape_file_name(v[n - 1].host, host, sizeof(host));
	fprintf(f, "# apps makespan_ms low high (host %s)\n", host);
	for (size_t s = 0; s < ns; s++)
		for (int d = 0; d < 2; d++)
			for (int k = 0; k < 5; k++) {
				fprintf(f, "\"%s %s\"\n", policies[k], d ? "worker" : "inline");
				for (size_t a = 0; a < na; a++) {
					const struct point *p = point_at(&v[n - 1], policies[k], d ? "worker" : "inline",
									 speedups[s], apps[a]);

					if (p) {
						fprintf(f, "%lld %.4f %.4f %.4f\n", apps[a], p->makespan_ms, p->ci_low_ms,
							p->ci_high_ms);
						ymax = p->ci_high_ms > ymax ? p->ci_high_ms : ymax;
					}
				}
				fprintf(f, "\n\n");
			}
	fclose(f);
	strbuf_addf(&body, "  set multiplot layout 1,%zu title 'Makespan against apps per scheduling policy (' . ARG2 . "
		    "'): inline dispatch solid, worker dashed; median intervals' noenhanced\n  set xlabel 'apps'\n"
		    "  set ylabel 'makespan (ms)'\n  set yrange [0:%.4f]\n  set bars 2\n  set key inside top left\n",
		    ns ? ns : 1, ymax > 0 ? ymax * 1.05 : 1.0);
	for (size_t s = 0; s < ns; s++) {
		strbuf_addf(&body, "  set title 'accelerator %lldx faster'\n  plot for [k=0:4] datafile index %zu + k using "
			    "1:2:3:4 with yerrorlines lw 2 lt k + 1 title columnheader(1), for [k=0:4] datafile index %zu + k "
			    "using 1:2:3:4 with yerrorlines lw 2 dt 2 lt k + 1 %s\n",
			    speedups[s], s * 10, s * 10 + 5, "notitle");
		/* The key once: the first panel's. */
		if (!s)
			strbuf_add(&body, "  unset key\n");
	}
	strbuf_add(&body, "  unset multiplot\n  set key outside right top\n  set yrange [*:*]");
	if ((rc = report_plot(dir, name, platform, v[n - 1].host, &body, err)) != 0)
		goto out;
	report_chart_made(made, charts, "sched_makespan_vs_apps",
		   "Scheduler: makespan against apps per policy, a panel per accelerator speedup");
out:
	strbuf_release(&body);
	free(v);
	return rc;
}


/* An optimum: the policy and dispatch that finished first at a point. */
struct optimum {
	long long speedup, apps;
	double median, ci_low, ci_high; /* ns per task */
	char policy[16], dispatch[16], size_class[32], decided[32];
};

struct optima {
	struct optimum *v; /* by speedup, then apps */
	size_t n;
};

static int optimum_row(sqlite3_stmt *q, void *arg, struct tune_error *err)
{
	struct optima *o = arg;
	struct optimum *r = report_grow(&o->v, &o->n, sizeof(*r));

	if (!r)
		return tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
	r->speedup = sqlite3_column_int64(q, 0);
	r->apps = sqlite3_column_int64(q, 1);
	report_column_text(q, 2, r->policy, sizeof(r->policy));
	report_column_text(q, 3, r->dispatch, sizeof(r->dispatch));
	r->median = sqlite3_column_double(q, 4);
	r->ci_low = sqlite3_column_double(q, 5);
	r->ci_high = sqlite3_column_double(q, 6);
	report_column_text(q, 7, r->decided, sizeof(r->decided));
	report_column_text(q, 8, r->size_class, sizeof(r->size_class));
	return 0;
}

/* The optima of platform's current fingerprint on the host that decided
 * sched last. Free o->v. */
static int load_optima(sqlite3 *db, const char *platform, struct optima *o, struct tune_error *err)
{
	o->v = NULL;
	o->n = 0;
	return report_each_row(db,
			       "SELECT o.speedup, o.apps, o.policy, COALESCE(o.dispatch, ''), o.median, o.ci_low, o.ci_high,"
			       " o.decided, o.class FROM sched_optima o"
			       " JOIN current_fingerprints USING (platform, host, fingerprint) WHERE o.platform = ?1"
			       " AND o.host = (SELECT host FROM optima WHERE platform = ?1 AND kernel = 'sched'"
			       " ORDER BY decided DESC, id DESC LIMIT 1) ORDER BY o.speedup, o.apps", platform, "optima",
			       optimum_row, o, err);
}

/* The policy chosen at most points (ties: the earlier in sched.h's order), or NULL. */
static const struct optimum *primary(const struct optima *o)
{
	const struct optimum *best = NULL;
	size_t best_n = 0;

	for (size_t i = 0; i < o->n; i++) {
		size_t n = 0;

		for (size_t k = 0; k < o->n; k++)
			n += !strcmp(o->v[k].policy, o->v[i].policy);
		if (n > best_n || (n == best_n && tune_name_index(sched_policy_names, o->v[i].policy) <
						     tune_name_index(sched_policy_names, best->policy))) {
			best = &o->v[i];
			best_n = n;
		}
	}
	return best;
}

static void block(FILE *out, const struct optima *o, const struct optimum *p)
{
	fprintf(out, "\n/* Scheduler: the policy chosen at most of the %zu measured (speedup, apps) points; values are "
		     "TUNED_SCHED_CO..TUNED_SCHED_EFT\n * (the order of kernels/sched/sched.h). Per point: */\n", o->n);
	for (size_t i = 0; i < o->n; i++) {
		const struct optimum *r = &o->v[i];

		fprintf(out, "/*   %lldx, %lld apps (%s): %s %s, median %.1f ns per task [%.1f, %.1f], decided at %s */\n",
			r->speedup, r->apps, report_c_comment(r->size_class), report_c_comment(r->policy),
			report_c_comment(r->dispatch), r->median, r->ci_low, r->ci_high, report_c_comment(r->decided));
	}
	fprintf(out, "#define TUNED_SCHED_POLICY %d /* %s */\n#define TUNED_SCHED_POLICY_NAME %s\n",
		tune_name_index(sched_policy_names, p->policy), report_c_comment(p->policy), report_c_string(p->policy));
	fprintf(out, "#define TUNED_SCHED_DISPATCH_INLINE %d\n", !strcmp(p->dispatch, "inline"));
	fprintf(out, "#define TUNED_SCHED_TABLE_LEN %zu\n#define TUNED_SCHED_TABLE_SPEEDUPS {", o->n);
	for (size_t i = 0; i < o->n; i++)
		fprintf(out, "%s%lld", i ? ", " : " ", o->v[i].speedup);
	fprintf(out, " }\n#define TUNED_SCHED_TABLE_APPS {");
	for (size_t i = 0; i < o->n; i++)
		fprintf(out, "%s%lld", i ? ", " : " ", o->v[i].apps);
	fprintf(out, " }\n#define TUNED_SCHED_TABLE_POLICIES {");
	for (size_t i = 0; i < o->n; i++)
		fprintf(out, "%s%d", i ? ", " : " ", tune_name_index(sched_policy_names, o->v[i].policy));
	fprintf(out, " }\n");
}

static int header(FILE *out, sqlite3 *db, const char *platform, struct tune_error *err)
{
	struct optima o;
	int rc = load_optima(db, platform, &o, err);
	const struct optimum *p = rc ? NULL : primary(&o);

	if (p)
		block(out, &o, p);
	else if (!rc)
		fprintf(out, "\n/* Not tuned on this platform yet: the scheduler policy (TUNED_SCHED_POLICY; run sweep "
			     "sched-policy). */\n");
	free(o.v);
	return rc;
}

static void header_functions(FILE *out)
{
	fprintf(out, "#if defined(TUNED_SCHED_POLICY)\n"
		     "#define TUNED_SCHED_CO 0\n#define TUNED_SCHED_AO 1\n#define TUNED_SCHED_FUSE 2\n"
		     "#define TUNED_SCHED_RANDOM 3\n#define TUNED_SCHED_EFT 4\n\n"
		     "/* The policy measured best at the nearest (speedup, apps) point, nearest on\n"
		     " * log scales: the speedup first, then the apps. */\n"
		     "static inline int tuned_sched_policy_for(unsigned speedup, unsigned apps)\n{\n"
		     "\tstatic const unsigned speedups[] = TUNED_SCHED_TABLE_SPEEDUPS;\n"
		     "\tstatic const unsigned app_counts[] = TUNED_SCHED_TABLE_APPS;\n"
		     "\tstatic const int policies[] = TUNED_SCHED_TABLE_POLICIES;\n"
		     "\tunsigned i, best = 0;\n\tdouble best_d = -1.0;\n\n"
		     "\tfor (i = 0; i < TUNED_SCHED_TABLE_LEN; i++) {\n"
		     "\t\tdouble ds = (double)(speedups[i] > speedup ? speedups[i] * 1.0 / (speedup ? speedup : 1)\n"
		     "\t\t\t\t\t\t       : speedup * 1.0 / speedups[i]);\n"
		     "\t\tdouble da = (double)(app_counts[i] > apps ? app_counts[i] * 1.0 / (apps ? apps : 1)\n"
		     "\t\t\t\t\t\t       : apps * 1.0 / app_counts[i]);\n"
		     "\t\tdouble d = ds * 1000.0 + da;\n\n"
		     "\t\tif (best_d < 0 || d < best_d) {\n\t\t\tbest = i;\n\t\t\tbest_d = d;\n\t\t}\n\t}\n"
		     "\treturn policies[best];\n}\n#endif\n\n");
}

/* The primary policy and the table; null when none. */
static int json(sqlite3 *db, const char *platform, json_t **out, struct tune_error *err)
{
	struct optima o;
	int rc = load_optima(db, platform, &o, err);
	const struct optimum *p = rc ? NULL : primary(&o);
	json_t *table;

	*out = rc ? NULL : json_null();
	if (!p) {
		free(o.v);
		return rc;
	}
	table = json_array();
	for (size_t i = 0; i < o.n; i++) {
		const struct optimum *r = &o.v[i];

		json_array_append_new(table, json_pack("{s:I, s:I, s:o, s:o, s:o, s:f, s:f, s:f, s:o}", "speedup",
						       (json_int_t)r->speedup, "apps", (json_int_t)r->apps, "class",
						       escape_json_text(r->size_class), "policy", escape_json_text(r->policy),
						       "dispatch", escape_json_text(r->dispatch), "median_ns_per_task",
						       r->median, "ci_low", r->ci_low, "ci_high", r->ci_high, "decided",
						       escape_json_text(r->decided)));
	}
	*out = json_pack("{s:o, s:o, s:o}", "policy", escape_json_text(p->policy), "dispatch",
			 escape_json_text(p->dispatch), "table", table);
	free(o.v);
	return 0;
}

const struct kernel_report sched_report = {
	.kernel = "sched",
	.charts = draw_charts,
	.header = header,
	.header_functions = header_functions,
	.json = json,
};
