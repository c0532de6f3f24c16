#!/usr/bin/env bash
# IPA's hybrid end to end: T and f tuned together (one process per (T, f)),
# an optimum holding both; then the tuned hybrid in one process beside
# always block, always poll, IPA at the IPA sweep's own T, Linux's f = 1/2
# and f = 1/2 at the tuned T, the ratios paired run by run in the results;
# a header exporting IPA's threshold and the hybrid's T and f, compiling.
tune=$1
# shellcheck source=tests/e2e/lib.sh
source "$(dirname "$0")/lib.sh"
db=$TMP/hybrid.db

"$tune" run tests/data/sweeps/ipa.yaml --platform $plat --db "$db" > /dev/null 2> "$TMP/err0"
check "the ipa threshold sweep exits 0 ($(tail -1 "$TMP/err0"))" test $? = 0
"$tune" run tests/data/sweeps/ipa-hybrid.yaml --platform $plat --db "$db" > /dev/null 2> "$TMP/err"
rc=$?
check "hybrid sweep exits 0 ($(tail -3 "$TMP/err")) (rc $rc)" test $rc = 0
check "every (T, f) measured, each in its own process" test "$(q "$db" "SELECT count(DISTINCT batch) || ' ' || count(*) FROM ipa_hybrid_results WHERE phase = 'search' AND policy = 'hybrid'")" = "4 4"
check "one hybrid optimum with both T and f" test "$(q "$db" "SELECT count(*) FROM optima WHERE kernel = 'ipa_hybrid' AND variant = 'hybrid' AND json_extract(params, '$.threshold_ns') IN (0, 16000) AND json_extract(params, '$.hybrid_pct') IN (25, 75)")" = 1
check "the IPA optimum stays IPA's" test "$(q "$db" "SELECT count(*) FROM optima WHERE kernel = 'ipa' AND json_extract(params, '$.hybrid_pct') IS NULL")" = 1
check "the hybrid sleeps only above T" test "$(q "$db" "SELECT min(slept_share > 0 AND polled_share = 0 AND threshold_ns = 0 OR slept_share > 0 AND polled_share > 0 AND threshold_ns = 16000) FROM ipa_hybrid_results WHERE policy = 'hybrid'")" = 1

"$tune" run tests/data/sweeps/ipa-hybrid-check.yaml --platform $plat --db "$db" > /dev/null 2> "$TMP/err2"
check "check sweep exits 0 ($(tail -1 "$TMP/err2"))" test $? = 0
t=$(q "$db" "SELECT json_extract(params, '$.threshold_ns') FROM optima WHERE kernel = 'ipa_hybrid'")
f=$(q "$db" "SELECT json_extract(params, '$.hybrid_pct') FROM optima WHERE kernel = 'ipa_hybrid'")
ti=$(q "$db" "SELECT json_extract(params, '$.threshold_ns') FROM optima WHERE kernel = 'ipa'")
check "the check takes the tuned T and f" grep -q "threshold_ns auto is .* (the optimum of kernel ipa_hybrid" "$TMP/err2"
check "the check takes IPA's own T" grep -q "ipa_threshold_ns auto is .* (the optimum of kernel ipa " "$TMP/err2"
check "every policy in one process at T = $t, f = $f, IPA at $ti" test "$(q "$db" "SELECT count(DISTINCT batch) || ' ' || group_concat(policy) FROM (SELECT * FROM ipa_hybrid_results r JOIN sweeps s ON s.id = r.sweep_id WHERE s.name = 'ipa-hybrid-check-tiny' AND threshold_ns = $t AND hybrid_pct = $f AND ipa_threshold_ns = $ti ORDER BY policy)")" = "1 block,half,hybrid,ipa,linux,poll"
check "block never polls nor sleeps; Linux's sleeps on every call" test "$(q "$db" "SELECT group_concat(polled_share || '/' || slept_share) FROM (SELECT * FROM ipa_hybrid_results r JOIN sweeps s ON s.id = r.sweep_id WHERE s.name = 'ipa-hybrid-check-tiny' AND policy IN ('block', 'linux') ORDER BY policy)")" = "0.0/0.0,0.0/1.0"

"$tune" results --platform tiny --db "$db" > "$TMP/results"
check "results show the grid of T and f" grep -q "IPA hybrid: wall time per call (ns) against the threshold T (rows) and the sleep fraction f" "$TMP/results"
check "results show the chosen cell" grep -q " \*" "$TMP/results"
check "results set the hybrid against every other policy" test "$(grep -cE "^(best fixed policy: always (block|poll)|always block|always poll|IPA at its own T = .*|Linux: f = 1/2 on every call|f = 1/2 at the same T) +[0-9.]+ \[[0-9.]+, [0-9.]+\].* [0-9]\.[0-9]{3} \[[0-9.]+, [0-9.]+\].* 5$" "$TMP/results")" = 6
"$tune" results --platform tiny --db "$db" --format json > "$TMP/results.json"
check "results JSON gives each paired ratio with its runs" test "$(grep -c '"coverage"' "$TMP/results.json")" -ge 12

"$tune" export header --platform tiny --db "$db" -o "$TMP/tuned_config.h"
check "export header exits 0" test $? = 0
check "header holds IPA's threshold" grep -q "^#define TUNED_IPA_POLL_THRESHOLD_NS ${ti}ull" "$TMP/tuned_config.h"
check "header holds the hybrid's threshold ($t)" grep -q "^#define TUNED_IPA_HYBRID_THRESHOLD_NS ${t}ull" "$TMP/tuned_config.h"
check "header holds the hybrid's sleep fraction ($f)" grep -q "^#define TUNED_IPA_HYBRID_SLEEP_PCT $f$" "$TMP/tuned_config.h"
for lang in "cc -std=c11" "c++ -std=c++11 -x c++"; do
	printf '#include "tuned_config.h"\nint main(void) { unsigned long long t = TUNED_IPA_HYBRID_THRESHOLD_NS + TUNED_IPA_POLL_THRESHOLD_NS; return t == 1ull && TUNED_IPA_HYBRID_SLEEP_PCT > 100 ? 1 : 0; }\n' > "$TMP/use.c"
	# shellcheck disable=SC2086
	check "header compiles: $lang" $lang -Wall -Wextra -Werror -pedantic -DTUNED_PLATFORM_TINY -I"$TMP" -o "$TMP/use" "$TMP/use.c"
done
check "JSON export holds T and f" sh -c "'$tune' export json --platform tiny --db '$db' | grep -q '\"sleep_pct\": $f'"
e2e_done "ipa_hybrid"
