/* A sweep's history on a host, for the estimate of a run before it starts:
 * how long the sweep's kernels took the last time, and how fast a kernel
 * has gone there per operation. */
#include <stddef.h>

#include "internal.h"
#include "store.h"

int store_sweep_last_kernel_s(struct store *st, const char *name, const char *platform, const char *hostname,
			      int quick, double *seconds, char *msg)
{
	sqlite3_stmt *q = NULL;
	long long ns = -1;
	int rc = store_prepare(st, &q, msg,
			       "SELECT s.measure_ns FROM sweeps s JOIN platforms p ON p.id = s.platform_id JOIN hosts h"
			       " ON h.id = s.host_id WHERE s.name = ?1 AND p.name = ?2 AND h.hostname = ?3 AND s.quick = ?4"
			       " AND s.status = 'done' AND s.measure_ns > 0 ORDER BY s.id DESC LIMIT 1", "sssi", name,
			       platform, hostname, (long long)quick);

	if (!rc)
		rc = store_run(st, q, &ns, msg, "cannot read the sweeps");
	*seconds = ns > 0 ? (double)ns / 1e9 : -1;
	return rc;
}

int store_kernel_ns_per_op(struct store *st, const char *kernel, const char *hostname, double *ns, char *msg)
{
	sqlite3_stmt *q = NULL;
	/* Operations as plan_cost() counts them: each run (warm-ups too) times
	 * the work of a run (manifest_work). */
	int rc = store_prepare(st, &q, msg,
			       "SELECT SUM(s.measure_ns) * 1.0 / SUM(c.ops) FROM sweeps s JOIN hosts h ON h.id = s.host_id"
			       " JOIN (SELECT t.sweep_id, SUM(x.n * t.work)"
			       " AS ops FROM trials t JOIN (SELECT trial_id, COUNT(*) AS n FROM samples GROUP BY trial_id) x"
			       " ON x.trial_id = t.id WHERE t.kernel = ?1 GROUP BY t.sweep_id) c ON c.sweep_id = s.id"
			       " WHERE h.hostname = ?2 AND s.status = 'done' AND s.measure_ns > 0", "ss", kernel, hostname);

	*ns = -1;
	if (rc)
		return rc;
	if ((rc = sqlite3_step(q)) == SQLITE_ROW && sqlite3_column_type(q, 0) != SQLITE_NULL)
		*ns = sqlite3_column_double(q, 0);
	sqlite3_finalize(q);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : store_db_fail(st, msg, "cannot read the sweeps' times");
}
