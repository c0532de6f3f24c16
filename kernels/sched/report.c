/* The sched kernel's own report: its header macros with a lookup by
 * (speedup, apps), and its JSON; its tables and chart (the paper's Fig. 10)
 * are declared in views.sql. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "../../report/escape.h"
#include "../../report/report.h"
#include "sched.h"

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
	.header = header,
	.header_functions = header_functions,
	.json = json,
};
