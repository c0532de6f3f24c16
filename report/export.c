/* The optima as a C header for production builds: a block per platform,
 * selected by TUNED_PLATFORM, with each kernel's values, tables and
 * lookups (as its views file declares them, or from its manifest's
 * exports). */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "../tuner/base/strbuf.h"
#include "../tuner/base/version.h"
#include "escape.h"
#include "export_internal.h"
#include "report.h"

const char *report_c_comment(const char *s)
{
	static char ring[8][600];
	static unsigned next;

	return escape_c_comment(s, ring[next++ % 8], sizeof(ring[0]));
}

const char *report_c_string(const char *s)
{
	static char ring[4][1200];
	static unsigned next;

	return escape_c_string(s, ring[next++ % 4], sizeof(ring[0]));
}

static int header_block(FILE *out, sqlite3 *db, const struct platform_optima *po, const char *const *kernels,
			struct tune_error *err)
{
	int rc = 0;
	char m[80];

	escape_c_identifier(po->name, 1, m, sizeof(m));
	fprintf(out, "#if defined(TUNED_SELECTED_%s)\n", m);
	fprintf(out, "#define TUNED_PLATFORM_NAME %s\n#define TUNED_HOST %s\n", report_c_string(po->name), report_c_string(po->host));
	fprintf(out, "#define TUNED_HOST_FINGERPRINT %s\n#define TUNED_DECIDED_AT %s\n", report_c_string(po->fingerprint),
		report_c_string(po->decided));
	/* Each kernel's block as it declares it, else its manifest's exports. */
	for (size_t k = 0; !rc && kernels[k]; k++) {
		int wrote = 0;

		if (declared_view_exists(db, kernels[k], "_header"))
			rc = declared_header(out, db, kernels[k], po->name, &wrote, err);
		else
			rc = export_kernel_header(out, db, po->name, kernels[k], &wrote, err);
		if (!rc && !wrote) {
			escape_c_identifier(kernels[k], 1, m, sizeof(m));
			fprintf(out, "\n/* Not tuned on this platform yet: kernel %s (TUNED_%s_*). */\n",
				report_c_comment(kernels[k]), m);
		}
	}
	fprintf(out, "#endif\n\n");
	return rc;
}

static void strings_free(char **v)
{
	for (size_t i = 0; v && v[i]; i++)
		free(v[i]);
	free(v);
}

/* The kernels with optima of the current fingerprints on the platforms,
 * NULL-terminated (strings_free() it), or NULL when out of memory. */
static char **kernels_with_optima(sqlite3 *db, const char *const *platforms, size_t n)
{
	char **v = calloc(1, sizeof(*v));
	size_t nv = 0;
	int oom = !v;

	for (size_t i = 0; !oom && i < n; i++) {
		sqlite3_stmt *q = NULL;

		if (sqlite3_prepare_v2(db, "SELECT DISTINCT o.kernel FROM optima o JOIN current_fingerprints USING"
				       " (platform, host, fingerprint) WHERE o.platform = ?1 ORDER BY 1", -1, &q, NULL) !=
		    SQLITE_OK)
			break;
		sqlite3_bind_text(q, 1, platforms[i], -1, SQLITE_STATIC);
		while (!oom && sqlite3_step(q) == SQLITE_ROW) {
			const char *k = (const char *)sqlite3_column_text(q, 0);
			char **grown;

			if (!k || tune_name_index((const char *const *)v, k) >= 0)
				continue;
			/* v stays NULL-terminated at every step. */
			if (!(grown = realloc(v, (nv + 2) * sizeof(*v)))) {
				oom = 1;
				break;
			}
			v = grown;
			if (!(v[nv] = strdup(k)))
				oom = 1;
			else
				v[++nv] = NULL;
		}
		sqlite3_finalize(q);
	}
	if (oom) {
		strings_free(v);
		return NULL;
	}
	return v;
}

/* Whether every kernel asked for has optima (have); TUNE_ERR_EMPTY naming
 * those that have, else. */
static int asked_have_optima(const char *const *asked, const char *const *have, size_t n, struct tune_error *err)
{
	for (size_t k = 0; asked && asked[k]; k++)
		if (tune_name_index(have, asked[k]) < 0) {
			struct strbuf list = STRBUF_INIT;
			int rc;

			for (size_t i = 0; have[i]; i++)
				strbuf_addf(&list, "%s%s", i ? ", " : "", have[i]);
			rc = tune_fail(err, TUNE_ERR_EMPTY, "export: kernel '%s' has no optima on %s platform%s (those "
				       "with optima: %s)", asked[k], n == 1 ? "this" : "these", n == 1 ? "" : "s",
				       have[0] ? strbuf_str(&list) : "none");
			strbuf_release(&list);
			return rc;
		}
	return 0;
}

/* Two platforms (or kernels) whose names differ only where C cannot
 * (a-b and a_b, Fast and fast) would define the same macros twice. */
static int distinct_in_c(const char *const *platforms, long n, const char *const *kernels, struct tune_error *err)
{
	size_t a, b;

	if (escape_c_identifier_clash(platforms, n, &a, &b))
		return tune_fail(err, TUNE_ERR_USAGE, "export: platforms '%s' and '%s' have the same name in C; export "
				 "them to two headers (tune export header --platform %s -o FILE, then --platform %s)",
				 platforms[a], platforms[b], platforms[a], platforms[b]);
	if (escape_c_identifier_clash(kernels, -1, &a, &b))
		return tune_fail(err, TUNE_ERR_USAGE, "export: kernels '%s' and '%s' have the same name in C; export "
				 "them to two headers (tune export header --kernel %s -o FILE, then --kernel %s)",
				 kernels[a], kernels[b], kernels[a], kernels[b]);
	return 0;
}

int report_header(sqlite3 *db, const char *const *platforms, size_t n, const char *const *asked, FILE *out,
		  struct tune_error *err)
{
	struct platform_optima *po = NULL;
	char now[32], m[80], **have = kernels_with_optima(db, platforms, n);
	const char *const *kernels = asked ? asked : (const char *const *)have;
	int rc;

	if (!have)
		return tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
	if ((rc = asked_have_optima(asked, (const char *const *)have, n, err)) != 0 ||
	    (rc = distinct_in_c(platforms, (long)n, kernels, err)) != 0 ||
	    (rc = export_load_all(db, platforms, n, &po, err)) != 0)
		goto out;
	if (!po) {
		rc = tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
		goto out;
	}
	export_now_utc(now, sizeof(now));
	fprintf(out, "/* tuned_config.h: generated by tune %s at %s. Do not edit: regenerate with\n"
		     " *   tune export header", TUNE_VERSION, now);
	for (size_t i = 0; i < n; i++)
		fprintf(out, " --platform %s", report_c_comment(platforms[i]));
	fprintf(out, " -o FILE\n *\n * Select a platform with -DTUNED_PLATFORM=<NAME> (");
	for (size_t i = 0; i < n; i++) {
		escape_c_identifier(platforms[i], 1, m, sizeof(m));
		fprintf(out, "%s%s", i ? ", " : "", m);
	}
	fprintf(out, "; any other NAME is an\n * #error) or -DTUNED_PLATFORM_<NAME>; without either the first platform of the\n"
		     " * target's architecture is used.\n");
	fprintf(out, " */\n");
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
		rc = header_block(out, db, &po[i], kernels, err);
	if (rc)
		goto out;
	fprintf(out, "#endif /* TUNED_CONFIG_H */\n");
out:
	free(po);
	strings_free(have);
	return rc;
}

int report_header_newest(sqlite3 *db, const char *platform, char *decided, size_t len, struct tune_error *err)
{
	struct platform_optima po;
	int rc = export_load(db, platform, &po, err);

	if (!rc)
		snprintf(decided, len, "%s", po.decided);
	return rc;
}
