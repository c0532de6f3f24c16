/* The sched kernel's results: makespan per policy against apps at each
 * speedup (the paper's Fig. 10 as tables), inline against worker dispatch
 * (Fig. 8), and the policy chosen at each point. */
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../kernels/sched/sched.h"
#include "report.h"

static void sched_sweep(sqlite3_stmt *q, void *elem)
{
	struct report_sched *r = elem;

	report_column_text(q, 0, r->platform, sizeof(r->platform));
	report_column_text(q, 1, r->host, sizeof(r->host));
	report_column_text(q, 2, r->fingerprint, sizeof(r->fingerprint));
}

static int sched_point(sqlite3_stmt *pts, void *elem)
{
	struct report_sched *r = elem;
	struct report_sched_point *p;

	if (r->npoints == REPORT_SCHED_MAX_POINTS)
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

int report_load_sched(sqlite3 *db, const char *platform, struct report_sched **out, size_t *n, struct tune_error *err)
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
		sizeof(struct report_sched), sched_sweep, sched_point,
	};
	void *v = NULL;
	int rc = report_load_sweeps(db, platform, &how, &v, n, err);

	*out = v;
	return rc;
}

const struct report_sched_point *report_sched_at(const struct report_sched *r, const char *policy,
						  const char *dispatch, long long speedup, long long apps)
{
	for (size_t i = 0; i < r->npoints; i++) {
		const struct report_sched_point *p = &r->points[i];

		if ((!policy || !strcmp(p->policy, policy)) && !strcmp(p->dispatch, dispatch) && p->speedup == speedup &&
		    p->apps == apps)
			return p;
	}
	return NULL;
}

/* The distinct values of a field over the points, ascending. */
static size_t distinct(const struct report_sched *r, int apps, long long *out, size_t max)
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

size_t report_sched_speedups(const struct report_sched *r, long long *out, size_t max)
{
	return distinct(r, 0, out, max);
}

size_t report_sched_apps(const struct report_sched *r, long long *out, size_t max)
{
	return distinct(r, 1, out, max);
}

/* The fastest policy of a dispatch at a point. */
static const struct report_sched_point *best_of(const struct report_sched *r, const char *dispatch, long long speedup,
						long long apps)
{
	const struct report_sched_point *b = NULL;

	for (size_t i = 0; i < r->npoints; i++) {
		const struct report_sched_point *p = &r->points[i];

		if (!strcmp(p->dispatch, dispatch) && p->speedup == speedup && p->apps == apps &&
		    (!b || p->makespan_ms < b->makespan_ms))
			b = p;
	}
	return b;
}

static int measured(const struct report_sched *r, const char *dispatch, long long speedup)
{
	for (size_t i = 0; i < r->npoints; i++)
		if (!strcmp(r->points[i].dispatch, dispatch) && r->points[i].speedup == speedup)
			return 1;
	return 0;
}

/* Fig. 10: rows of apps, a column per policy: makespan and its ratio to EFT. */
static void add_policies(struct rdoc *d, const struct report_sched *r, const char *dispatch, long long speedup,
			 const long long *apps, size_t napps)
{
	const char *head[1 + SCHED_POLICIES] = { "Apps" };
	char title[160];
	size_t t;

	for (int k = 0; k < SCHED_POLICIES; k++)
		head[1 + k] = sched_policy_names[k];
	snprintf(title, sizeof(title), "Makespan in ms per policy, accelerator %lldx faster, %s dispatch (ratio to eft; "
		 "* chosen)", speedup, dispatch);
	t = rdoc_table(d, title, 1 + SCHED_POLICIES, head);
	for (size_t a = 0; a < napps; a++) {
		const struct report_sched_point *eft = report_sched_at(r, "eft", dispatch, speedup, apps[a]);
		char cells[1 + SCHED_POLICIES][48];
		const char *row[1 + SCHED_POLICIES];
		int any = 0;

		snprintf(cells[0], sizeof(cells[0]), "%lld", apps[a]);
		row[0] = cells[0];
		for (int k = 0; k < SCHED_POLICIES; k++) {
			const struct report_sched_point *p = report_sched_at(r, sched_policy_names[k], dispatch, speedup,
									       apps[a]);

			snprintf(cells[1 + k], sizeof(cells[0]), "-");
			if (p && eft && eft->makespan_ms > 0)
				snprintf(cells[1 + k], sizeof(cells[0]), "%.2f (%.2fx)%s", p->makespan_ms,
					 p->makespan_ms / eft->makespan_ms, p->chosen ? " *" : "");
			else if (p)
				snprintf(cells[1 + k], sizeof(cells[0]), "%.2f%s", p->makespan_ms, p->chosen ? " *" : "");
			any |= p != NULL;
			row[1 + k] = cells[1 + k];
		}
		if (any)
			rdoc_row(d, t, row);
	}
}

/* Fig. 8: the best inline makespan against the best worker one, and the
 * dispatch overhead per task of each. */
static void add_dispatch(struct rdoc *d, const struct report_sched *r, const long long *speedups, size_t ns,
			 const long long *apps, size_t napps)
{
	static const char *const head[] = { "Speedup", "Apps", "Inline ms (policy)", "Worker ms (policy)",
					    "Worker / inline", "Overhead/task inline", "Overhead/task worker" };
	size_t t = (size_t)-1;

	for (size_t s = 0; s < ns; s++)
		for (size_t a = 0; a < napps; a++) {
			const struct report_sched_point *in = best_of(r, "inline", speedups[s], apps[a]);
			const struct report_sched_point *wk = best_of(r, "worker", speedups[s], apps[a]);
			char c[7][48];
			const char *row[7] = { c[0], c[1], c[2], c[3], c[4], c[5], c[6] };

			if (!in || !wk)
				continue;
			if (t == (size_t)-1)
				t = rdoc_table(d, "Inline against worker dispatch: the best policy of each", 7, head);
			snprintf(c[0], sizeof(c[0]), "%lldx", speedups[s]);
			snprintf(c[1], sizeof(c[1]), "%lld", apps[a]);
			snprintf(c[2], sizeof(c[2]), "%.2f (%s)", in->makespan_ms, in->policy);
			snprintf(c[3], sizeof(c[3]), "%.2f (%s)", wk->makespan_ms, wk->policy);
			snprintf(c[4], sizeof(c[4]), "%.2fx", in->makespan_ms > 0 ? wk->makespan_ms / in->makespan_ms : NAN);
			snprintf(c[5], sizeof(c[5]), "%.0f ns", in->overhead_ns);
			snprintf(c[6], sizeof(c[6]), "%.0f ns", wk->overhead_ns);
			rdoc_row(d, t, row);
		}
}

static void add_optima(struct rdoc *d, sqlite3 *db, const struct report_sched *r)
{
	static const char *const head[] = { "Speedup", "Apps", "Class", "Policy", "Dispatch", "Makespan ms [95% CI]",
					    "Runner-up", "Trials", "Decided" };
	sqlite3_stmt *q = NULL;
	size_t t = (size_t)-1;

	if (sqlite3_prepare_v2(db,
			       "SELECT speedup, apps, class, policy, COALESCE(dispatch, '-'), median, ci_low, ci_high,"
			       " runner_up, trials, decided, tasks_per_run FROM sched_optima WHERE platform = ?1 AND"
			       " host = ?2 AND fingerprint = ?3 ORDER BY speedup, apps", -1, &q, NULL) != SQLITE_OK)
		return;
	sqlite3_bind_text(q, 1, r->platform, -1, SQLITE_STATIC);
	sqlite3_bind_text(q, 2, r->host, -1, SQLITE_STATIC);
	sqlite3_bind_text(q, 3, r->fingerprint, -1, SQLITE_STATIC);
	while (sqlite3_step(q) == SQLITE_ROW) {
		double per = (double)sqlite3_column_int64(q, 11) / 1e6;
		char c[9][96];
		const char *row[9] = { c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7], c[8] };
		json_t *ru = json_loads((const char *)sqlite3_column_text(q, 8) ? (const char *)sqlite3_column_text(q, 8)
					: "null", JSON_DECODE_ANY, NULL);

		if (t == (size_t)-1)
			t = rdoc_table(d, "Scheduler optima: the policy and dispatch that finished first", 9, head);
		snprintf(c[0], sizeof(c[0]), "%lldx", sqlite3_column_int64(q, 0));
		snprintf(c[1], sizeof(c[1]), "%lld", sqlite3_column_int64(q, 1));
		report_column_text(q, 2, c[2], sizeof(c[2]));
		report_column_text(q, 3, c[3], sizeof(c[3]));
		report_column_text(q, 4, c[4], sizeof(c[4]));
		snprintf(c[5], sizeof(c[5]), "%.2f [%.2f, %.2f]", sqlite3_column_double(q, 5) * per,
			 sqlite3_column_double(q, 6) * per, sqlite3_column_double(q, 7) * per);
		snprintf(c[6], sizeof(c[6]), "-");
		/* The policy is the runner-up's variant ("policy" before schema 7). */
		if (json_is_object(ru))
			snprintf(c[6], sizeof(c[6]), "%s %s %.2f",
				 json_string_value(json_object_get(ru, json_object_get(ru, "policy") ? "policy" : "variant")),
				 json_string_value(json_object_get(ru, "dispatch")),
				 json_real_value(json_object_get(ru, "median")) * per);
		json_decref(ru);
		snprintf(c[7], sizeof(c[7]), "%lld", sqlite3_column_int64(q, 9));
		report_column_text(q, 10, c[8], sizeof(c[8]));
		rdoc_row(d, t, row);
	}
	sqlite3_finalize(q);
}

int report_sched(struct rdoc *d, sqlite3 *db, const char *platform, struct tune_error *err)
{
	struct report_sched *v;
	size_t n;
	int rc = report_load_sched(db, platform, &v, &n, err);

	for (size_t i = 0; !rc && i < n; i++) {
		long long speedups[32], apps[SCHED_MAX_APPS];
		size_t ns = report_sched_speedups(&v[i], speedups, 32), na = report_sched_apps(&v[i], apps, SCHED_MAX_APPS);

		rdoc_section(d, v[i].platform, v[i].host, v[i].fingerprint, -1);
		for (size_t s = 0; s < ns; s++)
			for (int disp = SCHED_INLINE; disp <= SCHED_WORKER; disp++)
				if (measured(&v[i], sched_dispatch_names[disp], speedups[s]))
					add_policies(d, &v[i], sched_dispatch_names[disp], speedups[s], apps, na);
		add_dispatch(d, &v[i], speedups, ns, apps, na);
		add_optima(d, db, &v[i]);
	}
	free(v);
	return rc;
}
