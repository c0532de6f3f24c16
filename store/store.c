#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

int store_fail(char *msg, int code, const char *fmt, ...)
{
	va_list ap;

	if (msg) {
		va_start(ap, fmt);
		vsnprintf(msg, STORE_MSG_MAX, fmt, ap);
		va_end(ap);
	}
	return code;
}

int store_db_fail(struct store *st, char *msg, const char *what)
{
	return store_fail(msg, STORE_ERR_DB, "database '%s': %s: %s (%s)", st->path, what, sqlite3_errmsg(st->db),
			 db_advice(sqlite3_extended_errcode(st->db)));
}

int store_exec(struct store *st, const char *sql, char *msg, const char *what)
{
	char *why = NULL;

	if (sqlite3_exec(st->db, sql, NULL, NULL, &why) != SQLITE_OK) {
		store_fail(msg, STORE_ERR_DB, "database '%s': %s: %s (%s)", st->path, what,
			   why ? why : sqlite3_errmsg(st->db), db_advice(sqlite3_extended_errcode(st->db)));
		sqlite3_free(why);
		return STORE_ERR_DB;
	}
	return 0;
}


/* Binds the arguments by the letters of types (see store_prepare). */
static void bind_args(sqlite3_stmt *q, const char *types, va_list ap)
{
	int idx = 1;

	for (const char *t = types; *t; t++, idx++) {
		if (*t == 's') {
			const char *s = va_arg(ap, const char *);

			if (s)
				sqlite3_bind_text(q, idx, s, -1, SQLITE_TRANSIENT);
			else
				sqlite3_bind_null(q, idx);
		} else if (*t == 'i' || *t == 'n') {
			long long v = va_arg(ap, long long);

			if (*t == 'n' && v == STORE_NULL)
				sqlite3_bind_null(q, idx);
			else
				sqlite3_bind_int64(q, idx, v);
		} else {
			sqlite3_bind_double(q, idx, va_arg(ap, double));
		}
	}
}

int store_prepare(struct store *st, sqlite3_stmt **q, char *msg, const char *sql, const char *types, ...)
{
	va_list ap;

	if (sqlite3_prepare_v2(st->db, sql, -1, q, NULL) != SQLITE_OK)
		return store_db_fail(st, msg, "cannot prepare a statement");
	va_start(ap, types);
	bind_args(*q, types, ap);
	va_end(ap);
	return 0;
}

/* Binds a prepared statement anew and steps it once: 0 when it is done. */
static int step_with(sqlite3_stmt *q, const char *types, ...)
{
	va_list ap;

	sqlite3_reset(q);
	va_start(ap, types);
	bind_args(q, types, ap);
	va_end(ap);
	return sqlite3_step(q) == SQLITE_DONE ? 0 : -1;
}

int store_run(struct store *st, sqlite3_stmt *q, long long *id, char *msg, const char *what)
{
	int rc, found = 0;

	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		if (id && !found)
			*id = sqlite3_column_int64(q, 0);
		found = 1;
	}
	if (rc != SQLITE_DONE) {
		rc = store_db_fail(st, msg, what);
		sqlite3_finalize(q);
		return rc;
	}
	sqlite3_finalize(q);
	return 0;
}

int store_host(struct store *st, const struct store_host *h, long long *id, char *msg)
{
	sqlite3_stmt *q = NULL;
	int rc = store_prepare(st, &q, msg,
		     "INSERT INTO hosts (hostname, arch, cpu_model, cores, pus, llc_bytes, memory_bytes, kernel,"
		     " facts_json, first_seen, last_seen) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, " NOW ", " NOW ")"
		     " ON CONFLICT (hostname, arch, cpu_model) DO UPDATE SET cores = ?4, pus = ?5, llc_bytes = ?6,"
		     " memory_bytes = ?7, kernel = ?8, facts_json = ?9, last_seen = " NOW " RETURNING id",
		     "sssiiiiss", h->hostname, h->arch, h->cpu_model, h->cores, h->pus, h->llc_bytes, h->memory_bytes,
		     h->kernel, h->facts_json);

	return rc ? rc : store_run(st, q, id, msg, "cannot record the host");
}

int store_platform(struct store *st, const struct store_platform *p, long long *id, char *msg)
{
	sqlite3_stmt *q = NULL;
	int rc = store_prepare(st, &q, msg,
		     "INSERT INTO platforms (name, arch, path, compiler, cflags) VALUES (?1, ?2, ?3, ?4, ?5)"
		     " ON CONFLICT (name) DO UPDATE SET arch = ?2, path = ?3, compiler = ?4, cflags = ?5 RETURNING id",
		     "sssss", p->name, p->arch, p->path, p->compiler, p->cflags);

	return rc ? rc : store_run(st, q, id, msg, "cannot record the platform");
}

int store_build(struct store *st, const struct store_build *b, long long *id, char *msg)
{
	sqlite3_stmt *q = NULL;
	int rc = store_prepare(st, &q, msg,
			 "INSERT INTO builds (hash, kernel, variant, compiler, compiler_version, cflags, defines,"
			 " binary_path, created) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, " NOW ")"
			 " ON CONFLICT (hash) DO UPDATE SET binary_path = ?8 RETURNING id",
			 "ssssssss", b->hash, b->kernel, b->variant, b->compiler, b->compiler_version,
			 b->cflags, b->defines, b->binary_path);

	return rc ? rc : store_run(st, q, id, msg, "cannot record the build");
}

/* The newest sweep of the same spec to resume, or a new generation. */
static int sweep_find_or_add(struct store *st, const struct store_sweep *s, long long *sweep_id, int *resumed,
			     char *msg)
{
	sqlite3_stmt *q = NULL;
	long long gen = 0, id = 0;
	int rc, done = 0;

	rc = store_prepare(st, &q, msg,
		     "SELECT id, generation, status = 'done' FROM sweeps WHERE name = ?1 AND platform_id = ?2 AND"
		     " host_id = ?3 AND spec_hash = ?4 ORDER BY generation DESC LIMIT 1",
		     "siis", s->name, s->platform_id, s->host_id, s->spec_hash);
	if (rc)
		return rc;
	if ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		id = sqlite3_column_int64(q, 0);
		gen = sqlite3_column_int64(q, 1);
		done = sqlite3_column_int(q, 2);
	} else if (rc != SQLITE_DONE) {
		rc = store_db_fail(st, msg, "cannot look up the sweep");
		sqlite3_finalize(q);
		return rc;
	}
	sqlite3_finalize(q);
	if (id && !s->fresh) {
		*sweep_id = id;
		*resumed = done ? STORE_REOPENED_DONE : STORE_RESUMED;
		rc = store_prepare(st, &q, msg, "UPDATE sweeps SET status = 'running', finished = NULL WHERE id = ?1",
			     "i", id);
		return rc ? rc : store_run(st, q, NULL, msg, "cannot reopen the sweep");
	}
	rc = store_prepare(st, &q, msg,
		     "INSERT INTO sweeps (name, platform_id, host_id, spec_hash, generation, quick, status, started,"
		     " tune_version, compiler, cflags, governor, thp, loadavg, env_json, spec_json, fingerprint, strategy,"
		     " baseline) VALUES (?1, ?2, ?3, ?4, ?5, ?6, 'running', " NOW ", ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15,"
		     " ?16, ?17) RETURNING id",
		     "siisiisssssdsssss", s->name, s->platform_id, s->host_id, s->spec_hash, gen + 1, (long long)s->quick,
		     s->tune_version, s->compiler, s->cflags, s->governor, s->thp, s->loadavg,
		     s->env_json, s->spec_json, s->fingerprint, s->strategy, s->baseline);
	return rc ? rc : store_run(st, q, sweep_id, msg, "cannot record the sweep");
}

/* Opens the sweep: claim, look-up and insert in one transaction, so that
 * two tunes cannot both find no sweep and both start one. */
int store_sweep_open(struct store *st, const struct store_sweep *s, long long *sweep_id, int *resumed,
		     char *msg)
{
	int rc;

	*resumed = 0;
	if ((rc = store_exec(st, "BEGIN IMMEDIATE", msg, "cannot start a transaction")) != 0)
		return rc;
	if ((rc = store_lease_take(st, s->name, s->platform_id, s->host_id, s->holder, msg)) != 0 ||
	    (rc = sweep_find_or_add(st, s, sweep_id, resumed, msg)) != 0) {
		sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
		return rc;
	}
	return store_exec(st, "COMMIT", msg, "cannot commit the sweep");
}

static int insert_trial(sqlite3_stmt *ins, long long sweep_id, const struct store_trial *t)
{
	return step_with(ins, "issssinnnss", sweep_id, t->key, t->kernel, t->variant, t->phase, t->work, t->seed,
			 t->runs, t->warmup, t->params, t->context);
}

int store_sweep_trials(struct store *st, long long sweep_id, struct store_trial *trials, size_t n, int insert,
		       char *msg)
{
	sqlite3_stmt *ins = NULL, *sel = NULL;
	int rc;

	if ((rc = store_exec(st, "BEGIN IMMEDIATE", msg, "cannot start a transaction")) != 0)
		return rc;
	rc = store_prepare(st, &ins, msg,
		     "INSERT INTO trials (sweep_id, trial_key, kernel, variant, phase, work, seed, runs, warmup, params,"
		     " context) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)"
		     " ON CONFLICT (sweep_id, trial_key) DO NOTHING", "");
	if (!rc)
		rc = store_prepare(st, &sel, msg, "SELECT id, status, COALESCE(batch, 0) FROM trials WHERE sweep_id = ?1 AND"
				     " trial_key = ?2", "");
	for (size_t i = 0; !rc && i < n; i++) {
		struct store_trial *t = &trials[i];
		const char *status;
		int step;

		if (insert && insert_trial(ins, sweep_id, t) != 0) {
			rc = store_db_fail(st, msg, "cannot record the trials");
			break;
		}
		sqlite3_reset(sel);
		sqlite3_bind_int64(sel, 1, sweep_id);
		sqlite3_bind_text(sel, 2, t->key, -1, SQLITE_STATIC);
		step = sqlite3_step(sel);
		if (step == SQLITE_DONE && !insert) {
			t->id = 0;
			t->batch = 0;
			t->status = STORE_PENDING;
			continue;
		}
		if (step != SQLITE_ROW) {
			rc = store_db_fail(st, msg, "cannot read the trials back");
			break;
		}
		t->id = sqlite3_column_int64(sel, 0);
		t->batch = sqlite3_column_int64(sel, 2);
		status = (const char *)sqlite3_column_text(sel, 1);
		t->status = !strcmp(status, "done") ? STORE_DONE : !strcmp(status, "failed") ? STORE_FAILED : STORE_PENDING;
	}
	sqlite3_finalize(ins);
	sqlite3_finalize(sel);
	if (rc) {
		sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
		return rc;
	}
	return store_exec(st, "COMMIT", msg, "cannot commit the trials");
}

int store_sweep_drop_pending(struct store *st, long long sweep_id, const char *phase, char *msg)
{
	sqlite3_stmt *q = NULL;
	int rc = store_prepare(st, &q, msg,
			       "DELETE FROM trials WHERE sweep_id = ?1 AND phase = ?2 AND status = 'pending' AND NOT EXISTS"
			       " (SELECT 1 FROM samples s WHERE s.trial_id = trials.id)", "is", sweep_id, phase);

	return rc ? rc : store_run(st, q, NULL, msg, "cannot drop the trials an interrupted run left unmeasured");
}

int store_sweep_finish(struct store *st, long long sweep_id, const char *status, char *msg)
{
	sqlite3_stmt *q = NULL;
	int rc = store_prepare(st, &q, msg, "UPDATE sweeps SET status = ?1, finished = " NOW " WHERE id = ?2", "si",
			 status, sweep_id);

	return rc ? rc : store_run(st, q, NULL, msg, "cannot close the sweep");
}

int store_record_batch(struct store *st, struct store_outcome *outs, size_t nouts,
		       const struct store_sample *samples, size_t nsamples, const struct store_batch_meta *meta,
		       char *msg)
{
	sqlite3_stmt *ins = NULL, *upd = NULL, *sum = NULL, *swp = NULL;
	int rc;

	if ((rc = store_exec(st, "BEGIN IMMEDIATE", msg, "cannot start a transaction")) != 0)
		return rc;
	rc = store_prepare(st, &ins, msg,
		     "INSERT INTO samples (trial_id, run_id, warmup, ns_total, ns_per_lookup, lookups_per_sec,"
		     " checksum, cpu, raw_json, outlier) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)", "");
	if (!rc)
		rc = store_prepare(st, &sum, msg,
			     "INSERT OR REPLACE INTO trial_summary (trial_id, n, median, mad, ci_low, ci_high, outliers)"
			     " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)", "");
	if (!rc && meta)
		rc = store_prepare(st, &swp, msg,
			     "UPDATE sweeps SET measure_ns = measure_ns + ?1, loadavg_max = CASE WHEN ?3 < 0 THEN"
			     " loadavg_max ELSE max(COALESCE(loadavg_max, ?3), ?3) END WHERE id = ?2", "iid",
			     meta->measure_ns, meta->sweep_id, meta->loadavg);
	if (!rc)
		rc = store_prepare(st, &upd, msg,
			     "UPDATE trials SET status = ?1, reason = ?2, build_id = ?3, cpu = ?4, batch = ?6, finished = "
			     NOW " WHERE id = ?5", "");
	for (size_t i = 0; !rc && i < nsamples; i++) {
		const struct store_sample *s = &samples[i];
		int keep = 0;

		for (size_t j = 0; j < nouts && !keep; j++)
			keep = outs[j].trial_id == s->trial_id && outs[j].ok;
		if (!keep)
			continue;
		if (step_with(ins, "iiiiddinsi", s->trial_id, s->run_id, (long long)s->warmup, s->ns_total,
			      s->ns_per_lookup, s->lookups_per_sec, (long long)s->checksum,
			      s->cpu >= 0 ? (long long)s->cpu : STORE_NULL, s->raw_json, (long long)s->outlier) != 0)
			rc = store_db_fail(st, msg, "cannot record a sample");
	}
	for (size_t j = 0; !rc && j < nouts; j++) {
		const struct store_outcome *o = &outs[j];

		if (step_with(upd, "ssnnii", o->ok ? "done" : "failed", o->ok ? NULL : o->reason,
			      o->build_id ? o->build_id : STORE_NULL, o->cpu >= 0 ? (long long)o->cpu : STORE_NULL,
			      o->trial_id, outs[0].trial_id) != 0) {
			rc = store_db_fail(st, msg, "cannot record a trial's status");
			break;
		}
		if (o->ok && step_with(sum, "iiddddi", o->trial_id, o->summary.n, o->summary.median, o->summary.mad,
				       o->summary.ci_low, o->summary.ci_high, o->summary.outliers) != 0)
			rc = store_db_fail(st, msg, "cannot record a trial's statistics");
	}
	if (!rc && swp && sqlite3_step(swp) != SQLITE_DONE)
		rc = store_db_fail(st, msg, "cannot record the search state");
	sqlite3_finalize(ins);
	sqlite3_finalize(upd);
	sqlite3_finalize(sum);
	sqlite3_finalize(swp);
	if (rc) {
		sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
		return rc;
	}
	return store_exec(st, "COMMIT", msg, "cannot commit the samples");
}

int store_reference_checksum(struct store *st, long long sweep_id, const struct store_trial *t,
			     unsigned long long *sum, int *found, char *msg)
{
	sqlite3_stmt *q = NULL;
	/* Within a context the results agree (its other values are the sweep's). */
	int rc = store_prepare(st, &q, msg,
			 "SELECT s.checksum FROM samples s JOIN trials t ON t.id = s.trial_id WHERE t.sweep_id = ?1"
			 " AND t.status = 'done' AND t.kernel = ?2 AND COALESCE(t.context, '') = ?3 LIMIT 1",
			 "iss", sweep_id, t->kernel, t->context ? t->context : "");

	*found = 0;
	if (rc)
		return rc;
	rc = sqlite3_step(q);
	if (rc == SQLITE_ROW) {
		*sum = (unsigned long long)sqlite3_column_int64(q, 0);
		*found = 1;
	}
	sqlite3_finalize(q);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : store_db_fail(st, msg, "cannot read a checksum");
}

int store_sweep_warn(struct store *st, long long sweep_id, const char *warning, char *msg)
{
	sqlite3_stmt *q = NULL;
	int rc = store_prepare(st, &q, msg,
			 "UPDATE sweeps SET warnings = CASE WHEN warnings IS NULL THEN ?1 WHEN instr(warnings, ?1) THEN"
			 " warnings ELSE warnings || char(10) || ?1 END WHERE id = ?2", "si", warning, sweep_id);

	return rc ? rc : store_run(st, q, NULL, msg, "cannot record a warning");
}

int store_host_probe_value(struct store *st, long long host_id, const char *kernel, const char *probe,
			   const char *field, double *value, int *found, char *msg)
{
	sqlite3_stmt *q = NULL;
	int rc = store_prepare(st, &q, msg, "SELECT value FROM host_probes WHERE host_id = ?1 AND kernel = ?2 AND"
			       " probe = ?3 AND field = ?4", "isss", host_id, kernel, probe, field);

	*found = 0;
	if (rc)
		return rc;
	if ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		*value = sqlite3_column_double(q, 0);
		*found = 1;
	}
	sqlite3_finalize(q);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : store_db_fail(st, msg, "cannot read the host's probes");
}

int store_sweep_env_set(struct store *st, long long sweep_id, const char *key, long long value, char *msg)
{
	sqlite3_stmt *q = NULL;
	int rc = store_prepare(st, &q, msg, "UPDATE sweeps SET env_json = json_set(env_json, '$.' || ?1, ?2) WHERE id = ?3",
			       "sii", key, value, sweep_id);

	return rc ? rc : store_run(st, q, NULL, msg, "cannot record a fact of the sweep's host");
}

int store_sweep_state(struct store *st, long long sweep_id, char **state, char *msg)
{
	sqlite3_stmt *q = NULL;
	int rc = store_prepare(st, &q, msg, "SELECT search_state FROM sweeps WHERE id = ?1", "i", sweep_id);

	*state = NULL;
	if (rc)
		return rc;
	rc = sqlite3_step(q);
	if (rc == SQLITE_ROW && sqlite3_column_type(q, 0) != SQLITE_NULL &&
	    !(*state = strdup((const char *)sqlite3_column_text(q, 0)))) {
		sqlite3_finalize(q);
		return store_fail(msg, STORE_ERR_SYSTEM, "out of memory");
	}
	sqlite3_finalize(q);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : store_db_fail(st, msg, "cannot read the search state");
}

int store_optimum(struct store *st, const struct store_optimum *o, char *msg)
{
	sqlite3_stmt *q = NULL;
	int rc = store_prepare(st, &q, msg,
			 "INSERT OR REPLACE INTO optima (platform, host, fingerprint, kernel, size_class, variant, median,"
			 " ci_low, ci_high, best_point, runner_up, trials, sweep_id, decided, context, params, exports, runs,"
			 " baseline_paired) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, " NOW ","
			 " COALESCE(?14, ''), COALESCE(?15, '{}'), ?16, ?17, ?18)",
			 "ssssssdddisiisssis", o->platform, o->host, o->fingerprint, o->kernel, o->size_class, o->variant,
			 o->median, o->ci_low, o->ci_high, o->best_point, o->runner_up, o->trials, o->sweep_id, o->context,
			 o->params, o->exports, o->runs, o->baseline_paired);

	return rc ? rc : store_run(st, q, NULL, msg, "cannot record an optimum");
}

int store_optimum_param(struct store *st, const char *platform, const char *host, const char *fingerprint,
			const char *kernel, const char *param, long long *value, int *found, char *msg)
{
	sqlite3_stmt *q = NULL;
	int rc = store_prepare(st, &q, msg,
			 "SELECT json_extract(params, '$.\"' || ?5 || '\"') AS v FROM optima WHERE kernel = ?4 AND"
			 " platform = ?1 AND host = ?2 AND fingerprint = ?3 AND typeof(v) = 'integer' ORDER BY decided"
			 " DESC, id DESC LIMIT 1",
			 "sssss", platform, host, fingerprint, kernel, param);

	*found = 0;
	if (rc)
		return rc;
	if ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		*value = sqlite3_column_int64(q, 0);
		*found = 1;
	}
	sqlite3_finalize(q);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : store_db_fail(st, msg, "cannot read an optimum");
}

int store_host_probe(struct store *st, long long host_id, const char *kernel, const char *probe, const char *field,
		     double value, char *msg)
{
	sqlite3_stmt *q = NULL;
	int rc = store_prepare(st, &q, msg,
			 "INSERT OR REPLACE INTO host_probes (host_id, kernel, probe, field, value, measured) VALUES"
			 " (?1, ?2, ?3, ?4, ?5, " NOW ")", "isssd", host_id, kernel, probe, field, value);

	return rc ? rc : store_run(st, q, NULL, msg, "cannot record what the probe measured");
}

int store_sweep_save_state(struct store *st, long long sweep_id, const char *state, char *msg)
{
	sqlite3_stmt *q = NULL;
	int rc = store_prepare(st, &q, msg, "UPDATE sweeps SET search_state = ?1 WHERE id = ?2", "si", state, sweep_id);

	return rc ? rc : store_run(st, q, NULL, msg, "cannot save the search state");
}

/* The first column of q's rows into *v (grown with realloc), *n of them;
 * finalizes q. */
static int read_doubles(struct store *st, sqlite3_stmt *q, double **v, size_t *n, size_t *cap, char *msg)
{
	int step;

	*n = 0;
	while ((step = sqlite3_step(q)) == SQLITE_ROW) {
		if (*n == *cap || !*v) {
			size_t ncap = *cap ? *cap * 2 : 64;
			double *nv = realloc(*v, ncap * sizeof(*nv));

			if (!nv) {
				sqlite3_finalize(q);
				return store_fail(msg, STORE_ERR_SYSTEM, "out of memory");
			}
			*v = nv;
			*cap = ncap;
		}
		(*v)[(*n)++] = sqlite3_column_double(q, 0);
	}
	sqlite3_finalize(q);
	return step == SQLITE_DONE ? 0 : store_db_fail(st, msg, "cannot read samples");
}

int store_recorded_trial(struct store *st, const char *sweep, const char *params, long long *trial_id,
			 long long *batch, char *msg)
{
	sqlite3_stmt *q = NULL;
	int step, rc = store_prepare(st, &q, msg,
				     "SELECT t.id, COALESCE(t.batch, 0) FROM trials t JOIN sweeps s ON s.id = t.sweep_id WHERE s.name = ?1 AND"
				     " t.params = ?2 AND t.phase = 'search' AND t.status = 'done' ORDER BY s.id DESC, t.id DESC"
				     " LIMIT 1", "ss", sweep, params);

	*trial_id = *batch = 0;
	if (rc)
		return rc;
	if ((step = sqlite3_step(q)) == SQLITE_ROW) {
		*trial_id = sqlite3_column_int64(q, 0);
		*batch = sqlite3_column_int64(q, 1);
	}
	sqlite3_finalize(q);
	return step == SQLITE_ROW || step == SQLITE_DONE ? 0 : store_db_fail(st, msg, "cannot read the recorded trials");
}

int store_paired_ratios(struct store *st, long long a, long long b, double **v, size_t *n, size_t *cap, char *msg)
{
	sqlite3_stmt *q = NULL;
	int rc = store_prepare(st, &q, msg,
			       "SELECT x.ns_per_lookup / y.ns_per_lookup FROM samples x JOIN samples y ON y.trial_id = ?2 AND"
			       " y.run_id = x.run_id AND y.warmup = 0 WHERE x.trial_id = ?1 AND x.warmup = 0 AND"
			       " y.ns_per_lookup > 0 ORDER BY x.run_id", "ii", a, b);

	return rc ? rc : read_doubles(st, q, v, n, cap, msg);
}

int store_trial_values(struct store *st, long long trial_id, double **v, size_t *n, size_t *cap, char *msg)
{
	sqlite3_stmt *q = NULL;
	int rc = store_prepare(st, &q, msg, "SELECT ns_per_lookup FROM samples WHERE trial_id = ?1 AND warmup = 0",
			       "i", trial_id);

	return rc ? rc : read_doubles(st, q, v, n, cap, msg);
}
