/* The optima as JSON, for tools: per platform an object under the name of
 * each kernel that declares one (its view <kernel>_json: a row per
 * platform, its value a JSON object; null where it has none), and every
 * kernel's optima with its manifest's exports under "kernels". */
#include <jansson.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "../tuner/base/names.h"
#include "../tuner/base/version.h"
#include "declared_internal.h"
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

/* Each kernel's declared object of platform under its name in plat: those
 * of the kernels with optima (every database has the shipped ones' views). */
static int declared_objects(sqlite3 *db, const char *platform, json_t *plat, struct tune_error *err)
{
	static const char *const fields[] = { "name", "arch", "host", "fingerprint", "decided", "kernels", NULL };
	sqlite3_stmt *k = NULL;
	int rc, failed = 0;

	if (sqlite3_prepare_v2(db, "SELECT DISTINCT kernel FROM optima ORDER BY kernel", -1, &k, NULL) != SQLITE_OK)
		return tune_fail(err, TUNE_ERR_STORE, "cannot read the optima: %s", store_errmsg(db));
	while (!failed && (rc = sqlite3_step(k)) == SQLITE_ROW) {
		const char *kernel = report_text(k, 0, "");
		char view[300], v[200], p[120], x[120];
		sqlite3_stmt *q;
		json_t *o = NULL;
		int value, step;

		if (!declared_view_exists(db, kernel, "_json"))
			continue;
		snprintf(view, sizeof(view), "%s_json", kernel);
		names_show(view, 0, v, sizeof(v));
		names_show(platform, 0, p, sizeof(p));
		if (tune_name_index(fields, kernel) >= 0) {
			failed = tune_fail(err, TUNE_ERR_CONFIG, "export: kernel '%s' is named like a field of a platform in "
					   "the JSON: its view '%s' cannot be given (rename the kernel)", kernel, v);
			break;
		}
		q = declared_platform_rows(db, view, platform);
		value = q ? declared_column(q, "value") : -1;
		if (value < 0) {
			failed = tune_fail(err, TUNE_ERR_CONFIG, "export: the JSON view '%s' %s", v,
					   q ? "needs the columns platform and value" : store_errmsg(db));
		} else if ((step = sqlite3_step(q)) == SQLITE_ROW &&
			   /* json_is_object() reads its argument twice: load first. */
			   ((o = json_loads(report_text(q, value, ""), 0, NULL)), !json_is_object(o))) {
			names_show(report_text(q, value, ""), 0, x, sizeof(x));
			failed = tune_fail(err, TUNE_ERR_CONFIG, "export: the JSON view '%s', platform '%s': its value '%s' is "
					   "no JSON object (json_object(...) makes one); fix the view in the kernel's views "
					   "file (its next run remakes it without measuring)", v, p, x);
		} else if (step != SQLITE_ROW && step != SQLITE_DONE) {
			failed = tune_fail(err, TUNE_ERR_STORE, "export: cannot read the JSON view '%s': %s", v,
					   store_errmsg(db));
		}
		sqlite3_finalize(q);
		if (failed)
			json_decref(o);
		else
			json_object_set_new(plat, kernel, o ? o : json_null());
	}
	sqlite3_finalize(k);
	if (failed)
		return failed;
	return rc == SQLITE_DONE ? 0 : tune_fail(err, TUNE_ERR_STORE, "cannot read the optima: %s", store_errmsg(db));
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

		rc = declared_objects(db, po[i].name, plat, err);
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
