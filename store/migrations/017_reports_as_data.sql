-- Schema version 17: the shipped kernels' reports are data, as ipa's and
-- sched's tables became in 16 (report/declared.c, declared_charts.c,
-- csv.c read views so named): the chase's amaco2 summary, variant isolation
-- and group-size tables, a section per host and depth (a table view's
-- _section), its optima, its comparison of platforms (a view named
-- chase_overview_*: a table across the platforms asked for), its samples
-- in amaco2's CSV columns (chase_csv) and its two charts, over two views of
-- its current results (chase_current, chase_best; chase_best_per_size now
-- reads on them too); and ipa's and sched's charts (the papers' Fig. 12 and
-- Fig. 10). Made here, as the kernels' views files make them, for every
-- database (15 made the chase's views in each), and again by each kernel's
-- next sweep.
DROP VIEW IF EXISTS chase_best_per_size;
-- chase_current: the newest result of each configuration on the current
-- fingerprints, as amaco2's tables read it: g = 0 of an interleaved binary
-- is the scalar chase measured beside the g's (chase.h), so scalar here,
-- with no hint and g 1; the working set as the tables name it.
CREATE VIEW chase_current AS
SELECT platform, host, fingerprint, depth, size_mb,
       CASE WHEN size_mb >= 1024 AND size_mb % 1024 = 0 THEN (size_mb / 1024) || ' GB' ELSE size_mb || ' MB' END
           AS working_set,
       CASE WHEN group_size = 0 THEN 'scalar' ELSE variant END AS variant,
       CASE WHEN group_size = 0 THEN NULL ELSE hint END AS hint, MAX(group_size, 1) AS group_size, hugepages,
       median_ns_per_lookup, ci_low, ci_high, runs, COALESCE(outliers, 0) AS outliers
FROM chase_latest JOIN current_fingerprints USING (platform, host, fingerprint);

-- chase_best: the fastest configuration of each variant per working set and
-- depth (SQLite takes the bare columns from the row with the minimum).
CREATE VIEW chase_best AS
SELECT platform, host, fingerprint, depth, size_mb, working_set, variant, hint, group_size, hugepages,
       MIN(median_ns_per_lookup) AS median_ns_per_lookup, ci_low, ci_high
FROM chase_current
GROUP BY platform, host, fingerprint, depth, size_mb, variant;

-- chase_best_per_size: the best configuration of each variant per working
-- set, platform and host, on the current fingerprints (any depth).
CREATE VIEW chase_best_per_size AS
SELECT platform, host, fingerprint, variant, size_mb, hint, group_size, hugepages,
       MIN(median_ns_per_lookup) AS median_ns_per_lookup, ci_low, ci_high
FROM chase_current
GROUP BY platform, host, fingerprint, variant, size_mb;

-- The tables of tune results (report/declared.c reads views so named): a
-- section per host and depth, in it amaco2's summary, variant isolation and
-- group-size tables; then the optima per working set.
CREATE VIEW chase_table_summary AS
WITH b AS MATERIALIZED (SELECT * FROM chase_best)
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
CREATE VIEW chase_table_isolation AS
WITH bb AS MATERIALIZED (SELECT * FROM chase_best),
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
CREATE VIEW chase_table_group_size AS
WITH c AS MATERIALIZED (SELECT * FROM chase_current),
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
CREATE VIEW chase_table_optima AS
SELECT o.platform, o.host, o.fingerprint,
       'Optima of chase: platform ' || o.platform || ', host ' || o.host AS title,
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
      FROM optima WHERE kernel = 'chase') o;

-- amaco2's comparison of platforms, when tune results is given several:
-- each one's scalar and best interleaved-prefetch per working set, side by
-- side (a view named <kernel>_overview_<name>: its rows of those platforms,
-- a pivoted column named by its platform and _column).
CREATE VIEW chase_overview_platforms AS
WITH b AS (SELECT platform, size_mb, variant, group_size, MIN(median_ns_per_lookup) AS m
           FROM chase_current WHERE variant IN ('scalar', 'interleaved-prefetch') GROUP BY platform, size_mb, variant),
c AS (SELECT z.platform, z.size_mb, z.working_set, s.m AS scalar, p.m AS best, p.group_size AS g
      FROM (SELECT DISTINCT platform, size_mb, working_set FROM chase_current) z
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
CREATE VIEW chase_csv AS
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
FROM chase_latest r
JOIN current_fingerprints USING (platform, host, fingerprint)
JOIN samples s ON s.trial_id = r.trial_id AND s.warmup = 0
WHERE r.kernel = 'chase';

-- The charts of tune report (report/declared_charts.c reads views named
-- chase_chart_*): a row a point of the platform's chart.
-- Throughput against working set: the best of each variant per size, with
-- the caches within the sizes measured marked (past each, lookups go one
-- level further out); a line breaks where sizes between were not measured.
CREATE VIEW chase_chart_throughput_vs_size AS
WITH b AS (SELECT platform, host, size_mb, variant, MIN(median_ns_per_lookup) AS m, ci_low, ci_high
           FROM chase_current GROUP BY platform, size_mb, variant),
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
CREATE VIEW chase_chart_speedup_vs_groupsize AS
WITH c AS MATERIALIZED (SELECT * FROM chase_current),
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
      WHERE o.kernel = 'chase' AND o.variant = 'interleaved-prefetch')
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

-- The chart of tune report (report/declared_charts.c reads views named
-- ipa_chart_*): wall time per call against T on a log axis (the paper's Fig.
-- 12), of the platform's newest sweep: the finite T > 0 as a line, always
-- block and always poll as bands across, the chosen T and the host's
-- wake-up cost across CPUs as marks.
CREATE VIEW ipa_chart_wall_vs_threshold AS
WITH w AS (SELECT n.platform, n.host, n.sweep_id, s.host_id FROM newest_kernel_sweeps n JOIN sweeps s ON s.id = n.sweep_id
           WHERE n.kernel = 'ipa' AND n.sweep_id = (SELECT MAX(x.sweep_id) FROM newest_kernel_sweeps x
                                                   WHERE x.kernel = 'ipa' AND x.platform = n.platform)),
p AS (SELECT w.platform, w.host, r.threshold_ns AS t, r.median_ns_per_call / 1e3 AS m, r.ci_low / 1e3 AS lo,
             r.ci_high / 1e3 AS hi
      FROM w JOIN ipa_results r ON r.sweep_id = w.sweep_id AND r.phase = 'search')
SELECT platform, host, 'IPA: time per call against the polling threshold' AS title,
       'IPA: wall time per call against the polling threshold, with the chosen threshold and the host''s wake-up cost'
           AS caption, 'threshold T (us): poll below, block above' AS xlabel, 'us per call' AS ylabel,
       CASE t WHEN 0 THEN 'always block (interval shaded)' WHEN 9223372036854775807 THEN 'always poll (interval shaded)'
              ELSE 'ipa, threshold T' END AS series,
       t / 1e3 AS x, m AS y, lo AS low, hi AS high,
       CASE WHEN t = 0 OR t = 9223372036854775807 THEN 'band' ELSE 'line' END AS _style, 10 AS _logx,
       printf('%d %020d', CASE t WHEN 0 THEN 0 WHEN 9223372036854775807 THEN 1 ELSE 2 END, t) AS _order
FROM p
UNION ALL
SELECT w.platform, w.host, NULL, NULL, NULL, NULL, 'chosen T', json_extract(o.params, '$.threshold_ns') / 1e3, NULL,
       NULL, NULL, 'mark', 10, '3'
FROM w JOIN optima o ON o.sweep_id = w.sweep_id AND o.kernel = 'ipa'
WHERE json_extract(o.params, '$.threshold_ns') > 0 AND json_extract(o.params, '$.threshold_ns') < 9223372036854775807
UNION ALL
SELECT w.platform, w.host, NULL, NULL, NULL, NULL, 'wake-up cost across CPUs', hp.value / 1e3, NULL, NULL, NULL, 'mark',
       10, '4'
FROM w JOIN host_probes hp ON hp.host_id = w.host_id AND hp.kernel = 'ipa' AND hp.probe = 'wakeup' AND
                              hp.field = 'cross_cpu_ns'
WHERE hp.value > 0;

-- The chart of tune report (report/declared_charts.c reads views named
-- sched_chart_*): makespan against apps, a line per policy and dispatch
-- (inline solid, worker dashed, one colour per policy), a panel per
-- accelerator speedup on one scale (the paper's Fig. 10), of the
-- platform's newest sweep.
CREATE VIEW sched_chart_makespan_vs_apps AS
WITH w AS (SELECT platform, host, sweep_id FROM newest_kernel_sweeps n
           WHERE kernel = 'sched' AND sweep_id = (SELECT MAX(x.sweep_id) FROM newest_kernel_sweeps x
                                                 WHERE x.kernel = 'sched' AND x.platform = n.platform))
SELECT w.platform, w.host, 'Makespan against apps per scheduling policy: inline dispatch solid, worker dashed' AS title,
       'Scheduler: makespan against apps per policy, a panel per accelerator speedup' AS caption, 'apps' AS xlabel,
       'makespan (ms)' AS ylabel, r.policy || ' ' || r.dispatch AS series, r.apps AS x, r.median_makespan_ms AS y,
       r.ci_low * r.tasks_per_run / 1e6 AS low, r.ci_high * r.tasks_per_run / 1e6 AS high,
       CASE r.dispatch WHEN 'worker' THEN 'dashed' ELSE 'line' END AS _style, r.policy AS _group,
       printf('accelerator %dx faster', r.speedup) AS _panel, 1 AS _y0,
       printf('%020d %s %d %020d', r.speedup, r.dispatch,
              CASE r.policy WHEN 'co' THEN 0 WHEN 'ao' THEN 1 WHEN 'fuse' THEN 2 WHEN 'random' THEN 3 ELSE 4 END,
              r.apps) AS _order
FROM w JOIN sched_results r ON r.sweep_id = w.sweep_id AND r.phase = 'search';

INSERT OR REPLACE INTO kernel_views (kernel, name, sql_hash)
VALUES ('chase', 'chase_current', ''), ('chase', 'chase_best', ''), ('chase', 'chase_best_per_size', ''),
       ('chase', 'chase_table_summary', ''), ('chase', 'chase_table_isolation', ''),
       ('chase', 'chase_table_group_size', ''), ('chase', 'chase_table_optima', ''),
       ('chase', 'chase_overview_platforms', ''), ('chase', 'chase_csv', ''),
       ('chase', 'chase_chart_throughput_vs_size', ''), ('chase', 'chase_chart_speedup_vs_groupsize', ''),
       ('ipa', 'ipa_chart_wall_vs_threshold', ''), ('sched', 'sched_chart_makespan_vs_apps', '');
