-- Schema version 18: the shipped kernels' exports are data, as their
-- tables, charts and CSV became in 16 and 17: the C header's block of
-- each kernel (a view named <kernel>_header, report/declared_header.c) and
-- its object in the JSON (<kernel>_json), over the optima each exports
-- (<kernel>_exported, sched_chosen). Made here, as the kernels' views files
-- make them, for every database, and again by each kernel's next sweep.

-- The optima the exports give (tune export header|json): per working set,
-- of the current fingerprint on the host that decided the chase last, with
-- the indexes of variant and hint in chase.h's order (-1: none) and the
-- verdict against the runner-up as the headline gives it; of two optima of
-- one working set (one recorded before contexts were), the newer.
CREATE VIEW "chase_exported" AS
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
                    WHERE y.kernel = 'chase' AND y.platform = x.platform AND y.host = x.host) AS is_default
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
      WHERE o.kernel = 'chase' AND o.host = (SELECT z.host FROM optima z WHERE z.platform = o.platform AND
                                                z.kernel = 'chase' ORDER BY z.decided DESC, z.id DESC LIMIT 1)) x
WHERE x.nth = 1;

-- The header's block (report/declared_header.c reads a view so named): the
-- default, the largest working set out of cache, where latency hiding
-- matters; per working set a table that g, variant, hint and huge pages
-- follow together, looked up by a working set's bytes.
CREATE VIEW "chase_header" AS
WITH p AS (SELECT * FROM "chase_exported" WHERE is_default),
t AS (SELECT platform, json_group_array(size_mb) AS sizes, json_group_array(g) AS gs,
             json_group_array(variant_no) AS variants, json_group_array(hint_no) AS hints,
             json_group_array(hugepages) AS pages
      FROM (SELECT * FROM "chase_exported" ORDER BY platform, size_mb) GROUP BY platform)
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
       'TUNED_' || upper('chase') || '_PREFETCH_HINT is a CHASE_HINT_* value of kernels/chase/chase.h:', NULL,
       NULL, NULL, NULL FROM p
UNION ALL
SELECT platform, 7, 'c', NULL, NULL, NULL,
       '#define CHASE_HINT TUNED_' || upper('chase') || '_PREFETCH_HINT before including it.', NULL, NULL, NULL,
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
FROM "chase_exported"
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
CREATE VIEW "chase_json" AS
SELECT p.platform,
       json_object('variant', p.variant, 'group_size', p.g, 'hint', NULLIF(p.hint, ''), 'table',
                   (SELECT json_group_array(json_object(
                               'size_mb', e.size_mb, 'size_class', e.size_class, 'variant', e.variant,
                               'hint', NULLIF(e.hint, ''), 'group_size', e.g, 'best_group_size', e.fastest,
                               'hugepages', json(CASE WHEN e.hugepages THEN 'true' ELSE 'false' END),
                               'median_ns_per_lookup', e.median, 'ci_low', e.ci_low, 'ci_high', e.ci_high,
                               'runner_up', json(e.runner_up), 'trials', e.trials, 'decided', e.decided))
                    FROM (SELECT * FROM "chase_exported" y WHERE y.platform = p.platform ORDER BY y.size_mb) e))
           AS value
FROM "chase_exported" p WHERE p.is_default;

-- The threshold the exports give (tune export header|json): the newest
-- optimum of each platform's current fingerprint, with the wake-up cost
-- its host's probe measured (NULL: not measured).
CREATE VIEW "ipa_exported" AS
SELECT o.platform, json_extract(o.params, '$.threshold_ns') AS threshold_ns, o.median, o.ci_low, o.ci_high, o.decided,
       (SELECT value FROM host_probes hp WHERE hp.host_id = s.host_id AND hp.kernel = 'ipa' AND
        hp.probe = 'wakeup' AND hp.field = 'cross_cpu_ns') AS wakeup_cross_ns,
       (SELECT value FROM host_probes hp WHERE hp.host_id = s.host_id AND hp.kernel = 'ipa' AND
        hp.probe = 'wakeup' AND hp.field = 'same_cpu_ns') AS wakeup_same_ns
FROM optima o JOIN current_fingerprints USING (platform, host, fingerprint) JOIN sweeps s ON s.id = o.sweep_id
WHERE o.kernel = 'ipa' AND o.id = (SELECT z.id FROM optima z JOIN current_fingerprints USING
                                        (platform, host, fingerprint) WHERE z.platform = o.platform AND
                                        z.kernel = 'ipa' ORDER BY z.decided DESC, z.id DESC LIMIT 1);

-- The header's block (report/declared_header.c reads a view so named): poll
-- below the threshold (always: the largest unsigned, 9223372036854775807
-- in the database), block above; the host's wake-up cost beside it.
CREATE VIEW "ipa_header" AS
SELECT platform, 1 AS _order, 'a' AS _block, NULL AS define, NULL AS value, NULL AS type,
       'IPA: poll for a call predicted to take less than this, block otherwise.' AS comment
FROM "ipa_exported"
UNION ALL
SELECT platform, 2, 'a', NULL, NULL, NULL,
       json_object('printf', json_array('Median %.1f ns per call [%.1f, %.1f], decided at %s%s', median, ci_low,
                                        ci_high, decided, CASE WHEN wakeup_cross_ns IS NULL THEN '' ELSE ';' END))
FROM "ipa_exported"
UNION ALL
SELECT platform, 3, 'a', NULL, NULL, NULL,
       json_object('printf', json_array('this host''s wake-up cost: %.0f ns across CPUs, %.0f ns on one CPU',
                                        wakeup_cross_ns, COALESCE(wakeup_same_ns, -1)))
FROM "ipa_exported" WHERE wakeup_cross_ns IS NOT NULL
UNION ALL
SELECT platform, 4, NULL, 'POLL_THRESHOLD_NS', CASE WHEN threshold_ns = 9223372036854775807 THEN -1 ELSE threshold_ns END,
       'ull', CASE threshold_ns WHEN 9223372036854775807 THEN 'always poll' WHEN 0 THEN 'always block' END
FROM "ipa_exported"
UNION ALL
SELECT platform, 5, NULL, 'WAKEUP_NS', wakeup_cross_ns, 'int', NULL
FROM "ipa_exported" WHERE wakeup_cross_ns IS NOT NULL;

-- The threshold as JSON (tune export json reads a view so named): null
-- when always polling, with the wake-up cost where it was measured.
CREATE VIEW "ipa_json" AS
SELECT platform,
       json_patch(json_object('poll_threshold_ns', CASE WHEN threshold_ns < 9223372036854775807 THEN threshold_ns END,
                              'always_poll', json(CASE WHEN threshold_ns = 9223372036854775807 THEN 'true'
                                                       ELSE 'false' END),
                              'median_ns_per_call', median, 'ci_low', ci_low, 'ci_high', ci_high, 'decided', decided),
                  CASE WHEN wakeup_cross_ns IS NULL THEN '{}'
                       ELSE json_object('wakeup_cross_cpu_ns', wakeup_cross_ns, 'wakeup_same_cpu_ns', wakeup_same_ns)
                  END) AS value
FROM "ipa_exported";

-- The optima the exports give (tune export header|json): per (speedup,
-- apps) of the current fingerprint on the host that decided sched last,
-- with the policy's index in sched.h's order (CO, AO, Fuse, Random, EFT),
-- and chosen_policy on the points of the policy chosen at most of them (ties:
-- the earlier in that order); of two optima of one point, the newer.
CREATE VIEW "sched_exported" AS
WITH o AS (
    SELECT o.platform, o.speedup, o.apps, o.policy, COALESCE(o.dispatch, '') AS dispatch, o.median, o.ci_low,
           o.ci_high, o.decided, o.class,
           COALESCE((SELECT key FROM json_each('["co","ao","fuse","random","eft"]') WHERE value = o.policy), -1)
               AS policy_no
    FROM (SELECT o.*, ROW_NUMBER() OVER (PARTITION BY o.platform, o.speedup, o.apps
                                         ORDER BY o.decided DESC, o.optimum_id DESC) AS nth
          FROM "sched_optima" o JOIN current_fingerprints USING (platform, host, fingerprint)
          WHERE o.host = (SELECT z.host FROM optima z WHERE z.platform = o.platform AND z.kernel = 'sched'
                          ORDER BY z.decided DESC, z.id DESC LIMIT 1)) o
    WHERE o.nth = 1),
c AS (SELECT platform, policy, policy_no, COUNT(*) AS n FROM o GROUP BY platform, policy)
SELECT o.*, o.policy = (SELECT c.policy FROM c WHERE c.platform = o.platform ORDER BY c.n DESC, c.policy_no LIMIT 1)
           AS chosen_policy
FROM o;

-- The exports' default: the first point (by speedup, then apps) of the
-- policy chosen at most points, with its dispatch.
CREATE VIEW "sched_chosen" AS
SELECT * FROM (SELECT e.*, ROW_NUMBER() OVER (PARTITION BY platform ORDER BY speedup, apps) AS nth
               FROM "sched_exported" e WHERE chosen_policy)
WHERE nth = 1;

-- The header's block (report/declared_header.c reads a view so named): the
-- policy chosen at most points, and per point a table looked up by the
-- nearest (speedup, apps).
CREATE VIEW "sched_header" AS
WITH d AS (SELECT * FROM "sched_chosen"),
t AS (SELECT platform, COUNT(*) AS n, json_group_array(speedup) AS speedups, json_group_array(apps) AS apps,
             json_group_array(policy_no) AS policies
      FROM (SELECT * FROM "sched_exported" ORDER BY platform, speedup, apps) GROUP BY platform)
SELECT platform, 1 AS _order, 'a' AS _block, NULL AS define, NULL AS value, NULL AS type,
       printf('Scheduler: the policy chosen at most of the %d measured (speedup, apps) points; values are '
              || 'TUNED_%s_CO..TUNED_%s_EFT', n, upper('sched'), upper('sched')) AS comment,
       NULL AS key, NULL AS lookup, NULL AS function
FROM t
UNION ALL
SELECT platform, 2, 'a', NULL, NULL, NULL, '(the order of kernels/sched/sched.h). Per point:', NULL, NULL, NULL
FROM t
UNION ALL
SELECT platform, 3 + speedup / 1e6 + apps / 1e12, NULL, NULL, NULL, NULL,
       json_object('printf', json_array('  %dx, %d apps (%s): %s %s, median %.1f ns per task [%.1f, %.1f], decided at %s',
                                        speedup, apps, class, policy, dispatch, median, ci_low, ci_high, decided)),
       NULL, NULL, NULL
FROM "sched_exported"
UNION ALL
SELECT platform, 4, NULL, 'POLICY', policy_no, NULL, policy, NULL, NULL, NULL FROM d
UNION ALL
SELECT platform, 5, NULL, 'POLICY_NAME', policy, NULL, NULL, NULL, NULL, NULL FROM d
UNION ALL
SELECT platform, 6, NULL, 'DISPATCH_INLINE', dispatch = 'inline', NULL, NULL, NULL, NULL, NULL FROM d
UNION ALL
SELECT platform, 7, NULL, 'TABLE_SPEEDUPS', speedups, 'table', NULL, 'speedup', 'nearest', NULL FROM t
UNION ALL
SELECT platform, 8, NULL, 'TABLE_APPS', apps, 'table', NULL, 'apps', 'nearest', NULL FROM t
UNION ALL
SELECT platform, 9, NULL, 'TABLE_POLICIES', policies, 'table', NULL, NULL, NULL, 'policy' FROM t
UNION ALL
SELECT t.platform, 10 + n.key / 10.0, NULL, upper(n.value), n.key, NULL, NULL, NULL, NULL, NULL
FROM t JOIN json_each('["co","ao","fuse","random","eft"]') n;

-- The optima as JSON (tune export json reads a view so named): the policy
-- chosen at most points, its dispatch, and the table per point.
CREATE VIEW "sched_json" AS
SELECT d.platform,
       json_object('policy', d.policy, 'dispatch', d.dispatch, 'table',
                   (SELECT json_group_array(json_object(
                               'speedup', e.speedup, 'apps', e.apps, 'class', e.class, 'policy', e.policy,
                               'dispatch', e.dispatch, 'median_ns_per_task', e.median, 'ci_low', e.ci_low,
                               'ci_high', e.ci_high, 'decided', e.decided))
                    FROM (SELECT * FROM "sched_exported" y WHERE y.platform = d.platform
                          ORDER BY y.speedup, y.apps) e)) AS value
FROM "sched_chosen" d;

INSERT OR REPLACE INTO kernel_views (kernel, name, sql_hash)
VALUES ('chase', 'chase_exported', ''),
       ('chase', 'chase_header', ''),
       ('chase', 'chase_json', ''),
       ('ipa', 'ipa_exported', ''),
       ('ipa', 'ipa_header', ''),
       ('ipa', 'ipa_json', ''),
       ('sched', 'sched_exported', ''),
       ('sched', 'sched_chosen', ''),
       ('sched', 'sched_header', ''),
       ('sched', 'sched_json', '');
