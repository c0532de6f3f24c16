-- sched's views, made in the database by a sweep of sched (its manifest's
-- views:). sched_results: each finished trial's policy, dispatch, apps and
-- speedup with its makespan, the share of tasks run on accelerators and the
-- scheduler's overhead. A run's tasks: apps times tasks per app (its
-- parameters), or tasks_per_run for the trials recorded before.
CREATE VIEW sched_results AS
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
      FROM kernel_results r WHERE r.kernel = 'sched') r;

-- sched_optima: the policy and dispatch chosen per (speedup, apps), with
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
                (SELECT json_extract(t.params, '$.tasks_per_run') FROM trials t WHERE t.sweep_id = o.sweep_id AND
                 t.kernel = 'sched' AND json_extract(t.params, '$.apps') = json_extract(o.params, '$.apps')
                 LIMIT 1)) AS tasks_per_run
FROM optima o
LEFT JOIN sweeps s ON s.id = o.sweep_id
WHERE o.kernel = 'sched';
