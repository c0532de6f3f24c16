-- Schema version 7: what a kernel's probe measures of a host (ipa's wake-up
-- cost, for one), stored with the host by the probe's and field's names, and
-- ipa's threshold read from its trials' parameters, where a trial of any
-- kernel described by its manifest keeps them.

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
