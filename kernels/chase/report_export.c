/* The chase's exports: its header macros (the default of the largest
 * working set out of cache, and per working set a table that g, variant,
 * hint and huge pages follow together) with their lookup functions, and
 * its optima as JSON (its samples in amaco2's CSV columns are declared in
 * views.sql). */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "../../report/escape.h"
#include "../../tuner/base/version.h"
#include "chase.h"
#include "report.h"

/* A chase optimum of one working set. */
struct optimum_row {
	long long size_mb, group_size, best_group_size, trials;
	int hugepages;
	double median, ci_low, ci_high;
	char size_class[16], variant[32], hint[16], decided[32], runner_up[1024], host[256];
};

struct optima {
	struct optimum_row *rows;
	size_t n;
};

static int optimum_row(sqlite3_stmt *q, void *arg, struct tune_error *err)
{
	struct optima *o = arg;
	struct optimum_row *r = report_grow(&o->rows, &o->n, sizeof(*r));

	if (!r)
		return tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
	r->size_mb = sqlite3_column_int64(q, 0);
	r->group_size = sqlite3_column_int64(q, 1);
	r->best_group_size = sqlite3_column_int64(q, 2);
	r->trials = sqlite3_column_int64(q, 3);
	r->hugepages = sqlite3_column_int(q, 4);
	r->median = sqlite3_column_double(q, 5);
	r->ci_low = sqlite3_column_double(q, 6);
	r->ci_high = sqlite3_column_double(q, 7);
	report_column_text(q, 8, r->size_class, sizeof(r->size_class));
	report_column_text(q, 9, r->variant, sizeof(r->variant));
	report_column_text(q, 10, r->hint, sizeof(r->hint));
	report_column_text(q, 11, r->decided, sizeof(r->decided));
	report_column_text(q, 12, r->runner_up, sizeof(r->runner_up));
	report_column_text(q, 13, r->host, sizeof(r->host));
	return 0;
}

/* The optima per working set of platform's current fingerprint, on the host
 * that decided the chase last. Free o->rows. */
static int load_optima(sqlite3 *db, const char *platform, struct optima *o, struct tune_error *err)
{
	o->rows = NULL;
	o->n = 0;
	return report_each_row(db,
			       "SELECT " CHASE_OPT_SIZE_MB ", " CHASE_OPT_G ", o.best_point, o.trials, " CHASE_OPT_HUGEPAGES ","
			       " o.median, o.ci_low, o.ci_high, o.size_class, o.variant, " CHASE_OPT_HINT ", o.decided,"
			       " COALESCE(o.runner_up, ''), o.host FROM optima o"
			       " JOIN current_fingerprints USING (platform, host, fingerprint)"
			       " WHERE o.platform = ?1 AND o.kernel = 'chase'"
			       " AND o.host = (SELECT host FROM optima WHERE platform = ?1 AND kernel = 'chase' ORDER BY decided DESC, id DESC"
			       " LIMIT 1) ORDER BY 1", platform, "optima", optimum_row, o, err);
}

/* The optimum that production code uses by default: the largest working set
 * out of cache, where latency hiding matters. */
static const struct optimum_row *primary(const struct optima *o)
{
	for (size_t i = o->n; i-- > 0;)
		if (!strcmp(o->rows[i].size_class, "dram"))
			return &o->rows[i];
	return &o->rows[o->n - 1];
}

/* How the optimum stands against its runner-up, as the headline says it. */
static void runner_comment(FILE *out, const struct optimum_row *p)
{
	json_t *ru = p->runner_up[0] ? json_loads(p->runner_up, 0, NULL) : NULL;
	const char *verdict = ru ? report_runner_verdict(ru, p->median, p->ci_low, p->ci_high, 0) : NULL;
	json_t *g = json_object_get(ru, "group_size");
	const char *variant = json_string_value(json_object_get(ru, "variant"));
	const char *hint = json_string_value(json_object_get(ru, "hint"));
	char gtext[32] = "";
	static const char *const says[][2] = {
		{ "knee", "the runner-up is faster but within the tolerance: the smaller g is kept" },
		{ "tie", "the intervals hold no difference" },
		{ "ahead", "the intervals are apart" },
	};

	if (json_is_integer(g))
		snprintf(gtext, sizeof(gtext), " g=%lld", (long long)json_integer_value(g));
	for (size_t i = 0; verdict && i < sizeof(says) / sizeof(says[0]); i++)
		if (!strcmp(verdict, says[i][0]))
			fprintf(out, "/* against the runner-up (%s%s%s%s): %s, %s%s */\n",
				report_c_comment(variant ? variant : "?"), hint ? " " : "", report_c_comment(hint ? hint : ""),
				gtext, verdict,
				says[i][1], json_object_get(ru, "paired") ? ", run by run" : "");
	json_decref(ru);
}

static void block(FILE *out, const struct optima *o)
{
	const struct optimum_row *p = primary(o);
	int variant = tune_name_index(chase_variant_names, p->variant);
	int hint = p->hint[0] ? tune_name_index(chase_hint_names, p->hint) : CHASE_HINT_PLDL1KEEP;

	if (hint < 0)
		hint = 0;
	fprintf(out, "/* %lld MB (%s): %s%s%s, g=%lld (fastest g=%lld), median %.1f ns/lookup [%.1f, %.1f],\n"
		     " * decided on host %s at %s by tune %s */\n",
		p->size_mb, report_c_comment(p->size_class), report_c_comment(p->variant), p->hint[0] ? " " : "",
		report_c_comment(p->hint), p->group_size, p->best_group_size, p->median, p->ci_low, p->ci_high,
		report_c_comment(p->host), report_c_comment(p->decided), TUNE_VERSION);
	runner_comment(out, p);
	fprintf(out, "#define TUNED_CHASE_VARIANT %d /* %s */\n", variant < 0 ? CHASE_VARIANT_INTERLEAVED_PREFETCH : variant,
		report_c_comment(p->variant));
	fprintf(out, "#define TUNED_CHASE_GROUP_SIZE %lld\n", p->group_size);
	fprintf(out, "#define TUNED_CHASE_PREFETCH_HINT %d /* %s: prfm %s on AArch64, %s on x86-64%s */\n", hint,
		chase_hint_names[hint], chase_hint_names[hint], chase_hint_x86[hint],
		p->hint[0] ? "" : "; the chosen variant does not prefetch");
	fprintf(out, "#define TUNED_CHASE_PREFETCH_HINT_NAME \"%s\"\n", chase_hint_names[hint]);
	fprintf(out, "#define TUNED_CHASE_HUGEPAGES %d\n\n", p->hugepages);
	fprintf(out, "/* Per working set:\n");
	for (size_t i = 0; i < o->n; i++) {
		const struct optimum_row *r = &o->rows[i];

		fprintf(out, " *   %6lld MB %-5s %s%s%s g=%lld, median %.1f ns/lookup [%.1f, %.1f], %lld trials, %s\n",
			r->size_mb, report_c_comment(r->size_class), report_c_comment(r->variant), r->hint[0] ? " " : "",
			report_c_comment(r->hint), r->group_size, r->median, r->ci_low, r->ci_high, r->trials,
			report_c_comment(r->decided));
	}
	fprintf(out, " */\n#define TUNED_CHASE_TABLE_LEN %zu\n#define TUNED_CHASE_TABLE_SIZES_MB {", o->n);
	for (size_t i = 0; i < o->n; i++)
		fprintf(out, "%s%lld", i ? ", " : " ", o->rows[i].size_mb);
	fprintf(out, " }\n#define TUNED_CHASE_TABLE_GROUP_SIZES {");
	for (size_t i = 0; i < o->n; i++)
		fprintf(out, "%s%lld", i ? ", " : " ", o->rows[i].group_size);
	/* The variant, hint and pages of each size's own optimum, so that they
	 * follow the size as g does (-1: no prefetch, or not known). */
	fprintf(out, " }\n#define TUNED_CHASE_TABLE_VARIANTS {");
	for (size_t i = 0; i < o->n; i++)
		fprintf(out, "%s%d", i ? ", " : " ", tune_name_index(chase_variant_names, o->rows[i].variant));
	fprintf(out, " }\n#define TUNED_CHASE_TABLE_HINTS {");
	for (size_t i = 0; i < o->n; i++)
		fprintf(out, "%s%d", i ? ", " : " ", tune_name_index(chase_hint_names, o->rows[i].hint));
	fprintf(out, " }\n#define TUNED_CHASE_TABLE_HUGEPAGES {");
	for (size_t i = 0; i < o->n; i++)
		fprintf(out, "%s%d", i ? ", " : " ", o->rows[i].hugepages);
	fprintf(out, " }\n\n");
}

static int header(FILE *out, sqlite3 *db, const char *platform, struct tune_error *err)
{
	struct optima o;
	int rc = load_optima(db, platform, &o, err);

	if (!rc && o.n)
		block(out, &o);
	else if (!rc)
		fprintf(out, "/* Not tuned on this platform yet: the pointer chase (TUNED_CHASE_*; run sweep "
			     "chase-tune). */\n");
	free(o.rows);
	return rc;
}

static void header_functions(FILE *out)
{
	fprintf(out, "#if defined(TUNED_CHASE_GROUP_SIZE)\n"
		     "/* The row of the tuning table for a working set of bytes: the smallest tuned\n"
		     " * size that holds it, else the largest. */\n"
		     "static inline unsigned tuned_chase_row_for(unsigned long long bytes)\n{\n"
		     "\tstatic const unsigned long long sizes_mb[] = TUNED_CHASE_TABLE_SIZES_MB;\n"
		     "\tunsigned i;\n\n"
		     "\tfor (i = 0; i + 1 < TUNED_CHASE_TABLE_LEN; i++)\n"
		     "\t\tif (bytes <= sizes_mb[i] << 20)\n\t\t\tbreak;\n"
		     "\treturn i;\n}\n\n"
		     "/* The tuned g, variant (CHASE_VARIANT_*), prefetch hint (CHASE_HINT_*, -1: none)\n"
		     " * and huge pages for a working set of bytes, all from the same row. */\n"
		     "static inline unsigned tuned_chase_group_size_for(unsigned long long bytes)\n{\n"
		     "\tstatic const unsigned groups[] = TUNED_CHASE_TABLE_GROUP_SIZES;\n\n"
		     "\treturn groups[tuned_chase_row_for(bytes)];\n}\n\n"
		     "static inline int tuned_chase_variant_for(unsigned long long bytes)\n{\n"
		     "\tstatic const int variants[] = TUNED_CHASE_TABLE_VARIANTS;\n\n"
		     "\treturn variants[tuned_chase_row_for(bytes)];\n}\n\n"
		     "static inline int tuned_chase_hint_for(unsigned long long bytes)\n{\n"
		     "\tstatic const int hints[] = TUNED_CHASE_TABLE_HINTS;\n\n"
		     "\treturn hints[tuned_chase_row_for(bytes)];\n}\n\n"
		     "static inline int tuned_chase_hugepages_for(unsigned long long bytes)\n{\n"
		     "\tstatic const int pages[] = TUNED_CHASE_TABLE_HUGEPAGES;\n\n"
		     "\treturn pages[tuned_chase_row_for(bytes)];\n}\n#endif\n\n");
}

/* The primary choice and the table; null when none. */
static int json(sqlite3 *db, const char *platform, json_t **out, struct tune_error *err)
{
	struct optima o;
	const struct optimum_row *p;
	json_t *table;
	int rc = load_optima(db, platform, &o, err);

	*out = NULL;
	if (rc || !o.n) {
		free(o.rows);
		*out = rc ? NULL : json_null();
		return rc;
	}
	p = primary(&o);
	table = json_array();
	for (size_t k = 0; k < o.n; k++) {
		const struct optimum_row *r = &o.rows[k];
		json_t *ru = r->runner_up[0] ? json_loads(r->runner_up, 0, NULL) : NULL;

		json_array_append_new(table, json_pack(
			"{s:I, s:o, s:o, s:o, s:I, s:I, s:b, s:f, s:f, s:f, s:o, s:I, s:o}",
			"size_mb", (json_int_t)r->size_mb, "size_class", escape_json_text(r->size_class), "variant",
			escape_json_text(r->variant), "hint", escape_json_text(r->hint[0] ? r->hint : NULL),
			"group_size", (json_int_t)r->group_size,
			"best_group_size", (json_int_t)r->best_group_size, "hugepages", r->hugepages,
			"median_ns_per_lookup", r->median, "ci_low", r->ci_low, "ci_high", r->ci_high,
			"runner_up", ru ? ru : json_null(), "trials", (json_int_t)r->trials, "decided",
			escape_json_text(r->decided)));
	}
	*out = json_pack("{s:o, s:I, s:o, s:o}", "variant", escape_json_text(p->variant), "group_size",
			 (json_int_t)p->group_size, "hint", escape_json_text(p->hint[0] ? p->hint : NULL), "table", table);
	free(o.rows);
	return 0;
}

const struct kernel_report chase_report = {
	.kernel = "chase",
	.header_note = " * TUNED_CHASE_PREFETCH_HINT is a CHASE_HINT_* value of kernels/chase/chase.h:\n"
		       " * #define CHASE_HINT TUNED_CHASE_PREFETCH_HINT before including it.\n",
	.header = header,
	.header_functions = header_functions,
	.json = json,
};
