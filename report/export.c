/* The optima as a C header for production builds: a block per platform,
 * selected by TUNED_PLATFORM, with each kernel's values and tables. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "../kernels/chase/chase.h"
#include "../kernels/sched/sched.h"
#include "../tuner/base/version.h"
#include "escape.h"
#include "export_internal.h"
#include "report.h"

/* Text from the database made safe for the header: cm() inside a comment,
 * cs() as a string literal. Up to 8 results live at once (one fprintf's
 * worth); the export runs on one thread. */
static const char *cm(const char *s)
{
	static char ring[8][600];
	static unsigned next;

	return escape_c_comment(s, ring[next++ % 8], sizeof(ring[0]));
}

static const char *cs(const char *s)
{
	static char ring[4][1200];
	static unsigned next;

	return escape_c_string(s, ring[next++ % 4], sizeof(ring[0]));
}

static void chase_block(FILE *out, const struct platform_optima *po)
{
	const struct optimum_row *p = export_primary(po);
	int variant = tune_name_index(chase_variant_names, p->variant);
	int hint = p->hint[0] ? tune_name_index(chase_hint_names, p->hint) : CHASE_HINT_PLDL1KEEP;

	fprintf(out, "/* %lld MB (%s): %s%s%s, g=%lld (fastest g=%lld), median %.1f ns/lookup [%.1f, %.1f],\n"
		     " * decided on host %s at %s by tune %s */\n",
		p->size_mb, cm(p->size_class), cm(p->variant), p->hint[0] ? " " : "", cm(p->hint), p->group_size,
		p->best_group_size, p->median, p->ci_low, p->ci_high, cm(po->host), cm(p->decided), TUNE_VERSION);
	fprintf(out, "#define TUNED_CHASE_VARIANT %d /* %s */\n", variant < 0 ? CHASE_VARIANT_INTERLEAVED_PREFETCH : variant,
		cm(p->variant));
	fprintf(out, "#define TUNED_CHASE_GROUP_SIZE %lld\n", p->group_size);
	fprintf(out, "#define TUNED_CHASE_PREFETCH_HINT %d /* %s: prfm %s on AArch64, %s on x86-64%s */\n",
		hint < 0 ? 0 : hint, chase_hint_names[hint < 0 ? 0 : hint], chase_hint_names[hint < 0 ? 0 : hint],
		chase_hint_x86[hint < 0 ? 0 : hint], p->hint[0] ? "" : "; the chosen variant does not prefetch");
	fprintf(out, "#define TUNED_CHASE_PREFETCH_HINT_NAME \"%s\"\n", chase_hint_names[hint < 0 ? 0 : hint]);
	fprintf(out, "#define TUNED_CHASE_HUGEPAGES %d\n\n", p->hugepages);
	fprintf(out, "/* Per working set:\n");
	for (size_t i = 0; i < po->n; i++) {
		const struct optimum_row *r = &po->rows[i];

		fprintf(out, " *   %6lld MB %-5s %s%s%s g=%lld, median %.1f ns/lookup [%.1f, %.1f], %lld trials, %s\n",
			r->size_mb, cm(r->size_class), cm(r->variant), r->hint[0] ? " " : "", cm(r->hint), r->group_size,
			r->median, r->ci_low, r->ci_high, r->trials, cm(r->decided));
	}
	fprintf(out, " */\n#define TUNED_CHASE_TABLE_LEN %zu\n#define TUNED_CHASE_TABLE_SIZES_MB {", po->n);
	for (size_t i = 0; i < po->n; i++)
		fprintf(out, "%s%lld", i ? ", " : " ", po->rows[i].size_mb);
	fprintf(out, " }\n#define TUNED_CHASE_TABLE_GROUP_SIZES {");
	for (size_t i = 0; i < po->n; i++)
		fprintf(out, "%s%lld", i ? ", " : " ", po->rows[i].group_size);
	/* The variant, hint and pages of each size's own optimum, so that they
	 * follow the size as g does (-1: no prefetch, or not known). */
	fprintf(out, " }\n#define TUNED_CHASE_TABLE_VARIANTS {");
	for (size_t i = 0; i < po->n; i++)
		fprintf(out, "%s%d", i ? ", " : " ", tune_name_index(chase_variant_names, po->rows[i].variant));
	fprintf(out, " }\n#define TUNED_CHASE_TABLE_HINTS {");
	for (size_t i = 0; i < po->n; i++)
		fprintf(out, "%s%d", i ? ", " : " ", tune_name_index(chase_hint_names, po->rows[i].hint));
	fprintf(out, " }\n#define TUNED_CHASE_TABLE_HUGEPAGES {");
	for (size_t i = 0; i < po->n; i++)
		fprintf(out, "%s%d", i ? ", " : " ", po->rows[i].hugepages);
	fprintf(out, " }\n\n");
}

static void ipa_block(FILE *out, const struct ipa_optimum *o)
{
	if (!o->found) {
		fprintf(out, "/* Not tuned on this platform yet: the IPA poll threshold (TUNED_IPA_POLL_THRESHOLD_NS; "
			     "run sweep ipa-threshold). */\n");
		return;
	}
	fprintf(out, "/* IPA: poll for a call predicted to take less than this, block otherwise.\n"
		     " * Median %.1f ns per call [%.1f, %.1f], decided at %s", o->median, o->ci_low, o->ci_high,
		cm(o->decided));
	if (o->wakeup_cross_ns >= 0)
		fprintf(out, ";\n * this host's wake-up cost: %.0f ns across CPUs, %.0f ns on one CPU */\n",
			o->wakeup_cross_ns, o->wakeup_same_ns);
	else
		fprintf(out, " */\n");
	if (o->threshold_ns == LLONG_MAX)
		fprintf(out, "#define TUNED_IPA_POLL_THRESHOLD_NS 18446744073709551615ull /* always poll */\n");
	else
		fprintf(out, "#define TUNED_IPA_POLL_THRESHOLD_NS %lldull%s\n", o->threshold_ns,
			o->threshold_ns == 0 ? " /* always block */" : "");
	if (o->wakeup_cross_ns >= 0)
		fprintf(out, "#define TUNED_IPA_WAKEUP_NS %.0f\n", o->wakeup_cross_ns);
}

static void sched_block(FILE *out, const struct platform_optima *po)
{
	const struct sched_row *p = export_sched_primary(po);

	if (!p) {
		fprintf(out, "\n/* Not tuned on this platform yet: the scheduler policy (TUNED_SCHED_POLICY; run sweep "
			     "sched-policy). */\n");
		return;
	}
	fprintf(out, "\n/* Scheduler: the policy chosen at most of the %zu measured (speedup, apps) points; values are "
		     "TUNED_SCHED_CO..TUNED_SCHED_EFT\n * (the order of kernels/sched/sched.h). Per point: */\n", po->nsched);
	for (size_t i = 0; i < po->nsched; i++) {
		const struct sched_row *r = &po->sched[i];

		fprintf(out, "/*   %lldx, %lld apps (%s): %s %s, median %.1f ns per task [%.1f, %.1f], decided at %s */\n",
			r->speedup, r->apps, cm(r->size_class), cm(r->policy), cm(r->dispatch), r->median, r->ci_low,
			r->ci_high, cm(r->decided));
	}
	fprintf(out, "#define TUNED_SCHED_POLICY %d /* %s */\n#define TUNED_SCHED_POLICY_NAME %s\n",
		tune_name_index(sched_policy_names, p->policy), cm(p->policy), cs(p->policy));
	fprintf(out, "#define TUNED_SCHED_DISPATCH_INLINE %d\n", !strcmp(p->dispatch, "inline"));
	fprintf(out, "#define TUNED_SCHED_TABLE_LEN %zu\n#define TUNED_SCHED_TABLE_SPEEDUPS {", po->nsched);
	for (size_t i = 0; i < po->nsched; i++)
		fprintf(out, "%s%lld", i ? ", " : " ", po->sched[i].speedup);
	fprintf(out, " }\n#define TUNED_SCHED_TABLE_APPS {");
	for (size_t i = 0; i < po->nsched; i++)
		fprintf(out, "%s%lld", i ? ", " : " ", po->sched[i].apps);
	fprintf(out, " }\n#define TUNED_SCHED_TABLE_POLICIES {");
	for (size_t i = 0; i < po->nsched; i++)
		fprintf(out, "%s%d", i ? ", " : " ", tune_name_index(sched_policy_names, po->sched[i].policy));
	fprintf(out, " }\n");
}

static int header_block(FILE *out, sqlite3 *db, const struct platform_optima *po, struct tune_error *err)
{
	int rc;

	char m[80];

	escape_c_identifier(po->name, 1, m, sizeof(m));
	fprintf(out, "#if defined(TUNED_SELECTED_%s)\n", m);
	fprintf(out, "#define TUNED_PLATFORM_NAME %s\n#define TUNED_HOST %s\n", cs(po->name), cs(po->host));
	fprintf(out, "#define TUNED_HOST_FINGERPRINT %s\n#define TUNED_DECIDED_AT %s\n\n", cs(po->fingerprint),
		cs(po->decided));
	if (po->n)
		chase_block(out, po);
	else
		fprintf(out, "/* Not tuned on this platform yet: the pointer chase (TUNED_CHASE_*; run sweep "
			     "chase-tune). */\n");
	ipa_block(out, &po->ipa);
	sched_block(out, po);
	rc = report_kernels_header(out, db, po->name, err);
	fprintf(out, "#endif\n\n");
	return rc;
}

int report_header(sqlite3 *db, const char *const *platforms, size_t n, FILE *out, struct tune_error *err)
{
	struct platform_optima *po = NULL;
	char now[32], m[80];
	int rc = export_load_all(db, platforms, n, &po, err);

	if (rc)
		goto out;
	export_now_utc(now, sizeof(now));
	fprintf(out, "/* tuned_config.h: generated by tune %s at %s. Do not edit: regenerate with\n"
		     " *   tune export header", TUNE_VERSION, now);
	for (size_t i = 0; i < n; i++)
		fprintf(out, " --platform %s", cm(platforms[i]));
	fprintf(out, " -o FILE\n *\n * Select a platform with -DTUNED_PLATFORM=<NAME> (");
	for (size_t i = 0; i < n; i++) {
		escape_c_identifier(platforms[i], 1, m, sizeof(m));
		fprintf(out, "%s%s", i ? ", " : "", m);
	}
	fprintf(out, "; any other NAME is an\n * #error) or -DTUNED_PLATFORM_<NAME>; without either the first platform of the\n"
		     " * target's architecture is used. "
		     "TUNED_CHASE_PREFETCH_HINT is a CHASE_HINT_* value of\n * kernels/chase/chase.h: "
		     "#define CHASE_HINT TUNED_CHASE_PREFETCH_HINT before including it. */\n");
	fprintf(out, "#ifndef TUNED_CONFIG_H\n#define TUNED_CONFIG_H\n\n#define TUNED_GENERATED_AT \"%s\"\n"
		     "#define TUNED_TUNE_VERSION \"%s\"\n\n", now, TUNE_VERSION);
	/* -DTUNED_PLATFORM=NAME is checked: a token that names no platform here
	 * pastes into an undefined macro, 0 in #if. */
	fprintf(out, "#define TUNED_CAT_(a, b) a##b\n#define TUNED_CAT(a, b) TUNED_CAT_(a, b)\n");
	for (size_t i = 0; i < n; i++) {
		escape_c_identifier(platforms[i], 1, m, sizeof(m));
		fprintf(out, "#define TUNED_PLATFORM_NUMBER_%s %zu\n", m, i + 1);
	}
	fprintf(out, "#if defined(TUNED_PLATFORM) && TUNED_CAT(TUNED_PLATFORM_NUMBER_, TUNED_PLATFORM) == 0\n"
		     "#error \"tuned_config.h: TUNED_PLATFORM names none of this header's platforms (");
	for (size_t i = 0; i < n; i++) {
		escape_c_identifier(platforms[i], 1, m, sizeof(m));
		fprintf(out, "%s%s", i ? ", " : "", m);
	}
	fprintf(out, "); regenerate it with tune export header --platform NAME\"\n#endif\n");
	for (size_t i = 0; i < n; i++) {
		escape_c_identifier(platforms[i], 1, m, sizeof(m));
		fprintf(out, "#%s defined(TUNED_PLATFORM_%s) || (defined(TUNED_PLATFORM) && TUNED_CAT(TUNED_PLATFORM_NUMBER_, "
			     "TUNED_PLATFORM) == %zu)\n#define TUNED_SELECTED_%s 1\n", i ? "elif" : "if", m, i + 1, m);
	}
	{
		static const char *const arches[][2] = { { "x86_64", "__x86_64__" }, { "aarch64", "__aarch64__" } };

		for (size_t a = 0; a < 2; a++)
			for (size_t i = 0; i < n; i++)
				if (!strcmp(po[i].arch, arches[a][0])) {
					escape_c_identifier(platforms[i], 1, m, sizeof(m));
					fprintf(out, "#elif defined(%s) /* fallback for %s */\n#define TUNED_SELECTED_%s 1\n",
						arches[a][1], arches[a][0], m);
					break;
				}
	}
	fprintf(out, "#endif\n\n");
	for (size_t i = 0; i < n && !rc; i++)
		rc = header_block(out, db, &po[i], err);
	if (rc)
		goto out;
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
		     "\treturn pages[tuned_chase_row_for(bytes)];\n}\n#endif\n\n"
		     "#if defined(TUNED_SCHED_POLICY)\n"
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
		     "\treturn policies[best];\n}\n#endif\n\n#endif /* TUNED_CONFIG_H */\n");
out:
	export_free_all(po, n);
	return rc;
}

int report_header_newest(sqlite3 *db, const char *platform, char *decided, size_t len, struct tune_error *err)
{
	struct platform_optima po;
	int rc = export_load(db, platform, &po, err);

	if (!rc)
		snprintf(decided, len, "%s", po.decided);
	free(po.rows);
	free(po.sched);
	return rc;
}
