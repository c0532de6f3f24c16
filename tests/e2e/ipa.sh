#!/usr/bin/env bash
# The ipa threshold sweep end to end: every T (with 0 and inf added) measured
# in one process, the host's wake-up cost stored, an optimum with its
# threshold, results showing the curve and the choice against the wake-up
# cost, a header with TUNED_IPA_POLL_THRESHOLD_NS that compiles as C and
# C++, JSON, a chart, and a resume that measures nothing again.
tune=$1
# shellcheck source=tests/e2e/lib.sh
source "$(dirname "$0")/lib.sh"
db=$TMP/ipa.db
sweep=tests/data/sweeps/ipa.yaml

"$tune" run $sweep --platform $plat --db "$db" > "$TMP/out" 2> "$TMP/err"
rc=$?
check "ipa sweep exits 0 ($(tail -3 "$TMP/err")) (rc $rc)" test $rc = 0
check "thresholds 0, 4000, 32000 and inf measured" test "$(q "$db" "SELECT group_concat(threshold_ns) FROM (SELECT threshold_ns FROM ipa_results WHERE phase = 'search' ORDER BY 1)")" = "0,4000,32000,9223372036854775807"
check "every run recorded (3 + 1 warm-up per T)" test "$(q "$db" "SELECT count(*) FROM samples s JOIN trials t ON t.id = s.trial_id WHERE t.phase = 'search'")" = 16
check "always block never polls" test "$(q "$db" "SELECT polled_share FROM ipa_results WHERE threshold_ns = 0 AND phase = 'search'")" = 0.0
check "always poll always polls" test "$(q "$db" "SELECT polled_share FROM ipa_results WHERE threshold_ns = 9223372036854775807 AND phase = 'search'")" = 1.0
check "a larger T polls more" test "$(q "$db" "SELECT (SELECT polled_share FROM ipa_results WHERE threshold_ns = 4000 AND phase = 'search') < (SELECT polled_share FROM ipa_results WHERE threshold_ns = 32000 AND phase = 'search')")" = 1
check "wake-up cost stored with the host" test "$(q "$db" "SELECT count(*) FROM host_probes WHERE kernel = 'ipa' AND probe = 'wakeup' AND field IN ('cross_cpu_ns', 'same_cpu_ns') AND value > 0")" = 2
check "final trials re-measured the top 2 at least" test "$(q "$db" "SELECT count(*) FROM trials WHERE phase = 'final' AND status = 'done'")" -ge 2
check "final: every threshold whose interval reaches the plateau" test "$(finals_missing "$db" ipa)" = 0
check "one ipa optimum with its threshold" test "$(q "$db" "SELECT count(*) FROM optima WHERE kernel = 'ipa' AND json_extract(params, '$.threshold_ns') IS NOT NULL")" = 1
check "the optimum is a measured threshold" test "$(q "$db" "SELECT count(*) FROM optima o JOIN ipa_results t ON t.threshold_ns = json_extract(o.params, '$.threshold_ns') AND t.phase = 'search' WHERE o.kernel = 'ipa'")" = 1
check "progress names the thresholds" grep -q "ipa ipa threshold_ns=0..inf" "$TMP/err"

"$tune" results --platform tiny --db "$db" > "$TMP/results"
check "results show the curve" grep -q "IPA: wall time per call against the polling threshold" "$TMP/results"
check "results show both fixed policies" sh -c "grep -q '0 (always block)' '$TMP/results' && grep -q 'inf (always poll)' '$TMP/results'"
check "results set the choice against the wake-up cost" grep -q "IPA optimum: the chosen threshold against this host's wake-up cost" "$TMP/results"
check "results show no chase tables for an ipa-only database" sh -c "! grep -q 'Summary: scalar' '$TMP/results'"
check "chase_best_per_size answers the chase's question only" test "$(q "$db" "SELECT count(*) FROM chase_best_per_size")" = 0
"$tune" results --platform tiny --db "$db" --format json > "$TMP/results.json"
check "results JSON holds both ipa tables" test "$(grep -c '"title": *"IPA' "$TMP/results.json")" = 2

"$tune" export header --platform tiny --db "$db" -o "$TMP/tuned_config.h"
check "export header exits 0" test $? = 0
want=$(q "$db" "SELECT CASE t WHEN 9223372036854775807 THEN '18446744073709551615' ELSE t END FROM (SELECT json_extract(params, '$.threshold_ns') AS t FROM optima WHERE kernel = 'ipa')")
check "header holds the chosen threshold ($want)" grep -q "^#define TUNED_IPA_POLL_THRESHOLD_NS ${want}ull" "$TMP/tuned_config.h"
check "header holds the wake-up cost" grep -q "^#define TUNED_IPA_WAKEUP_NS [0-9]" "$TMP/tuned_config.h"
for lang in "cc -std=c11" "c++ -std=c++11 -x c++"; do
	printf '#include "tuned_config.h"\nint main(void) { unsigned long long t = TUNED_IPA_POLL_THRESHOLD_NS; return t == 1ull ? 1 : 0; }\n' > "$TMP/use.c"
	# shellcheck disable=SC2086
	check "header compiles: $lang" $lang -Wall -Wextra -Werror -pedantic -DTUNED_PLATFORM_TINY -I"$TMP" -o "$TMP/use" "$TMP/use.c"
done
check "JSON export holds the threshold" sh -c "'$tune' export json --platform tiny --db '$db' | grep -q '\"median_ns_per_call\"'"

if command -v gnuplot > /dev/null; then
	"$tune" report --platform tiny --db "$db" -o "$TMP/report" > /dev/null
	check "report draws the threshold chart" test -s "$TMP/report/tiny-ipa-wall_vs_threshold.svg"
	check "report.html holds it" grep -q "IPA: wall time per call against the polling threshold" "$TMP/report/report.html"
fi

before=$(q "$db" "SELECT count(*) FROM samples")
"$tune" run $sweep --platform $plat --db "$db" > /dev/null 2> "$TMP/err2"
check "resume exits 0" test $? = 0
check "resume measures nothing again" test "$(q "$db" "SELECT count(*) FROM samples")" = "$before"
e2e_done "ipa"
