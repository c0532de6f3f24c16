#!/usr/bin/env bash
# The scheduler sweep end to end: every policy of each (speedup, apps,
# dispatch) measured in one process, AO on accelerators only and CO on CPUs
# only, an optimum per (speedup, apps), the IPA optimum taken as the
# completion threshold once the ipa sweep ran, results with the makespan
# tables and the inline/worker comparison, a header with TUNED_SCHED_POLICY
# that compiles as C and C++, JSON, a chart, and a resume that measures
# nothing again.
tune=$1
# shellcheck source=tests/e2e/lib.sh
source "$(dirname "$0")/lib.sh"
db=$TMP/sched.db
sweep=tests/data/sweeps/sched.yaml

"$tune" run $sweep --platform $plat --db "$db" > "$TMP/out" 2> "$TMP/err"
rc=$?
check "sched sweep exits 0 ($(tail -3 "$TMP/err")) (rc $rc)" test $rc = 0
check "40 search trials measured" test "$(q "$db" "SELECT count(*) FROM trials WHERE kernel = 'sched' AND phase = 'search' AND status = 'done'")" = 40
check "every policy at every point" test "$(q "$db" "SELECT count(DISTINCT policy || dispatch || apps || speedup) FROM sched_results WHERE phase = 'search'")" = 40
check "every run recorded (2 + 1 warm-up)" test "$(q "$db" "SELECT count(*) FROM samples s JOIN trials t ON t.id = s.trial_id WHERE t.phase = 'search'")" = 120
check "ao runs on accelerators only" test "$(q "$db" "SELECT min(accel_share) FROM sched_results WHERE policy = 'ao'")" = 1.0
check "co runs on CPUs only" test "$(q "$db" "SELECT max(accel_share) FROM sched_results WHERE policy = 'co'")" = 0.0
check "the same tasks for every policy (one checksum per apps count)" test "$(q "$db" "SELECT count(DISTINCT json_extract(t.params, '$.apps') || '/' || s.checksum) FROM samples s JOIN trials t ON t.id = s.trial_id")" = 2
check "no IPA optimum yet: the default threshold" test "$(q "$db" "SELECT DISTINCT json_extract(params, '$.threshold_ns') FROM trials WHERE kernel = 'sched'")" = 30000
check "it says so" grep -q "threshold_ns auto is 30000 (no optimum of kernel ipa on this host yet" "$TMP/err"
check "an optimum per (speedup, apps)" test "$(q "$db" "SELECT count(*) FROM optima WHERE kernel = 'sched'")" = 4
check "optima name a policy and a dispatch" test "$(q "$db" "SELECT count(*) FROM sched_optima WHERE policy IN ('co', 'ao', 'fuse', 'random', 'eft') AND dispatch IN ('inline', 'worker')")" = 4
check "final trials re-measured at each of the 4 points" test "$(q "$db" "SELECT count(DISTINCT context) FROM trials WHERE kernel = 'sched' AND phase = 'final' AND status = 'done'")" = 4
check "final: at least the top 2 of each point" test "$(q "$db" "SELECT count(*) FROM (SELECT count(*) AS n FROM trials WHERE kernel = 'sched' AND phase = 'final' AND status = 'done' GROUP BY context) WHERE n < 2")" = 0
check "final: every policy whose interval reaches the plateau" test "$(finals_missing "$db" sched)" = 0
check "progress names the policies" grep -q "sched co..eft speedup=50 apps=3 dispatch=inline" "$TMP/err"

"$tune" results --platform tiny --db "$db" > "$TMP/results"
check "results show makespan per policy" grep -q "Makespan in ms per policy, accelerator 50x faster, inline dispatch" "$TMP/results"
check "results compare the dispatches" grep -q "Inline against worker dispatch" "$TMP/results"
check "results show the optima" grep -q "Scheduler optima" "$TMP/results"

"$tune" export header --platform tiny --db "$db" -o "$TMP/tuned_config.h"
check "export header exits 0" test $? = 0
check "header holds the policy" grep -q "^#define TUNED_SCHED_POLICY [0-4] " "$TMP/tuned_config.h"
check "header holds the table" grep -q "^#define TUNED_SCHED_TABLE_SPEEDUPS { 1, 1, 50, 50 }" "$TMP/tuned_config.h"
for lang in "cc -std=c11" "c++ -std=c++11 -x c++"; do
	printf '#include "tuned_config.h"\nint main(void) { return tuned_sched_policy_for(50, 3) >= TUNED_SCHED_CO && TUNED_SCHED_POLICY <= TUNED_SCHED_EFT ? 0 : 1; }\n' > "$TMP/use.c"
	# shellcheck disable=SC2086
	check "header compiles and runs: $lang" sh -c "$lang -Wall -Wextra -Werror -pedantic -DTUNED_PLATFORM_TINY -I'$TMP' -o '$TMP/use' '$TMP/use.c' && '$TMP/use'"
done
want=$(q "$db" "SELECT policy FROM sched_optima WHERE speedup = 50 AND apps = 3")
printf '#include <stdio.h>\n#include "tuned_config.h"\nint main(void) { static const char *n[] = { "co", "ao", "fuse", "random", "eft" }; puts(n[tuned_sched_policy_for(40, 3)]); return 0; }\n' > "$TMP/pick.c"
cc -std=c11 -DTUNED_PLATFORM_TINY -I"$TMP" -o "$TMP/pick" "$TMP/pick.c"
check "tuned_sched_policy_for picks the nearest point ($want)" test "$("$TMP/pick")" = "$want"
check "JSON export holds the scheduler" sh -c "'$tune' export json --platform tiny --db '$db' | grep -q '\"median_ns_per_task\"'"

if command -v gnuplot > /dev/null; then
	"$tune" report --platform tiny --db "$db" -o "$TMP/report" > /dev/null
	check "report draws the makespan chart" test -s "$TMP/report/tiny-sched-makespan_vs_apps.svg"
fi

before=$(q "$db" "SELECT count(*) FROM samples")
"$tune" run $sweep --platform $plat --db "$db" > /dev/null 2>&1
check "resume measures nothing again" test "$(q "$db" "SELECT count(*) FROM samples")" = "$before"

# Once the ipa sweep has chosen a threshold, the scheduler's completions use it.
"$tune" run tests/data/sweeps/ipa.yaml --platform $plat --db "$db" > /dev/null 2>&1
"$tune" run $sweep --platform $plat --db "$db" > /dev/null 2> "$TMP/err3"
check "the IPA optimum is the threshold" test "$(q "$db" "SELECT json_extract(params, '$.threshold_ns') FROM trials WHERE kernel = 'sched' ORDER BY id DESC LIMIT 1")" = "$(q "$db" "SELECT json_extract(params, '$.threshold_ns') FROM optima WHERE kernel = 'ipa'")"
# The optimum may be inf (always poll wins on a busy host): said as "inf".
check "it says so ($(grep -m1 'auto is' "$TMP/err3"))" grep -qE "threshold_ns auto is ([0-9]+|inf) \(the optimum of kernel ipa on this host\)" "$TMP/err3"
e2e_done "sched"
