-- ipa's view, made in the database by a sweep of ipa (its manifest's views:).
-- ipa_results: each finished trial's threshold and wall time per call, with
-- the share of calls that polled. A run's calls: apps times calls per app
-- (its parameters), or calls_per_run for the trials recorded before.
CREATE VIEW ipa_results AS
SELECT trial_id, sweep_id, sweep, fingerprint, platform, host, threshold_ns, phase, calls AS calls_per_run, runs,
       median AS median_ns_per_call, ci_low, ci_high, mad, median * calls / 1e6 AS median_wall_ms,
       (SELECT AVG(json_extract(x.raw_json, '$.polled') * 1.0 / calls) FROM samples x
        WHERE x.trial_id = r.trial_id AND x.warmup = 0) AS polled_share
FROM (SELECT r.*, json_extract(r.params, '$.threshold_ns') AS threshold_ns,
             COALESCE(json_extract(r.params, '$.apps') * json_extract(r.params, '$.calls'),
                      json_extract(r.params, '$.calls_per_run')) AS calls
      FROM kernel_results r WHERE r.kernel = 'ipa') r;
