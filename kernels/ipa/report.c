/* The ipa kernel's own report: its header macros and JSON, the chosen T
 * with this host's measured wake-up cost (its probe); its tables and chart
 * are declared in views.sql. */
#include <jansson.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "../../report/report.h"

/* SQL: the wake-up cost its probe measured on host h (hosts.id): across
 * CPUs, on one; -1 when not measured. */
#define SQL_WAKEUP(h) REPORT_SQL_PROBE(h ".id", "ipa", "wakeup", "cross_cpu_ns") ", " \
	REPORT_SQL_PROBE(h ".id", "ipa", "wakeup", "same_cpu_ns")

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
	.header = header,
	.json = json,
};
