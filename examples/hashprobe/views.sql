-- hashprobe's view, made in the database by its sweeps (the manifest's
-- views:), so that sqlite3 answers in its own words. hashprobe_results: each
-- finished trial's table size, variant, hint and g with its median ns per
-- probe and 95% interval (hint and g are NULL for the scalar loop).
CREATE VIEW hashprobe_results AS
SELECT platform, host, fingerprint, sweep, phase, json_extract(params, '$.size_mb') AS size_mb, variant,
       json_extract(params, '$.hint') AS hint, json_extract(params, '$.g') AS g, median AS ns_per_probe,
       ci_low, ci_high, runs
FROM kernel_results
WHERE kernel = 'hashprobe';
