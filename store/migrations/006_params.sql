-- Schema version 6: every trial's and optimum's parameters stored as data, not
-- a column per kernel, so that a kernel described by its manifest alone is
-- stored like the shipped ones.

-- A JSON object: the variant and each parameter that applies, name -> value.
ALTER TABLE trials ADD COLUMN params TEXT;
-- A manifest kernel's context, "name=value ...": the trials decided together.
ALTER TABLE trials ADD COLUMN context TEXT;

-- Optima gain the context (part of the unique key) and the parameters: the
-- table is rebuilt because its unique key grows.
CREATE TABLE optima_v6 (
    id          INTEGER PRIMARY KEY,
    platform    TEXT NOT NULL,
    host        TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    kernel      TEXT NOT NULL,
    size_mb     INTEGER NOT NULL,
    size_class  TEXT NOT NULL,
    variant     TEXT NOT NULL,
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
    threshold_ns INTEGER,
    speedup     INTEGER NOT NULL DEFAULT 0,
    apps        INTEGER NOT NULL DEFAULT 0,
    dispatch    TEXT,
    context     TEXT NOT NULL DEFAULT '',  -- manifest kernels: the context decided
    params      TEXT,                      -- JSON object: the chosen variant and parameters
    exports     TEXT,                      -- manifest kernels: what the header gives, JSON (see manifest_trial.h)
    UNIQUE (platform, host, fingerprint, kernel, size_mb, speedup, apps, context)
);
INSERT INTO optima_v6 (id, platform, host, fingerprint, kernel, size_mb, size_class, variant, hint, group_size,
                       hugepages, median, ci_low, ci_high, best_group_size, runner_up, trials, sweep_id, decided,
                       threshold_ns, speedup, apps, dispatch)
SELECT id, platform, host, fingerprint, kernel, size_mb, size_class, variant, hint, group_size, hugepages, median,
       ci_low, ci_high, best_group_size, runner_up, trials, sweep_id, decided, threshold_ns, speedup, apps, dispatch
FROM optima;
DROP TABLE optima;
ALTER TABLE optima_v6 RENAME TO optima;

-- The shipped kernels' parameters, from their columns: for the rows recorded
-- before this version, and (by the triggers) for those the tuner still
-- records by column.
UPDATE trials SET params = CASE kernel
    WHEN 'chase' THEN json_object('variant', variant, 'hint', hint, 'size_mb', size_mb, 'group_size', group_size,
                                  'hugepages', hugepages, 'depth', depth, 'queries', queries)
    WHEN 'ipa' THEN json_object('variant', variant, 'threshold_ns', threshold_ns, 'calls_per_run', queries)
    ELSE json_object('variant', variant, 'speedup', speedup, 'apps', apps, 'dispatch', dispatch,
                     'threshold_ns', threshold_ns, 'tasks_per_run', queries) END
WHERE params IS NULL;
UPDATE optima SET params = CASE kernel
    WHEN 'chase' THEN json_object('variant', variant, 'hint', hint, 'size_mb', size_mb, 'group_size', group_size,
                                  'hugepages', hugepages)
    WHEN 'ipa' THEN json_object('variant', variant, 'threshold_ns', threshold_ns)
    ELSE json_object('variant', variant, 'speedup', speedup, 'apps', apps, 'dispatch', dispatch,
                     'threshold_ns', threshold_ns) END
WHERE params IS NULL;

CREATE TRIGGER trials_params AFTER INSERT ON trials WHEN NEW.params IS NULL
BEGIN
    UPDATE trials SET params = CASE NEW.kernel
        WHEN 'chase' THEN json_object('variant', NEW.variant, 'hint', NEW.hint, 'size_mb', NEW.size_mb,
                                      'group_size', NEW.group_size, 'hugepages', NEW.hugepages, 'depth', NEW.depth,
                                      'queries', NEW.queries)
        WHEN 'ipa' THEN json_object('variant', NEW.variant, 'threshold_ns', NEW.threshold_ns,
                                    'calls_per_run', NEW.queries)
        ELSE json_object('variant', NEW.variant, 'speedup', NEW.speedup, 'apps', NEW.apps,
                         'dispatch', NEW.dispatch, 'threshold_ns', NEW.threshold_ns, 'tasks_per_run', NEW.queries) END
    WHERE id = NEW.id;
END;

CREATE TRIGGER optima_params AFTER INSERT ON optima WHEN NEW.params IS NULL
BEGIN
    UPDATE optima SET params = CASE NEW.kernel
        WHEN 'chase' THEN json_object('variant', NEW.variant, 'hint', NEW.hint, 'size_mb', NEW.size_mb,
                                      'group_size', NEW.group_size, 'hugepages', NEW.hugepages)
        WHEN 'ipa' THEN json_object('variant', NEW.variant, 'threshold_ns', NEW.threshold_ns)
        ELSE json_object('variant', NEW.variant, 'speedup', NEW.speedup, 'apps', NEW.apps,
                         'dispatch', NEW.dispatch, 'threshold_ns', NEW.threshold_ns) END
    WHERE id = NEW.id;
END;

-- One row per parameter: sqlite3's way to ask about any of them.
CREATE VIEW trial_params AS
SELECT t.id AS trial_id, t.kernel, p.key AS name, p.value AS value
FROM trials t, json_each(t.params) p;

CREATE VIEW optimum_params AS
SELECT o.id AS optimum_id, o.platform, o.host, o.kernel, o.context, p.key AS name, p.value AS value
FROM optima o, json_each(o.params) p;

-- Every finished trial of any kernel with its parameters and the statistics
-- of its metric (the kernel's manifest says which field and unit).
CREATE VIEW kernel_results AS
SELECT t.id AS trial_id, s.id AS sweep_id, s.name AS sweep, s.fingerprint, p.name AS platform,
       h.hostname AS host, t.kernel, t.variant, COALESCE(t.context, '') AS context, t.params, t.phase,
       ts.n AS runs, ts.median, ts.ci_low, ts.ci_high, ts.mad, ts.outliers, t.finished
FROM trials t
JOIN sweeps s ON s.id = t.sweep_id
JOIN platforms p ON p.id = s.platform_id
JOIN hosts h ON h.id = s.host_id
JOIN trial_summary ts ON ts.trial_id = t.id
WHERE t.status = 'done';
