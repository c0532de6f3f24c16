/* Opening the database: the schema migrations (store/migrations/, applied
 * in order under PRAGMA user_version, one transaction each), WAL and the
 * sync level for a writer, and a read-only open for commands that read,
 * with limits for a database that is outside input. */
#define STORE_STR_(x) #x
#define STORE_STR(x) STORE_STR_(x)
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"
#include "schema_sql.h" /* generated from store/migrations/ by CMake */
#include "store.h"

/* A migration file added without its version (or the other way) would
 * leave databases a schema behind. */
_Static_assert(sizeof(store_migrations) / sizeof(store_migrations[0]) == STORE_SCHEMA_VERSION,
	       "one store/migrations/ file per schema version up to STORE_SCHEMA_VERSION");

static int user_version(struct store *st, int *v, char *msg)
{
	sqlite3_stmt *q = NULL;
	int rc;

	if (sqlite3_prepare_v2(st->db, "PRAGMA user_version", -1, &q, NULL) != SQLITE_OK)
		return store_db_fail(st, msg, "cannot read the schema version");
	rc = sqlite3_step(q);
	*v = rc == SQLITE_ROW ? sqlite3_column_int(q, 0) : 0;
	sqlite3_finalize(q);
	return rc == SQLITE_ROW ? 0 : store_db_fail(st, msg, "cannot read the schema version");
}

static int migrate(struct store *st, char *msg)
{
	int v = 0, rc;

	if ((rc = user_version(st, &v, msg)) != 0)
		return rc;
	if (v > STORE_SCHEMA_VERSION)
		return store_fail(msg, STORE_ERR_DB,
				 "database '%s' has schema version %d, newer than this tune's %d "
				 "(upgrade tune, or use another --db)", st->path, v, STORE_SCHEMA_VERSION);
	for (; v < STORE_SCHEMA_VERSION; v++) {
		char setv[64];

		if ((rc = store_exec(st, "BEGIN IMMEDIATE", msg, "cannot start the migration")) != 0)
			return rc;
		/* Another process may have migrated while this one waited for the lock. */
		if ((rc = user_version(st, &v, msg)) != 0) {
			sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
			return rc;
		}
		if (v >= STORE_SCHEMA_VERSION) {
			sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
			break;
		}
		snprintf(setv, sizeof(setv), "PRAGMA user_version = %d", v + 1);
		if ((rc = store_exec(st, store_migrations[v], msg, "cannot migrate the schema")) != 0 ||
		    (rc = store_exec(st, setv, msg, "cannot migrate the schema")) != 0) {
			sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
			return rc;
		}
		if ((rc = store_exec(st, "COMMIT", msg, "cannot commit the migration")) != 0)
			return rc;
	}
	return 0;
}

/* path as a file: URI with the given query, every byte outside the
 * unreserved set and '/' percent-encoded; free() it. */
static char *file_uri(const char *path, const char *query)
{
	size_t n = strlen(path), used = 0;
	char *uri = malloc(n * 3 + strlen(query) + 8);

	if (!uri)
		return NULL;
	used = (size_t)snprintf(uri, 6, "file:");
	for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
		    strchr("/-._~", *p))
			uri[used++] = (char)*p;
		else {
			uri[used++] = '%';
			uri[used++] = "0123456789ABCDEF"[*p >> 4];
			uri[used++] = "0123456789ABCDEF"[*p & 15];
		}
	}
	uri[used++] = '?';
	memcpy(uri + used, query, strlen(query) + 1);
	return uri;
}

/* Opens path read-only; in WAL mode SQLite needs to create the -shm file
 * next to it, which a directory the user cannot write refuses: then the file
 * is read as immutable (a snapshot; nothing here writes it). */
static int open_readonly(struct store *st, int *v, char *msg)
{
	static const char *const queries[] = { "mode=ro", "mode=ro&immutable=1" };
	int rc = STORE_ERR_DB;

	for (int i = 0; i < 2; i++) {
		char *uri = file_uri(st->path, queries[i]);

		if (!uri)
			return store_fail(msg, STORE_ERR_SYSTEM, "out of memory");
		sqlite3_close(st->db);
		st->db = NULL;
		rc = sqlite3_open_v2(uri, &st->db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL) == SQLITE_OK ? 0
			: store_fail(msg, STORE_ERR_DB, "cannot open database '%s': %s (check the path and its "
				    "permissions)", st->path, st->db ? sqlite3_errmsg(st->db) : "out of memory");
		free(uri);
		if (rc)
			return rc;
		sqlite3_busy_timeout(st->db, 10000);
		if ((rc = user_version(st, v, msg)) == 0)
			return 0;
	}
	return rc;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* When each statement began: a slot of its own, or the oldest one. */
static int on_trace(unsigned type, void *arg, void *stmt, void *x)
{
	struct store *st = arg;
	size_t slot = 0;

	(void)type;
	for (size_t i = 0; i < STORE_WATCHED_MAX; i++) {
		if (st->watched[i].q == stmt) {
			slot = i;
			break;
		}
		if (st->watched[i].began < st->watched[slot].began)
			slot = i;
	}
	/* x is the statement's SQL as it starts, or "-- trigger" within it. */
	if (st->watched[slot].q != stmt || !x || strncmp(x, "--", 2) != 0) {
		st->watched[slot].q = stmt;
		st->watched[slot].began = now_s();
	}
	return 0;
}

/* Interrupts when a running statement began past the limit. */
static int on_progress(void *arg)
{
	struct store *st = arg;
	double now = now_s();

	for (size_t i = 0; i < STORE_WATCHED_MAX; i++)
		if (st->watched[i].q && now - st->watched[i].began > STORE_READ_STATEMENT_S) {
			for (sqlite3_stmt *q = sqlite3_next_stmt(st->db, NULL); q; q = sqlite3_next_stmt(st->db, q))
				if (q == st->watched[i].q && sqlite3_stmt_busy(q))
					return 1;
			st->watched[i].q = NULL; /* finalized or done */
		}
	return 0;
}

/* The limits of a reading command, for a database that is outside input. */
static void read_limits(struct store *st)
{
	sqlite3_limit(st->db, SQLITE_LIMIT_LENGTH, STORE_READ_MAX_LENGTH);
	sqlite3_trace_v2(st->db, SQLITE_TRACE_STMT, on_trace, st);
	sqlite3_progress_handler(st->db, 10000, on_progress, st);
}

const char *store_errmsg(sqlite3 *db)
{
	static _Thread_local char text[700];
	const char *file = sqlite3_db_filename(db, "main");

	switch (sqlite3_errcode(db)) {
	case SQLITE_INTERRUPT:
		snprintf(text, sizeof(text), "a query ran past " STORE_STR(STORE_READ_STATEMENT_S) " s and was stopped "
			 "(does a view of this database never end? see: sqlite3 '%.400s' .schema)", file ? file : "");
		return text;
	case SQLITE_TOOBIG:
		snprintf(text, sizeof(text), "a value over " STORE_STR(STORE_READ_MAX_MIB) " MiB, read from or made by this database (a table or a "
			 "view holds or makes it: see sqlite3 '%.400s' .schema)", file ? file : "");
		return text;
	default:
		return sqlite3_errmsg(db);
	}
}

/* A private copy of st's database, migrated: the original is left as it was. */
static int migrated_copy(struct store *st, struct store **out, char *msg)
{
	const char *tmp = getenv("TMPDIR");
	char *path = malloc(4200);
	sqlite3 *to = NULL;
	sqlite3_backup *b;
	int fd, rc;

	if (!path)
		return store_fail(msg, STORE_ERR_SYSTEM, "out of memory");
	snprintf(path, 4200, "%s/tune-read-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if ((fd = mkstemp(path)) < 0) {
		rc = store_fail(msg, STORE_ERR_SYSTEM, "cannot make a private copy of '%s' to read it migrated: %s (set "
				"TMPDIR)", st->path, strerror(errno));
		free(path);
		return rc;
	}
	close(fd);
	rc = sqlite3_open(path, &to) == SQLITE_OK && (b = sqlite3_backup_init(to, "main", st->db, "main")) != NULL &&
	     (sqlite3_backup_step(b, -1), sqlite3_backup_finish(b)) == SQLITE_OK ? 0 :
	     store_fail(msg, STORE_ERR_DB, "cannot copy '%s' to read it migrated: %s", st->path,
			to ? sqlite3_errmsg(to) : "out of memory");
	sqlite3_close(to);
	if (!rc)
		rc = store_open(path, out, msg);
	if (!rc && *out) {
		(*out)->copy = path;
		read_limits(*out);
		return 0;
	}
	if (!rc)
		rc = store_fail(msg, STORE_ERR_SYSTEM, "out of memory");
	unlink(path);
	free(path);
	return rc;
}

int store_schema_version(const char *path, int *version, char *msg)
{
	struct store *st = calloc(1, sizeof(*st));
	int rc;

	if (!st || !(st->path = strdup(path))) {
		free(st);
		return store_fail(msg, STORE_ERR_SYSTEM, "out of memory");
	}
	rc = open_readonly(st, version, msg);
	store_close(st);
	return rc;
}

int store_open_readonly(const char *path, struct store **out, int *copied, char *msg)
{
	struct store *st = calloc(1, sizeof(*st));
	int v = 0, rc;

	*out = NULL;
	if (copied)
		*copied = 0;
	if (!st || !(st->path = strdup(path))) {
		free(st);
		return store_fail(msg, STORE_ERR_SYSTEM, "out of memory");
	}
	if ((rc = open_readonly(st, &v, msg)) != 0)
		goto fail;
	if (v < STORE_SCHEMA_VERSION && copied) {
		/* Older: read a migrated copy, so that reading writes nothing. */
		if ((rc = migrated_copy(st, out, msg)) == 0)
			*copied = 1;
		goto fail;
	}
	if (v != STORE_SCHEMA_VERSION) {
		rc = store_fail(msg, STORE_ERR_DB, "database '%s' has schema version %d and this tune reads %d%s", path,
			       v, STORE_SCHEMA_VERSION, v > STORE_SCHEMA_VERSION ? " (upgrade tune, or use another --db)"
			       : ": open it once writable to migrate it (any tune run), or use another --db");
		goto fail;
	}
	read_limits(st);
	*out = st;
	return 0;
fail:
	store_close(st);
	return rc;
}

int store_open(const char *path, struct store **out, char *msg)
{
	struct store *st = calloc(1, sizeof(*st));
	int rc;

	*out = NULL;
	if (!st || !(st->path = strdup(path))) {
		free(st);
		return store_fail(msg, STORE_ERR_SYSTEM, "out of memory");
	}
	if (sqlite3_open_v2(path, &st->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) != SQLITE_OK) {
		rc = store_fail(msg, STORE_ERR_DB, "cannot open database '%s': %s (check the path and its permissions, "
			       "or use another --db)", path, st->db ? sqlite3_errmsg(st->db) : "out of memory");
		goto fail;
	}
	sqlite3_busy_timeout(st->db, 10000);
	/* Switching a new file to WAL takes a lock the busy handler does not wait
	 * for: several tunes (or hosts) opening it at once retry for a while. */
	for (int tries = 0;; tries++) {
		struct timespec nap = { 0, 20000000 };

		if (sqlite3_exec(st->db, "PRAGMA journal_mode = WAL", NULL, NULL, NULL) == SQLITE_OK)
			break;
		if ((sqlite3_errcode(st->db) != SQLITE_BUSY && sqlite3_errcode(st->db) != SQLITE_LOCKED) || tries == 500) {
			rc = store_exec(st, "PRAGMA journal_mode = WAL", msg, "cannot set WAL mode");
			goto fail;
		}
		nanosleep(&nap, NULL);
	}
	/* FULL: a committed batch survives a power loss too, for about 0.2 ms
	 * more per commit than NORMAL (README, "What tune guarantees"). */
	if ((rc = store_exec(st, "PRAGMA foreign_keys = ON; PRAGMA synchronous = FULL", msg, "cannot set WAL mode")) != 0)
		goto fail;
	if ((rc = migrate(st, msg)) != 0)
		goto fail;
	*out = st;
	return 0;
fail:
	store_close(st);
	return rc;
}

void store_close(struct store *st)
{
	if (!st)
		return;
	store_heartbeat_stop(st);
	sqlite3_close(st->db);
	if (st->copy) {
		char side[4300];

		unlink(st->copy);
		snprintf(side, sizeof(side), "%s-wal", st->copy);
		unlink(side);
		snprintf(side, sizeof(side), "%s-shm", st->copy);
		unlink(side);
		free(st->copy);
	}
	free(st->path);
	free(st);
}

sqlite3 *store_db(struct store *st)
{
	return st->db;
}
