-- Schema version 9: an optimum records how many runs its median rests on,
-- which says how much its interval covers (an interval of order statistics:
-- 3 runs, the whole range, hold the median 75% of the time); NULL for the
-- optima recorded before. best_per_size answers the question it was made
-- for, the chase's best per working set, on the current fingerprints only
-- (it listed every kernel's trials, and the fingerprints of earlier
-- compilers and hosts).
ALTER TABLE optima ADD COLUMN runs INTEGER;

DROP VIEW best_per_size;
CREATE VIEW best_per_size AS
SELECT platform, host, fingerprint, variant, size_mb, hint, group_size, hugepages,
       MIN(median_ns_per_lookup) AS median_ns_per_lookup, ci_low, ci_high
FROM latest_results JOIN current_fingerprints USING (platform, host, fingerprint)
WHERE kernel = 'chase'
GROUP BY platform, host, fingerprint, variant, size_mb;
