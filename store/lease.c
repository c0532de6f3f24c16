/* Sweep leases: a sweep is measured by one process at a time, on this
 * machine or on another one that shares the database file. The lease is a
 * row taken in the same write transaction as the sweep's look-up, renewed
 * every STORE_LEASE_BEAT_S by a thread on its own connection, and released
 * when the sweep ends. */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"
#include "store.h"

struct store_heartbeat {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t wake;
	int stop;
	sqlite3 *db; /* its own connection: never inside the owner's transactions */
	char holder[STORE_HOLDER_MAX]; /* the machine whose leases it renews */
};

static void *beat(void *p)
{
	struct store_heartbeat *b = p;
	static const char sql[] = "UPDATE sweep_leases SET heartbeat = julianday('now') WHERE pid = ?1 AND holder = ?2";

	pthread_mutex_lock(&b->lock);
	while (!b->stop) {
		struct timespec until;
		sqlite3_stmt *q = NULL;

		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_sec += STORE_LEASE_BEAT_S;
		pthread_cond_timedwait(&b->wake, &b->lock, &until);
		if (b->stop)
			break;
		if (sqlite3_prepare_v2(b->db, sql, -1, &q, NULL) == SQLITE_OK) {
			sqlite3_bind_int64(q, 1, (long long)getpid());
			sqlite3_bind_text(q, 2, b->holder, -1, SQLITE_STATIC);
			sqlite3_step(q); /* a busy database is tried again at the next beat */
		}
		sqlite3_finalize(q);
	}
	pthread_mutex_unlock(&b->lock);
	return NULL;
}

static int heartbeat_start(struct store *st, char *msg)
{
	struct store_heartbeat *b;

	if (st->beat)
		return 0;
	if (!(b = calloc(1, sizeof(*b))))
		return store_fail(msg, STORE_ERR_SYSTEM, "out of memory");
	if (sqlite3_open_v2(st->path, &b->db, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK) {
		sqlite3_close(b->db);
		free(b);
		return store_db_fail(st, msg, "cannot open a connection for the lease's heartbeat");
	}
	sqlite3_busy_timeout(b->db, 2000);
	snprintf(b->holder, sizeof(b->holder), "%s", st->holder);
	pthread_mutex_init(&b->lock, NULL);
	pthread_cond_init(&b->wake, NULL);
	if (pthread_create(&b->thread, NULL, beat, b) != 0) {
		sqlite3_close(b->db);
		free(b);
		return store_fail(msg, STORE_ERR_SYSTEM, "cannot start the lease's heartbeat");
	}
	st->beat = b;
	return 0;
}

void store_heartbeat_stop(struct store *st)
{
	struct store_heartbeat *b = st->beat;

	if (!b)
		return;
	pthread_mutex_lock(&b->lock);
	b->stop = 1;
	pthread_cond_signal(&b->wake);
	pthread_mutex_unlock(&b->lock);
	pthread_join(b->thread, NULL);
	sqlite3_close(b->db);
	pthread_mutex_destroy(&b->lock);
	pthread_cond_destroy(&b->wake);
	free(b);
	st->beat = NULL;
}

int store_lease_take(struct store *st, const char *sweep, long long platform_id, long long host_id,
		     const char *holder_name, char *msg)
{
	sqlite3_stmt *q = NULL;
	char holder[STORE_HOLDER_MAX] = "", since[32] = "";
	const char *me = st->holder;
	long long pid = 0;
	double age = 0;
	int rc, held = 0;

	snprintf(st->holder, sizeof(st->holder), "%s", holder_name);
	if ((rc = store_prepare(st, &q, msg, "SELECT pid, holder, since, (julianday('now') - heartbeat) * 86400.0 FROM "
				"sweep_leases WHERE sweep = ?1 AND platform_id = ?2 AND host_id = ?3", "sii", sweep,
				platform_id, host_id)) != 0)
		return rc;
	if ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		held = 1;
		pid = sqlite3_column_int64(q, 0);
		snprintf(holder, sizeof(holder), "%s", (const char *)sqlite3_column_text(q, 1));
		snprintf(since, sizeof(since), "%s", (const char *)sqlite3_column_text(q, 2));
		age = sqlite3_column_double(q, 3);
	} else if (rc != SQLITE_DONE) {
		rc = store_db_fail(st, msg, "cannot read the sweep's lease");
		sqlite3_finalize(q);
		return rc;
	}
	sqlite3_finalize(q);
	if (held && !(pid == (long long)getpid() && !strcmp(holder, me))) {
		int here = !strcmp(holder, me);
		int gone = here && kill((pid_t)pid, 0) != 0 && errno == ESRCH;

		if (!gone && age <= STORE_LEASE_STALE_S)
			return store_fail(msg, STORE_ERR_BUSY, "sweep '%s' is being measured by pid %lld on host %s since %s; "
					 "wait for it or use --db (a claim with no heartbeat for %d s is taken over)",
					 sweep, pid, holder, since, STORE_LEASE_STALE_S);
		fprintf(stderr, "tune: taking over sweep '%s' from pid %lld on host %s (%s)\n", sweep, pid, holder,
			gone ? "that process is gone" : "no heartbeat since");
	}
	if ((rc = store_prepare(st, &q, msg, "INSERT OR REPLACE INTO sweep_leases (sweep, platform_id, host_id, pid, "
				"holder, since, heartbeat) VALUES (?1, ?2, ?3, ?4, ?5, " STORE_NOW ", julianday('now'))",
				"siiis", sweep, platform_id, host_id, (long long)getpid(), me)) != 0 ||
	    (rc = store_run(st, q, NULL, msg, "cannot take the sweep's lease")) != 0)
		return rc;
	return heartbeat_start(st, msg);
}

int store_sweep_release(struct store *st, const char *sweep, long long platform_id, long long host_id,
			char *msg)
{
	sqlite3_stmt *q = NULL;
	const char *me = st->holder;
	int rc;

	rc = store_prepare(st, &q, msg, "DELETE FROM sweep_leases WHERE sweep = ?1 AND platform_id = ?2 AND host_id = "
			   "?3 AND pid = ?4 AND holder = ?5", "siiis", sweep, platform_id, host_id, (long long)getpid(),
			   me);
	return rc ? rc : store_run(st, q, NULL, msg, "cannot release the sweep's lease");
}
