-- Schema version 16: a kernel's tables are data, as its views are: the views
-- of its views: file named <kernel>_table_<name>, each row a row of the
-- table its title column names, a JSON object cell formatted by tune as C's
-- printf does (report/declared.c, report/cell.c). ipa's tables (the paper's
-- Fig. 12 as rows, the chosen T against the wake-up cost) and sched's (Fig.
-- 10 and Fig. 8 and its optima) are declared so in kernels/ipa/views.sql and
-- kernels/sched/views.sql; they are made here, as those files make them, for
-- the databases ipa and sched measured, and again by their next sweeps.
CREATE VIEW ipa_table_curve AS
WITH p AS (SELECT sweep_id, threshold_ns AS t, median_ns_per_call AS m, ci_low, ci_high, runs, polled_share
           FROM ipa_results WHERE phase = 'search'),
o AS (SELECT sweep_id, json_extract(params, '$.threshold_ns') AS t FROM optima WHERE kernel = 'ipa')
SELECT p.sweep_id, 'IPA: wall time per call against the polling threshold T (lower is better)' AS title,
       json_object('text', CASE WHEN p.t = 9223372036854775807 THEN 'inf (always poll)'
                                WHEN p.t = 0 THEN '0 (always block)'
                                WHEN p.t >= 1000 AND p.t % 1000 = 0 THEN (p.t / 1000) || ' us' ELSE p.t || ' ns' END,
                   'value', CASE WHEN p.t = 9223372036854775807 THEN 'inf' ELSE p.t END) AS "Threshold T",
       json_object('interval', json_array(p.m, p.ci_low, p.ci_high), 'runs', p.runs, 'digits', 1)
           AS "Median ns/call [interval]",
       CASE WHEN p.polled_share >= 0 THEN json_object('printf', json_array('%.0f%%', p.polled_share * 100.0))
            ELSE '-' END AS "Polled",
       CASE WHEN poll.m > 0 THEN json_object('printf', json_array('%.3f', p.m / poll.m)) ELSE '-' END
           AS "vs always poll",
       CASE WHEN block.m > 0 THEN json_object('printf', json_array('%.3f', p.m / block.m)) ELSE '-' END
           AS "vs always block",
       CASE WHEN (SELECT o.t FROM o WHERE o.sweep_id = p.sweep_id LIMIT 1) = p.t
            THEN json_object('text', 'chosen', 'value', json('true'))
            ELSE json_object('text', '', 'value', json('false')) END AS "",
       p.t AS _order, json_array('ns', 'ns/call', '%', 'x', 'x', NULL) AS _units
FROM p
LEFT JOIN p poll ON poll.sweep_id = p.sweep_id AND poll.t = 9223372036854775807
LEFT JOIN p block ON block.sweep_id = p.sweep_id AND block.t = 0;

-- The chosen T against this host's wake-up cost (ipa's probe), and against
-- always polling and always blocking in the search's one process.
CREATE VIEW ipa_table_choice AS
WITH p AS (SELECT sweep_id, threshold_ns AS t, median_ns_per_call AS m FROM ipa_results WHERE phase = 'search'),
c AS (SELECT o.sweep_id, json_extract(o.params, '$.threshold_ns') AS t, o.median, o.ci_low, o.ci_high, o.runs,
             COALESCE((SELECT value FROM host_probes hp WHERE hp.host_id = s.host_id AND hp.kernel = 'ipa' AND
                       hp.probe = 'wakeup' AND hp.field = 'cross_cpu_ns'), -1) AS cross,
             COALESCE((SELECT value FROM host_probes hp WHERE hp.host_id = s.host_id AND hp.kernel = 'ipa' AND
                       hp.probe = 'wakeup' AND hp.field = 'same_cpu_ns'), -1) AS same
      FROM optima o JOIN sweeps s ON s.id = o.sweep_id WHERE o.kernel = 'ipa')
SELECT c.sweep_id, 'IPA optimum: the chosen threshold against this host''s wake-up cost' AS title,
       json_object('text', CASE WHEN c.t = 9223372036854775807 THEN 'inf (always poll)'
                                WHEN c.t = 0 THEN '0 (always block)'
                                WHEN c.t >= 1000 AND c.t % 1000 = 0 THEN (c.t / 1000) || ' us' ELSE c.t || ' ns' END,
                   'value', CASE WHEN c.t = 9223372036854775807 THEN 'inf' ELSE c.t END) AS "Chosen T",
       json_object('interval', json_array(c.median, c.ci_low, c.ci_high), 'runs', COALESCE(c.runs, 0), 'digits', 1)
           AS "Median ns/call [interval]",
       CASE WHEN c.cross >= 0 THEN json_object('printf', json_array('%.1f us', c.cross / 1000.0), 'value', c.cross)
            ELSE 'not measured' END AS "Wake-up across CPUs",
       CASE WHEN c.cross >= 0 THEN json_object('printf', json_array('%.1f us', c.same / 1000.0), 'value', c.same)
            ELSE 'not measured' END AS "Wake-up on one CPU",
       CASE WHEN c.cross > 0 AND c.t != 9223372036854775807
            THEN json_object('printf', json_array('%.2f', c.t * 1.0 / c.cross)) ELSE '-' END AS "T / wake-up",
       CASE WHEN poll.m > 0 THEN json_object('printf', json_array('%.3f', COALESCE(at.m, c.median) / poll.m))
            ELSE '-' END AS "vs always poll",
       CASE WHEN block.m > 0 THEN json_object('printf', json_array('%.3f', COALESCE(at.m, c.median) / block.m))
            ELSE '-' END AS "vs always block",
       json_array('ns', 'ns/call', 'ns', 'ns', 'x', 'x', 'x') AS _units
FROM c
LEFT JOIN p at ON at.sweep_id = c.sweep_id AND at.t = c.t
LEFT JOIN p poll ON poll.sweep_id = c.sweep_id AND poll.t = 9223372036854775807
LEFT JOIN p block ON block.sweep_id = c.sweep_id AND block.t = 0;

CREATE VIEW sched_table_policies AS
WITH p AS (
    SELECT r.sweep_id, r.policy, r.dispatch, r.speedup, r.apps, r.median_makespan_ms AS ms,
           EXISTS (SELECT 1 FROM sched_optima o WHERE o.sweep_id = r.sweep_id AND o.speedup = r.speedup AND
                   o.apps = r.apps AND o.policy = r.policy AND o.dispatch = r.dispatch) AS chosen
    FROM sched_results r WHERE r.phase = 'search'),
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
CREATE VIEW sched_table_optima AS
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
FROM (SELECT o.*, COALESCE(CAST(tasks_per_run AS INTEGER), 0) / 1e6 AS per FROM sched_optima o);

INSERT OR REPLACE INTO kernel_views (kernel, name, sql_hash)
VALUES ('ipa', 'ipa_table_curve', ''), ('ipa', 'ipa_table_choice', ''),
       ('sched', 'sched_table_policies', ''), ('sched', 'sched_table_dispatch', ''),
       ('sched', 'sched_table_optima', '');
