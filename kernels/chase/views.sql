-- The chase's views, made in the database by a sweep of the chase (its
-- manifest's views:), so that sqlite3 answers in amaco2's words. Its
-- parameters are in each trial's params, as every kernel's; these read
-- them back as the columns they once were. "{kernel}_results" is
-- chase_results here: a copy of this folder under another name gets its
-- own views, tables, charts and CSV.
--
-- chase_results: each finished trial with its working set, hint, g (1 for
-- the scalar variants), huge pages (0 or 1), depth and queries, and the
-- median ns per lookup of its measured runs with its interval.
CREATE VIEW "{kernel}_results" AS
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
WHERE t.status = 'done' AND t.kernel = '{kernel}';

-- chase_latest: the newest result of each configuration.
CREATE VIEW "{kernel}_latest" AS
SELECT * FROM (
    SELECT r.*, ROW_NUMBER() OVER (
        PARTITION BY platform, host, fingerprint, variant, hint, size_mb, group_size, hugepages, depth
        ORDER BY trial_id DESC) AS newest
    FROM "{kernel}_results" r)
WHERE newest = 1;

-- chase_current: the newest result of each configuration on the current
-- fingerprints, as amaco2's tables read it: g = 0 of an interleaved binary
-- is the scalar chase measured beside the g's (chase.h), so scalar here,
-- with no hint and g 1; the working set as the tables name it.
CREATE VIEW "{kernel}_current" AS
SELECT platform, host, fingerprint, depth, size_mb,
       CASE WHEN size_mb >= 1024 AND size_mb % 1024 = 0 THEN (size_mb / 1024) || ' GB' ELSE size_mb || ' MB' END
           AS working_set,
       CASE WHEN group_size = 0 THEN 'scalar' ELSE variant END AS variant,
       CASE WHEN group_size = 0 THEN NULL ELSE hint END AS hint, MAX(group_size, 1) AS group_size, hugepages,
       median_ns_per_lookup, ci_low, ci_high, runs, COALESCE(outliers, 0) AS outliers
FROM "{kernel}_latest" JOIN current_fingerprints USING (platform, host, fingerprint);

-- chase_best: the fastest configuration of each variant per working set and
-- depth (SQLite takes the bare columns from the row with the minimum).
CREATE VIEW "{kernel}_best" AS
SELECT platform, host, fingerprint, depth, size_mb, working_set, variant, hint, group_size, hugepages,
       MIN(median_ns_per_lookup) AS median_ns_per_lookup, ci_low, ci_high
FROM "{kernel}_current"
GROUP BY platform, host, fingerprint, depth, size_mb, variant;

-- chase_best_per_size: the best configuration of each variant per working
-- set, platform and host, on the current fingerprints (any depth).
CREATE VIEW "{kernel}_best_per_size" AS
SELECT platform, host, fingerprint, variant, size_mb, hint, group_size, hugepages,
       MIN(median_ns_per_lookup) AS median_ns_per_lookup, ci_low, ci_high
FROM "{kernel}_current"
GROUP BY platform, host, fingerprint, variant, size_mb;

-- The tables of tune results (report/declared.c reads views so named): a
-- section per host and depth, in it amaco2's summary, variant isolation and
-- group-size tables; then the optima per working set.
CREATE VIEW "{kernel}_table_summary" AS
WITH b AS MATERIALIZED (SELECT * FROM "{kernel}_best")
SELECT z.platform, z.host, z.fingerprint, json_object('depth', z.depth) AS _section,
       'Summary: scalar vs best interleaved-prefetch (median ns/lookup; best is the fastest g measured, an optimum '
           || 'the knee: the smallest g within the tolerance of it)' AS title,
       z.working_set AS "Working set",
       CASE WHEN s.size_mb IS NULL THEN '-'
            ELSE json_object('printf', json_array('%.1f', s.median_ns_per_lookup)) END AS "Scalar",
       CASE WHEN p.size_mb IS NULL THEN '-'
            ELSE json_object('printf', json_array('%.1f', p.median_ns_per_lookup)) END AS "Interleaved+prefetch",
       COALESCE(p.group_size, '-') AS "Best g",
       CASE WHEN p.size_mb IS NULL THEN '-'
            ELSE COALESCE(NULLIF(p.hint, ''), '-') || CASE WHEN p.hugepages THEN '+hp' ELSE '' END END AS "Hint",
       CASE WHEN s.size_mb IS NULL OR p.size_mb IS NULL THEN '-'
            ELSE json_object('printf', json_array('%.2fx', s.median_ns_per_lookup / p.median_ns_per_lookup)) END
           AS "Speedup",
       printf('%020d %020d', z.depth, z.size_mb) AS _order,
       json_array('MB', 'ns/lookup', 'ns/lookup', NULL, NULL, 'x') AS _units
FROM (SELECT DISTINCT platform, host, fingerprint, depth, size_mb, working_set FROM b) z
LEFT JOIN b s ON s.platform = z.platform AND s.host = z.host AND s.fingerprint = z.fingerprint AND
                          s.depth = z.depth AND s.size_mb = z.size_mb AND s.variant = 'scalar'
LEFT JOIN b p ON p.platform = z.platform AND p.host = z.host AND p.fingerprint = z.fingerprint AND
                          p.depth = z.depth AND p.size_mb = z.size_mb AND p.variant = 'interleaved-prefetch';

-- Each variant's best, its speedup over the scalar chase, and g where it has one.
CREATE VIEW "{kernel}_table_isolation" AS
WITH bb AS MATERIALIZED (SELECT * FROM "{kernel}_best"),
c AS (
    SELECT z.*, v.variant, b.median_ns_per_lookup AS m, b.group_size AS g, s.median_ns_per_lookup AS scalar
    FROM (SELECT DISTINCT platform, host, fingerprint, depth, size_mb, working_set FROM bb) z
    JOIN (SELECT 'scalar' AS variant UNION ALL SELECT 'scalar-prefetch' UNION ALL SELECT 'interleaved'
          UNION ALL SELECT 'interleaved-prefetch') v
    LEFT JOIN bb b ON b.platform = z.platform AND b.host = z.host AND b.fingerprint = z.fingerprint AND
                              b.depth = z.depth AND b.size_mb = z.size_mb AND b.variant = v.variant
    LEFT JOIN bb s ON s.platform = z.platform AND s.host = z.host AND s.fingerprint = z.fingerprint AND
                              s.depth = z.depth AND s.size_mb = z.size_mb AND s.variant = 'scalar'),
cell AS (
    SELECT c.*, CASE WHEN m IS NULL THEN '-'
                     ELSE json_object('printf', CASE WHEN variant LIKE 'interleaved%' AND scalar IS NULL
                                                     THEN json_array('%.1f - g=%d', m, g)
                                                     WHEN variant LIKE 'interleaved%'
                                                     THEN json_array('%.1f %.2fx g=%d', m, scalar / m, g)
                                                     WHEN scalar IS NULL THEN json_array('%.1f -', m)
                                                     ELSE json_array('%.1f %.2fx', m, scalar / m) END,
                                      'value', CASE WHEN variant LIKE 'interleaved%'
                                                    THEN json_object('median_ns', m, 'speedup', scalar / m, 'g', g)
                                                    ELSE json_object('median_ns', m, 'speedup', scalar / m) END)
                END AS text
    FROM c)
SELECT platform, host, fingerprint, json_object('depth', depth) AS _section,
       'Variant isolation (median ns/lookup, speedup over scalar, best g)' AS title,
       working_set AS "Working set",
       MAX(CASE WHEN variant = 'scalar' THEN text END) AS "scalar",
       MAX(CASE WHEN variant = 'scalar-prefetch' THEN text END) AS "scalar-prefetch",
       MAX(CASE WHEN variant = 'interleaved' THEN text END) AS "interleaved",
       MAX(CASE WHEN variant = 'interleaved-prefetch' THEN text END) AS "interleaved-prefetch",
       printf('%020d %020d', depth, size_mb) AS _order, json_array('MB', NULL, NULL, NULL, NULL) AS _units
FROM cell
GROUP BY platform, host, fingerprint, depth, size_mb;

-- The speedup over scalar of each g against each working set: a row per g
-- of interleaved-prefetch (at its best hint and pages), a column per working
-- set; only where more than one g was measured.
CREATE VIEW "{kernel}_table_group_size" AS
WITH c AS MATERIALIZED (SELECT * FROM "{kernel}_current"),
p AS (SELECT platform, host, fingerprint, depth, size_mb, group_size, MIN(median_ns_per_lookup) AS m
      FROM c WHERE variant = 'interleaved-prefetch' GROUP BY platform, host, fingerprint, depth, size_mb, group_size),
g AS (SELECT DISTINCT platform, host, fingerprint, depth, group_size FROM p),
z AS (SELECT platform, host, fingerprint, depth, size_mb, working_set,
             MIN(CASE WHEN variant = 'scalar' THEN median_ns_per_lookup END) AS scalar
      FROM c GROUP BY platform, host, fingerprint, depth, size_mb)
SELECT g.platform, g.host, g.fingerprint, json_object('depth', g.depth) AS _section,
       'Group-size sweep (interleaved-prefetch, speedup over scalar, best hint)' AS title,
       g.group_size AS "g", z.working_set AS _column,
       CASE WHEN z.scalar IS NULL OR p.m IS NULL THEN '-'
            ELSE json_object('printf', json_array('%.2fx', z.scalar / p.m)) END AS _cell,
       printf('%020d %020d %020d', g.depth, g.group_size, z.size_mb) AS _order, json_array(NULL, 'x') AS _units
FROM g
JOIN z ON z.platform = g.platform AND z.host = g.host AND z.fingerprint = g.fingerprint AND z.depth = g.depth
LEFT JOIN p ON p.platform = g.platform AND p.host = g.host AND p.fingerprint = g.fingerprint AND
               p.depth = g.depth AND p.size_mb = z.size_mb AND p.group_size = g.group_size
WHERE (SELECT COUNT(*) FROM g x WHERE x.platform = g.platform AND x.host = g.host AND
       x.fingerprint = g.fingerprint AND x.depth = g.depth) > 1;

-- The optima per working set, as decided (the chosen g is the knee; the
-- fastest g measured beside it), with the runner-up named by its hint.
CREATE VIEW "{kernel}_table_optima" AS
SELECT o.platform, o.host, o.fingerprint,
       'Optima of {kernel}: platform ' || o.platform || ', host ' || o.host AS title,
       CASE WHEN size_mb >= 1024 AND size_mb % 1024 = 0 THEN (size_mb / 1024) || ' GB' ELSE size_mb || ' MB' END
           AS "Working set",
       o.size_class AS "Class", o.variant AS "Variant", COALESCE(NULLIF(o.hint, ''), '-') AS "Hint",
       json_object('printf', json_array('%d (%d)', o.g, o.fastest), 'value', json_object('g', o.g, 'fastest', o.fastest))
           AS "g (fastest)",
       json_object('interval', json_array(o.median, o.ci_low, o.ci_high), 'runs', o.runs, 'digits', 1)
           AS "Median [interval]",
       CASE WHEN json_type(o.runner_up) = 'object'
            THEN json_object('printf', json_array('%s g=%d %.1f',
                                                  COALESCE(json_extract(o.runner_up, '$.hint'),
                                                           json_extract(o.runner_up, '$.variant'), '?'),
                                                  CASE WHEN json_type(o.runner_up, '$.group_size') = 'integer'
                                                       THEN json_extract(o.runner_up, '$.group_size') ELSE 0 END,
                                                  COALESCE(json_extract(o.runner_up, '$.median'), 0)),
                             'value', json(o.runner_up))
            ELSE json_object('text', '-', 'value', NULL) END AS "Runner-up",
       o.trials AS "Trials", o.decided AS "Decided", o.size_mb AS _order,
       json_array('MB', NULL, NULL, NULL, NULL, 'ns/lookup', NULL, NULL, NULL) AS _units
FROM (SELECT *, json_extract(params, '$.size_mb') AS size_mb, json_extract(params, '$.hint') AS hint,
             CAST(COALESCE(json_extract(params, '$.group_size'), 0) AS INTEGER) AS g,
             CAST(COALESCE(best_point, 0) AS INTEGER) AS fastest
      FROM optima WHERE kernel = '{kernel}') o;

-- amaco2's comparison of platforms, when tune results is given several:
-- each one's scalar and best interleaved-prefetch per working set, side by
-- side (a view named <kernel>_overview_<name>: its rows of those platforms,
-- a pivoted column named by its platform and _column).
CREATE VIEW "{kernel}_overview_platforms" AS
WITH b AS (SELECT platform, size_mb, variant, group_size, MIN(median_ns_per_lookup) AS m
           FROM "{kernel}_current" WHERE variant IN ('scalar', 'interleaved-prefetch') GROUP BY platform, size_mb, variant),
c AS (SELECT z.platform, z.size_mb, z.working_set, s.m AS scalar, p.m AS best, p.group_size AS g
      FROM (SELECT DISTINCT platform, size_mb, working_set FROM "{kernel}_current") z
      LEFT JOIN b s ON s.platform = z.platform AND s.size_mb = z.size_mb AND s.variant = 'scalar'
      LEFT JOIN b p ON p.platform = z.platform AND p.size_mb = z.size_mb AND p.variant = 'interleaved-prefetch')
SELECT c.platform, 'Scalar vs best interleaved-prefetch per platform (median ns/lookup)' AS title,
       c.working_set AS "Working set", k.what AS _column,
       CASE WHEN k.n = 0 AND c.scalar IS NOT NULL THEN json_object('printf', json_array('%.1f', c.scalar))
            WHEN k.n = 1 AND c.best IS NOT NULL THEN json_object('printf', json_array('%.1f', c.best))
            WHEN k.n = 2 AND c.best IS NOT NULL THEN c.g
            WHEN k.n = 3 AND c.scalar IS NOT NULL AND c.best IS NOT NULL
            THEN json_object('printf', json_array('%.2fx', c.scalar / c.best))
            ELSE '-' END AS _cell,
       k.unit AS _cell_unit, printf('%020d %d', c.size_mb, k.n) AS _order, json_array('MB') AS _units
FROM c
JOIN (SELECT 0 AS n, 'scalar' AS what, 'ns/lookup' AS unit UNION ALL SELECT 1, 'interleaved+prefetch', 'ns/lookup'
      UNION ALL SELECT 2, 'best g', NULL UNION ALL SELECT 3, 'speedup', 'x') k;

-- chase_csv: every measured run of the newest result of each configuration
-- on the current fingerprints, in amaco2's columns (tune export csv;
-- report/csv.c), then where it comes from for --columns all (_all_*).
CREATE VIEW "{kernel}_csv" AS
SELECT r.platform, CASE WHEN r.group_size = 0 THEN 'scalar' ELSE r.variant END AS variant,
       r.size_mb AS workload_size_mb, r.depth, MAX(r.group_size, 1) AS group_size,
       COALESCE(CASE WHEN r.group_size = 0 THEN NULL ELSE r.hint END, 'none') AS hint, s.run_id,
       CAST(s.ns_total AS INTEGER) AS ns_total, json_object('printf', json_array('%.4f', s.ns_per_lookup)) AS ns_per_lookup,
       json_object('printf', json_array('%.1f', s.lookups_per_sec)) AS lookups_per_sec,
       json_object('printf', json_array('%u', CAST(s.checksum AS INTEGER))) AS checksum,
       r.platform AS _all_platform, r.host AS _all_host, r.fingerprint AS _all_fingerprint,
       r.hugepages AS _all_hugepages, r.trial_id AS _all_trial, r.phase AS _all_phase, s.outlier AS _all_outlier,
       printf('%s%s%s%s%020d%s%s%s%s%s%020d%s%020d', r.platform, char(1), r.host, char(1), r.size_mb, char(1),
              r.variant, char(1), COALESCE(r.hint, ''), char(1), r.group_size, char(1), s.run_id) AS _order
FROM "{kernel}_latest" r
JOIN current_fingerprints USING (platform, host, fingerprint)
JOIN samples s ON s.trial_id = r.trial_id AND s.warmup = 0
WHERE r.kernel = '{kernel}';

-- The charts of tune report (report/declared_charts.c reads views named
-- chase_chart_*): a row a point of the platform's chart.
-- Throughput against working set: the best of each variant per size, with
-- the caches within the sizes measured marked (past each, lookups go one
-- level further out); a line breaks where sizes between were not measured.
CREATE VIEW "{kernel}_chart_throughput_vs_size" AS
WITH b AS (SELECT platform, host, size_mb, variant, MIN(median_ns_per_lookup) AS m, ci_low, ci_high
           FROM "{kernel}_current" GROUP BY platform, size_mb, variant),
r AS (SELECT platform, MIN(size_mb) AS lo, MAX(size_mb) AS hi FROM b GROUP BY platform),
c AS (SELECT p.name AS platform, k.label, json_extract(s.env_json, '$.' || k.key) / 1048576.0 AS mb, k.n
      FROM platforms p JOIN sweeps s ON s.id = (SELECT MAX(x.id) FROM sweeps x WHERE x.platform_id = p.id)
      JOIN (SELECT 1 AS n, 'l1d_bytes' AS key, 'L1d' AS label UNION ALL SELECT 2, 'l2_bytes', 'L2'
            UNION ALL SELECT 3, 'llc_bytes', 'last-level cache') k)
SELECT b.platform, b.host, 'Throughput against working set, best g per variant, median intervals' AS title,
       'Throughput against working-set size: the best g of each variant' AS caption,
       'working set (MB)' AS xlabel, 'million lookups per second' AS ylabel, b.variant AS series,
       b.size_mb AS x, 1e3 / b.m AS y, 1e3 / b.ci_high AS low, 1e3 / b.ci_low AS high,
       b.size_mb > 2 * LAG(b.size_mb) OVER (PARTITION BY b.platform, b.variant ORDER BY b.size_mb) AS _break,
       'line' AS _style, 2 AS _logx, 1 AS _y0,
       printf('%d %020d', CASE b.variant WHEN 'scalar' THEN 0 WHEN 'scalar-prefetch' THEN 1 WHEN 'interleaved' THEN 2
                                          ELSE 3 END, b.size_mb) AS _order
FROM b
UNION ALL
SELECT c.platform, NULL, NULL, NULL, NULL, NULL,
       printf('%s (%s)', c.label, CASE WHEN c.mb < 1 THEN printf('%.0f KiB', c.mb * 1024)
                                       WHEN c.mb < 10 THEN printf('%.1f MiB', c.mb) ELSE printf('%.0f MiB', c.mb) END),
       c.mb, NULL, NULL, NULL, 0, 'mark', 2, 1, printf('9 %d', c.n)
FROM c JOIN r ON r.platform = c.platform
WHERE c.mb > 0 AND c.mb >= r.lo AND c.mb <= r.hi;

-- The speedup of interleaved-prefetch over scalar against g, a line per
-- working set, the chosen g of each ringed and a g whose runs were flagged
-- as outliers crossed (where to look twice).
CREATE VIEW "{kernel}_chart_speedup_vs_groupsize" AS
WITH c AS MATERIALIZED (SELECT * FROM "{kernel}_current"),
s AS (SELECT platform, size_mb, MIN(median_ns_per_lookup) AS m FROM c WHERE variant = 'scalar'
      GROUP BY platform, size_mb),
p AS (SELECT platform, host, size_mb, working_set, group_size, MIN(median_ns_per_lookup) AS m, ci_low, ci_high,
             outliers
      FROM c WHERE variant = 'interleaved-prefetch' GROUP BY platform, size_mb, group_size),
g AS (SELECT p.*, s.m / p.m AS speedup, s.m / p.ci_high AS low, s.m / p.ci_low AS high
      FROM p JOIN s ON s.platform = p.platform AND s.size_mb = p.size_mb),
o AS (SELECT o.platform, json_extract(o.params, '$.size_mb') AS size_mb,
             COALESCE(json_extract(o.params, '$.group_size'), 0) AS group_size
      FROM optima o JOIN current_fingerprints USING (platform, host, fingerprint)
      WHERE o.kernel = '{kernel}' AND o.variant = 'interleaved-prefetch')
SELECT platform, host, 'Speedup of interleaved-prefetch over scalar, median intervals' AS title,
       'Speedup of interleaved-prefetch over scalar against group size' AS caption, 'group size g' AS xlabel,
       'speedup over scalar' AS ylabel, working_set AS series, group_size AS x, speedup AS y, low, high,
       'line' AS _style, 2 AS _logx, 1 AS _y0, 1 AS _ref_y, printf('0 %020d %020d', size_mb, group_size) AS _order
FROM g
UNION ALL
SELECT g.platform, g.host, NULL, NULL, NULL, NULL, 'chosen g', g.group_size, g.speedup, NULL, NULL, 'point', 2, 1, 1,
       printf('1 %020d', g.size_mb)
FROM g JOIN o ON o.platform = g.platform AND o.size_mb = g.size_mb AND o.group_size = g.group_size
UNION ALL
SELECT platform, host, NULL, NULL, NULL, NULL, 'runs flagged as outliers', group_size, speedup, NULL, NULL, 'flag', 2,
       1, 1, printf('2 %020d %020d', size_mb, group_size)
FROM g WHERE outliers > 0;

-- The optima the exports give (tune export header|json): per working set,
-- of the current fingerprint on the host that decided the chase last, with
-- the indexes of variant and hint in chase.h's order (-1: none) and the
-- verdict against the runner-up as the headline gives it; of two optima of
-- one working set (one recorded before contexts were), the newer.
CREATE VIEW "{kernel}_exported" AS
SELECT x.*,
       CASE WHEN NOT json_valid(x.runner_up) THEN NULL
            WHEN json_type(x.runner_up, '$.paired') = 'object'
            THEN CASE WHEN json_extract(x.runner_up, '$.paired.ratio') < 1.0 THEN 'knee'
                      WHEN json_extract(x.runner_up, '$.paired.low') <= 1.0 AND
                           1.0 <= json_extract(x.runner_up, '$.paired.high') THEN 'tie' ELSE 'ahead' END
            WHEN json_type(x.runner_up, '$.median') IN ('integer', 'real')
            THEN CASE WHEN json_extract(x.runner_up, '$.median') < x.median THEN 'knee'
                      WHEN json_extract(x.runner_up, '$.ci_low') <= x.ci_high AND
                           x.ci_low <= json_extract(x.runner_up, '$.ci_high') THEN 'tie' ELSE 'ahead' END
       END AS verdict,
       x.size_mb = (SELECT COALESCE(MAX(CASE WHEN y.size_class = 'dram' THEN json_extract(y.params, '$.size_mb') END),
                                    MAX(json_extract(y.params, '$.size_mb')))
                    FROM optima y JOIN current_fingerprints USING (platform, host, fingerprint)
                    WHERE y.kernel = '{kernel}' AND y.platform = x.platform AND y.host = x.host) AS is_default
FROM (SELECT o.platform, o.host, json_extract(o.params, '$.size_mb') AS size_mb,
             ROW_NUMBER() OVER (PARTITION BY o.platform, json_extract(o.params, '$.size_mb')
                                ORDER BY o.decided DESC, o.id DESC) AS nth,
             COALESCE(json_extract(o.params, '$.group_size'), 0) AS g, COALESCE(o.best_point, 0) AS fastest,
             o.trials, json_extract(o.params, '$.hugepages') IN ('on', 1) AS hugepages, o.median, o.ci_low,
             o.ci_high, o.size_class, o.variant, COALESCE(json_extract(o.params, '$.hint'), '') AS hint, o.decided,
             CASE WHEN json_valid(o.runner_up) THEN o.runner_up END AS runner_up, s.tune_version,
             COALESCE((SELECT key FROM json_each('["scalar","scalar-prefetch","interleaved","interleaved-prefetch"]')
                       WHERE value = o.variant), -1) AS variant_no,
             COALESCE((SELECT key FROM json_each('["pldl1keep","pldl2keep","pldl3keep","pldl1strm"]')
                       WHERE value = json_extract(o.params, '$.hint')), -1) AS hint_no
      FROM optima o JOIN current_fingerprints USING (platform, host, fingerprint)
      LEFT JOIN sweeps s ON s.id = o.sweep_id
      WHERE o.kernel = '{kernel}' AND o.host = (SELECT z.host FROM optima z WHERE z.platform = o.platform AND
                                                z.kernel = '{kernel}' ORDER BY z.decided DESC, z.id DESC LIMIT 1)) x
WHERE x.nth = 1;

-- The header's block (report/declared_header.c reads a view so named): the
-- default, the largest working set out of cache, where latency hiding
-- matters; per working set a table that g, variant, hint and huge pages
-- follow together, looked up by a working set's bytes.
CREATE VIEW "{kernel}_header" AS
WITH p AS (SELECT * FROM "{kernel}_exported" WHERE is_default),
t AS (SELECT platform, json_group_array(size_mb) AS sizes, json_group_array(g) AS gs,
             json_group_array(variant_no) AS variants, json_group_array(hint_no) AS hints,
             json_group_array(hugepages) AS pages
      FROM (SELECT * FROM "{kernel}_exported" ORDER BY platform, size_mb) GROUP BY platform)
SELECT platform, 1 AS _order, 'a' AS _block, NULL AS define, NULL AS value, NULL AS type,
       json_object('printf', json_array('%d MB (%s): %s%s%s, g=%d (fastest g=%d), median %.1f ns/lookup [%.1f, %.1f],',
                                        size_mb, size_class, variant, CASE WHEN hint = '' THEN '' ELSE ' ' END, hint,
                                        g, fastest, median, ci_low, ci_high)) AS comment,
       NULL AS key, NULL AS scale, NULL AS lookup, NULL AS function
FROM p
UNION ALL
SELECT platform, 2, 'a', NULL, NULL, NULL,
       'decided on host ' || host || ' at ' || decided || ' by tune ' || COALESCE(tune_version, '?'), NULL, NULL, NULL,
       NULL FROM p
UNION ALL
SELECT platform, 3, 'b', NULL, NULL, NULL,
       printf('against the runner-up (%s%s%s%s): %s, %s%s', COALESCE(json_extract(runner_up, '$.variant'), '?'),
              CASE WHEN json_extract(runner_up, '$.hint') IS NULL THEN '' ELSE ' ' END,
              COALESCE(json_extract(runner_up, '$.hint'), ''),
              CASE WHEN json_type(runner_up, '$.group_size') = 'integer'
                   THEN ' g=' || json_extract(runner_up, '$.group_size') ELSE '' END, verdict,
              CASE verdict WHEN 'knee' THEN 'the runner-up is faster but within the tolerance: the smaller g is kept'
                           WHEN 'tie' THEN 'the intervals hold no difference' ELSE 'the intervals are apart' END,
              CASE WHEN json_type(runner_up, '$.paired') IS NOT NULL THEN ', run by run' ELSE '' END),
       NULL, NULL, NULL, NULL
FROM p WHERE verdict IS NOT NULL
UNION ALL
SELECT platform, 4, NULL, 'VARIANT', CASE WHEN variant_no < 0 THEN 3 ELSE variant_no END, NULL, variant, NULL, NULL,
       NULL, NULL FROM p
UNION ALL
SELECT platform, 5, NULL, 'GROUP_SIZE', g, NULL, NULL, NULL, NULL, NULL, NULL FROM p
UNION ALL
SELECT platform, 6, 'c', NULL, NULL, NULL,
       'TUNED_' || upper('{kernel}') || '_PREFETCH_HINT is a CHASE_HINT_* value of kernels/{kernel}/chase.h:', NULL,
       NULL, NULL, NULL FROM p
UNION ALL
SELECT platform, 7, 'c', NULL, NULL, NULL,
       '#define CHASE_HINT TUNED_' || upper('{kernel}') || '_PREFETCH_HINT before including it.', NULL, NULL, NULL,
       NULL FROM p
UNION ALL
SELECT platform, 8, NULL, 'PREFETCH_HINT', MAX(hint_no, 0), NULL,
       printf('%s: prfm %s on AArch64, %s on x86-64%s', n.value, n.value, x.value,
              CASE WHEN hint = '' THEN '; the chosen variant does not prefetch' ELSE '' END), NULL, NULL, NULL, NULL
FROM p JOIN json_each('["pldl1keep","pldl2keep","pldl3keep","pldl1strm"]') n ON n.key = MAX(hint_no, 0)
       JOIN json_each('["prefetcht0","prefetcht1","prefetcht2","prefetchnta"]') x ON x.key = MAX(hint_no, 0)
UNION ALL
SELECT platform, 9, NULL, 'PREFETCH_HINT_NAME', n.value, NULL, NULL, NULL, NULL, NULL, NULL
FROM p JOIN json_each('["pldl1keep","pldl2keep","pldl3keep","pldl1strm"]') n ON n.key = MAX(hint_no, 0)
UNION ALL
SELECT platform, 10, NULL, 'HUGEPAGES', hugepages, NULL, NULL, NULL, NULL, NULL, NULL FROM p
UNION ALL
SELECT platform, 11, 'd', NULL, NULL, NULL, '', NULL, NULL, NULL, NULL FROM p
UNION ALL
SELECT platform, 12, 'e', NULL, NULL, NULL, 'Per working set:', NULL, NULL, NULL, NULL FROM p
UNION ALL
SELECT platform, 13 + size_mb / 1e9, 'e', NULL, NULL, NULL,
       json_object('printf', json_array('  %6d MB %-5s %s%s%s g=%d, median %.1f ns/lookup [%.1f, %.1f], %d trials, %s',
                                        size_mb, size_class, variant, CASE WHEN hint = '' THEN '' ELSE ' ' END, hint,
                                        g, median, ci_low, ci_high, trials, decided)), NULL, NULL, NULL, NULL
FROM "{kernel}_exported"
UNION ALL
SELECT platform, 14, 'e', NULL, NULL, NULL, '', NULL, NULL, NULL, NULL FROM p
UNION ALL
SELECT platform, 15, NULL, 'TABLE_SIZES_MB', sizes, 'table', NULL, 'bytes', 1048576, 'at_or_above', NULL FROM t
UNION ALL
SELECT platform, 16, NULL, 'TABLE_GROUP_SIZES', gs, 'table', NULL, NULL, NULL, NULL, 'group_size' FROM t
UNION ALL
SELECT platform, 17, NULL, 'TABLE_VARIANTS', variants, 'table', NULL, NULL, NULL, NULL, 'variant' FROM t
UNION ALL
SELECT platform, 18, NULL, 'TABLE_HINTS', hints, 'table', NULL, NULL, NULL, NULL, 'hint' FROM t
UNION ALL
SELECT platform, 19, NULL, 'TABLE_HUGEPAGES', pages, 'table', NULL, NULL, NULL, NULL, 'hugepages' FROM t;

-- The optima as JSON (tune export json reads a view so named): the
-- default's variant, g and hint, and the table per working set.
CREATE VIEW "{kernel}_json" AS
SELECT p.platform,
       json_object('variant', p.variant, 'group_size', p.g, 'hint', NULLIF(p.hint, ''), 'table',
                   (SELECT json_group_array(json_object(
                               'size_mb', e.size_mb, 'size_class', e.size_class, 'variant', e.variant,
                               'hint', NULLIF(e.hint, ''), 'group_size', e.g, 'best_group_size', e.fastest,
                               'hugepages', json(CASE WHEN e.hugepages THEN 'true' ELSE 'false' END),
                               'median_ns_per_lookup', e.median, 'ci_low', e.ci_low, 'ci_high', e.ci_high,
                               'runner_up', json(e.runner_up), 'trials', e.trials, 'decided', e.decided))
                    FROM (SELECT * FROM "{kernel}_exported" y WHERE y.platform = p.platform ORDER BY y.size_mb) e))
           AS value
FROM "{kernel}_exported" p WHERE p.is_default;
