-- Schema version 7: ipa and sched are run by their manifests, like a user's
-- kernel: what a kernel's probe measures of a host (ipa's wake-up cost) is
-- stored with the host by the probe's and field's names, and their views
-- read their trials' and optima's parameters (params, which migration 6
-- filled for the rows recorded before), not the columns of schema 3 and 4.

CREATE TABLE host_probes (
    host_id  INTEGER NOT NULL REFERENCES hosts(id),
    kernel   TEXT NOT NULL,
    probe    TEXT NOT NULL,
    field    TEXT NOT NULL,
    value    REAL NOT NULL,
    measured TEXT NOT NULL,
    PRIMARY KEY (host_id, kernel, probe, field)
);
INSERT INTO host_probes (host_id, kernel, probe, field, value, measured)
SELECT id, 'ipa', 'wakeup', 'cross_cpu_ns', wakeup_cross_ns, COALESCE(wakeup_measured, '')
FROM hosts WHERE wakeup_cross_ns IS NOT NULL;
INSERT INTO host_probes (host_id, kernel, probe, field, value, measured)
SELECT id, 'ipa', 'wakeup', 'same_cpu_ns', wakeup_same_ns, COALESCE(wakeup_measured, '')
FROM hosts WHERE wakeup_same_ns IS NOT NULL;

-- A run's calls: apps times calls per app (recorded as parameters), or the
-- queries column of the trials recorded before.
DROP VIEW ipa_results;
CREATE VIEW ipa_results AS
SELECT t.id AS trial_id, s.id AS sweep_id, s.name AS sweep, s.fingerprint, p.name AS platform,
       h.hostname AS host, json_extract(t.params, '$.threshold_ns') AS threshold_ns, t.phase,
       c.calls AS calls_per_run, ts.n AS runs, ts.median AS median_ns_per_call, ts.ci_low, ts.ci_high, ts.mad,
       ts.median * c.calls / 1e6 AS median_wall_ms,
       (SELECT AVG(json_extract(x.raw_json, '$.polled') * 1.0 / c.calls) FROM samples x
        WHERE x.trial_id = t.id AND x.warmup = 0) AS polled_share
FROM trials t
JOIN (SELECT id, COALESCE(json_extract(params, '$.apps') * json_extract(params, '$.calls'), queries) AS calls
      FROM trials) c ON c.id = t.id
JOIN sweeps s ON s.id = t.sweep_id
JOIN platforms p ON p.id = s.platform_id
JOIN hosts h ON h.id = s.host_id
JOIN trial_summary ts ON ts.trial_id = t.id
WHERE t.status = 'done' AND t.kernel = 'ipa';

-- sched's: speedup, apps and dispatch are parameters; a run's tasks are apps
-- times tasks per app, or the queries column of the trials recorded before.
DROP VIEW sched_results;
CREATE VIEW sched_results AS
SELECT t.id AS trial_id, s.id AS sweep_id, s.name AS sweep, s.fingerprint, p.name AS platform,
       h.hostname AS host, t.variant AS policy, json_extract(t.params, '$.dispatch') AS dispatch,
       json_extract(t.params, '$.apps') AS apps, json_extract(t.params, '$.speedup') AS speedup, t.phase,
       c.tasks AS tasks_per_run, ts.n AS runs, ts.median AS median_ns_per_task, ts.ci_low, ts.ci_high,
       ts.median * c.tasks / 1e6 AS median_makespan_ms,
       (SELECT AVG(json_extract(x.raw_json, '$.tasks_accel') * 1.0 / c.tasks) FROM samples x
        WHERE x.trial_id = t.id AND x.warmup = 0) AS accel_share,
       (SELECT AVG(json_extract(x.raw_json, '$.mean_overhead_ns')) FROM samples x
        WHERE x.trial_id = t.id AND x.warmup = 0) AS mean_overhead_ns
FROM trials t
JOIN (SELECT id, COALESCE(json_extract(params, '$.apps') * json_extract(params, '$.tasks'), queries) AS tasks
      FROM trials) c ON c.id = t.id
JOIN sweeps s ON s.id = t.sweep_id
JOIN platforms p ON p.id = s.platform_id
JOIN hosts h ON h.id = s.host_id
JOIN trial_summary ts ON ts.trial_id = t.id
WHERE t.status = 'done' AND t.kernel = 'sched';

-- sched's optima: the policy and dispatch chosen per (speedup, apps), with
-- the class the paper's Fig. 10 reads them by (an accelerator about as fast
-- as a CPU, moderately or much faster; one app, up to two per app CPU, more),
-- as recorded before this version or from the sweep's app CPUs.
CREATE VIEW sched_optima AS
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
                (SELECT t.queries FROM trials t WHERE t.sweep_id = o.sweep_id AND t.kernel = 'sched' AND
                 t.apps = o.apps LIMIT 1)) AS tasks_per_run
FROM optima o
LEFT JOIN sweeps s ON s.id = o.sweep_id
WHERE o.kernel = 'sched';
