-- ipa_hybrid's views, made in the database by a sweep of it (its manifest's
-- views:); "{kernel}" is ipa_hybrid here, a copy's own name in a copy.
-- ipa_hybrid_results: each finished trial's policy, the hybrid's threshold
-- T and sleep fraction f (hybrid_pct), IPA's own threshold, its process
-- (batch: the trials of one batch were measured interleaved, run by run),
-- wall time per call, and the shares of calls that polled and slept.
CREATE VIEW "{kernel}_results" AS
SELECT r.trial_id, r.sweep_id, r.sweep, r.fingerprint, r.platform, r.host, r.variant AS policy, r.phase,
       json_extract(r.params, '$.threshold_ns') AS threshold_ns, json_extract(r.params, '$.hybrid_pct') AS hybrid_pct,
       json_extract(r.params, '$.ipa_threshold_ns') AS ipa_threshold_ns, t.batch, r.runs,
       r.median AS median_ns_per_call, r.ci_low, r.ci_high, r.mad,
       (SELECT AVG(json_extract(x.raw_json, '$.polled') * 1.0 / (json_extract(x.raw_json, '$.apps') *
                   json_extract(x.raw_json, '$.calls'))) FROM samples x
        WHERE x.trial_id = r.trial_id AND x.warmup = 0) AS polled_share,
       (SELECT AVG(json_extract(x.raw_json, '$.slept') * 1.0 / (json_extract(x.raw_json, '$.apps') *
                   json_extract(x.raw_json, '$.calls'))) FROM samples x
        WHERE x.trial_id = r.trial_id AND x.warmup = 0) AS slept_share
FROM kernel_results r JOIN trials t ON t.id = r.trial_id
WHERE r.kernel = '{kernel}';

-- ipa_hybrid's tables in tune results (views named ipa_hybrid_table_*, in
-- this order; a JSON object cell is formatted by tune: see the README). T as
-- said: ns or us, inf always polls, 0 the hybrid's sleep on every call.
--
-- Both are of the newest sweep that has their rows on the platform, host
-- and fingerprint, so that the tuning's grid stays beside the newer check.
--
-- T and f tuned together: the hybrid's wall time per call at each (T, f) of a
-- sweep's search, a row per T and a column per f, the chosen pair marked.
-- Each (T, f) is its own kernel process: a cell is set against another
-- measured minutes apart, which ipa-hybrid-check does not do.
CREATE VIEW "{kernel}_table_grid" AS
WITH g AS (SELECT platform, host, fingerprint, MAX(sweep_id) AS sweep_id FROM "{kernel}_results" r
           WHERE phase = 'search' AND policy = 'hybrid' AND
                 (SELECT COUNT(DISTINCT x.batch) FROM "{kernel}_results" x WHERE x.sweep_id = r.sweep_id AND
                  x.phase = 'search' AND x.policy = 'hybrid') > 1
           GROUP BY platform, host, fingerprint),
o AS (SELECT sweep_id, json_extract(params, '$.threshold_ns') AS t, json_extract(params, '$.hybrid_pct') AS f
           FROM optima WHERE kernel = '{kernel}' AND variant = 'hybrid')
SELECT g.platform, g.host, g.fingerprint, 'IPA hybrid: wall time per call (ns) against the threshold T (rows) and the sleep fraction f '
           || '(columns), each (T, f) its own process; * chosen' AS title,
       json_object('text', CASE WHEN r.threshold_ns = 9223372036854775807 THEN 'inf (always poll)'
                                WHEN r.threshold_ns = 0 THEN '0 (sleep on every call)'
                                WHEN r.threshold_ns >= 1000 AND r.threshold_ns % 1000 = 0
                                THEN (r.threshold_ns / 1000) || ' us' ELSE r.threshold_ns || ' ns' END,
                   'value', CASE WHEN r.threshold_ns = 9223372036854775807 THEN 'inf' ELSE r.threshold_ns END)
           AS "Threshold T",
       'f = ' || r.hybrid_pct || '%' AS _column,
       json_object('printf', json_array('%.1f [%.1f, %.1f]%s', r.median_ns_per_call, r.ci_low, r.ci_high,
                                        CASE WHEN o.t IS NOT NULL THEN ' *' ELSE '' END),
                   'value', json_object('median', r.median_ns_per_call, 'low', r.ci_low, 'high', r.ci_high,
                                        'runs', r.runs, 'chosen', json(CASE WHEN o.t IS NOT NULL THEN 'true'
                                                                            ELSE 'false' END))) AS _cell,
       printf('%020d %03d', r.threshold_ns, r.hybrid_pct) AS _order, json_array('ns') AS _units
FROM g JOIN "{kernel}_results" r ON r.sweep_id = g.sweep_id
LEFT JOIN o ON o.sweep_id = r.sweep_id AND o.t = r.threshold_ns AND o.f = r.hybrid_pct
WHERE r.phase = 'search' AND r.policy = 'hybrid';

-- The tuned hybrid against every other policy of its process, run by run:
-- each run's ratio of the hybrid's wall time to the other's (below 1: the
-- hybrid is faster), their median and its interval; the best fixed policy
-- is the better of always block and always poll in that process. A table
-- per process of the newest sweep that measured the hybrid beside another
-- policy (ipa-hybrid-check).
CREATE VIEW "{kernel}_table_versus" AS
WITH h AS (SELECT * FROM "{kernel}_results" WHERE policy = 'hybrid'),
y AS (SELECT h.batch, h.trial_id AS hybrid_id, h.threshold_ns AS t, h.hybrid_pct AS f, r.*
      FROM h JOIN "{kernel}_results" r ON r.batch = h.batch AND r.trial_id != h.trial_id),
x AS (SELECT * FROM y WHERE sweep_id = (SELECT MAX(z.sweep_id) FROM y z WHERE z.platform = y.platform AND
                                        z.host = y.host AND z.fingerprint = y.fingerprint)),
fixed AS (SELECT batch, policy FROM (SELECT batch, policy, ROW_NUMBER() OVER (PARTITION BY batch
                                                                              ORDER BY median_ns_per_call) AS nth
                                     FROM x WHERE policy IN ('block', 'poll')) WHERE nth = 1),
rows AS (SELECT x.*, 0 AS best FROM x
         UNION ALL
         SELECT x.*, 1 FROM x JOIN fixed USING (batch, policy)),
paired AS (SELECT rows.trial_id, rows.best, json_group_array(a.ns_per_lookup / b.ns_per_lookup) AS ratios,
                  COUNT(*) AS n
           FROM rows JOIN samples a ON a.trial_id = rows.hybrid_id AND a.warmup = 0
           JOIN samples b ON b.trial_id = rows.trial_id AND b.warmup = 0 AND b.run_id = a.run_id
           WHERE b.ns_per_lookup > 0 GROUP BY rows.trial_id, rows.best)
SELECT rows.platform, rows.host, rows.fingerprint,
       printf('IPA hybrid at T = %s, f = %d%% against the other policies, run by run in one process (batch %d)',
              CASE WHEN rows.t = 9223372036854775807 THEN 'inf' WHEN rows.t >= 1000 AND rows.t % 1000 = 0
                   THEN (rows.t / 1000) || ' us' ELSE rows.t || ' ns' END, rows.f, rows.batch) AS title,
       CASE WHEN rows.best THEN 'best fixed policy: ' || CASE rows.policy WHEN 'block' THEN 'always block'
                                                                         ELSE 'always poll' END
            ELSE CASE rows.policy
                 WHEN 'block' THEN 'always block'
                 WHEN 'poll' THEN 'always poll'
                 WHEN 'ipa' THEN printf('IPA at its own T = %s', CASE WHEN rows.ipa_threshold_ns = 9223372036854775807
                                                                      THEN 'inf' WHEN rows.ipa_threshold_ns >= 1000 AND
                                                                      rows.ipa_threshold_ns % 1000 = 0
                                                                      THEN (rows.ipa_threshold_ns / 1000) || ' us'
                                                                      ELSE rows.ipa_threshold_ns || ' ns' END)
                 WHEN 'linux' THEN 'Linux: f = 1/2 on every call'
                 WHEN 'half' THEN 'f = 1/2 at the same T'
                 ELSE rows.policy END END AS "Policy",
       json_object('interval', json_array(rows.median_ns_per_call, rows.ci_low, rows.ci_high), 'runs', rows.runs,
                   'digits', 1) AS "Median ns/call [interval]",
       json_object('ratios', json(p.ratios), 'digits', 3) AS "Hybrid over it, run by run [interval]",
       p.n AS "Paired runs",
       printf('%d %d', rows.batch, CASE WHEN rows.best THEN 0 ELSE 1 + (SELECT key FROM json_each(
           '["block","poll","ipa","linux","half"]') WHERE value = rows.policy) END) AS _order,
       json_array(NULL, 'ns/call', 'x', NULL) AS _units
FROM rows JOIN paired p ON p.trial_id = rows.trial_id AND p.best = rows.best;

-- What the exports give (tune export header|json): the newest optimum of
-- each platform's current fingerprint, its policy (the hybrid's T and f
-- mean something when it is the hybrid).
CREATE VIEW "{kernel}_exported" AS
SELECT o.platform, o.variant AS policy, json_extract(o.params, '$.threshold_ns') AS threshold_ns,
       json_extract(o.params, '$.hybrid_pct') AS hybrid_pct, o.median, o.ci_low, o.ci_high, o.decided
FROM optima o JOIN current_fingerprints USING (platform, host, fingerprint)
WHERE o.kernel = '{kernel}' AND o.id = (SELECT z.id FROM optima z JOIN current_fingerprints USING
                                        (platform, host, fingerprint) WHERE z.platform = o.platform AND
                                        z.kernel = '{kernel}' ORDER BY z.decided DESC, z.id DESC LIMIT 1);

-- The header's block (report/declared_header.c reads a view so named):
-- poll below the threshold; above it sleep the fraction, then poll.
CREATE VIEW "{kernel}_header" AS
SELECT platform, 1 AS _order, 'a' AS _block, NULL AS define, NULL AS value, NULL AS type,
       'IPA hybrid: poll for a call predicted to take less than the threshold; above it, sleep this percentage '
       || 'of the predicted time, then poll.' AS comment
FROM "{kernel}_exported"
UNION ALL
SELECT platform, 2, 'a', NULL, NULL, NULL,
       json_object('printf', json_array('Median %.1f ns per call [%.1f, %.1f], decided at %s%s', median, ci_low,
                                        ci_high, decided, CASE WHEN policy = 'hybrid' THEN ''
                                                               ELSE '; the fastest policy was ' || policy END))
FROM "{kernel}_exported"
UNION ALL
SELECT platform, 3, NULL, 'THRESHOLD_NS', CASE WHEN threshold_ns = 9223372036854775807 THEN -1 ELSE threshold_ns END,
       'ull', CASE threshold_ns WHEN 9223372036854775807 THEN 'always poll' WHEN 0 THEN 'sleep on every call' END
FROM "{kernel}_exported"
UNION ALL
SELECT platform, 4, NULL, 'SLEEP_PCT', hybrid_pct, 'int', NULL
FROM "{kernel}_exported";

-- The hybrid as JSON (tune export json reads a view so named).
CREATE VIEW "{kernel}_json" AS
SELECT platform,
       json_object('policy', policy, 'threshold_ns', CASE WHEN threshold_ns < 9223372036854775807 THEN threshold_ns END,
                   'always_poll', json(CASE WHEN threshold_ns = 9223372036854775807 THEN 'true' ELSE 'false' END),
                   'sleep_pct', hybrid_pct, 'median_ns_per_call', median, 'ci_low', ci_low, 'ci_high', ci_high,
                   'decided', decided) AS value
FROM "{kernel}_exported";
