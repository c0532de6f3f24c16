/* The optima as JSON, for tools: per platform an object under each name of
 * a kernel with its own report (its hook's), and every generic kernel's
 * optima under "kernels". */
#include <jansson.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "../tuner/base/version.h"
#include "escape.h"
#include "export_internal.h"
#include "report.h"

/* Every manifest kernel's optimum of platform: kernel, context, the values
 * the header exports (name: {value, text, role}) and the median. */
static json_t *kernels_json(sqlite3 *db, const char *platform)
{
	sqlite3_stmt *q = NULL;
	json_t *a = json_array();

	if (sqlite3_prepare_v2(db,
			       "SELECT o.kernel, o.context, o.host, o.exports, o.median, o.ci_low, o.ci_high, o.decided"
			       " FROM optima o JOIN current_fingerprints USING (platform, host, fingerprint)"
			       " WHERE o.platform = ?1 AND o.exports IS NOT NULL ORDER BY o.kernel, o.id", -1, &q,
			       NULL) != SQLITE_OK)
		return a;
	sqlite3_bind_text(q, 1, platform, -1, SQLITE_STATIC);
	while (sqlite3_step(q) == SQLITE_ROW) {
		json_t *e = json_loads((const char *)sqlite3_column_text(q, 3), 0, NULL);

		/* Text from the database as JSON strings whatever its bytes (escape_json_text). */
		json_array_append_new(a, json_pack("{s:o, s:o, s:o, s:o, s:f, s:f, s:f, s:o}", "kernel",
						   escape_json_text((const char *)sqlite3_column_text(q, 0)), "context",
						   escape_json_text((const char *)sqlite3_column_text(q, 1)), "host",
						   escape_json_text((const char *)sqlite3_column_text(q, 2)), "values",
						   e ? e : json_object(), "median", sqlite3_column_double(q, 4), "ci_low",
						   sqlite3_column_double(q, 5), "ci_high", sqlite3_column_double(q, 6),
						   "decided", escape_json_text((const char *)sqlite3_column_text(q, 7))));
	}
	sqlite3_finalize(q);
	return a;
}

int report_json(sqlite3 *db, const char *const *platforms, size_t n, FILE *out, struct tune_error *err)
{
	struct platform_optima *po = NULL;
	json_t *root = NULL, *plats;
	char now[32];
	int rc = export_load_all(db, platforms, n, &po, err);

	if (rc)
		goto out;
	export_now_utc(now, sizeof(now));
	plats = json_array();
	root = json_pack("{s:s, s:i, s:s, s:s, s:o}", "format", "tune-optima", "version", 1, "generated", now,
			 "tune_version", TUNE_VERSION, "platforms", plats);
	for (size_t i = 0; i < n && !rc; i++) {
		json_t *plat = json_pack("{s:o, s:o, s:o, s:o, s:o}", "name", escape_json_text(po[i].name), "arch",
					 escape_json_text(po[i].arch), "host", escape_json_text(po[i].host), "fingerprint",
					 escape_json_text(po[i].fingerprint), "decided", escape_json_text(po[i].decided));

		for (size_t k = 0; !rc && kernel_reports[k]; k++) {
			json_t *own = NULL;

			if (kernel_reports[k]->json && (rc = kernel_reports[k]->json(db, po[i].name, &own, err)) == 0)
				json_object_set_new(plat, kernel_reports[k]->kernel, own);
		}
		json_object_set_new(plat, "kernels", kernels_json(db, po[i].name));
		json_array_append_new(plats, plat);
	}
	if (!rc && json_dumpf(root, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER) != 0)
		rc = tune_fail(err, TUNE_ERR_SYSTEM, "cannot write the JSON");
	else if (!rc)
		fputc('\n', out);
out:
	json_decref(root);
	free(po);
	return rc;
}
