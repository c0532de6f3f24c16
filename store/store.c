#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../kernels/chase/chase.h"
#include "../kernels/sched/sched.h"
#include "../tuner/config/config.h"
#include "internal.h"
#include "store.h"

#define NOW STORE_NOW

/* What to do about a failed database call, by SQLite's error code. */
static const char *db_advice(int code)
{
	switch (code & 0xff) {
	case SQLITE_FULL: return "free some space on its file system, then run again to resume";
	case SQLITE_READONLY: return "the file or its directory is read-only: use another --db";
	case SQLITE_BUSY: return "another tune is writing it: wait, or use another --db";
	case SQLITE_NOTADB: return "it is not a tune database: use another --db";
	case SQLITE_CORRUPT: return "the file is damaged: restore it, or use another --db";
	}
	return "check the file, or use another --db";
}

int store_db_fail(struct store *st, struct tune_error *err, const char *what)
{
	return tune_fail(err, TUNE_ERR_STORE, "database '%s': %s: %s (%s)", st->path, what, sqlite3_errmsg(st->db),
			 db_advice(sqlite3_extended_errcode(st->db)));
}

int store_exec(struct store *st, const char *sql, struct tune_error *err, const char *what)
{
	char *msg = NULL;

	if (sqlite3_exec(st->db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		tune_fail(err, TUNE_ERR_STORE, "database '%s': %s: %s (%s)", st->path, what,
			  msg ? msg : sqlite3_errmsg(st->db), db_advice(sqlite3_extended_errcode(st->db)));
		sqlite3_free(msg);
		return TUNE_ERR_STORE;
	}
	return 0;
}


int store_prepare(struct store *st, sqlite3_stmt **q, struct tune_error *err, const char *sql,
		   const char *types, ...)
{
	va_list ap;
	int idx = 1;

	if (sqlite3_prepare_v2(st->db, sql, -1, q, NULL) != SQLITE_OK)
		return store_db_fail(st, err, "cannot prepare a statement");
	va_start(ap, types);
	for (const char *t = types; *t; t++, idx++) {
		if (*t == 's') {
			const char *s = va_arg(ap, const char *);

			if (s)
				sqlite3_bind_text(*q, idx, s, -1, SQLITE_TRANSIENT);
			else
				sqlite3_bind_null(*q, idx);
		} else if (*t == 'i') {
			sqlite3_bind_int64(*q, idx, va_arg(ap, long long));
		} else {
			sqlite3_bind_double(*q, idx, va_arg(ap, double));
		}
	}
	va_end(ap);
	return 0;
}

int store_run(struct store *st, sqlite3_stmt *q, long long *id, struct tune_error *err, const char *what)
{
	int rc, found = 0;

	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		if (id && !found)
			*id = sqlite3_column_int64(q, 0);
		found = 1;
	}
	if (rc != SQLITE_DONE) {
		rc = store_db_fail(st, err, what);
		sqlite3_finalize(q);
		return rc;
	}
	sqlite3_finalize(q);
	return 0;
}

int store_host(struct store *st, const struct host_facts *f, long long *id, struct tune_error *err)
{
	char *facts = hostinfo_json(f);
	sqlite3_stmt *q = NULL;
	int rc;

	if (!facts)
		return tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
	rc = store_prepare(st, &q, err,
		     "INSERT INTO hosts (hostname, arch, cpu_model, cores, pus, llc_bytes, memory_bytes, kernel,"
		     " facts_json, first_seen, last_seen) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, " NOW ", " NOW ")"
		     " ON CONFLICT (hostname, arch, cpu_model) DO UPDATE SET cores = ?4, pus = ?5, llc_bytes = ?6,"
		     " memory_bytes = ?7, kernel = ?8, facts_json = ?9, last_seen = " NOW " RETURNING id",
		     "sssiiiiss", f->hostname, f->arch, f->cpu_model, (long long)f->cores, (long long)f->pus,
		     f->llc_bytes, f->memory_bytes, f->kernel, facts);
	free(facts);
	return rc ? rc : store_run(st, q, id, err, "cannot record the host");
}

/* The list joined by spaces; the caller frees it. */
static char *join_strs(const struct conf_strs *l)
{
	size_t len = 1, used = 0;
	char *s;

	for (size_t i = 0; i < l->n; i++)
		len += strlen(l->v[i]) + 1;
	if (!(s = calloc(1, len)))
		return NULL;
	/* len counts every byte, so each copy fits. */
	for (size_t i = 0; i < l->n; i++) {
		size_t n = strlen(l->v[i]);

		if (i)
			s[used++] = ' ';
		memcpy(s + used, l->v[i], n);
		used += n;
	}
	s[used] = '\0';
	return s;
}

int store_platform(struct store *st, const struct platform *p, long long *id, struct tune_error *err)
{
	char *cflags = join_strs(&p->cflags);
	sqlite3_stmt *q = NULL;
	int rc;

	if (!cflags)
		return tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
	rc = store_prepare(st, &q, err,
		     "INSERT INTO platforms (name, arch, path, compiler, cflags) VALUES (?1, ?2, ?3, ?4, ?5)"
		     " ON CONFLICT (name) DO UPDATE SET arch = ?2, path = ?3, compiler = ?4, cflags = ?5 RETURNING id",
		     "sssss", p->name, platform_arch_names[p->arch], p->path, p->compiler, cflags);
	free(cflags);
	return rc ? rc : store_run(st, q, id, err, "cannot record the platform");
}

int store_build(struct store *st, const struct store_build *b, long long *id, struct tune_error *err)
{
	sqlite3_stmt *q = NULL;
	int rc = store_prepare(st, &q, err,
			 "INSERT INTO builds (hash, kernel, variant, hint, compiler, compiler_version, cflags, defines,"
			 " binary_path, created) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, " NOW ")"
			 " ON CONFLICT (hash) DO UPDATE SET binary_path = ?9 RETURNING id",
			 "sssssssss", b->hash, b->kernel, b->variant, b->hint, b->compiler, b->compiler_version,
			 b->cflags, b->defines, b->binary_path);

	return rc ? rc : store_run(st, q, id, err, "cannot record the build");
}

/* The newest sweep of the same spec to resume, or a new generation. */
static int sweep_find_or_add(struct store *st, const struct store_sweep *s, long long *sweep_id, int *resumed,
			     struct tune_error *err)
{
	sqlite3_stmt *q = NULL;
	long long gen = 0, id = 0;
	int rc;

	rc = store_prepare(st, &q, err,
		     "SELECT id, generation FROM sweeps WHERE name = ?1 AND platform_id = ?2 AND host_id = ?3"
		     " AND spec_hash = ?4 ORDER BY generation DESC LIMIT 1",
		     "siis", s->name, s->platform_id, s->host_id, s->spec_hash);
	if (rc)
		return rc;
	if ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		id = sqlite3_column_int64(q, 0);
		gen = sqlite3_column_int64(q, 1);
	} else if (rc != SQLITE_DONE) {
		rc = store_db_fail(st, err, "cannot look up the sweep");
		sqlite3_finalize(q);
		return rc;
	}
	sqlite3_finalize(q);
	if (id && !s->fresh) {
		*sweep_id = id;
		*resumed = 1;
		rc = store_prepare(st, &q, err, "UPDATE sweeps SET status = 'running', finished = NULL WHERE id = ?1",
			     "i", id);
		return rc ? rc : store_run(st, q, NULL, err, "cannot reopen the sweep");
	}
	rc = store_prepare(st, &q, err,
		     "INSERT INTO sweeps (name, platform_id, host_id, spec_hash, generation, quick, status, started,"
		     " tune_version, compiler, cflags, governor, thp, loadavg, env_json, spec_json, fingerprint, strategy)"
		     " VALUES (?1, ?2, ?3, ?4, ?5, ?6, 'running', " NOW ", ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)"
		     " RETURNING id",
		     "siisiisssssdssss", s->name, s->platform_id, s->host_id, s->spec_hash, gen + 1, (long long)s->quick,
		     s->tune_version, s->compiler, s->cflags, s->facts->governor, s->facts->thp, s->facts->loadavg1,
		     s->env_json, s->spec_json, s->fingerprint, s->strategy);
	return rc ? rc : store_run(st, q, sweep_id, err, "cannot record the sweep");
}

/* Opens the sweep: claim, look-up and insert in one transaction, so that
 * two tunes cannot both find no sweep and both start one. */
int store_sweep_open(struct store *st, const struct store_sweep *s, long long *sweep_id, int *resumed,
		     struct tune_error *err)
{
	int rc;

	*resumed = 0;
	if ((rc = store_exec(st, "BEGIN IMMEDIATE", err, "cannot start a transaction")) != 0)
		return rc;
	if ((rc = store_lease_take(st, s->name, s->platform_id, s->host_id, err)) != 0 ||
	    (rc = sweep_find_or_add(st, s, sweep_id, resumed, err)) != 0) {
		sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
		return rc;
	}
	return store_exec(st, "COMMIT", err, "cannot commit the sweep");
}

int store_sweep_trials(struct store *st, long long sweep_id, struct trial *const *trials, size_t n, int insert,
		       struct tune_error *err)
{
	sqlite3_stmt *ins = NULL, *sel = NULL;
	int rc;

	if ((rc = store_exec(st, "BEGIN IMMEDIATE", err, "cannot start a transaction")) != 0)
		return rc;
	rc = store_prepare(st, &ins, err,
		     "INSERT INTO trials (sweep_id, trial_key, kernel, variant, hint, size_mb, depth, queries,"
		     " group_size, hugepages, seed, runs, warmup, phase, threshold_ns, apps, speedup, dispatch, params,"
		     " context) VALUES (?1, ?2, ?14, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?15, ?16, ?17, ?18,"
		     " ?19, ?20)"
		     " ON CONFLICT (sweep_id, trial_key) DO NOTHING", "");
	if (!rc)
		rc = store_prepare(st, &sel, err, "SELECT id, status FROM trials WHERE sweep_id = ?1 AND trial_key = ?2", "");
	for (size_t i = 0; !rc && i < n; i++) {
		struct trial *t = trials[i];
		int step;

		if (!insert)
			goto read_back;
		sqlite3_reset(ins);
		sqlite3_bind_int64(ins, 1, sweep_id);
		sqlite3_bind_text(ins, 2, t->key, -1, SQLITE_STATIC);
		sqlite3_bind_text(ins, 3, t->manifest ? t->variant_name : kernel_table[t->kernel].variant_names[t->variant],
				  -1, SQLITE_STATIC);
		if (t->hint >= 0)
			sqlite3_bind_text(ins, 4, chase_hint_names[t->hint], -1, SQLITE_STATIC);
		else
			sqlite3_bind_null(ins, 4);
		sqlite3_bind_int64(ins, 5, t->size_mb);
		sqlite3_bind_int64(ins, 6, t->depth);
		sqlite3_bind_int64(ins, 7, t->queries);
		sqlite3_bind_int64(ins, 8, t->group_size);
		sqlite3_bind_int64(ins, 9, t->hugepages);
		sqlite3_bind_int64(ins, 10, t->seed);
		sqlite3_bind_int64(ins, 11, t->runs);
		sqlite3_bind_int64(ins, 12, t->warmup);
		sqlite3_bind_text(ins, 13, t->phase == PHASE_FINAL ? "final" : "search", -1, SQLITE_STATIC);
		sqlite3_bind_text(ins, 14, t->manifest ? t->kernel_name : kernel_table[t->kernel].name, -1, SQLITE_STATIC);
		/* A manifest kernel's parameters are its own; the others' follow from their columns. */
		if (t->manifest) {
			sqlite3_bind_text(ins, 19, t->params, -1, SQLITE_STATIC);
			sqlite3_bind_text(ins, 20, t->context, -1, SQLITE_STATIC);
		} else {
			sqlite3_bind_null(ins, 19);
			sqlite3_bind_null(ins, 20);
		}
		if (t->kernel == KERNEL_CHASE || t->manifest)
			sqlite3_bind_null(ins, 15);
		else
			sqlite3_bind_int64(ins, 15, t->threshold_ns);
		if (t->kernel == KERNEL_SCHED && !t->manifest) {
			sqlite3_bind_int64(ins, 16, t->apps);
			sqlite3_bind_int64(ins, 17, t->speedup);
			sqlite3_bind_text(ins, 18, sched_dispatch_names[t->dispatch], -1, SQLITE_STATIC);
		} else {
			sqlite3_bind_null(ins, 16);
			sqlite3_bind_null(ins, 17);
			sqlite3_bind_null(ins, 18);
		}
		if (sqlite3_step(ins) != SQLITE_DONE) {
			rc = store_db_fail(st, err, "cannot record the trials");
			break;
		}
read_back:
		sqlite3_reset(sel);
		sqlite3_bind_int64(sel, 1, sweep_id);
		sqlite3_bind_text(sel, 2, t->key, -1, SQLITE_STATIC);
		step = sqlite3_step(sel);
		if (step == SQLITE_DONE && !insert) {
			t->id = 0;
			t->status = TRIAL_PENDING;
			continue;
		}
		if (step != SQLITE_ROW) {
			rc = store_db_fail(st, err, "cannot read the trials back");
			break;
		}
		t->id = sqlite3_column_int64(sel, 0);
		{
			const char *status = (const char *)sqlite3_column_text(sel, 1);

			t->status = !strcmp(status, "done") ? TRIAL_DONE : !strcmp(status, "failed") ? TRIAL_FAILED
												    : TRIAL_PENDING;
		}
	}
	sqlite3_finalize(ins);
	sqlite3_finalize(sel);
	if (rc) {
		sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
		return rc;
	}
	return store_exec(st, "COMMIT", err, "cannot commit the trials");
}

int store_sweep_finish(struct store *st, long long sweep_id, const char *status, struct tune_error *err)
{
	sqlite3_stmt *q = NULL;
	int rc = store_prepare(st, &q, err, "UPDATE sweeps SET status = ?1, finished = " NOW " WHERE id = ?2", "si",
			 status, sweep_id);

	return rc ? rc : store_run(st, q, NULL, err, "cannot close the sweep");
}

int store_record_batch(struct store *st, struct store_outcome *outs, size_t nouts,
		       const struct store_sample *samples, size_t nsamples, const struct store_batch_meta *meta,
		       struct tune_error *err)
{
	sqlite3_stmt *ins = NULL, *upd = NULL, *sum = NULL, *swp = NULL;
	int rc;

	if ((rc = store_exec(st, "BEGIN IMMEDIATE", err, "cannot start a transaction")) != 0)
		return rc;
	rc = store_prepare(st, &ins, err,
		     "INSERT INTO samples (trial_id, run_id, warmup, ns_total, ns_per_lookup, lookups_per_sec,"
		     " checksum, cpu, raw_json, outlier) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)", "");
	if (!rc)
		rc = store_prepare(st, &sum, err,
			     "INSERT OR REPLACE INTO trial_summary (trial_id, n, median, mad, ci_low, ci_high, outliers)"
			     " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)", "");
	if (!rc && meta)
		rc = store_prepare(st, &swp, err,
			     "UPDATE sweeps SET measure_ns = measure_ns + ?1 WHERE id = ?2", "ii", meta->measure_ns,
			     meta->sweep_id);
	if (!rc)
		rc = store_prepare(st, &upd, err,
			     "UPDATE trials SET status = ?1, reason = ?2, build_id = ?3, cpu = ?4, finished = " NOW
			     " WHERE id = ?5", "");
	for (size_t i = 0; !rc && i < nsamples; i++) {
		const struct store_sample *s = &samples[i];
		int keep = 0;

		for (size_t j = 0; j < nouts && !keep; j++)
			keep = outs[j].trial == s->trial && outs[j].ok;
		if (!keep)
			continue;
		sqlite3_reset(ins);
		sqlite3_bind_int64(ins, 1, s->trial->id);
		sqlite3_bind_int64(ins, 2, s->run_id);
		sqlite3_bind_int(ins, 3, s->warmup);
		sqlite3_bind_int64(ins, 4, s->ns_total);
		sqlite3_bind_double(ins, 5, s->ns_per_lookup);
		sqlite3_bind_double(ins, 6, s->lookups_per_sec);
		sqlite3_bind_int64(ins, 7, (long long)s->checksum);
		if (s->cpu >= 0)
			sqlite3_bind_int(ins, 8, s->cpu);
		else
			sqlite3_bind_null(ins, 8);
		sqlite3_bind_text(ins, 9, s->raw_json, -1, SQLITE_STATIC);
		sqlite3_bind_int(ins, 10, s->outlier);
		if (sqlite3_step(ins) != SQLITE_DONE)
			rc = store_db_fail(st, err, "cannot record a sample");
	}
	for (size_t j = 0; !rc && j < nouts; j++) {
		const struct store_outcome *o = &outs[j];

		sqlite3_reset(upd);
		sqlite3_bind_text(upd, 1, o->ok ? "done" : "failed", -1, SQLITE_STATIC);
		if (o->ok || !o->reason)
			sqlite3_bind_null(upd, 2);
		else
			sqlite3_bind_text(upd, 2, o->reason, -1, SQLITE_STATIC);
		if (o->build_id)
			sqlite3_bind_int64(upd, 3, o->build_id);
		else
			sqlite3_bind_null(upd, 3);
		if (o->cpu >= 0)
			sqlite3_bind_int(upd, 4, o->cpu);
		else
			sqlite3_bind_null(upd, 4);
		sqlite3_bind_int64(upd, 5, o->trial->id);
		if (sqlite3_step(upd) != SQLITE_DONE) {
			rc = store_db_fail(st, err, "cannot record a trial's status");
			break;
		}
		if (!o->ok)
			continue;
		sqlite3_reset(sum);
		sqlite3_bind_int64(sum, 1, o->trial->id);
		sqlite3_bind_int64(sum, 2, (long long)o->stats.n);
		sqlite3_bind_double(sum, 3, o->stats.median);
		sqlite3_bind_double(sum, 4, o->stats.mad);
		sqlite3_bind_double(sum, 5, o->stats.ci_low);
		sqlite3_bind_double(sum, 6, o->stats.ci_high);
		sqlite3_bind_int64(sum, 7, (long long)o->stats.outliers);
		if (sqlite3_step(sum) != SQLITE_DONE)
			rc = store_db_fail(st, err, "cannot record a trial's statistics");
	}
	if (!rc && swp && sqlite3_step(swp) != SQLITE_DONE)
		rc = store_db_fail(st, err, "cannot record the search state");
	sqlite3_finalize(ins);
	sqlite3_finalize(upd);
	sqlite3_finalize(sum);
	sqlite3_finalize(swp);
	if (rc) {
		sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
		return rc;
	}
	if ((rc = store_exec(st, "COMMIT", err, "cannot commit the samples")) != 0)
		return rc;
	for (size_t j = 0; j < nouts; j++)
		outs[j].trial->status = outs[j].ok ? TRIAL_DONE : TRIAL_FAILED;
	return 0;
}

int store_reference_checksum(struct store *st, long long sweep_id, const struct trial *t,
			     unsigned long long *sum, int *found, struct tune_error *err)
{
	sqlite3_stmt *q = NULL;
	/* A manifest kernel's results agree within a context (its other values are the sweep's). */
	int rc = t->manifest ? store_prepare(st, &q, err,
			 "SELECT s.checksum FROM samples s JOIN trials t ON t.id = s.trial_id WHERE t.sweep_id = ?1"
			 " AND t.status = 'done' AND t.kernel = ?2 AND t.context = ?3 LIMIT 1",
			 "iss", sweep_id, t->kernel_name, t->context)
		 : store_prepare(st, &q, err,
			 "SELECT s.checksum FROM samples s JOIN trials t ON t.id = s.trial_id WHERE t.sweep_id = ?1"
			 " AND t.status = 'done' AND t.size_mb = ?2 AND t.depth = ?3 AND t.queries = ?4 AND t.seed = ?5"
			 " AND t.kernel = ?6 LIMIT 1",
			 "iiiiis", sweep_id, t->size_mb, t->depth, t->queries, t->seed, kernel_table[t->kernel].name);

	*found = 0;
	if (rc)
		return rc;
	rc = sqlite3_step(q);
	if (rc == SQLITE_ROW) {
		*sum = (unsigned long long)sqlite3_column_int64(q, 0);
		*found = 1;
	}
	sqlite3_finalize(q);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : store_db_fail(st, err, "cannot read a checksum");
}

int store_sweep_warn(struct store *st, long long sweep_id, const char *warning, struct tune_error *err)
{
	sqlite3_stmt *q = NULL;
	int rc = store_prepare(st, &q, err,
			 "UPDATE sweeps SET warnings = CASE WHEN warnings IS NULL THEN ?1 WHEN instr(warnings, ?1) THEN"
			 " warnings ELSE warnings || char(10) || ?1 END WHERE id = ?2", "si", warning, sweep_id);

	return rc ? rc : store_run(st, q, NULL, err, "cannot record a warning");
}

int store_sweep_state(struct store *st, long long sweep_id, char **state, struct tune_error *err)
{
	sqlite3_stmt *q = NULL;
	int rc = store_prepare(st, &q, err, "SELECT search_state FROM sweeps WHERE id = ?1", "i", sweep_id);

	*state = NULL;
	if (rc)
		return rc;
	rc = sqlite3_step(q);
	if (rc == SQLITE_ROW && sqlite3_column_type(q, 0) != SQLITE_NULL &&
	    !(*state = strdup((const char *)sqlite3_column_text(q, 0)))) {
		sqlite3_finalize(q);
		return tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
	}
	sqlite3_finalize(q);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : store_db_fail(st, err, "cannot read the search state");
}

int store_optimum(struct store *st, const struct store_optimum *o, struct tune_error *err)
{
	sqlite3_stmt *q = NULL;
	int rc = store_prepare(st, &q, err,
			 "INSERT OR REPLACE INTO optima (platform, host, fingerprint, kernel, size_mb, size_class, variant,"
			 " hint, group_size, hugepages, median, ci_low, ci_high, best_group_size, runner_up, trials,"
			 " sweep_id, decided, threshold_ns, speedup, apps, dispatch, context, params, exports) VALUES (?1, ?2,"
			 " ?3, ?17, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, " NOW ", NULLIF(?18, -1), ?19,"
			 " ?20, ?21, COALESCE(?22, ''), ?23, ?24)",
			 "sssisssiidddisiisiiissss", o->platform, o->host, o->fingerprint, o->size_mb, o->size_class,
			 o->variant, o->hint, o->group_size, (long long)o->hugepages, o->stats.median, o->stats.ci_low,
			 o->stats.ci_high, o->best_group_size, o->runner_up, o->trials, o->sweep_id,
			 o->kernel ? o->kernel : "chase", o->threshold_ns, o->speedup, o->apps, o->dispatch, o->context,
			 o->params, o->exports);

	return rc ? rc : store_run(st, q, NULL, err, "cannot record an optimum");
}

int store_ipa_threshold(struct store *st, const char *platform, const char *host, const char *fingerprint,
			long long *threshold_ns, int *found, struct tune_error *err)
{
	sqlite3_stmt *q = NULL;
	int rc = store_prepare(st, &q, err,
			 "SELECT threshold_ns FROM optima WHERE kernel = 'ipa' AND platform = ?1 AND host = ?2 AND"
			 " fingerprint = ?3 AND threshold_ns IS NOT NULL ORDER BY decided DESC, id DESC LIMIT 1",
			 "sss", platform, host, fingerprint);

	*found = 0;
	if (rc)
		return rc;
	if ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		*threshold_ns = sqlite3_column_int64(q, 0);
		*found = 1;
	}
	sqlite3_finalize(q);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : store_db_fail(st, err, "cannot read the IPA optimum");
}

int store_host_wakeup(struct store *st, long long host_id, double cross_ns, double same_ns, struct tune_error *err)
{
	sqlite3_stmt *q = NULL;
	int rc = store_prepare(st, &q, err,
			 "UPDATE hosts SET wakeup_cross_ns = ?1, wakeup_same_ns = ?2, wakeup_measured = " NOW
			 " WHERE id = ?3", "ddi", cross_ns, same_ns, host_id);

	return rc ? rc : store_run(st, q, NULL, err, "cannot record the wake-up cost");
}

int store_sweep_save_state(struct store *st, long long sweep_id, const char *state, struct tune_error *err)
{
	sqlite3_stmt *q = NULL;
	int rc = store_prepare(st, &q, err, "UPDATE sweeps SET search_state = ?1 WHERE id = ?2", "si", state, sweep_id);

	return rc ? rc : store_run(st, q, NULL, err, "cannot save the search state");
}

int store_trial_stats(struct store *st, struct trial *const *trials, size_t n, struct tune_error *err)
{
	sqlite3_stmt *q = NULL;
	double *v = NULL;
	size_t cap = 0;
	int rc = store_prepare(st, &q, err, "SELECT ns_per_lookup FROM samples WHERE trial_id = ?1 AND warmup = 0", "");

	for (size_t i = 0; !rc && i < n; i++) {
		size_t k = 0;
		int step;

		memset(&trials[i]->stats, 0, sizeof(trials[i]->stats));
		if (trials[i]->status != TRIAL_DONE)
			continue;
		sqlite3_reset(q);
		sqlite3_bind_int64(q, 1, trials[i]->id);
		while ((step = sqlite3_step(q)) == SQLITE_ROW) {
			if (k == cap || !v) {
				size_t ncap = cap ? cap * 2 : 64;
				double *nv = realloc(v, ncap * sizeof(*nv));

				if (!nv) {
					rc = tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
					break;
				}
				v = nv;
				cap = ncap;
			}
			v[k++] = sqlite3_column_double(q, 0);
		}
		if (!rc && step != SQLITE_DONE)
			rc = store_db_fail(st, err, "cannot read samples");
		if (!rc)
			stats_compute(v, k, (uint64_t)trials[i]->id, &trials[i]->stats, NULL);
	}
	free(v);
	sqlite3_finalize(q);
	return rc;
}
