#!/usr/bin/env bash
# The IPA and scheduler benchmarks in one fresh database: sweeps/ipa-threshold
# (every T in one process) and then sweeps/sched-policy (which takes the IPA
# optimum as its completion threshold), printing the ratios of the closing
# notes: tuned T against always-poll and always-block and against the
# wake-up cost; each policy's makespan over EFT's per speedup (inline, the
# mean over the app counts); worker over inline makespan and dispatch overhead.
# usage: bench/ipa-sched.sh [path/to/tune]   (default build/tune)
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
tune=${1:-$src/build/tune}
db=$(mktemp -d)/bench.db
"$tune" run ipa-threshold --platform local --db "$db" > /dev/null
"$tune" run sched-policy --platform local --db "$db" > /dev/null
sqlite3 -header -column "$db" "
WITH s AS (SELECT threshold_ns, median_ns_per_call m FROM ipa_results WHERE phase = 'search'),
     o AS (SELECT json_extract(params, '$.threshold_ns') t FROM optima WHERE kernel = 'ipa'),
     w AS (SELECT host_id, field, value FROM host_probes WHERE kernel = 'ipa' AND probe = 'wakeup')
SELECT (SELECT t FROM o) AS chosen_T_ns,
       printf('%.3f', (SELECT m FROM s WHERE threshold_ns = (SELECT t FROM o)) / (SELECT m FROM s WHERE threshold_ns = 9223372036854775807)) AS vs_always_poll,
       printf('%.3f', (SELECT m FROM s WHERE threshold_ns = (SELECT t FROM o)) / (SELECT m FROM s WHERE threshold_ns = 0)) AS vs_always_block,
       printf('%.1f', (SELECT value FROM w WHERE host_id = h.id AND field = 'cross_cpu_ns') / 1000.0) AS wakeup_cross_us,
       printf('%.1f', (SELECT value FROM w WHERE host_id = h.id AND field = 'same_cpu_ns') / 1000.0) AS wakeup_same_us
FROM hosts h;
SELECT r.speedup, r.policy, printf('%.2f', AVG(r.median_makespan_ms / e.median_makespan_ms)) AS makespan_over_eft
FROM sched_results r JOIN sched_results e ON e.sweep_id = r.sweep_id AND e.phase = 'search' AND e.policy = 'eft'
 AND e.dispatch = r.dispatch AND e.apps = r.apps AND e.speedup = r.speedup
WHERE r.phase = 'search' AND r.dispatch = 'inline' GROUP BY r.speedup, r.policy ORDER BY r.speedup, makespan_over_eft;
SELECT i.speedup, printf('%.2f', AVG(w.median_makespan_ms / i.median_makespan_ms)) AS worker_over_inline_makespan,
       printf('%.1f', AVG(w.mean_overhead_ns / i.mean_overhead_ns)) AS worker_over_inline_overhead,
       printf('%.0f', AVG(i.mean_overhead_ns)) AS inline_overhead_ns, printf('%.0f', AVG(w.mean_overhead_ns)) AS worker_overhead_ns
FROM sched_results i JOIN sched_results w ON w.sweep_id = i.sweep_id AND w.phase = 'search' AND w.dispatch = 'worker'
 AND w.policy = i.policy AND w.apps = i.apps AND w.speedup = i.speedup
WHERE i.phase = 'search' AND i.dispatch = 'inline' GROUP BY i.speedup;"
echo "database: $db"
