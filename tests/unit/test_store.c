/* The store: a new database gets the current schema; a newer one is refused;
 * trials survive a reopen with their status (resume); a writer killed with
 * SIGKILL in the middle of batches leaves a database that passes
 * integrity_check with every batch either whole or absent. */
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../../kernels/chase/chase.h"
#include "../../store/store.h"
#include "../check.h"

static long long scalar(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *q = NULL;
	long long v = -1;

	if (sqlite3_prepare_v2(db, sql, -1, &q, NULL) == SQLITE_OK && sqlite3_step(q) == SQLITE_ROW)
		v = sqlite3_column_int64(q, 0);
	sqlite3_finalize(q);
	return v;
}

static const char *text(sqlite3 *db, const char *sql, char *buf, size_t len)
{
	sqlite3_stmt *q = NULL;

	snprintf(buf, len, "(none)");
	if (sqlite3_prepare_v2(db, sql, -1, &q, NULL) == SQLITE_OK && sqlite3_step(q) == SQLITE_ROW)
		snprintf(buf, len, "%s", (const char *)sqlite3_column_text(q, 0));
	sqlite3_finalize(q);
	return buf;
}

/* A sweep with ntrials interleaved-prefetch trials, stored. */
static int open_sweep(struct store *st, struct plan *pl, size_t ntrials, long long *sweep_id)
{
	struct host_facts f;
	struct platform p;
	struct tune_error err;
	long long host_id, platform_id;
	int resumed;

	memset(&f, 0, sizeof(f));
	snprintf(f.hostname, sizeof(f.hostname), "testhost");
	snprintf(f.arch, sizeof(f.arch), "x86_64");
	snprintf(f.cpu_model, sizeof(f.cpu_model), "test cpu");
	memset(&p, 0, sizeof(p));
	p.name = "testplat";
	p.path = "platforms/test.yaml";
	p.compiler = "cc";
	p.arch = ARCH_X86_64;
	memset(pl, 0, sizeof(*pl));
	pl->trials = calloc(ntrials, sizeof(*pl->trials));
	pl->ntrials = ntrials;
	for (size_t i = 0; i < ntrials; i++) {
		struct trial *t = &pl->trials[i];

		t->variant = CHASE_VARIANT_INTERLEAVED_PREFETCH;
		t->hint = CHASE_HINT_PLDL1KEEP;
		t->size_mb = 8;
		t->depth = 12;
		t->queries = 1000;
		t->group_size = (long long)i + 1;
		t->seed = 42;
		t->runs = 3;
		t->warmup = 1;
		snprintf(t->key, sizeof(t->key), "trial-%zu", i);
	}
	struct store_sweep ss = { "unit", 0, 0, "hash", "{}", "{}", "test", "cc", "-O2", "fp", "grid", &f, 0, 0 };
	struct trial **all = calloc(ntrials, sizeof(*all));

	for (size_t i = 0; i < ntrials; i++)
		all[i] = &pl->trials[i];

	if (store_host(st, &f, &host_id, &err) || store_platform(st, &p, &platform_id, &err))
		return fprintf(stderr, "%s\n", err.msg), -1;
	ss.platform_id = platform_id;
	ss.host_id = host_id;
	if (store_sweep_open(st, &ss, sweep_id, &resumed, &err) ||
	    store_sweep_trials(st, *sweep_id, all, ntrials, 1, &err)) {
		free(all);
		return fprintf(stderr, "%s\n", err.msg), -1;
	}
	free(all);
	return 0;
}

/* Records trial i as done with runs+warmup samples. */
static int record(struct store *st, struct plan *pl, size_t i)
{
	struct trial *t = &pl->trials[i];
	struct store_outcome out = { t, 1, NULL, 0, 1, { 3, 3.5, 1.0, 2.5, 4.5, 0 } };
	struct store_sample s[4];
	struct tune_error err;

	for (int k = 0; k < 4; k++) {
		s[k] = (struct store_sample){ t, k ? k - 1 : 0, k == 0, 1000 + k, 1.5 + k, 1e6, 12345, 1, 0, "{}" };
	}
	return store_record_batch(st, &out, 1, s, 4, NULL, &err);
}

/* Several hosts of one sweep open the same new database at once. */
static void *open_close(void *path)
{
	struct store *st = NULL;
	struct tune_error err;
	long failed = store_open(path, &st, &err) != 0;

	store_close(st);
	return (void *)failed;
}

static void concurrent_open(const char *dir)
{
	char path[256];
	int failed = 0;

	for (int round = 0; round < 40; round++) {
		pthread_t t[3];

		snprintf(path, sizeof(path), "%s/race%d.db", dir, round);
		for (int i = 0; i < 3; i++)
			pthread_create(&t[i], NULL, open_close, path);
		for (int i = 0; i < 3; i++) {
			void *r;

			pthread_join(t[i], &r);
			failed += r != NULL;
		}
	}
	CHECK(failed == 0, "%d of 120 concurrent opens of a new database failed", failed);
}

int main(void)
{
	char dir[] = "/tmp/tune-test-store-XXXXXX", path[256], buf[256];
	struct tune_error err;
	struct store *st = NULL;
	struct plan pl;
	long long sweep_id;

	if (!mkdtemp(dir))
		return 2;

	/* Migration: a new file gets the current schema, in WAL mode. */
	snprintf(path, sizeof(path), "%s/new.db", dir);
	CHECK(store_open(path, &st, &err) == 0, "open: %s", err.msg);
	CHECK(scalar(store_db(st), "PRAGMA user_version") == STORE_SCHEMA_VERSION, "user_version");
	CHECK(!strcmp(text(store_db(st), "PRAGMA journal_mode", buf, sizeof(buf)), "wal"), "journal %s", buf);
	/* Each commit synced: a power loss keeps every committed batch. */
	CHECK(scalar(store_db(st), "PRAGMA synchronous") == 2, "synchronous FULL (2), not %lld",
	      (long long)scalar(store_db(st), "PRAGMA synchronous"));
	CHECK(scalar(store_db(st), "SELECT count(*) FROM sqlite_master WHERE name IN ('hosts','platforms','builds',"
				   "'sweeps','trials','samples','trial_stats','latest_results','best_per_size')") == 9,
	      "schema objects");

	concurrent_open(dir);

	/* Read-only, at a path a URI would misread: the file itself is opened. */
	{
		char odd[512];
		struct store *ro = NULL;

		snprintf(odd, sizeof(odd), "%s/a b?c#d%%e.db", dir);
		CHECK(store_open(odd, &ro, &err) == 0, "create %s: %s", odd, err.msg);
		store_close(ro);
		ro = NULL;
		CHECK(store_open_readonly(odd, &ro, &err) == 0, "read-only %s: %s", odd, err.msg);
		CHECK(ro && scalar(store_db(ro), "PRAGMA user_version") == STORE_SCHEMA_VERSION, "its schema");
		CHECK(ro && sqlite3_exec(store_db(ro), "CREATE TABLE x (y)", NULL, NULL, NULL) != SQLITE_OK,
		      "nothing can be written");
		store_close(ro);
		unlink(odd);
	}

	/* Resume: trials and their statuses survive a reopen. */
	CHECK(open_sweep(st, &pl, 5, &sweep_id) == 0, "sweep");
	CHECK(record(st, &pl, 0) == 0 && record(st, &pl, 2) == 0, "record");
	CHECK(scalar(store_db(st), "SELECT median_ns_per_lookup * 10 FROM trial_stats LIMIT 1") == 35,
	      "median of the measured runs (2.5, 3.5, 4.5; warm-up 1.5 left out) x10: got %lld",
	      scalar(store_db(st), "SELECT median_ns_per_lookup * 10 FROM trial_stats LIMIT 1"));
	store_close(st);
	free(pl.trials);
	CHECK(store_open(path, &st, &err) == 0, "reopen: %s", err.msg);
	CHECK(open_sweep(st, &pl, 5, &sweep_id) == 0, "sweep again");
	CHECK(pl.trials[0].status == TRIAL_DONE && pl.trials[1].status == TRIAL_PENDING &&
	      pl.trials[2].status == TRIAL_DONE, "statuses read back");
	CHECK(scalar(store_db(st), "SELECT count(*) FROM trials") == 5, "no trial duplicated by the reopen");
	/* A sample recorded twice is refused, and the batch leaves nothing behind. */
	CHECK(record(st, &pl, 0) == TUNE_ERR_STORE, "duplicate samples are refused");
	CHECK(scalar(store_db(st), "SELECT count(*) FROM samples") == 8, "still 8 samples");
	store_close(st);
	free(pl.trials);

	/* A version-1 database is migrated in place and keeps its samples. */
	snprintf(path, sizeof(path), "%s/v1.db", dir);
	{
		FILE *f = fopen("store/migrations/001_initial.sql", "r");
		char *sql = calloc(1, 1 << 16);
		sqlite3 *db;

		CHECK(f && sql, "read the version-1 schema (run from the source tree)");
		if (f && sql) {
			CHECK(fread(sql, 1, (1 << 16) - 1, f) > 0, "schema text");
			sqlite3_open(path, &db);
			CHECK(sqlite3_exec(db, sql, NULL, NULL, NULL) == SQLITE_OK, "v1 schema: %s", sqlite3_errmsg(db));
			sqlite3_exec(db, "PRAGMA user_version = 1;"
				     "INSERT INTO hosts VALUES (1, 'old', 'x86_64', 'cpu', 2, 2, 1, 1, 'k', '{}', 't', 't');"
				     "INSERT INTO platforms VALUES (1, 'p', 'x86_64', 'p.yaml', 'cc', '');"
				     "INSERT INTO sweeps (id, name, platform_id, host_id, spec_hash, status, started,"
				     " tune_version, compiler, cflags, env_json, spec_json) VALUES (1, 's', 1, 1, 'h',"
				     " 'done', 't', 'v', 'cc', '', '{}', '{}');"
				     "INSERT INTO trials (id, sweep_id, trial_key, kernel, variant, size_mb, depth, queries,"
				     " group_size, hugepages, seed, runs, warmup, status) VALUES (1, 1, 'k', 'chase',"
				     " 'scalar', 8, 12, 10, 1, 0, 1, 1, 0, 'done');"
				     "INSERT INTO samples (trial_id, run_id, warmup, ns_total, ns_per_lookup,"
				     " lookups_per_sec, checksum, raw_json) VALUES (1, 0, 0, 5, 7.5, 1, 3, '{}');",
				     NULL, NULL, NULL);
			sqlite3_close(db);
		}
		if (f)
			fclose(f);
		free(sql);
	}
	CHECK(store_open(path, &st, &err) == 0, "migrate v1: %s", err.msg);
	if (st) {
		CHECK(scalar(store_db(st), "PRAGMA user_version") == STORE_SCHEMA_VERSION, "migrated to the current version");
		CHECK(scalar(store_db(st), "SELECT count(*) FROM samples WHERE outlier = 0") == 1, "sample kept");
		CHECK(scalar(store_db(st), "SELECT median_ns_per_lookup * 10 FROM trial_results") == 75,
		      "views answer over migrated data");
		store_close(st);
		st = NULL;
	}

	/* A newer schema is refused with a clear message, and left as it was. */
	snprintf(path, sizeof(path), "%s/newer.db", dir);
	{
		sqlite3 *db;

		sqlite3_open(path, &db);
		sqlite3_exec(db, "CREATE TABLE keep (x); PRAGMA user_version = 99", NULL, NULL, NULL);
		sqlite3_close(db);
	}
	CHECK(store_open(path, &st, &err) == TUNE_ERR_STORE, "newer schema refused");
	CHECK_CONTAINS(err.msg, "schema version 99, newer than this tune's");
	CHECK_CONTAINS(err.msg, "upgrade tune");

	/* Not a database at all. */
	snprintf(path, sizeof(path), "%s/junk.db", dir);
	{
		FILE *f = fopen(path, "w");

		fputs("this is not a database, it is a long enough line of text to fill a header page........", f);
		fclose(f);
	}
	CHECK(store_open(path, &st, &err) == TUNE_ERR_STORE, "junk refused");
	CHECK_CONTAINS(err.msg, path);

	/* Crash safety: kill a writer at random moments; after each kill the
	 * database is intact and every trial has all of its samples or none. */
	snprintf(path, sizeof(path), "%s/crash.db", dir);
	srand((unsigned)time(NULL));
	for (int kill_no = 0; kill_no < 20; kill_no++) {
		pid_t pid = fork();

		if (pid == 0) {
			struct store *cst;
			struct plan cpl;
			long long sid;

			if (store_open(path, &cst, &err) || open_sweep(cst, &cpl, 400, &sid))
				_exit(3);
			for (size_t i = 0; i < cpl.ntrials; i++)
				if (cpl.trials[i].status != TRIAL_DONE && record(cst, &cpl, i))
					_exit(4);
			_exit(0);
		}
		usleep((useconds_t)(rand() % 40000));
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		CHECK(store_open(path, &st, &err) == 0, "reopen after kill %d: %s", kill_no, err.msg);
		if (!st)
			break;
		CHECK(!strcmp(text(store_db(st), "PRAGMA integrity_check", buf, sizeof(buf)), "ok"),
		      "integrity after kill %d: %s", kill_no, buf);
		CHECK(scalar(store_db(st), "SELECT count(*) FROM trials t WHERE (t.status = 'done') != "
					   "((SELECT count(*) FROM samples s WHERE s.trial_id = t.id) = 4)") == 0,
		      "a trial with part of its samples after kill %d", kill_no);
		store_close(st);
	}
	/* Finishing after the kills records every trial exactly once. */
	CHECK(store_open(path, &st, &err) == 0, "final open");
	CHECK(open_sweep(st, &pl, 400, &sweep_id) == 0, "final sweep");
	for (size_t i = 0; i < pl.ntrials; i++)
		if (pl.trials[i].status != TRIAL_DONE)
			record(st, &pl, i);
	CHECK(scalar(store_db(st), "SELECT count(*) FROM samples") == 1600, "400 trials x 4 samples, got %lld",
	      scalar(store_db(st), "SELECT count(*) FROM samples"));
	CHECK(scalar(store_db(st), "SELECT count(*) FROM trials WHERE status = 'done'") == 400, "all done");
	store_close(st);
	free(pl.trials);

	snprintf(buf, sizeof(buf), "rm -rf %s", dir);
	if (system(buf) != 0)
		return 2;
	return check_done("test_store");
}
