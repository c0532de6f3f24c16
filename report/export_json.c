/* The optima as JSON, for tools: per platform the chase's, the IPA
 * threshold, the sched policies and every manifest kernel's. */
#include <jansson.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "../tuner/base/version.h"
#include "export_internal.h"
#include "report.h"

/* The chase optima of po: the primary choice and the table; null when none. */
static json_t *chase_json(const struct platform_optima *po)
{
	const struct optimum_row *p;
	json_t *table;

	if (!po->n)
		return json_null();
	p = export_primary(po);
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
	const struct sched_row *p = export_sched_primary(po);
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

		json_array_append_new(a, json_pack("{s:s, s:s, s:s, s:o, s:f, s:f, s:f, s:s}", "kernel",
						   (const char *)sqlite3_column_text(q, 0), "context",
						   (const char *)sqlite3_column_text(q, 1), "host",
						   (const char *)sqlite3_column_text(q, 2), "values", e ? e : json_object(),
						   "median", sqlite3_column_double(q, 4), "ci_low",
						   sqlite3_column_double(q, 5), "ci_high", sqlite3_column_double(q, 6),
						   "decided", (const char *)sqlite3_column_text(q, 7)));
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
	for (size_t i = 0; i < n; i++) {
		json_t *plat = json_pack("{s:s, s:s, s:s, s:s, s:s}", "name", po[i].name, "arch", po[i].arch, "host",
					 po[i].host, "fingerprint", po[i].fingerprint, "decided", po[i].decided);

		json_object_set_new(plat, "chase", chase_json(&po[i]));
		json_object_set_new(plat, "ipa", ipa_json(&po[i].ipa));
		json_object_set_new(plat, "sched", sched_json(&po[i]));
		json_object_set_new(plat, "kernels", kernels_json(db, po[i].name));
		json_array_append_new(plats, plat);
	}
	if (json_dumpf(root, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER) != 0)
		rc = tune_fail(err, TUNE_ERR_SYSTEM, "cannot write the JSON");
	fputc('\n', out);
out:
	json_decref(root);
	export_free_all(po, n);
	return rc;
}
