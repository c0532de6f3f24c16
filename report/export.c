/* The optima as a C header for production builds, and as JSON. */
#include <ctype.h>
#include <limits.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../kernels/chase/chase.h"
#include "../kernels/sched/sched.h"
#include "../tuner/version.h"
#include "escape.h"
#include "report.h"

struct optimum_row {
	long long size_mb, group_size, best_group_size, trials;
	int hugepages;
	double median, ci_low, ci_high;
	char size_class[16], variant[32], hint[16], decided[32], runner_up[512];
};

/* The IPA optimum: the polling threshold and what it was measured against. */
struct ipa_optimum {
	int found;
	long long threshold_ns; /* LLONG_MAX: always poll */
	double median, ci_low, ci_high, wakeup_cross_ns, wakeup_same_ns; /* wake-ups < 0: not measured */
	char decided[32];
};

/* A sched optimum: the policy and dispatch that finished first at a point. */
struct sched_row {
	long long speedup, apps;
	double median, ci_low, ci_high; /* ns per task */
	char policy[16], dispatch[16], size_class[32], decided[32];
};

struct platform_optima {
	const char *name; /* borrowed from the caller's list: whole, whatever its length */
	char arch[16], host[256], fingerprint[32], decided[32];
	struct optimum_row *rows; /* chase, by working set */
	size_t n;
	struct ipa_optimum ipa;
	struct sched_row *sched; /* by speedup, then apps */
	size_t nsched;
	size_t nkernels;         /* optima of kernels described by their manifest alone */
};

/* The IPA optimum of po's platform (its current fingerprint, the host that
 * decided last), with that host's wake-up cost. */
static int load_ipa(sqlite3 *db, struct platform_optima *po, struct tune_error *err)
{
	sqlite3_stmt *q = NULL;
	int rc;

	if (sqlite3_prepare_v2(db,
			       "SELECT o.threshold_ns, o.median, o.ci_low, o.ci_high, o.decided, o.host, o.fingerprint,"
			       " p.arch, COALESCE(h.wakeup_cross_ns, -1), COALESCE(h.wakeup_same_ns, -1) FROM optima o"
			       " JOIN current_fingerprints USING (platform, host, fingerprint)"
			       " JOIN platforms p ON p.name = o.platform JOIN sweeps s ON s.id = o.sweep_id"
			       " JOIN hosts h ON h.id = s.host_id WHERE o.platform = ?1 AND o.kernel = 'ipa'"
			       " ORDER BY o.decided DESC, o.id DESC LIMIT 1", -1, &q, NULL) != SQLITE_OK)
		return tune_fail(err, TUNE_ERR_STORE, "cannot read optima: %s", sqlite3_errmsg(db));
	sqlite3_bind_text(q, 1, po->name, -1, SQLITE_STATIC);
	if ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		struct ipa_optimum *o = &po->ipa;

		o->found = 1;
		o->threshold_ns = sqlite3_column_int64(q, 0);
		o->median = sqlite3_column_double(q, 1);
		o->ci_low = sqlite3_column_double(q, 2);
		o->ci_high = sqlite3_column_double(q, 3);
		report_column_text(q, 4, o->decided, sizeof(o->decided));
		o->wakeup_cross_ns = sqlite3_column_double(q, 8);
		o->wakeup_same_ns = sqlite3_column_double(q, 9);
		if (!po->n) {
			report_column_text(q, 5, po->host, sizeof(po->host));
			report_column_text(q, 6, po->fingerprint, sizeof(po->fingerprint));
			report_column_text(q, 7, po->arch, sizeof(po->arch));
		}
		if (strcmp(o->decided, po->decided) > 0)
			snprintf(po->decided, sizeof(po->decided), "%s", o->decided);
	}
	sqlite3_finalize(q);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0
		: tune_fail(err, TUNE_ERR_STORE, "cannot read optima: %s", sqlite3_errmsg(db));
}

/* The sched optima of po's platform (its current fingerprint, the host that
 * decided last), by speedup and apps. */
static int load_sched(sqlite3 *db, struct platform_optima *po, struct tune_error *err)
{
	sqlite3_stmt *q = NULL;
	int rc;

	if (sqlite3_prepare_v2(db,
			       "SELECT o.speedup, o.apps, o.variant, COALESCE(o.dispatch, ''), o.median, o.ci_low, o.ci_high,"
			       " o.decided, o.size_class, o.host, o.fingerprint, p.arch FROM optima o"
			       " JOIN current_fingerprints USING (platform, host, fingerprint)"
			       " JOIN platforms p ON p.name = o.platform WHERE o.platform = ?1 AND o.kernel = 'sched'"
			       " AND o.host = (SELECT host FROM optima WHERE platform = ?1 AND kernel = 'sched'"
			       " ORDER BY decided DESC, id DESC LIMIT 1) ORDER BY o.speedup, o.apps", -1, &q, NULL) != SQLITE_OK)
		return tune_fail(err, TUNE_ERR_STORE, "cannot read optima: %s", sqlite3_errmsg(db));
	sqlite3_bind_text(q, 1, po->name, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		struct sched_row *nv = realloc(po->sched, (po->nsched + 1) * sizeof(*nv)), *r;

		if (!nv) {
			sqlite3_finalize(q);
			return tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
		}
		po->sched = nv;
		r = &nv[po->nsched++];
		r->speedup = sqlite3_column_int64(q, 0);
		r->apps = sqlite3_column_int64(q, 1);
		report_column_text(q, 2, r->policy, sizeof(r->policy));
		report_column_text(q, 3, r->dispatch, sizeof(r->dispatch));
		r->median = sqlite3_column_double(q, 4);
		r->ci_low = sqlite3_column_double(q, 5);
		r->ci_high = sqlite3_column_double(q, 6);
		report_column_text(q, 7, r->decided, sizeof(r->decided));
		report_column_text(q, 8, r->size_class, sizeof(r->size_class));
		if (!po->n && !po->ipa.found && po->nsched == 1) {
			report_column_text(q, 9, po->host, sizeof(po->host));
			report_column_text(q, 10, po->fingerprint, sizeof(po->fingerprint));
			report_column_text(q, 11, po->arch, sizeof(po->arch));
		}
		if (strcmp(r->decided, po->decided) > 0)
			snprintf(po->decided, sizeof(po->decided), "%s", r->decided);
	}
	sqlite3_finalize(q);
	return rc == SQLITE_DONE ? 0 : tune_fail(err, TUNE_ERR_STORE, "cannot read optima: %s", sqlite3_errmsg(db));
}

/* The optima of platform's current fingerprint, on the host that decided last. */
/* How many optima of manifest kernels po's platform has; the host, arch and
 * fingerprint from the newest when nothing else gave them. */
static int load_kernels(sqlite3 *db, struct platform_optima *po, struct tune_error *err)
{
	sqlite3_stmt *q = NULL;
	int rc;

	if (sqlite3_prepare_v2(db,
			       "SELECT o.host, o.fingerprint, p.arch, o.decided, (SELECT COUNT(*) FROM optima x"
			       " JOIN current_fingerprints USING (platform, host, fingerprint) WHERE x.platform = ?1 AND"
			       " x.exports IS NOT NULL) FROM optima o JOIN current_fingerprints USING (platform, host,"
			       " fingerprint) JOIN platforms p ON p.name = o.platform WHERE o.platform = ?1 AND"
			       " o.exports IS NOT NULL ORDER BY o.decided DESC, o.id DESC LIMIT 1", -1, &q, NULL) != SQLITE_OK)
		return tune_fail(err, TUNE_ERR_STORE, "cannot read optima: %s", sqlite3_errmsg(db));
	sqlite3_bind_text(q, 1, po->name, -1, SQLITE_STATIC);
	if ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		char decided[32];

		po->nkernels = (size_t)sqlite3_column_int64(q, 4);
		if (!po->host[0]) {
			report_column_text(q, 0, po->host, sizeof(po->host));
			report_column_text(q, 1, po->fingerprint, sizeof(po->fingerprint));
			report_column_text(q, 2, po->arch, sizeof(po->arch));
		}
		report_column_text(q, 3, decided, sizeof(decided));
		if (strcmp(decided, po->decided) > 0)
			snprintf(po->decided, sizeof(po->decided), "%s", decided);
	}
	sqlite3_finalize(q);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : tune_fail(err, TUNE_ERR_STORE, "cannot read optima: %s",
								     sqlite3_errmsg(db));
}

static int load(sqlite3 *db, const char *platform, struct platform_optima *po, struct tune_error *err)
{
	sqlite3_stmt *q = NULL;
	int rc;

	memset(po, 0, sizeof(*po));
	if (sqlite3_prepare_v2(db,
			       "SELECT o.size_mb, o.group_size, o.best_group_size, o.trials, o.hugepages, o.median,"
			       " o.ci_low, o.ci_high, o.size_class, o.variant, COALESCE(o.hint, ''), o.decided,"
			       " COALESCE(o.runner_up, ''), o.host, o.fingerprint, p.arch FROM optima o"
			       " JOIN current_fingerprints USING (platform, host, fingerprint)"
			       " JOIN platforms p ON p.name = o.platform WHERE o.platform = ?1 AND o.kernel = 'chase'"
			       " AND o.host = (SELECT host FROM optima WHERE platform = ?1 AND kernel = 'chase' ORDER BY decided DESC, id DESC"
			       " LIMIT 1) ORDER BY o.size_mb", -1, &q, NULL) != SQLITE_OK)
		return tune_fail(err, TUNE_ERR_STORE, "cannot read optima: %s", sqlite3_errmsg(db));
	sqlite3_bind_text(q, 1, platform, -1, SQLITE_STATIC);
	po->name = platform;
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		struct optimum_row *nr = realloc(po->rows, (po->n + 1) * sizeof(*nr)), *r;

		if (!nr) {
			sqlite3_finalize(q);
			return tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
		}
		po->rows = nr;
		r = &po->rows[po->n++];
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
		report_column_text(q, 13, po->host, sizeof(po->host));
		report_column_text(q, 14, po->fingerprint, sizeof(po->fingerprint));
		report_column_text(q, 15, po->arch, sizeof(po->arch));
		if (strcmp(r->decided, po->decided) > 0)
			snprintf(po->decided, sizeof(po->decided), "%s", r->decided);
	}
	sqlite3_finalize(q);
	if (rc != SQLITE_DONE)
		return tune_fail(err, TUNE_ERR_STORE, "cannot read optima: %s", sqlite3_errmsg(db));
	if ((rc = load_ipa(db, po, err)) != 0 || (rc = load_sched(db, po, err)) != 0 ||
	    (rc = load_kernels(db, po, err)) != 0)
		return rc;
	if (!po->n && !po->ipa.found && !po->nsched && !po->nkernels)
		return tune_fail(err, TUNE_ERR_USAGE, "no optima for platform '%s' in the database (run 'tune "
				 "--platform %s' first)", platform, platform);
	return 0;
}

static int load_all(sqlite3 *db, const char *const *platforms, size_t n, struct platform_optima **out,
		    struct tune_error *err)
{
	int rc = 0;

	*out = calloc(n ? n : 1, sizeof(**out));
	if (!*out)
		return tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
	for (size_t i = 0; i < n && !rc; i++)
		rc = load(db, platforms[i], &(*out)[i], err);
	return rc;
}

static void free_all(struct platform_optima *po, size_t n)
{
	for (size_t i = 0; po && i < n; i++) {
		free(po[i].rows);
		free(po[i].sched);
	}
	free(po);
}

/* The optimum that production code uses by default: the largest working set
 * out of cache, where latency hiding matters. */
static const struct optimum_row *primary(const struct platform_optima *po)
{
	const struct optimum_row *p = &po->rows[po->n - 1];

	for (size_t i = po->n; i-- > 0;)
		if (!strcmp(po->rows[i].size_class, "dram"))
			return &po->rows[i];
	return p;
}

static void now_utc(char *out, size_t len)
{
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(out, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

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
	const struct optimum_row *p = primary(po);
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

/* The policy chosen at most points (ties: the earlier in sched.h's order). */
static const struct sched_row *sched_primary(const struct platform_optima *po)
{
	const struct sched_row *best = NULL;
	size_t best_n = 0;

	for (size_t i = 0; i < po->nsched; i++) {
		size_t n = 0;

		for (size_t k = 0; k < po->nsched; k++)
			n += !strcmp(po->sched[k].policy, po->sched[i].policy);
		if (n > best_n || (n == best_n && tune_name_index(sched_policy_names, po->sched[i].policy) <
						     tune_name_index(sched_policy_names, best->policy))) {
			best = &po->sched[i];
			best_n = n;
		}
	}
	return best;
}

static void sched_block(FILE *out, const struct platform_optima *po)
{
	const struct sched_row *p = sched_primary(po);

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
	int rc = load_all(db, platforms, n, &po, err);

	if (rc)
		goto out;
	now_utc(now, sizeof(now));
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
	free_all(po, n);
	return rc;
}

/* The chase optima of po: the primary choice and the table; null when none. */
static json_t *chase_json(const struct platform_optima *po)
{
	const struct optimum_row *p;
	json_t *table;

	if (!po->n)
		return json_null();
	p = primary(po);
	table = json_array();
	for (size_t k = 0; k < po->n; k++) {
		const struct optimum_row *r = &po->rows[k];
		json_t *ru = r->runner_up[0] ? json_loads(r->runner_up, 0, NULL) : NULL;

		json_array_append_new(table, json_pack(
			"{s:I, s:s, s:s, s:s?, s:I, s:I, s:b, s:f, s:f, s:f, s:o, s:I, s:s}",
			"size_mb", (json_int_t)r->size_mb, "size_class", r->size_class, "variant", r->variant,
			"hint", r->hint[0] ? r->hint : NULL, "group_size", (json_int_t)r->group_size,
			"best_group_size", (json_int_t)r->best_group_size, "hugepages", r->hugepages,
			"median_ns_per_lookup", r->median, "ci_low", r->ci_low, "ci_high", r->ci_high,
			"runner_up", ru ? ru : json_null(), "trials", (json_int_t)r->trials, "decided", r->decided));
	}
	return json_pack("{s:s, s:I, s:s?, s:o}", "variant", p->variant, "group_size", (json_int_t)p->group_size,
			 "hint", p->hint[0] ? p->hint : NULL, "table", table);
}

/* The IPA threshold (null: always poll) with the wake-up cost; null when not tuned. */
static json_t *ipa_json(const struct ipa_optimum *o)
{
	json_t *j;

	if (!o->found)
		return json_null();
	j = json_pack("{s:o, s:b, s:f, s:f, s:f, s:s}", "poll_threshold_ns",
		      o->threshold_ns == LLONG_MAX ? json_null() : json_integer(o->threshold_ns), "always_poll",
		      o->threshold_ns == LLONG_MAX, "median_ns_per_call", o->median, "ci_low", o->ci_low, "ci_high",
		      o->ci_high, "decided", o->decided);
	if (o->wakeup_cross_ns >= 0) {
		json_object_set_new(j, "wakeup_cross_cpu_ns", json_real(o->wakeup_cross_ns));
		json_object_set_new(j, "wakeup_same_cpu_ns", json_real(o->wakeup_same_ns));
	}
	return j;
}

/* The sched optima: the primary policy and the table; null when none. */
static json_t *sched_json(const struct platform_optima *po)
{
	const struct sched_row *p = sched_primary(po);
	json_t *table;

	if (!p)
		return json_null();
	table = json_array();
	for (size_t i = 0; i < po->nsched; i++) {
		const struct sched_row *r = &po->sched[i];

		json_array_append_new(table, json_pack("{s:I, s:I, s:s, s:s, s:s, s:f, s:f, s:f, s:s}", "speedup",
						       (json_int_t)r->speedup, "apps", (json_int_t)r->apps, "class",
						       r->size_class, "policy", r->policy, "dispatch", r->dispatch,
						       "median_ns_per_task", r->median, "ci_low", r->ci_low, "ci_high",
						       r->ci_high, "decided", r->decided));
	}
	return json_pack("{s:s, s:s, s:o}", "policy", p->policy, "dispatch", p->dispatch, "table", table);
}

int report_json(sqlite3 *db, const char *const *platforms, size_t n, FILE *out, struct tune_error *err)
{
	struct platform_optima *po = NULL;
	json_t *root = NULL, *plats;
	char now[32];
	int rc = load_all(db, platforms, n, &po, err);

	if (rc)
		goto out;
	now_utc(now, sizeof(now));
	plats = json_array();
	root = json_pack("{s:s, s:i, s:s, s:s, s:o}", "format", "tune-optima", "version", 1, "generated", now,
			 "tune_version", TUNE_VERSION, "platforms", plats);
	for (size_t i = 0; i < n; i++) {
		json_t *plat = json_pack("{s:s, s:s, s:s, s:s, s:s}", "name", po[i].name, "arch", po[i].arch, "host",
					 po[i].host, "fingerprint", po[i].fingerprint, "decided", po[i].decided);

		json_object_set_new(plat, "chase", chase_json(&po[i]));
		json_object_set_new(plat, "ipa", ipa_json(&po[i].ipa));
		json_object_set_new(plat, "sched", sched_json(&po[i]));
		json_array_append_new(plats, plat);
	}
	if (json_dumpf(root, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER) != 0)
		rc = tune_fail(err, TUNE_ERR_SYSTEM, "cannot write the JSON");
	fputc('\n', out);
out:
	json_decref(root);
	free_all(po, n);
	return rc;
}

int report_header_newest(sqlite3 *db, const char *platform, char *decided, size_t len, struct tune_error *err)
{
	struct platform_optima po;
	int rc = load(db, platform, &po, err);

	if (!rc)
		snprintf(decided, len, "%s", po.decided);
	free(po.rows);
	free(po.sched);
	return rc;
}
