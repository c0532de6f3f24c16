-- ipa's views, made in the database by a sweep of ipa (its manifest's
-- views:); "{kernel}_results" is ipa_results here, a copy's its own.
-- ipa_results: each finished trial's threshold and wall time per call, with
-- the share of calls that polled. A run's calls: apps times calls per app
-- (its parameters), or calls_per_run for the trials recorded before.
CREATE VIEW "{kernel}_results" AS
SELECT trial_id, sweep_id, sweep, fingerprint, platform, host, threshold_ns, phase, calls AS calls_per_run, runs,
       median AS median_ns_per_call, ci_low, ci_high, mad, median * calls / 1e6 AS median_wall_ms,
       (SELECT AVG(json_extract(x.raw_json, '$.polled') * 1.0 / calls) FROM samples x
        WHERE x.trial_id = r.trial_id AND x.warmup = 0) AS polled_share
FROM (SELECT r.*, json_extract(r.params, '$.threshold_ns') AS threshold_ns,
             COALESCE(json_extract(r.params, '$.apps') * json_extract(r.params, '$.calls'),
                      json_extract(r.params, '$.calls_per_run')) AS calls
      FROM kernel_results r WHERE r.kernel = '{kernel}') r;

-- ipa's tables in tune results (views named ipa_table_*, in this order; a
-- row of each a row of the table its title names; a JSON object cell is
-- formatted by tune as C's printf does: see the README). T as said: ns or
-- us, inf always polls, 0 always blocks.
--
-- The paper's Fig. 12 as rows: wall time per call at each threshold of the
-- newest sweep's search, against always polling and always blocking (all
-- measured in one process, interleaved), the chosen T marked.
CREATE VIEW "{kernel}_table_curve" AS
WITH p AS (SELECT sweep_id, threshold_ns AS t, median_ns_per_call AS m, ci_low, ci_high, runs, polled_share
           FROM "{kernel}_results" WHERE phase = 'search'),
o AS (SELECT sweep_id, json_extract(params, '$.threshold_ns') AS t FROM optima WHERE kernel = '{kernel}')
SELECT p.sweep_id, 'IPA: wall time per call against the polling threshold T (lower is better)' AS title,
       json_object('text', CASE WHEN p.t = 9223372036854775807 THEN 'inf (always poll)'
                                WHEN p.t = 0 THEN '0 (always block)'
                                WHEN p.t >= 1000 AND p.t % 1000 = 0 THEN (p.t / 1000) || ' us' ELSE p.t || ' ns' END,
                   'value', CASE WHEN p.t = 9223372036854775807 THEN 'inf' ELSE p.t END) AS "Threshold T",
       json_object('interval', json_array(p.m, p.ci_low, p.ci_high), 'runs', p.runs, 'digits', 1)
           AS "Median ns/call [interval]",
       CASE WHEN p.polled_share >= 0 THEN json_object('printf', json_array('%.0f%%', p.polled_share * 100.0))
            ELSE '-' END AS "Polled",
       CASE WHEN poll.m > 0 THEN json_object('printf', json_array('%.3f', p.m / poll.m)) ELSE '-' END
           AS "vs always poll",
       CASE WHEN block.m > 0 THEN json_object('printf', json_array('%.3f', p.m / block.m)) ELSE '-' END
           AS "vs always block",
       CASE WHEN (SELECT o.t FROM o WHERE o.sweep_id = p.sweep_id LIMIT 1) = p.t
            THEN json_object('text', 'chosen', 'value', json('true'))
            ELSE json_object('text', '', 'value', json('false')) END AS "",
       p.t AS _order, json_array('ns', 'ns/call', '%', 'x', 'x', NULL) AS _units
FROM p
LEFT JOIN p poll ON poll.sweep_id = p.sweep_id AND poll.t = 9223372036854775807
LEFT JOIN p block ON block.sweep_id = p.sweep_id AND block.t = 0;

-- The chosen T against this host's wake-up cost (ipa's probe), and against
-- always polling and always blocking in the search's one process.
CREATE VIEW "{kernel}_table_choice" AS
WITH p AS (SELECT sweep_id, threshold_ns AS t, median_ns_per_call AS m FROM "{kernel}_results" WHERE phase = 'search'),
c AS (SELECT o.sweep_id, json_extract(o.params, '$.threshold_ns') AS t, o.median, o.ci_low, o.ci_high, o.runs,
             COALESCE((SELECT value FROM host_probes hp WHERE hp.host_id = s.host_id AND hp.kernel = '{kernel}' AND
                       hp.probe = 'wakeup' AND hp.field = 'cross_cpu_ns'), -1) AS cross,
             COALESCE((SELECT value FROM host_probes hp WHERE hp.host_id = s.host_id AND hp.kernel = '{kernel}' AND
                       hp.probe = 'wakeup' AND hp.field = 'same_cpu_ns'), -1) AS same
      FROM optima o JOIN sweeps s ON s.id = o.sweep_id WHERE o.kernel = '{kernel}')
SELECT c.sweep_id, 'IPA optimum: the chosen threshold against this host''s wake-up cost' AS title,
       json_object('text', CASE WHEN c.t = 9223372036854775807 THEN 'inf (always poll)'
                                WHEN c.t = 0 THEN '0 (always block)'
                                WHEN c.t >= 1000 AND c.t % 1000 = 0 THEN (c.t / 1000) || ' us' ELSE c.t || ' ns' END,
                   'value', CASE WHEN c.t = 9223372036854775807 THEN 'inf' ELSE c.t END) AS "Chosen T",
       json_object('interval', json_array(c.median, c.ci_low, c.ci_high), 'runs', COALESCE(c.runs, 0), 'digits', 1)
           AS "Median ns/call [interval]",
       CASE WHEN c.cross >= 0 THEN json_object('printf', json_array('%.1f us', c.cross / 1000.0), 'value', c.cross)
            ELSE 'not measured' END AS "Wake-up across CPUs",
       CASE WHEN c.cross >= 0 THEN json_object('printf', json_array('%.1f us', c.same / 1000.0), 'value', c.same)
            ELSE 'not measured' END AS "Wake-up on one CPU",
       CASE WHEN c.cross > 0 AND c.t != 9223372036854775807
            THEN json_object('printf', json_array('%.2f', c.t * 1.0 / c.cross)) ELSE '-' END AS "T / wake-up",
       CASE WHEN poll.m > 0 THEN json_object('printf', json_array('%.3f', COALESCE(at.m, c.median) / poll.m))
            ELSE '-' END AS "vs always poll",
       CASE WHEN block.m > 0 THEN json_object('printf', json_array('%.3f', COALESCE(at.m, c.median) / block.m))
            ELSE '-' END AS "vs always block",
       json_array('ns', 'ns/call', 'ns', 'ns', 'x', 'x', 'x') AS _units
FROM c
LEFT JOIN p at ON at.sweep_id = c.sweep_id AND at.t = c.t
LEFT JOIN p poll ON poll.sweep_id = c.sweep_id AND poll.t = 9223372036854775807
LEFT JOIN p block ON block.sweep_id = c.sweep_id AND block.t = 0;

-- The chart of tune report (report/declared_charts.c reads views named
-- ipa_chart_*): wall time per call against T on a log axis (the paper's Fig.
-- 12), of the platform's newest sweep: the finite T > 0 as a line, always
-- block and always poll as bands across, the chosen T and the host's
-- wake-up cost across CPUs as marks.
CREATE VIEW "{kernel}_chart_wall_vs_threshold" AS
WITH w AS (SELECT n.platform, n.host, n.sweep_id, s.host_id FROM newest_kernel_sweeps n JOIN sweeps s ON s.id = n.sweep_id
           WHERE n.kernel = '{kernel}' AND n.sweep_id = (SELECT MAX(x.sweep_id) FROM newest_kernel_sweeps x
                                                   WHERE x.kernel = '{kernel}' AND x.platform = n.platform)),
p AS (SELECT w.platform, w.host, r.threshold_ns AS t, r.median_ns_per_call / 1e3 AS m, r.ci_low / 1e3 AS lo,
             r.ci_high / 1e3 AS hi
      FROM w JOIN "{kernel}_results" r ON r.sweep_id = w.sweep_id AND r.phase = 'search')
SELECT platform, host, 'IPA: time per call against the polling threshold' AS title,
       'IPA: wall time per call against the polling threshold, with the chosen threshold and the host''s wake-up cost'
           AS caption, 'threshold T (us): poll below, block above' AS xlabel, 'us per call' AS ylabel,
       CASE t WHEN 0 THEN 'always block (interval shaded)' WHEN 9223372036854775807 THEN 'always poll (interval shaded)'
              ELSE '{kernel}, threshold T' END AS series,
       t / 1e3 AS x, m AS y, lo AS low, hi AS high,
       CASE WHEN t = 0 OR t = 9223372036854775807 THEN 'band' ELSE 'line' END AS _style, 10 AS _logx,
       printf('%d %020d', CASE t WHEN 0 THEN 0 WHEN 9223372036854775807 THEN 1 ELSE 2 END, t) AS _order
FROM p
UNION ALL
SELECT w.platform, w.host, NULL, NULL, NULL, NULL, 'chosen T', json_extract(o.params, '$.threshold_ns') / 1e3, NULL,
       NULL, NULL, 'mark', 10, '3'
FROM w JOIN optima o ON o.sweep_id = w.sweep_id AND o.kernel = '{kernel}'
WHERE json_extract(o.params, '$.threshold_ns') > 0 AND json_extract(o.params, '$.threshold_ns') < 9223372036854775807
UNION ALL
SELECT w.platform, w.host, NULL, NULL, NULL, NULL, 'wake-up cost across CPUs', hp.value / 1e3, NULL, NULL, NULL, 'mark',
       10, '4'
FROM w JOIN host_probes hp ON hp.host_id = w.host_id AND hp.kernel = '{kernel}' AND hp.probe = 'wakeup' AND
                              hp.field = 'cross_cpu_ns'
WHERE hp.value > 0;

-- The threshold the exports give (tune export header|json): the newest
-- optimum of each platform's current fingerprint, with the wake-up cost
-- its host's probe measured (NULL: not measured).
CREATE VIEW "{kernel}_exported" AS
SELECT o.platform, json_extract(o.params, '$.threshold_ns') AS threshold_ns, o.median, o.ci_low, o.ci_high, o.decided,
       (SELECT value FROM host_probes hp WHERE hp.host_id = s.host_id AND hp.kernel = '{kernel}' AND
        hp.probe = 'wakeup' AND hp.field = 'cross_cpu_ns') AS wakeup_cross_ns,
       (SELECT value FROM host_probes hp WHERE hp.host_id = s.host_id AND hp.kernel = '{kernel}' AND
        hp.probe = 'wakeup' AND hp.field = 'same_cpu_ns') AS wakeup_same_ns
FROM optima o JOIN current_fingerprints USING (platform, host, fingerprint) JOIN sweeps s ON s.id = o.sweep_id
WHERE o.kernel = '{kernel}' AND o.id = (SELECT z.id FROM optima z JOIN current_fingerprints USING
                                        (platform, host, fingerprint) WHERE z.platform = o.platform AND
                                        z.kernel = '{kernel}' ORDER BY z.decided DESC, z.id DESC LIMIT 1);

-- The header's block (report/declared_header.c reads a view so named): poll
-- below the threshold (always: the largest unsigned, 9223372036854775807
-- in the database), block above; the host's wake-up cost beside it.
CREATE VIEW "{kernel}_header" AS
SELECT platform, 1 AS _order, 'a' AS _block, NULL AS define, NULL AS value, NULL AS type,
       'IPA: poll for a call predicted to take less than this, block otherwise.' AS comment
FROM "{kernel}_exported"
UNION ALL
SELECT platform, 2, 'a', NULL, NULL, NULL,
       json_object('printf', json_array('Median %.1f ns per call [%.1f, %.1f], decided at %s%s', median, ci_low,
                                        ci_high, decided, CASE WHEN wakeup_cross_ns IS NULL THEN '' ELSE ';' END))
FROM "{kernel}_exported"
UNION ALL
SELECT platform, 3, 'a', NULL, NULL, NULL,
       json_object('printf', json_array('this host''s wake-up cost: %.0f ns across CPUs, %.0f ns on one CPU',
                                        wakeup_cross_ns, COALESCE(wakeup_same_ns, -1)))
FROM "{kernel}_exported" WHERE wakeup_cross_ns IS NOT NULL
UNION ALL
SELECT platform, 4, NULL, 'POLL_THRESHOLD_NS', CASE WHEN threshold_ns = 9223372036854775807 THEN -1 ELSE threshold_ns END,
       'ull', CASE threshold_ns WHEN 9223372036854775807 THEN 'always poll' WHEN 0 THEN 'always block' END
FROM "{kernel}_exported"
UNION ALL
SELECT platform, 5, NULL, 'WAKEUP_NS', wakeup_cross_ns, 'int', NULL
FROM "{kernel}_exported" WHERE wakeup_cross_ns IS NOT NULL;

-- The threshold as JSON (tune export json reads a view so named): null
-- when always polling, with the wake-up cost where it was measured.
CREATE VIEW "{kernel}_json" AS
SELECT platform,
       json_patch(json_object('poll_threshold_ns', CASE WHEN threshold_ns < 9223372036854775807 THEN threshold_ns END,
                              'always_poll', json(CASE WHEN threshold_ns = 9223372036854775807 THEN 'true'
                                                       ELSE 'false' END),
                              'median_ns_per_call', median, 'ci_low', ci_low, 'ci_high', ci_high, 'decided', decided),
                  CASE WHEN wakeup_cross_ns IS NULL THEN '{}'
                       ELSE json_object('wakeup_cross_cpu_ns', wakeup_cross_ns, 'wakeup_same_cpu_ns', wakeup_same_ns)
                  END) AS value
FROM "{kernel}_exported";
