-- The chase's views, made in the database by a sweep of the chase (its
-- manifest's views:), so that sqlite3 answers in amaco2's words. Its
-- parameters are in each trial's params, as every kernel's; these read
-- them back as the columns they once were.
--
-- chase_results: each finished trial with its working set, hint, g (1 for
-- the scalar variants), huge pages (0 or 1), depth and queries, and the
-- median ns per lookup of its measured runs with its interval.
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

-- chase_latest: the newest result of each configuration.
CREATE VIEW chase_latest AS
SELECT * FROM (
    SELECT r.*, ROW_NUMBER() OVER (
        PARTITION BY platform, host, fingerprint, variant, hint, size_mb, group_size, hugepages, depth
        ORDER BY trial_id DESC) AS newest
    FROM chase_results r)
WHERE newest = 1;

-- chase_best_per_size: the best configuration of each variant per working
-- set, platform and host, on the current fingerprints (SQLite takes the
-- bare columns from the row with the minimum). g = 0 of an interleaved
-- binary is the scalar chase measured beside the g's (chase.h): read as
-- scalar, as amaco2's tables read it.
CREATE VIEW chase_best_per_size AS
SELECT platform, host, fingerprint, variant, size_mb, hint, group_size, hugepages,
       MIN(median_ns_per_lookup) AS median_ns_per_lookup, ci_low, ci_high
FROM (SELECT platform, host, fingerprint, CASE WHEN group_size = 0 THEN 'scalar' ELSE variant END AS variant,
             size_mb, CASE WHEN group_size = 0 THEN NULL ELSE hint END AS hint, MAX(group_size, 1) AS group_size,
             hugepages, median_ns_per_lookup, ci_low, ci_high
      FROM chase_latest JOIN current_fingerprints USING (platform, host, fingerprint))
GROUP BY platform, host, fingerprint, variant, size_mb;
