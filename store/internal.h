/* What the files of store/ share: the handle and the statement helpers.
 * Not for use outside store/. */
#ifndef STORE_INTERNAL_H
#define STORE_INTERNAL_H

#include <sqlite3.h>

#include "../tuner/base/errors.h"

struct store_heartbeat;

struct store {
	sqlite3 *db;
	char *path;
	struct store_heartbeat *beat; /* renews this process's sweep leases; NULL until one is taken */
};

#define STORE_NOW "strftime('%Y-%m-%dT%H:%M:%SZ','now')"

/* TUNE_ERR_STORE naming the file, what failed, SQLite's message and advice. */
int store_db_fail(struct store *st, struct tune_error *err, const char *what);
int store_exec(struct store *st, const char *sql, struct tune_error *err, const char *what);
/* Prepares sql and binds the variadic arguments by the letters of types:
 * s = const char * (NULL binds NULL), i = long long, d = double. */
int store_prepare(struct store *st, sqlite3_stmt **q, struct tune_error *err, const char *sql, const char *types,
		  ...);
/* Steps a statement to completion and finalizes it; with id, returns column
 * 0 of the first row. */
int store_run(struct store *st, sqlite3_stmt *q, long long *id, struct tune_error *err, const char *what);

/* Lease of a sweep, inside the caller's write transaction (lease.c). */
int store_lease_take(struct store *st, const char *sweep, long long platform_id, long long host_id,
		     struct tune_error *err);
/* Stops the heartbeat (store_close). */
void store_heartbeat_stop(struct store *st);

#endif
