-- Schema version 3: the ipa kernel and this host's wake-up cost.

-- ipa trials: the polling threshold T in ns (NULL for chase trials;
-- 9223372036854775807 means always poll, 0 always block).
ALTER TABLE trials ADD COLUMN threshold_ns INTEGER;
ALTER TABLE optima ADD COLUMN threshold_ns INTEGER;

-- What a blocked thread takes to run again once woken (median ns), from
-- another CPU and from its own: the cost that polling saves.
ALTER TABLE hosts ADD COLUMN wakeup_cross_ns REAL;
ALTER TABLE hosts ADD COLUMN wakeup_same_ns REAL;
ALTER TABLE hosts ADD COLUMN wakeup_measured TEXT;

-- Every finished ipa trial: wall time per call against T, with the share of
-- calls that polled (the paper's Fig. 12 as rows).
CREATE VIEW ipa_results AS
SELECT t.id AS trial_id, s.id AS sweep_id, s.name AS sweep, s.fingerprint, p.name AS platform,
       h.hostname AS host, t.threshold_ns, t.phase, t.queries AS calls_per_run,
       ts.n AS runs, ts.median AS median_ns_per_call, ts.ci_low, ts.ci_high, ts.mad,
       ts.median * t.queries / 1e6 AS median_wall_ms,
       (SELECT AVG(json_extract(x.raw_json, '$.polled') * 1.0 / t.queries) FROM samples x
        WHERE x.trial_id = t.id AND x.warmup = 0) AS polled_share
FROM trials t
JOIN sweeps s ON s.id = t.sweep_id
JOIN platforms p ON p.id = s.platform_id
JOIN hosts h ON h.id = s.host_id
JOIN trial_summary ts ON ts.trial_id = t.id
WHERE t.status = 'done' AND t.kernel = 'ipa';
