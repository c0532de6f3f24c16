-- tune results database, schema version 1.
-- Every sample is kept; statistics are views over them. Times are UTC ISO-8601.

-- A machine that ran trials, with what tune could read about it.
CREATE TABLE hosts (
    id           INTEGER PRIMARY KEY,
    hostname     TEXT NOT NULL,
    arch         TEXT NOT NULL,
    cpu_model    TEXT NOT NULL,
    cores        INTEGER,
    pus          INTEGER,
    llc_bytes    INTEGER,
    memory_bytes INTEGER,
    kernel       TEXT,
    facts_json   TEXT NOT NULL,          -- every fact, as JSON
    first_seen   TEXT NOT NULL,
    last_seen    TEXT NOT NULL,
    UNIQUE (hostname, arch, cpu_model)
);

-- A platform file as it was when a sweep ran.
CREATE TABLE platforms (
    id          INTEGER PRIMARY KEY,
    name        TEXT NOT NULL UNIQUE,
    arch        TEXT NOT NULL,
    path        TEXT NOT NULL,
    compiler    TEXT NOT NULL,
    cflags      TEXT NOT NULL
);

-- A compiled kernel variant in the build cache.
CREATE TABLE builds (
    id               INTEGER PRIMARY KEY,
    hash             TEXT NOT NULL UNIQUE,  -- of sources, compiler, flags, defines
    kernel           TEXT NOT NULL,
    variant          TEXT NOT NULL,
    hint             TEXT,                  -- NULL for variants without prefetch
    compiler         TEXT NOT NULL,
    compiler_version TEXT NOT NULL,
    cflags           TEXT NOT NULL,
    defines          TEXT NOT NULL,
    binary_path      TEXT NOT NULL,
    created          TEXT NOT NULL
);

-- One run of one sweep file on one platform and host. A re-run of the same
-- sweep resumes the newest generation; --fresh starts the next one.
CREATE TABLE sweeps (
    id           INTEGER PRIMARY KEY,
    name         TEXT NOT NULL,
    platform_id  INTEGER NOT NULL REFERENCES platforms(id),
    host_id      INTEGER NOT NULL REFERENCES hosts(id),
    spec_hash    TEXT NOT NULL,           -- of the expanded parameter space
    generation   INTEGER NOT NULL DEFAULT 1,
    quick        INTEGER NOT NULL DEFAULT 0,
    status       TEXT NOT NULL CHECK (status IN ('running', 'interrupted', 'done', 'failed')),
    started      TEXT NOT NULL,
    finished     TEXT,
    tune_version TEXT NOT NULL,
    compiler     TEXT NOT NULL,
    cflags       TEXT NOT NULL,
    governor     TEXT,
    thp          TEXT,
    loadavg      REAL,
    env_json     TEXT NOT NULL,           -- host facts and build environment at start
    spec_json    TEXT NOT NULL,           -- the sweep as planned
    UNIQUE (name, platform_id, host_id, spec_hash, generation)
);

-- One point of the parameter space, with its parameters as columns.
CREATE TABLE trials (
    id          INTEGER PRIMARY KEY,
    sweep_id    INTEGER NOT NULL REFERENCES sweeps(id),
    trial_key   TEXT NOT NULL,
    kernel      TEXT NOT NULL,
    variant     TEXT NOT NULL,
    hint        TEXT,                     -- NULL for variants without prefetch
    size_mb     INTEGER NOT NULL,
    depth       INTEGER NOT NULL,
    queries     INTEGER NOT NULL,
    group_size  INTEGER NOT NULL,         -- 1 for scalar variants
    hugepages   INTEGER NOT NULL,
    seed        INTEGER NOT NULL,
    runs        INTEGER NOT NULL,
    warmup      INTEGER NOT NULL,
    build_id    INTEGER REFERENCES builds(id),
    status      TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'done', 'failed')),
    reason      TEXT,                     -- why it failed
    cpu         INTEGER,                  -- CPU it was pinned to, NULL when unpinned
    finished    TEXT,
    UNIQUE (sweep_id, trial_key)
);
CREATE INDEX trials_by_status ON trials (sweep_id, status);

-- One measured (or warm-up) run of a trial, as the kernel reported it.
CREATE TABLE samples (
    id              INTEGER PRIMARY KEY,
    trial_id        INTEGER NOT NULL REFERENCES trials(id),
    run_id          INTEGER NOT NULL,
    warmup          INTEGER NOT NULL,      -- 1: warm-up, never in statistics
    ns_total        INTEGER NOT NULL,
    ns_per_lookup   REAL NOT NULL,
    lookups_per_sec REAL NOT NULL,
    checksum        INTEGER NOT NULL,
    cpu             INTEGER,               -- CPU the kernel found itself on
    raw_json        TEXT NOT NULL,         -- the kernel's line, verbatim
    UNIQUE (trial_id, warmup, run_id)
);

-- Median ns/lookup of each trial's measured runs (warm-ups left out).
CREATE VIEW trial_stats AS
WITH ranked AS (
    SELECT trial_id, ns_per_lookup AS v,
           ROW_NUMBER() OVER (PARTITION BY trial_id ORDER BY ns_per_lookup) AS rn,
           COUNT(*) OVER (PARTITION BY trial_id) AS cnt
    FROM samples WHERE warmup = 0
)
SELECT trial_id,
       AVG(v) AS median_ns_per_lookup,
       MAX(cnt) AS runs
FROM ranked
WHERE rn IN ((cnt + 1) / 2, (cnt + 2) / 2)
GROUP BY trial_id;

-- Every finished trial with its statistics, sweep, platform and host.
CREATE VIEW trial_results AS
SELECT t.id AS trial_id, s.id AS sweep_id, s.name AS sweep, s.generation, s.quick,
       p.name AS platform, h.hostname AS host, t.kernel, t.variant, t.hint,
       t.size_mb, t.depth, t.queries, t.group_size, t.hugepages, t.cpu,
       st.median_ns_per_lookup, st.runs, 1e9 / st.median_ns_per_lookup AS lookups_per_sec,
       t.finished
FROM trials t
JOIN sweeps s ON s.id = t.sweep_id
JOIN platforms p ON p.id = s.platform_id
JOIN hosts h ON h.id = s.host_id
JOIN trial_stats st ON st.trial_id = t.id
WHERE t.status = 'done';

-- The newest result of each configuration: what the tables show.
CREATE VIEW latest_results AS
SELECT * FROM (
    SELECT r.*, ROW_NUMBER() OVER (
        PARTITION BY platform, host, variant, hint, size_mb, group_size, hugepages, depth
        ORDER BY trial_id DESC) AS newest
    FROM trial_results r)
WHERE newest = 1;

-- Best configuration of each variant per working set, platform and host
-- (SQLite takes the bare columns from the row with the minimum).
CREATE VIEW best_per_size AS
SELECT platform, host, variant, size_mb, hint, group_size, hugepages,
       MIN(median_ns_per_lookup) AS median_ns_per_lookup
FROM latest_results
GROUP BY platform, host, variant, size_mb;
