/* What the files of store/ share: the handle and the statement helpers.
 * Not for use outside store/. */
#ifndef STORE_INTERNAL_H
#define STORE_INTERNAL_H

#include <sqlite3.h>

#include "store.h"

struct store_heartbeat;

/* A statement of a reading command and when it began (open.c's watch). */
struct store_watched {
	sqlite3_stmt *q;
	double began;
};
#define STORE_WATCHED_MAX 16

struct store {
	sqlite3 *db;
	char *path;
	char *copy;   /* a private migrated copy read in place of path, unlinked on close; or NULL */
	struct store_watched watched[STORE_WATCHED_MAX];
	struct store_heartbeat *beat; /* renews this process's sweep leases; NULL until one is taken */
	char holder[STORE_HOLDER_MAX]; /* this machine's name in them (store_sweep's holder) */
};

#define STORE_NOW "strftime('%Y-%m-%dT%H:%M:%SZ','now')"

/* printf-style into msg (see store.h); returns code. */
int store_fail(char *msg, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* STORE_ERR_DB naming the file, what failed, SQLite's message and advice. */
int store_db_fail(struct store *st, char *msg, const char *what);
int store_exec(struct store *st, const char *sql, char *msg, const char *what);
/* Prepares sql and binds the variadic arguments by the letters of types:
 * s = const char * (NULL binds NULL), i = long long, d = double. */
int store_prepare(struct store *st, sqlite3_stmt **q, char *msg, const char *sql, const char *types,
		  ...);
/* Steps a statement to completion and finalizes it; with id, returns column
 * 0 of the first row. */
int store_run(struct store *st, sqlite3_stmt *q, long long *id, char *msg, const char *what);

/* Lease of a sweep, inside the caller's write transaction (lease.c). */
int store_lease_take(struct store *st, const char *sweep, long long platform_id, long long host_id,
		     const char *holder, char *msg);
/* Stops the heartbeat (store_close). */
void store_heartbeat_stop(struct store *st);

#endif
