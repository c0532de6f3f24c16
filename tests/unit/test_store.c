/* The store on its own rows, with nothing of the tuner: a new database
 * gets the current schema; a newer one is refused; STORE_NULL numbers are
 * NULL columns; trials survive a reopen with their status (resume); a writer killed with
 * SIGKILL in the middle of batches leaves a database that passes
 * integrity_check with every batch either whole or absent. */
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../../store/store.h"
#include "../check.h"
#include "sql.h"

/* A sweep's trials as the store sees them. */
struct trials {
	struct store_trial *v;
	char (*keys)[32];
	char (*params)[160];
	size_t n;
};

static void trials_free(struct trials *tr)
{
	free(tr->v);
	free(tr->keys);
	free(tr->params);
}

/* A sweep with n interleaved-prefetch trials, stored. */
static int open_sweep(struct store *st, struct trials *tr, size_t n, long long *sweep_id)
{
	struct store_host h = { "testhost", "x86_64", "test cpu", "linux", "{}", 2, 2, 1 << 20, 1 << 30 };
	struct store_platform p = { "testplat", "x86_64", "platforms/test.yaml", "cc", "-O2" };
	struct store_sweep ss = { "unit", 0, 0, "hash", "{}", "{}", "test", "cc", "-O2", "fp", "grid", "scalar",
				  "performance", "never", "testhost", 0.5, 0, 0 };
	char msg[STORE_MSG_MAX];
	long long host_id, platform_id;
	int resumed;

	tr->v = calloc(n, sizeof(*tr->v));
	tr->keys = calloc(n, sizeof(*tr->keys));
	tr->params = calloc(n, sizeof(*tr->params));
	tr->n = n;
	if (!tr->v || !tr->keys || !tr->params)
		return -1;
	for (size_t i = 0; i < n; i++) {
		struct store_trial *t = &tr->v[i];

		snprintf(tr->keys[i], sizeof(tr->keys[i]), "trial-%zu", i);
		t->key = tr->keys[i];
		t->kernel = "chase";
		t->variant = "interleaved-prefetch";
		t->phase = "search";
		snprintf(tr->params[i], sizeof(tr->params[i]), "{\"variant\": \"interleaved-prefetch\", "
			 "\"hint\": \"pldl1keep\", \"size_mb\": 8, \"depth\": 12, \"queries\": 1000, "
			 "\"group_size\": %zu}", i + 1);
		t->params = tr->params[i];
		t->context = "size_mb=8";
		t->work = 12000;
		t->seed = 42;
		t->runs = 3;
		t->warmup = 1;
	}
	if (store_host(st, &h, &host_id, msg) || store_platform(st, &p, &platform_id, msg))
		return fprintf(stderr, "%s\n", msg), -1;
	ss.platform_id = platform_id;
	ss.host_id = host_id;
	if (store_sweep_open(st, &ss, sweep_id, &resumed, msg) || store_sweep_trials(st, *sweep_id, tr->v, n, 1, msg))
		return fprintf(stderr, "%s\n", msg), -1;
	return 0;
}

/* Records trial i as done with runs+warmup samples. */
static int record(struct store *st, struct trials *tr, size_t i)
{
	const struct store_trial *t = &tr->v[i];
	struct store_outcome out = { t->id, 1, NULL, 0, 1, { 3, 3.5, 1.0, 2.5, 4.5, 0 } };
	struct store_sample s[4];
	char msg[STORE_MSG_MAX];

	for (int k = 0; k < 4; k++) {
		s[k] = (struct store_sample){ t->id, k ? k - 1 : 0, k == 0, 1000 + k, 1.5 + k, 1e6, 12345, 1, 0, "{}" };
	}
	return store_record_batch(st, &out, 1, s, 4, NULL, msg);
}

/* Several hosts of one sweep open the same new database at once. */
static void *open_close(void *path)
{
	struct store *st = NULL;
	char msg[STORE_MSG_MAX];
	long failed = store_open(path, &st, msg) != 0;

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
	char err[STORE_MSG_MAX];
	struct store *st = NULL;
	struct trials pl;
	long long sweep_id;

	if (!mkdtemp(dir))
		return 2;

	/* Migration: a new file gets the current schema, in WAL mode. */
	snprintf(path, sizeof(path), "%s/new.db", dir);
	CHECK(store_open(path, &st, err) == 0, "open: %s", err);
	CHECK(scalar(store_db(st), "PRAGMA user_version") == STORE_SCHEMA_VERSION, "user_version");
	CHECK(!strcmp(text(store_db(st), "PRAGMA journal_mode", buf, sizeof(buf)), "wal"), "journal %s", buf);
	/* Each commit synced: a power loss keeps every committed batch. */
	CHECK(scalar(store_db(st), "PRAGMA synchronous") == 2, "synchronous FULL (2), not %lld",
	      (long long)scalar(store_db(st), "PRAGMA synchronous"));
	CHECK(scalar(store_db(st), "SELECT count(*) FROM sqlite_master WHERE name IN ('hosts','platforms','builds',"
				   "'sweeps','trials','samples','trial_stats','chase_latest','chase_best_per_size')") == 9,
	      "schema objects");
	/* No kernel's parameter is a column of the trials (schema 15). */
	CHECK(scalar(store_db(st), "SELECT count(*) FROM pragma_table_info('trials') WHERE name IN ('hint', 'size_mb',"
				   " 'depth', 'queries', 'group_size', 'hugepages', 'threshold_ns', 'apps', 'speedup',"
				   " 'dispatch')") == 0, "trials keep parameters as data");

	concurrent_open(dir);

	/* Read-only, at a path a URI would misread: the file itself is opened. */
	{
		char odd[512];
		struct store *ro = NULL;

		snprintf(odd, sizeof(odd), "%s/a b?c#d%%e.db", dir);
		CHECK(store_open(odd, &ro, err) == 0, "create %s: %s", odd, err);
		store_close(ro);
		ro = NULL;
		CHECK(store_open_readonly(odd, &ro, NULL, err) == 0, "read-only %s: %s", odd, err);
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
	CHECK(scalar(store_db(st), "SELECT count(*) FROM trials WHERE json_extract(params, '$.hint') = 'pldl1keep' AND"
				   " context = 'size_mb=8' AND work = 12000 AND legacy_key = ''") == 5,
	      "the parameters, context and work as given");
	CHECK(scalar(store_db(st), "SELECT count(*) FROM trials WHERE status = 'done' AND build_id IS NULL AND"
				   " reason IS NULL") == 2, "STORE_NULL and NULL strings are NULL columns");
	{
		double *v = NULL;
		size_t n = 0, cap = 0;

		CHECK(store_trial_values(st, pl.v[0].id, &v, &n, &cap, err) == 0, "values: %s", err);
		CHECK(n == 3 && v && v[0] + v[1] + v[2] == 2.5 + 3.5 + 4.5, "the measured runs' values, not the warm-up's");
		free(v);
	}
	store_close(st);
	trials_free(&pl);
	CHECK(store_open(path, &st, err) == 0, "reopen: %s", err);
	CHECK(open_sweep(st, &pl, 5, &sweep_id) == 0, "sweep again");
	CHECK(pl.v[0].status == STORE_DONE && pl.v[1].status == STORE_PENDING &&
	      pl.v[2].status == STORE_DONE, "statuses read back");
	CHECK(scalar(store_db(st), "SELECT count(*) FROM trials") == 5, "no trial duplicated by the reopen");
	/* A sample recorded twice is refused, and the batch leaves nothing behind. */
	CHECK(record(st, &pl, 0) == STORE_ERR_DB, "duplicate samples are refused");
	CHECK(scalar(store_db(st), "SELECT count(*) FROM samples") == 8, "still 8 samples");
	store_close(st);
	trials_free(&pl);

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
	CHECK(store_open(path, &st, err) == 0, "migrate v1: %s", err);
	if (st) {
		CHECK(scalar(store_db(st), "PRAGMA user_version") == STORE_SCHEMA_VERSION, "migrated to the current version");
		CHECK(scalar(store_db(st), "SELECT count(*) FROM samples WHERE outlier = 0") == 1, "sample kept");
		CHECK(scalar(store_db(st), "SELECT median_ns_per_lookup * 10 FROM chase_results WHERE size_mb = 8 AND"
					   " depth = 12 AND queries = 10 AND group_size = 1 AND hugepages = 0") == 75,
		      "views answer over migrated data, its parameters read back");
		CHECK(scalar(store_db(st), "SELECT work FROM trials") == 120 &&
		      scalar(store_db(st), "SELECT legacy_key = '8/0/0' FROM trials") == 1,
		      "a run's work (queries x depth) and the key of its legacy optimum");
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
	CHECK(store_open(path, &st, err) == STORE_ERR_DB, "newer schema refused");
	CHECK_CONTAINS(err, "schema version 99, newer than this tune's");
	CHECK_CONTAINS(err, "upgrade tune");

	/* Not a database at all. */
	snprintf(path, sizeof(path), "%s/junk.db", dir);
	{
		FILE *f = fopen(path, "w");

		fputs("this is not a database, it is a long enough line of text to fill a header page........", f);
		fclose(f);
	}
	CHECK(store_open(path, &st, err) == STORE_ERR_DB, "junk refused");
	CHECK_CONTAINS(err, path);

	/* Crash safety: kill a writer at random moments; after each kill the
	 * database is intact and every trial has all of its samples or none. */
	snprintf(path, sizeof(path), "%s/crash.db", dir);
	srand((unsigned)time(NULL));
	for (int kill_no = 0; kill_no < 20; kill_no++) {
		pid_t pid = fork();

		if (pid == 0) {
			struct store *cst;
			struct trials cpl;
			long long sid;

			if (store_open(path, &cst, err) || open_sweep(cst, &cpl, 400, &sid))
				_exit(3);
			for (size_t i = 0; i < cpl.n; i++)
				if (cpl.v[i].status != STORE_DONE && record(cst, &cpl, i))
					_exit(4);
			_exit(0);
		}
		usleep((useconds_t)(rand() % 40000));
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		CHECK(store_open(path, &st, err) == 0, "reopen after kill %d: %s", kill_no, err);
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
	CHECK(store_open(path, &st, err) == 0, "final open");
	CHECK(open_sweep(st, &pl, 400, &sweep_id) == 0, "final sweep");
	for (size_t i = 0; i < pl.n; i++)
		if (pl.v[i].status != STORE_DONE)
			record(st, &pl, i);
	CHECK(scalar(store_db(st), "SELECT count(*) FROM samples") == 1600, "400 trials x 4 samples, got %lld",
	      scalar(store_db(st), "SELECT count(*) FROM samples"));
	CHECK(scalar(store_db(st), "SELECT count(*) FROM trials WHERE status = 'done'") == 400, "all done");
	store_close(st);
	trials_free(&pl);

	snprintf(buf, sizeof(buf), "rm -rf %s", dir);
	if (system(buf) != 0)
		return 2;
	return check_done("test_store");
}
