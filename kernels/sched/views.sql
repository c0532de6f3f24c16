-- sched's views, made in the database by a sweep of sched (its manifest's
-- views:; "{kernel}_results" is sched_results here, a copy's its own).
-- sched_results: each finished trial's policy, dispatch, apps and speedup
-- with its makespan, the share of tasks run on accelerators and the
-- scheduler's overhead. A run's tasks: apps times tasks per app (its
-- parameters), or tasks_per_run for the trials recorded before.
CREATE VIEW "{kernel}_results" AS
SELECT trial_id, sweep_id, sweep, fingerprint, platform, host, variant AS policy, dispatch, apps, speedup, phase,
       tasks AS tasks_per_run, runs, median AS median_ns_per_task, ci_low, ci_high,
       median * tasks / 1e6 AS median_makespan_ms,
       (SELECT AVG(json_extract(x.raw_json, '$.tasks_accel') * 1.0 / tasks) FROM samples x
        WHERE x.trial_id = r.trial_id AND x.warmup = 0) AS accel_share,
       (SELECT AVG(json_extract(x.raw_json, '$.mean_overhead_ns')) FROM samples x
        WHERE x.trial_id = r.trial_id AND x.warmup = 0) AS mean_overhead_ns
FROM (SELECT r.*, json_extract(r.params, '$.dispatch') AS dispatch, json_extract(r.params, '$.apps') AS apps,
             json_extract(r.params, '$.speedup') AS speedup,
             COALESCE(json_extract(r.params, '$.apps') * json_extract(r.params, '$.tasks'),
                      json_extract(r.params, '$.tasks_per_run')) AS tasks
      FROM kernel_results r WHERE r.kernel = '{kernel}') r;

-- sched_optima: the policy and dispatch chosen per (speedup, apps), with
-- the class the paper's Fig. 10 reads them by (an accelerator about as fast
-- as a CPU, moderately or much faster; one app, up to two per app CPU, more),
-- as recorded before this version or from the sweep's app CPUs.
CREATE VIEW "{kernel}_optima" AS
SELECT o.id AS optimum_id, o.platform, o.host, o.fingerprint, o.sweep_id,
       json_extract(o.params, '$.speedup') AS speedup, json_extract(o.params, '$.apps') AS apps,
       o.variant AS policy, json_extract(o.params, '$.dispatch') AS dispatch,
       CASE WHEN o.context = '' THEN o.size_class
            ELSE CASE WHEN json_extract(o.params, '$.speedup') < 2 THEN 'cpu-like'
                      WHEN json_extract(o.params, '$.speedup') <= 10 THEN 'moderate' ELSE 'fast' END || '/' ||
                 CASE WHEN json_extract(o.params, '$.apps') = 1 THEN 'single'
                      WHEN json_extract(o.params, '$.apps') <= 2 * json_array_length(s.spec_json, '$.cpus')
                      THEN 'few' ELSE 'many' END END AS class,
       o.median, o.ci_low, o.ci_high, o.runner_up, o.trials, o.decided,
       COALESCE(json_extract(o.params, '$.apps') * json_extract(o.params, '$.tasks'),
                (SELECT json_extract(t.params, '$.tasks_per_run') FROM trials t WHERE t.sweep_id = o.sweep_id AND
                 t.kernel = '{kernel}' AND json_extract(t.params, '$.apps') = json_extract(o.params, '$.apps')
                 LIMIT 1)) AS tasks_per_run
FROM optima o
LEFT JOIN sweeps s ON s.id = o.sweep_id
WHERE o.kernel = '{kernel}';

-- sched's tables in tune results (views named sched_table_*, in this order;
-- a row of each a row of the table its title names; a JSON object cell is
-- formatted by tune as C's printf does, with its value for JSON: see the
-- README).
--
-- The paper's Fig. 10: per speedup and dispatch, the makespan of each policy
-- against apps, with its ratio to EFT, the chosen policy starred.
CREATE VIEW "{kernel}_table_policies" AS
WITH p AS (
    SELECT r.sweep_id, r.policy, r.dispatch, r.speedup, r.apps, r.median_makespan_ms AS ms,
           EXISTS (SELECT 1 FROM "{kernel}_optima" o WHERE o.sweep_id = r.sweep_id AND o.speedup = r.speedup AND
                   o.apps = r.apps AND o.policy = r.policy AND o.dispatch = r.dispatch) AS chosen
    FROM "{kernel}_results" r WHERE r.phase = 'search'),
c AS (
    SELECT p.*, CASE WHEN e.ms > 0
                     THEN json_object('printf', json_array('%.2f (%.2fx)%s', p.ms, p.ms / e.ms,
                                                           CASE WHEN p.chosen THEN ' *' ELSE '' END),
                                      'value', json_object('makespan_ms', p.ms, 'vs_eft', p.ms / e.ms,
                                                           'chosen', json(CASE WHEN p.chosen THEN 'true' ELSE 'false' END)))
                     ELSE json_object('printf', json_array('%.2f%s', p.ms, CASE WHEN p.chosen THEN ' *' ELSE '' END),
                                      'value', json_object('makespan_ms', p.ms, 'vs_eft', NULL,
                                                           'chosen', json(CASE WHEN p.chosen THEN 'true' ELSE 'false' END)))
                END AS cell
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
CREATE VIEW "{kernel}_table_dispatch" AS
WITH p AS (
    SELECT sweep_id, policy, dispatch, speedup, apps, median_makespan_ms AS ms,
           COALESCE(mean_overhead_ns, -1) AS overhead
    FROM "{kernel}_results" WHERE phase = 'search'),
b AS (
    SELECT sweep_id, dispatch, speedup, apps, policy, MIN(ms) AS ms, overhead
    FROM p GROUP BY sweep_id, dispatch, speedup, apps)
SELECT i.sweep_id, 'Inline against worker dispatch: the best policy of each' AS title,
       printf('%dx', i.speedup) AS "Speedup", i.apps AS "Apps",
       json_object('printf', json_array('%.2f (%s)', i.ms, i.policy),
                   'value', json_object('makespan_ms', i.ms, 'policy', i.policy)) AS "Inline ms (policy)",
       json_object('printf', json_array('%.2f (%s)', w.ms, w.policy),
                   'value', json_object('makespan_ms', w.ms, 'policy', w.policy)) AS "Worker ms (policy)",
       CASE WHEN i.ms > 0 THEN json_object('printf', json_array('%.2fx', w.ms / i.ms)) ELSE 'nanx' END
           AS "Worker / inline",
       json_object('printf', json_array('%.0f ns', i.overhead), 'value', i.overhead) AS "Overhead/task inline",
       json_object('printf', json_array('%.0f ns', w.overhead), 'value', w.overhead) AS "Overhead/task worker",
       printf('%020d %020d', i.speedup, i.apps) AS _order,
       json_array('x', NULL, 'ms', 'ms', 'x', 'ns', 'ns') AS _units
FROM b i JOIN b w ON w.sweep_id = i.sweep_id AND w.speedup = i.speedup AND w.apps = i.apps AND
                     w.dispatch = 'worker'
WHERE i.dispatch = 'inline';

-- The policy and dispatch chosen at each point, with its class (Fig. 10's),
-- its makespan and the runner-up's.
CREATE VIEW "{kernel}_table_optima" AS
SELECT platform, host, fingerprint, 'Scheduler optima: the policy and dispatch that finished first' AS title,
       printf('%dx', speedup) AS "Speedup", apps AS "Apps", class AS "Class", policy AS "Policy",
       COALESCE(dispatch, '-') AS "Dispatch",
       json_object('interval', json_array(median * per, ci_low * per, ci_high * per), 'runs', 0, 'digits', 2)
           AS "Makespan ms [interval]",
       CASE WHEN json_type(runner_up) = 'object'
            THEN json_object('printf', json_array('%s %s %.2f',
                                                  COALESCE(json_extract(runner_up, '$.policy'),
                                                           json_extract(runner_up, '$.variant'), '(null)'),
                                                  COALESCE(json_extract(runner_up, '$.dispatch'), '(null)'),
                                                  COALESCE(json_extract(runner_up, '$.median'), 0) * per),
                             'value', json(runner_up))
            ELSE json_object('text', '-', 'value', NULL) END AS "Runner-up",
       trials AS "Trials", decided AS "Decided",
       printf('%020d %020d', speedup, apps) AS _order,
       json_array('x', NULL, NULL, NULL, NULL, 'ms', NULL, NULL, NULL) AS _units
FROM (SELECT o.*, COALESCE(CAST(tasks_per_run AS INTEGER), 0) / 1e6 AS per FROM "{kernel}_optima" o);

-- The chart of tune report (report/declared_charts.c reads views named
-- sched_chart_*): makespan against apps, a line per policy and dispatch
-- (inline solid, worker dashed, one colour per policy), a panel per
-- accelerator speedup on one scale (the paper's Fig. 10), of the
-- platform's newest sweep.
CREATE VIEW "{kernel}_chart_makespan_vs_apps" AS
WITH w AS (SELECT platform, host, sweep_id FROM newest_kernel_sweeps n
           WHERE kernel = '{kernel}' AND sweep_id = (SELECT MAX(x.sweep_id) FROM newest_kernel_sweeps x
                                                 WHERE x.kernel = '{kernel}' AND x.platform = n.platform))
SELECT w.platform, w.host, 'Makespan against apps per scheduling policy: inline dispatch solid, worker dashed' AS title,
       'Scheduler: makespan against apps per policy, a panel per accelerator speedup' AS caption, 'apps' AS xlabel,
       'makespan (ms)' AS ylabel, r.policy || ' ' || r.dispatch AS series, r.apps AS x, r.median_makespan_ms AS y,
       r.ci_low * r.tasks_per_run / 1e6 AS low, r.ci_high * r.tasks_per_run / 1e6 AS high,
       CASE r.dispatch WHEN 'worker' THEN 'dashed' ELSE 'line' END AS _style, r.policy AS _group,
       printf('accelerator %dx faster', r.speedup) AS _panel, 1 AS _y0,
       printf('%020d %s %d %020d', r.speedup, r.dispatch,
              CASE r.policy WHEN 'co' THEN 0 WHEN 'ao' THEN 1 WHEN 'fuse' THEN 2 WHEN 'random' THEN 3 ELSE 4 END,
              r.apps) AS _order
FROM w JOIN "{kernel}_results" r ON r.sweep_id = w.sweep_id AND r.phase = 'search';

-- The optima the exports give (tune export header|json): per (speedup,
-- apps) of the current fingerprint on the host that decided sched last,
-- with the policy's index in sched.h's order (CO, AO, Fuse, Random, EFT),
-- and chosen_policy on the points of the policy chosen at most of them (ties:
-- the earlier in that order); of two optima of one point, the newer.
CREATE VIEW "{kernel}_exported" AS
WITH o AS (
    SELECT o.platform, o.speedup, o.apps, o.policy, COALESCE(o.dispatch, '') AS dispatch, o.median, o.ci_low,
           o.ci_high, o.decided, o.class,
           COALESCE((SELECT key FROM json_each('["co","ao","fuse","random","eft"]') WHERE value = o.policy), -1)
               AS policy_no
    FROM (SELECT o.*, ROW_NUMBER() OVER (PARTITION BY o.platform, o.speedup, o.apps
                                         ORDER BY o.decided DESC, o.optimum_id DESC) AS nth
          FROM "{kernel}_optima" o JOIN current_fingerprints USING (platform, host, fingerprint)
          WHERE o.host = (SELECT z.host FROM optima z WHERE z.platform = o.platform AND z.kernel = '{kernel}'
                          ORDER BY z.decided DESC, z.id DESC LIMIT 1)) o
    WHERE o.nth = 1),
c AS (SELECT platform, policy, policy_no, COUNT(*) AS n FROM o GROUP BY platform, policy)
SELECT o.*, o.policy = (SELECT c.policy FROM c WHERE c.platform = o.platform ORDER BY c.n DESC, c.policy_no LIMIT 1)
           AS chosen_policy
FROM o;

-- The exports' default: the first point (by speedup, then apps) of the
-- policy chosen at most points, with its dispatch.
CREATE VIEW "{kernel}_chosen" AS
SELECT * FROM (SELECT e.*, ROW_NUMBER() OVER (PARTITION BY platform ORDER BY speedup, apps) AS nth
               FROM "{kernel}_exported" e WHERE chosen_policy)
WHERE nth = 1;

-- The header's block (report/declared_header.c reads a view so named): the
-- policy chosen at most points, and per point a table looked up by the
-- nearest (speedup, apps).
CREATE VIEW "{kernel}_header" AS
WITH d AS (SELECT * FROM "{kernel}_chosen"),
t AS (SELECT platform, COUNT(*) AS n, json_group_array(speedup) AS speedups, json_group_array(apps) AS apps,
             json_group_array(policy_no) AS policies
      FROM (SELECT * FROM "{kernel}_exported" ORDER BY platform, speedup, apps) GROUP BY platform)
SELECT platform, 1 AS _order, 'a' AS _block, NULL AS define, NULL AS value, NULL AS type,
       printf('Scheduler: the policy chosen at most of the %d measured (speedup, apps) points; values are '
              || 'TUNED_%s_CO..TUNED_%s_EFT', n, upper('{kernel}'), upper('{kernel}')) AS comment,
       NULL AS key, NULL AS lookup, NULL AS function
FROM t
UNION ALL
SELECT platform, 2, 'a', NULL, NULL, NULL, '(the order of kernels/{kernel}/sched.h). Per point:', NULL, NULL, NULL
FROM t
UNION ALL
SELECT platform, 3 + speedup / 1e6 + apps / 1e12, NULL, NULL, NULL, NULL,
       json_object('printf', json_array('  %dx, %d apps (%s): %s %s, median %.1f ns per task [%.1f, %.1f], decided at %s',
                                        speedup, apps, class, policy, dispatch, median, ci_low, ci_high, decided)),
       NULL, NULL, NULL
FROM "{kernel}_exported"
UNION ALL
SELECT platform, 4, NULL, 'POLICY', policy_no, NULL, policy, NULL, NULL, NULL FROM d
UNION ALL
SELECT platform, 5, NULL, 'POLICY_NAME', policy, NULL, NULL, NULL, NULL, NULL FROM d
UNION ALL
SELECT platform, 6, NULL, 'DISPATCH_INLINE', dispatch = 'inline', NULL, NULL, NULL, NULL, NULL FROM d
UNION ALL
SELECT platform, 7, NULL, 'TABLE_SPEEDUPS', speedups, 'table', NULL, 'speedup', 'nearest', NULL FROM t
UNION ALL
SELECT platform, 8, NULL, 'TABLE_APPS', apps, 'table', NULL, 'apps', 'nearest', NULL FROM t
UNION ALL
SELECT platform, 9, NULL, 'TABLE_POLICIES', policies, 'table', NULL, NULL, NULL, 'policy' FROM t
UNION ALL
SELECT t.platform, 10 + n.key / 10.0, NULL, upper(n.value), n.key, NULL, NULL, NULL, NULL, NULL
FROM t JOIN json_each('["co","ao","fuse","random","eft"]') n;

-- The optima as JSON (tune export json reads a view so named): the policy
-- chosen at most points, its dispatch, and the table per point.
CREATE VIEW "{kernel}_json" AS
SELECT d.platform,
       json_object('policy', d.policy, 'dispatch', d.dispatch, 'table',
                   (SELECT json_group_array(json_object(
                               'speedup', e.speedup, 'apps', e.apps, 'class', e.class, 'policy', e.policy,
                               'dispatch', e.dispatch, 'median_ns_per_task', e.median, 'ci_low', e.ci_low,
                               'ci_high', e.ci_high, 'decided', e.decided))
                    FROM (SELECT * FROM "{kernel}_exported" y WHERE y.platform = d.platform
                          ORDER BY y.speedup, y.apps) e)) AS value
FROM "{kernel}_chosen" d;
