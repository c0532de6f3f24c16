-- Schema version 16: a kernel's tables are data, as its views are: the views
-- of its views: file named <kernel>_table_<name>, each row a row of the
-- table its title column names (report/declared.c reads them). sched's
-- tables, the paper's Fig. 10 and Fig. 8 and its optima, are declared so in
-- kernels/sched/views.sql; they are made here, as that file makes them, for
-- the databases sched measured, and again by sched's next sweep.
CREATE VIEW sched_table_policies AS
WITH p AS (
    SELECT r.sweep_id, r.policy, r.dispatch, r.speedup, r.apps, r.median_makespan_ms AS ms,
           EXISTS (SELECT 1 FROM sched_optima o WHERE o.sweep_id = r.sweep_id AND o.speedup = r.speedup AND
                   o.apps = r.apps AND o.policy = r.policy AND o.dispatch = r.dispatch) AS chosen
    FROM sched_results r WHERE r.phase = 'search'),
c AS (
    SELECT p.*, printf('%.2f', CASE WHEN p.ms * 100 - CAST(p.ms * 100 AS INTEGER) = 0.5 AND CAST(p.ms * 100 AS INTEGER) % 2 = 0 THEN CAST(p.ms * 100 AS INTEGER) / 100.0 ELSE p.ms END) ||
                CASE WHEN e.ms > 0 THEN printf(' (%.2fx)', CASE WHEN (p.ms / e.ms) * 100 - CAST((p.ms / e.ms) * 100 AS INTEGER) = 0.5 AND CAST((p.ms / e.ms) * 100 AS INTEGER) % 2 = 0 THEN CAST((p.ms / e.ms) * 100 AS INTEGER) / 100.0 ELSE (p.ms / e.ms) END) ELSE '' END ||
                CASE WHEN p.chosen THEN ' *' ELSE '' END AS cell
    FROM p LEFT JOIN p e ON e.sweep_id = p.sweep_id AND e.policy = 'eft' AND e.dispatch = p.dispatch AND
                            e.speedup = p.speedup AND e.apps = p.apps)
SELECT sweep_id,
       printf('Makespan in ms per policy, accelerator %dx faster, %s dispatch (ratio to eft; * chosen)', speedup,
              dispatch) AS title,
       apps AS "Apps",
       COALESCE(MAX(CASE WHEN policy = 'co' THEN cell END), '-') AS co,
       COALESCE(MAX(CASE WHEN policy = 'ao' THEN cell END), '-') AS ao,
       COALESCE(MAX(CASE WHEN policy = 'fuse' THEN cell END), '-') AS fuse,
       COALESCE(MAX(CASE WHEN policy = 'random' THEN cell END), '-') AS random,
       COALESCE(MAX(CASE WHEN policy = 'eft' THEN cell END), '-') AS eft,
       printf('%020d %s %020d', speedup, dispatch, apps) AS _order
FROM c GROUP BY sweep_id, speedup, dispatch, apps;

-- The paper's Fig. 8: at each point the best inline policy against the best
-- worker one, and the dispatch overhead per task of each.
CREATE VIEW sched_table_dispatch AS
WITH p AS (
    SELECT sweep_id, policy, dispatch, speedup, apps, median_makespan_ms AS ms,
           COALESCE(mean_overhead_ns, -1) AS overhead
    FROM sched_results WHERE phase = 'search'),
b AS (
    SELECT sweep_id, dispatch, speedup, apps, policy, MIN(ms) AS ms, overhead
    FROM p GROUP BY sweep_id, dispatch, speedup, apps)
SELECT i.sweep_id, 'Inline against worker dispatch: the best policy of each' AS title,
       printf('%dx', i.speedup) AS "Speedup", i.apps AS "Apps",
       printf('%.2f (%s)', CASE WHEN i.ms * 100 - CAST(i.ms * 100 AS INTEGER) = 0.5 AND CAST(i.ms * 100 AS INTEGER) % 2 = 0 THEN CAST(i.ms * 100 AS INTEGER) / 100.0 ELSE i.ms END, i.policy) AS "Inline ms (policy)",
       printf('%.2f (%s)', CASE WHEN w.ms * 100 - CAST(w.ms * 100 AS INTEGER) = 0.5 AND CAST(w.ms * 100 AS INTEGER) % 2 = 0 THEN CAST(w.ms * 100 AS INTEGER) / 100.0 ELSE w.ms END, w.policy) AS "Worker ms (policy)",
       CASE WHEN i.ms > 0 THEN printf('%.2fx', CASE WHEN (w.ms / i.ms) * 100 - CAST((w.ms / i.ms) * 100 AS INTEGER) = 0.5 AND CAST((w.ms / i.ms) * 100 AS INTEGER) % 2 = 0 THEN CAST((w.ms / i.ms) * 100 AS INTEGER) / 100.0 ELSE (w.ms / i.ms) END) ELSE 'nanx' END AS "Worker / inline",
       printf('%.0f ns', CASE WHEN i.overhead - CAST(i.overhead AS INTEGER) = 0.5 AND CAST(i.overhead AS INTEGER) % 2 = 0 THEN CAST(i.overhead AS INTEGER) ELSE i.overhead END) AS "Overhead/task inline",
       printf('%.0f ns', CASE WHEN w.overhead - CAST(w.overhead AS INTEGER) = 0.5 AND CAST(w.overhead AS INTEGER) % 2 = 0 THEN CAST(w.overhead AS INTEGER) ELSE w.overhead END) AS "Overhead/task worker",
       printf('%020d %020d', i.speedup, i.apps) AS _order
FROM b i JOIN b w ON w.sweep_id = i.sweep_id AND w.speedup = i.speedup AND w.apps = i.apps AND
                     w.dispatch = 'worker'
WHERE i.dispatch = 'inline';

-- The policy and dispatch chosen at each point, with its class (Fig. 10's),
-- its makespan and the runner-up's.
CREATE VIEW sched_table_optima AS
SELECT platform, host, fingerprint, 'Scheduler optima: the policy and dispatch that finished first' AS title,
       printf('%dx', speedup) AS "Speedup", apps AS "Apps", class AS "Class", policy AS "Policy",
       COALESCE(dispatch, '-') AS "Dispatch",
       printf('%.2f [%.2f, %.2f]', CASE WHEN (median * per) * 100 - CAST((median * per) * 100 AS INTEGER) = 0.5 AND CAST((median * per) * 100 AS INTEGER) % 2 = 0 THEN CAST((median * per) * 100 AS INTEGER) / 100.0 ELSE (median * per) END,
              CASE WHEN (ci_low * per) * 100 - CAST((ci_low * per) * 100 AS INTEGER) = 0.5 AND CAST((ci_low * per) * 100 AS INTEGER) % 2 = 0 THEN CAST((ci_low * per) * 100 AS INTEGER) / 100.0 ELSE (ci_low * per) END,
              CASE WHEN (ci_high * per) * 100 - CAST((ci_high * per) * 100 AS INTEGER) = 0.5 AND CAST((ci_high * per) * 100 AS INTEGER) % 2 = 0 THEN CAST((ci_high * per) * 100 AS INTEGER) / 100.0 ELSE (ci_high * per) END) AS "Makespan ms [interval]",
       CASE WHEN json_type(runner_up) = 'object'
            THEN printf('%s %s %.2f', COALESCE(json_extract(runner_up, '$.policy'),
                                                json_extract(runner_up, '$.variant'), '(null)'),
                        COALESCE(json_extract(runner_up, '$.dispatch'), '(null)'),
                        CASE WHEN (json_extract(runner_up, '$.median') * per) * 100 - CAST((json_extract(runner_up, '$.median') * per) * 100 AS INTEGER) = 0.5 AND CAST((json_extract(runner_up, '$.median') * per) * 100 AS INTEGER) % 2 = 0 THEN CAST((json_extract(runner_up, '$.median') * per) * 100 AS INTEGER) / 100.0 ELSE (json_extract(runner_up, '$.median') * per) END)
            ELSE '-' END AS "Runner-up",
       trials AS "Trials", decided AS "Decided",
       printf('%020d %020d', speedup, apps) AS _order
FROM (SELECT o.*, COALESCE(CAST(tasks_per_run AS INTEGER), 0) / 1e6 AS per FROM sched_optima o);

INSERT OR REPLACE INTO kernel_views (kernel, name, sql_hash)
VALUES ('sched', 'sched_table_policies', ''), ('sched', 'sched_table_dispatch', ''),
       ('sched', 'sched_table_optima', '');
