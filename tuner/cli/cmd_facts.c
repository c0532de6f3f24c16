/* tune facts: this host's facts as one JSON object, as the store records
 * them; what a Slurm job on a node reports to the orchestrator. With
 * --probes, also what the kernels' probes measured of this host (from the
 * database): {"probes": {KERNEL: {PROBE: {FIELD: value}}}}. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>

#include "../../store/store.h"
#include "../config/config.h"
#include "cli.h"

/* The host's probes as nested objects: kernel, probe, field. */
static int add_probes(json_t *facts, const struct host_facts *f, const char *db, struct tune_error *err)
{
	struct store *st = NULL;
	sqlite3_stmt *q = NULL;
	json_t *probes = json_object();
	int rc = cmd_open_store(db, &st, err);

	if (rc) {
		json_decref(probes);
		return rc;
	}
	if (sqlite3_prepare_v2(store_db(st), "SELECT hp.kernel, hp.probe, hp.field, hp.value FROM host_probes hp JOIN"
			       " hosts h ON h.id = hp.host_id WHERE h.hostname = ?1 AND h.arch = ?2 AND h.cpu_model = ?3"
			       " ORDER BY 1, 2, 3", -1, &q, NULL) != SQLITE_OK) {
		rc = tune_fail(err, TUNE_ERR_STORE, "database '%s': cannot read its probes: %s", db,
			       sqlite3_errmsg(store_db(st)));
	} else {
		sqlite3_bind_text(q, 1, f->hostname, -1, SQLITE_STATIC);
		sqlite3_bind_text(q, 2, f->arch, -1, SQLITE_STATIC);
		sqlite3_bind_text(q, 3, f->cpu_model, -1, SQLITE_STATIC);
		while (sqlite3_step(q) == SQLITE_ROW) {
			const char *kernel = (const char *)sqlite3_column_text(q, 0);
			const char *probe = (const char *)sqlite3_column_text(q, 1);
			json_t *k = json_object_get(probes, kernel), *p;

			if (!k)
				json_object_set_new(probes, kernel, k = json_object());
			if (!(p = json_object_get(k, probe)))
				json_object_set_new(k, probe, p = json_object());
			json_object_set_new(p, (const char *)sqlite3_column_text(q, 2),
					    json_real(sqlite3_column_double(q, 3)));
		}
	}
	sqlite3_finalize(q);
	store_close(st);
	json_object_set_new(facts, "probes", probes);
	return rc;
}

int cmd_facts(int argc, char **argv, struct tune_error *err)
{
	struct cmd_options o;
	struct host_facts f;
	char *text;
	json_t *facts;
	int rc;

	if ((rc = cmd_parse_options("facts", argc, argv, &o, err)) != 0)
		return rc;
	if ((rc = hostinfo_read(&f, err)) != 0)
		return rc;
	if (!(text = hostinfo_json(&f)))
		return tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
	facts = json_loads(text, 0, NULL);
	free(text);
	if (!facts)
		return tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
	if (o.probes && (rc = add_probes(facts, &f, o.db, err)) != 0) {
		json_decref(facts);
		return rc;
	}
	text = json_dumps(facts, JSON_COMPACT | JSON_SORT_KEYS);
	json_decref(facts);
	if (!text)
		return tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
	printf("%s\n", text);
	free(text);
	return 0;
}
