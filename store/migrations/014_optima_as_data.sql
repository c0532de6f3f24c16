-- Schema version 14: an optimum keeps its kernel's parameters as data, in
-- params (the chosen variant and values, JSON) and context (what it was
-- decided for), as every kernel's always did: the columns of the chase
-- (size_mb, hint, group_size, best_group_size, hugepages), of ipa
-- (threshold_ns) and of sched (speedup, apps, dispatch) go. Their values
-- stay in params, where migration 6 put them for older rows. The fastest
-- value of the list parameter beside the chosen one (best_group_size) is
-- best_point, for any kernel. Optima from before contexts were recorded
-- (context '') were told apart by size, speedup and apps: legacy_key keeps
-- that, so each stays one row; it is '' for every optimum since.
CREATE TABLE optima_v14 (
    id          INTEGER PRIMARY KEY,
    platform    TEXT NOT NULL,
    host        TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    kernel      TEXT NOT NULL,
    context     TEXT NOT NULL DEFAULT '',  -- the context decided: name=value of the kernel's context parameters
    size_class  TEXT NOT NULL,             -- a working set against the caches, or the context's class
    variant     TEXT NOT NULL,
    params      TEXT NOT NULL,             -- JSON object: the chosen variant and parameters
    best_point  INTEGER NOT NULL,          -- the fastest value of the list parameter (params holds the chosen)
    median      REAL NOT NULL,
    ci_low      REAL NOT NULL,
    ci_high     REAL NOT NULL,
    runs        INTEGER,
    runner_up   TEXT,
    baseline_paired TEXT,
    trials      INTEGER NOT NULL,
    sweep_id    INTEGER NOT NULL REFERENCES sweeps(id),
    decided     TEXT NOT NULL,
    exports     TEXT,
    legacy_key  TEXT NOT NULL DEFAULT '',
    UNIQUE (platform, host, fingerprint, kernel, context, legacy_key)
);
INSERT INTO optima_v14 (id, platform, host, fingerprint, kernel, context, size_class, variant, params, best_point,
                        median, ci_low, ci_high, runs, runner_up, baseline_paired, trials, sweep_id, decided, exports,
                        legacy_key)
SELECT id, platform, host, fingerprint, kernel, context, size_class, variant, COALESCE(params, '{}'),
       best_group_size, median, ci_low, ci_high, runs, runner_up, baseline_paired, trials, sweep_id, decided,
       exports,
       CASE WHEN context = '' AND (size_mb != 0 OR speedup != 0 OR apps != 0)
            THEN size_mb || '/' || speedup || '/' || apps ELSE '' END
FROM optima;

DROP VIEW IF EXISTS sched_optima;
DROP VIEW IF EXISTS optimum_params;
DROP TABLE optima;
-- Renamed as it is: no view of another's that still names an old column
-- stops the migration (a kernel's own views are made again by its next sweep).
PRAGMA legacy_alter_table = ON;
ALTER TABLE optima_v14 RENAME TO optima;
PRAGMA legacy_alter_table = OFF;

CREATE VIEW optimum_params AS
SELECT o.id AS optimum_id, o.platform, o.host, o.kernel, o.context, p.key AS name, p.value AS value
FROM optima o, json_each(o.params) p;

-- sched's view read its optima's apps column; this is it on params. sched's
-- views.sql makes it again (its hash is cleared) when sched next runs.
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
                 t.apps = json_extract(o.params, '$.apps') LIMIT 1)) AS tasks_per_run
FROM optima o
LEFT JOIN sweeps s ON s.id = o.sweep_id
WHERE o.kernel = 'sched';
UPDATE kernel_views SET sql_hash = '' WHERE kernel = 'sched' AND name = 'sched_optima';
