-- Schema version 4: the sched kernel.

-- sched trials: the policy is the variant; apps, the accelerator's speedup
-- and the dispatch (inline or worker) are the context (NULL for other kernels).
ALTER TABLE trials ADD COLUMN apps INTEGER;
ALTER TABLE trials ADD COLUMN speedup INTEGER;
ALTER TABLE trials ADD COLUMN dispatch TEXT;

-- Optima gain the sched point they were decided for (0 for other kernels):
-- the table is rebuilt because its unique key grows.
CREATE TABLE optima_v4 (
    id          INTEGER PRIMARY KEY,
    platform    TEXT NOT NULL,
    host        TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    kernel      TEXT NOT NULL,
    size_mb     INTEGER NOT NULL,
    size_class  TEXT NOT NULL,     -- chase: cache, llc or dram; sched: the speedup and apps classes
    variant     TEXT NOT NULL,     -- chase: the variant; ipa: ipa; sched: the policy
    hint        TEXT,
    group_size  INTEGER NOT NULL,
    hugepages   INTEGER NOT NULL,
    median      REAL NOT NULL,
    ci_low      REAL NOT NULL,
    ci_high     REAL NOT NULL,
    best_group_size INTEGER NOT NULL,
    runner_up   TEXT,
    trials      INTEGER NOT NULL,
    sweep_id    INTEGER NOT NULL REFERENCES sweeps(id),
    decided     TEXT NOT NULL,
    threshold_ns INTEGER,          -- ipa: the polling threshold
    speedup     INTEGER NOT NULL DEFAULT 0,  -- sched: the accelerator's speedup
    apps        INTEGER NOT NULL DEFAULT 0,  -- sched: apps
    dispatch    TEXT,                        -- sched: inline or worker
    UNIQUE (platform, host, fingerprint, kernel, size_mb, speedup, apps)
);
INSERT INTO optima_v4 (id, platform, host, fingerprint, kernel, size_mb, size_class, variant, hint, group_size,
                       hugepages, median, ci_low, ci_high, best_group_size, runner_up, trials, sweep_id, decided,
                       threshold_ns)
SELECT id, platform, host, fingerprint, kernel, size_mb, size_class, variant, hint, group_size, hugepages, median,
       ci_low, ci_high, best_group_size, runner_up, trials, sweep_id, decided, threshold_ns FROM optima;
DROP TABLE optima;
ALTER TABLE optima_v4 RENAME TO optima;

-- Every finished sched trial: makespan (median ns per task, and per run in
-- ms), tasks on accelerators and the mean dispatch overhead per task.
CREATE VIEW sched_results AS
SELECT t.id AS trial_id, s.id AS sweep_id, s.name AS sweep, s.fingerprint, p.name AS platform,
       h.hostname AS host, t.variant AS policy, t.dispatch, t.apps, t.speedup, t.phase,
       t.queries AS tasks_per_run, ts.n AS runs, ts.median AS median_ns_per_task, ts.ci_low, ts.ci_high,
       ts.median * t.queries / 1e6 AS median_makespan_ms,
       (SELECT AVG(json_extract(x.raw_json, '$.tasks_accel') * 1.0 / t.queries) FROM samples x
        WHERE x.trial_id = t.id AND x.warmup = 0) AS accel_share,
       (SELECT AVG(json_extract(x.raw_json, '$.mean_overhead_ns')) FROM samples x
        WHERE x.trial_id = t.id AND x.warmup = 0) AS mean_overhead_ns
FROM trials t
JOIN sweeps s ON s.id = t.sweep_id
JOIN platforms p ON p.id = s.platform_id
JOIN hosts h ON h.id = s.host_id
JOIN trial_summary ts ON ts.trial_id = t.id
WHERE t.status = 'done' AND t.kernel = 'sched';

-- The newest sweep that finished trials of each kernel, per platform and
-- host, for their current fingerprint: what the ipa and sched tables show.
CREATE VIEW newest_kernel_sweeps AS
SELECT t.kernel, p.name AS platform, h.hostname AS host, s.fingerprint, MAX(s.id) AS sweep_id
FROM trials t
JOIN sweeps s ON s.id = t.sweep_id
JOIN platforms p ON p.id = s.platform_id
JOIN hosts h ON h.id = s.host_id
JOIN current_fingerprints c ON c.platform = p.name AND c.host = h.hostname AND c.fingerprint = s.fingerprint
WHERE t.status = 'done'
GROUP BY t.kernel, p.name, h.hostname, s.fingerprint;
