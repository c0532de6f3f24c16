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

-- hashprobe's table in tune results (a view named hashprobe_table_*: a row
-- of it is a row of the table its title names; see the README): per table
-- size, the scalar loop against the fastest interleaved probe of the
-- newest sweep, each median of its phase's runs.
CREATE VIEW hashprobe_table_gain AS
SELECT platform, host, fingerprint,
       'Hash probe: the scalar loop against the fastest interleaved g (ns per probe, search round)' AS title,
       size_mb || ' MB' AS "Table", printf('%.1f', scalar) AS "Scalar",
       printf('%.1f', best) AS "Interleaved", g AS "g", hint AS "Hint", printf('%.2fx', scalar / best) AS "Gain",
       printf('%020d', size_mb) AS _order
FROM (SELECT platform, host, fingerprint, size_mb,
             MIN(CASE WHEN variant = 'scalar' THEN ns_per_probe END) AS scalar,
             MIN(CASE WHEN variant = 'interleaved' THEN ns_per_probe END) AS best
      FROM hashprobe_results WHERE phase = 'search' GROUP BY platform, host, fingerprint, size_mb) m
JOIN (SELECT platform, host, fingerprint, size_mb, g, hint, MIN(ns_per_probe) AS ns
      FROM hashprobe_results WHERE phase = 'search' AND variant = 'interleaved'
      GROUP BY platform, host, fingerprint, size_mb) b USING (platform, host, fingerprint, size_mb)
WHERE scalar > 0 AND best > 0;
