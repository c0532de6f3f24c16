-- Schema version 2: robust statistics, host fingerprints, search state, optima.

-- Samples flagged as outliers by modified z-score (kept, never dropped).
ALTER TABLE samples ADD COLUMN outlier INTEGER NOT NULL DEFAULT 0;

-- What identifies the machine and build a sweep measured: CPU model and
-- microcode, kernel, governor, SMT, THP setting, compiler version and flags,
-- kernel sources. Results of different fingerprints are never mixed.
ALTER TABLE sweeps ADD COLUMN fingerprint TEXT NOT NULL DEFAULT '';
ALTER TABLE sweeps ADD COLUMN strategy TEXT NOT NULL DEFAULT 'grid';
ALTER TABLE sweeps ADD COLUMN warnings TEXT;        -- noisy host, budget reached: one per line
ALTER TABLE sweeps ADD COLUMN search_state TEXT;    -- the search's own state, JSON, for resume
ALTER TABLE sweeps ADD COLUMN measure_ns INTEGER NOT NULL DEFAULT 0; -- time spent in kernels

-- 'search' trials are the search's; 'final' ones re-measure the top candidates
-- interleaved before an optimum is recorded.
ALTER TABLE trials ADD COLUMN phase TEXT NOT NULL DEFAULT 'search';

-- Statistics of each finished trial's measured runs.
CREATE TABLE trial_summary (
    trial_id INTEGER PRIMARY KEY REFERENCES trials(id),
    n        INTEGER NOT NULL,     -- measured runs (adaptive: until the interval is tight)
    median   REAL NOT NULL,        -- ns/lookup
    mad      REAL NOT NULL,        -- median absolute deviation, unscaled
    ci_low   REAL NOT NULL,        -- 95% bootstrap interval of the median
    ci_high  REAL NOT NULL,
    outliers INTEGER NOT NULL
);

-- The chosen configuration per platform, host, fingerprint, kernel and working set.
CREATE TABLE optima (
    id          INTEGER PRIMARY KEY,
    platform    TEXT NOT NULL,
    host        TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    kernel      TEXT NOT NULL,
    size_mb     INTEGER NOT NULL,
    size_class  TEXT NOT NULL,     -- cache, llc or dram, against the platform's LLC
    variant     TEXT NOT NULL,
    hint        TEXT,
    group_size  INTEGER NOT NULL,
    hugepages   INTEGER NOT NULL,
    median      REAL NOT NULL,
    ci_low      REAL NOT NULL,
    ci_high     REAL NOT NULL,
    best_group_size INTEGER NOT NULL, -- fastest g; group_size is the knee within tolerance
    runner_up   TEXT,              -- JSON: the best other configuration
    trials      INTEGER NOT NULL,  -- trials the sweep measured to decide
    sweep_id    INTEGER NOT NULL REFERENCES sweeps(id),
    decided     TEXT NOT NULL,
    UNIQUE (platform, host, fingerprint, kernel, size_mb)
);

DROP VIEW best_per_size;
DROP VIEW latest_results;
DROP VIEW trial_results;

CREATE VIEW trial_results AS
SELECT t.id AS trial_id, s.id AS sweep_id, s.name AS sweep, s.generation, s.quick, s.fingerprint,
       p.name AS platform, h.hostname AS host, t.kernel, t.variant, t.hint, t.phase,
       t.size_mb, t.depth, t.queries, t.group_size, t.hugepages, t.cpu,
       st.median_ns_per_lookup, st.runs, 1e9 / st.median_ns_per_lookup AS lookups_per_sec,
       ts.mad, ts.ci_low, ts.ci_high, ts.outliers, t.finished
FROM trials t
JOIN sweeps s ON s.id = t.sweep_id
JOIN platforms p ON p.id = s.platform_id
JOIN hosts h ON h.id = s.host_id
JOIN trial_stats st ON st.trial_id = t.id
LEFT JOIN trial_summary ts ON ts.trial_id = t.id
WHERE t.status = 'done';

CREATE VIEW latest_results AS
SELECT * FROM (
    SELECT r.*, ROW_NUMBER() OVER (
        PARTITION BY platform, host, fingerprint, variant, hint, size_mb, group_size, hugepages, depth
        ORDER BY trial_id DESC) AS newest
    FROM trial_results r)
WHERE newest = 1;

CREATE VIEW best_per_size AS
SELECT platform, host, fingerprint, variant, size_mb, hint, group_size, hugepages,
       MIN(median_ns_per_lookup) AS median_ns_per_lookup, ci_low, ci_high
FROM latest_results
GROUP BY platform, host, fingerprint, variant, size_mb;

-- The fingerprint each platform and host measured last: what the tables show.
CREATE VIEW current_fingerprints AS
SELECT p.name AS platform, h.hostname AS host, s.fingerprint
FROM sweeps s
JOIN platforms p ON p.id = s.platform_id
JOIN hosts h ON h.id = s.host_id
WHERE s.id IN (SELECT MAX(id) FROM sweeps GROUP BY platform_id, host_id);
