-- Schema version 15: a trial keeps its kernel's parameters as data, in
-- params (JSON) and context, as every kernel's always did: the columns of
-- the chase (hint, size_mb, depth, queries, group_size, hugepages), of ipa
-- (threshold_ns) and of sched (apps, speedup, dispatch) go, and so does
-- builds.hint (a build's defines hold it). Their values stay in params, where
-- migration 6 put them for older rows. What the tuner read of those columns
-- becomes two generic ones: work, what one run does as estimates of a
-- sweep's time count it (the chase's queries times depth, else 1), and
-- legacy_key, which ties a trial from before contexts were recorded to its
-- optimum as optima.legacy_key does ('' for every trial since).
--
-- The views tune made on the chase's columns (trial_results, latest_results,
-- best_per_size) become the chase's own: chase_results, chase_latest and
-- chase_best_per_size, in kernels/chase/views.sql, made here for the
-- databases the chase measured and again by its next sweep. ipa's and sched's
-- views read params alone. Every kernel's views are made again by its next
-- sweep (their hash is cleared): a view that read a column gone says so then.
DROP TRIGGER IF EXISTS trials_params;
DROP VIEW IF EXISTS best_per_size;
DROP VIEW IF EXISTS latest_results;
DROP VIEW IF EXISTS trial_results;
DROP VIEW IF EXISTS ipa_results;
DROP VIEW IF EXISTS sched_results;
DROP VIEW IF EXISTS sched_optima;

ALTER TABLE trials ADD COLUMN work INTEGER NOT NULL DEFAULT 1;
ALTER TABLE trials ADD COLUMN legacy_key TEXT NOT NULL DEFAULT '';
UPDATE trials SET params = COALESCE(params, json_object('variant', variant)),
                  work = MAX(COALESCE(queries, 1), 1) * MAX(COALESCE(depth, 0), 1),
                  legacy_key = CASE WHEN context IS NULL
                                    THEN size_mb || '/' || COALESCE(speedup, 0) || '/' || COALESCE(apps, 0)
                                    ELSE '' END;
-- A run's calls or tasks of ipa and sched trials recorded by column only.
UPDATE trials SET params = json_set(params, '$.calls_per_run', queries)
WHERE kernel = 'ipa' AND json_extract(params, '$.calls') IS NULL
  AND json_extract(params, '$.calls_per_run') IS NULL;
UPDATE trials SET params = json_set(params, '$.tasks_per_run', queries)
WHERE kernel = 'sched' AND json_extract(params, '$.tasks') IS NULL
  AND json_extract(params, '$.tasks_per_run') IS NULL;

-- A view of another's that still names a column (a user kernel's) does not
-- stop the migration; it is made again by its kernel's next sweep.
PRAGMA legacy_alter_table = ON;
ALTER TABLE trials DROP COLUMN hint;
ALTER TABLE trials DROP COLUMN size_mb;
ALTER TABLE trials DROP COLUMN depth;
ALTER TABLE trials DROP COLUMN queries;
ALTER TABLE trials DROP COLUMN group_size;
ALTER TABLE trials DROP COLUMN hugepages;
ALTER TABLE trials DROP COLUMN threshold_ns;
ALTER TABLE trials DROP COLUMN apps;
ALTER TABLE trials DROP COLUMN speedup;
ALTER TABLE trials DROP COLUMN dispatch;
ALTER TABLE builds DROP COLUMN hint;
PRAGMA legacy_alter_table = OFF;

-- Where the results find the working set a kernel's limit holds from: the
-- parameter by name (the sweeps recorded before named the chase's).
UPDATE sweeps SET spec_json = json_set(json_remove(spec_json, '$.metric.limit.size_mb'), '$.metric.limit.memory',
                                       json_object('param', 'size_mb', 'mb',
                                                   json_extract(spec_json, '$.metric.limit.size_mb')))
WHERE json_valid(spec_json) AND json_extract(spec_json, '$.metric.limit.size_mb') IS NOT NULL;

UPDATE kernel_views SET sql_hash = '';

-- As kernels/ipa/views.sql and kernels/sched/views.sql make them.
CREATE VIEW ipa_results AS
SELECT trial_id, sweep_id, sweep, fingerprint, platform, host, threshold_ns, phase, calls AS calls_per_run, runs,
       median AS median_ns_per_call, ci_low, ci_high, mad, median * calls / 1e6 AS median_wall_ms,
       (SELECT AVG(json_extract(x.raw_json, '$.polled') * 1.0 / calls) FROM samples x
        WHERE x.trial_id = r.trial_id AND x.warmup = 0) AS polled_share
FROM (SELECT r.*, json_extract(r.params, '$.threshold_ns') AS threshold_ns,
             COALESCE(json_extract(r.params, '$.apps') * json_extract(r.params, '$.calls'),
                      json_extract(r.params, '$.calls_per_run')) AS calls
      FROM kernel_results r WHERE r.kernel = 'ipa') r;

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

-- As kernels/chase/views.sql makes them.
CREATE VIEW chase_results AS
SELECT t.id AS trial_id, s.id AS sweep_id, s.name AS sweep, s.generation, s.quick, s.fingerprint,
       p.name AS platform, h.hostname AS host, t.kernel, t.variant, json_extract(t.params, '$.hint') AS hint,
       t.phase, json_extract(t.params, '$.size_mb') AS size_mb, json_extract(t.params, '$.depth') AS depth,
       json_extract(t.params, '$.queries') AS queries,
       COALESCE(json_extract(t.params, '$.group_size'), 1) AS group_size,
       json_extract(t.params, '$.hugepages') IN ('on', 1) AS hugepages, t.cpu,
       st.median_ns_per_lookup, st.runs, 1e9 / st.median_ns_per_lookup AS lookups_per_sec,
       ts.mad, ts.ci_low, ts.ci_high, ts.outliers, t.finished
FROM trials t
JOIN sweeps s ON s.id = t.sweep_id
JOIN platforms p ON p.id = s.platform_id
JOIN hosts h ON h.id = s.host_id
JOIN trial_stats st ON st.trial_id = t.id
LEFT JOIN trial_summary ts ON ts.trial_id = t.id
WHERE t.status = 'done' AND t.kernel = 'chase';

CREATE VIEW chase_latest AS
SELECT * FROM (
    SELECT r.*, ROW_NUMBER() OVER (
        PARTITION BY platform, host, fingerprint, variant, hint, size_mb, group_size, hugepages, depth
        ORDER BY trial_id DESC) AS newest
    FROM chase_results r)
WHERE newest = 1;

CREATE VIEW chase_best_per_size AS
SELECT platform, host, fingerprint, variant, size_mb, hint, group_size, hugepages,
       MIN(median_ns_per_lookup) AS median_ns_per_lookup, ci_low, ci_high
FROM (SELECT platform, host, fingerprint, CASE WHEN group_size = 0 THEN 'scalar' ELSE variant END AS variant,
             size_mb, CASE WHEN group_size = 0 THEN NULL ELSE hint END AS hint, MAX(group_size, 1) AS group_size,
             hugepages, median_ns_per_lookup, ci_low, ci_high
      FROM chase_latest JOIN current_fingerprints USING (platform, host, fingerprint))
GROUP BY platform, host, fingerprint, variant, size_mb;

DELETE FROM kernel_views WHERE kernel = 'chase';
INSERT INTO kernel_views (kernel, name, sql_hash)
VALUES ('chase', 'chase_results', ''), ('chase', 'chase_latest', ''), ('chase', 'chase_best_per_size', '');
