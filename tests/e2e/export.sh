#!/usr/bin/env bash
# Search and export end to end: an adaptive sweep records its search state,
# final trials and an optimum with a fraction of the grid; the header it
# exports compiles as C and C++ with -Wall -Wextra -Werror -pedantic, for one
# platform, two, and the architecture fallback; the example program builds
# against it and runs the tuned lookups; --check tells a fresh header from a
# stale one; JSON export is valid and names the host; an interrupted adaptive
# sweep resumes to an optimum without measuring a trial twice.
tune=$1
# shellcheck source=tests/e2e/lib.sh
source "$(dirname "$0")/lib.sh"
db=$TMP/opt.db

"$tune" run tests/data/sweeps/adaptive.yaml --platform $plat --db "$db" > "$TMP/out1" 2> "$TMP/err1"
rc=$?
check "adaptive sweep exits 0 ($(tail -2 "$TMP/err1")) (rc $rc)" test $rc = 0
search=$(q "$db" "SELECT count(*) FROM trials WHERE phase = 'search' AND status = 'done'")
check "adaptive measured a fraction of the 129-trial grid ($search)" test "$search" -lt 60
check "final trials re-measured" test "$(q "$db" "SELECT count(*) FROM trials WHERE phase = 'final' AND status = 'done'")" -ge 2
check "the final measured the baseline (scalar, or g = 0: the scalar chase in the g's process)" test "$(q "$db" "SELECT count(*) FROM optima o WHERE NOT EXISTS (SELECT 1 FROM trials t WHERE t.sweep_id = o.sweep_id AND t.phase = 'final' AND (t.variant = 'scalar' OR json_extract(t.params, '$.group_size') = 0) AND t.status = 'done' AND t.context = o.context)")" = 0
check "g = 0 is measured, never chosen" test "$(q "$db" "SELECT count(*) FROM optima WHERE json_extract(params, '\$.group_size') = 0 OR json_extract(runner_up, '\$.group_size') = 0")" = 0
check "anchors: measured again beside later rounds" test "$(q "$db" "SELECT count(*) FROM trials WHERE phase = 'anchor' AND status = 'done'")" -ge 1
check "anchors: each in a batch with new search trials" test "$(q "$db" "SELECT count(*) FROM trials a WHERE a.phase = 'anchor' AND NOT EXISTS (SELECT 1 FROM trials t WHERE t.batch = a.batch AND t.phase = 'search')")" = 0
check "every measured trial names its batch" test "$(q "$db" "SELECT count(*) FROM trials WHERE status = 'done' AND batch IS NULL")" = 0
check "search state saved" test "$(q "$db" "SELECT json_extract(search_state, '\$.strategy') FROM sweeps")" = adaptive
check "one optimum for 4 MB" test "$(q "$db" "SELECT count(*) FROM optima WHERE json_extract(params, '\$.size_mb') = 4 AND platform = 'tiny'")" = 1
check "optimum has an interval around its median" test "$(q "$db" "SELECT ci_low <= median AND median <= ci_high FROM optima")" = 1
check "optimum names a runner-up" test "$(q "$db" "SELECT json_valid(runner_up) FROM optima")" = 1
check "statistics stored per trial" test "$(q "$db" "SELECT count(*) FROM trial_summary")" = "$(q "$db" "SELECT count(*) FROM trials WHERE status = 'done'")"
check "samples flagged or not as outliers" test "$(q "$db" "SELECT count(*) FROM samples WHERE outlier NOT IN (0, 1)")" = 0
check "fingerprint recorded" test "$(q "$db" "SELECT length(fingerprint) FROM sweeps")" = 16
check "results show the optima" sh -c "'$tune' results --platform tiny --db '$db' | grep -q 'Optima of chase: platform tiny'"

# The gain over scalar, run by run: the final measures g = 0 (chase.h: the
# scalar chase) in the optimum's own process, though the sweep lists no
# scalar variant; the tables and the CSV read it as scalar.
printf 'name: beside\nkernel: chase\nstrategy: adaptive\nparams:\n  variant: [interleaved-prefetch]\n  size_mb: [4]\n  hint: [pldl1keep]\n  depth: 8\n  queries: 4000\nlist_min: 1\nlist_max: 64\nruns: 3\nwarmup: 1\nmax_runs: 6\nfinal_top: 2\nseed: 5\ntimeout_s: 60\n' > "$TMP/beside.yaml"
bdb=$TMP/beside.db
"$tune" run "$TMP/beside.yaml" --platform $plat --db "$bdb" > /dev/null 2> "$TMP/beside.err"
rc=$?
check "beside: the sweep exits 0 ($(tail -1 "$TMP/beside.err"))" test $rc = 0
knee="trials k JOIN optima o ON k.sweep_id = o.sweep_id AND k.phase = 'final' AND json_extract(k.params, '\$.group_size') = json_extract(o.params, '\$.group_size') AND k.status = 'done'"
check "beside: g = 0 ran in the optimum's process, in the final" test "$(q "$bdb" "SELECT count(*) FROM $knee JOIN trials b ON b.batch = k.batch AND json_extract(b.params, '\$.group_size') = 0 AND b.phase = 'final' AND b.status = 'done'")" = 1
# chase_best_per_size reads g = 0 as scalar, as the tables do: this sweep
# lists no scalar variant, yet scalar's best is there.
check "beside: chase_best_per_size has scalar from g = 0 ($(q "$bdb" "SELECT group_concat(variant || ' g=' || group_size, ', ') FROM chase_best_per_size"))" \
	test "$(q "$bdb" "SELECT count(*) FROM chase_best_per_size WHERE variant = 'scalar' AND hint IS NULL AND group_size = 1")-$(q "$bdb" "SELECT count(*) FROM chase_best_per_size WHERE group_size = 0")" = 1-0
runs=$(q "$bdb" "SELECT min(sb.ns_per_lookup / sk.ns_per_lookup) || ' ' || max(sb.ns_per_lookup / sk.ns_per_lookup) || ' ' || count(*) FROM $knee JOIN trials tb ON tb.batch = k.batch AND json_extract(tb.params, '\$.group_size') = 0 JOIN samples sb ON sb.trial_id = tb.id AND sb.warmup = 0 JOIN samples sk ON sk.trial_id = k.id AND sk.run_id = sb.run_id AND sk.warmup = 0")
check "beside: the gain over scalar is stored paired, within its runs' own ratios (min max runs: $runs)" \
	test "$(q "$bdb" "SELECT json_extract(baseline_paired, '\$.ratio') BETWEEN ${runs%% *} AND $(echo "$runs" | cut -d' ' -f2) AND json_extract(baseline_paired, '\$.runs') = ${runs##* } FROM optima")" = 1
"$tune" results --platform tiny --db "$bdb" --format json --table headline > "$TMP/bh.json"
check "beside: the headline's gain is over scalar, run by run ($(q "$bdb" "SELECT json_extract(readfile('$TMP/bh.json'), '\$.sections[0].tables[0].rows[0][7]')"))" \
	test "$(q "$bdb" "SELECT json_extract(readfile('$TMP/bh.json'), '\$.sections[0].tables[0].rows[0][7].baseline') || ' ' || json_extract(readfile('$TMP/bh.json'), '\$.sections[0].tables[0].rows[0][7].paired') || ' ' || (round(json_extract(baseline_paired, '\$.ratio'), 3) = json_extract(readfile('$TMP/bh.json'), '\$.sections[0].tables[0].rows[0][7].ratio')) FROM optima")" = "scalar 1 1"
check "beside: the summary reads g = 0 as scalar, the g table has no g = 0" \
	sh -c "'$tune' results --platform tiny --db '$bdb' | grep -Eq '^4 MB +[0-9.]+ +[0-9.]+ +[0-9]+ ' && ! '$tune' results --platform tiny --db '$bdb' | sed -n '/^Group-size sweep/,/^\$/p' | grep -q '^0 '"
check "beside: the CSV has g = 0 as scalar rows, without a hint" test "$("$tune" export csv --db "$bdb" | grep -c '^scalar,4,8,1,none,')" -ge 3

# The header, as C and as C++.
"$tune" export header --platform tiny --db "$db" -o "$TMP/tuned_config.h"
check "export header exits 0" test $? = 0
for lang in "cc -std=c11" "c++ -std=c++11 -x c++"; do
	for sel in -DTUNED_PLATFORM_TINY ""; do
		echo '#include "tuned_config.h"
int main(void) { return TUNED_CHASE_GROUP_SIZE > 0 && tuned_chase_group_size_for(1) > 0 ? 0 : 1; }' > "$TMP/use.c"
		# shellcheck disable=SC2086
		check "header compiles: $lang $sel" $lang -Wall -Wextra -Werror -pedantic $sel -I"$TMP" -o "$TMP/use" "$TMP/use.c"
		check "header program runs: $lang $sel" "$TMP/use"
	done
done
check "group size is the optimum's" grep -q "#define TUNED_CHASE_GROUP_SIZE $(q "$db" "SELECT json_extract(params, '\$.group_size') FROM optima")\$" "$TMP/tuned_config.h"
check "header says where the value came from" grep -q "decided on host $(hostname)" "$TMP/tuned_config.h"

# Variant, hint and pages follow the size as g does: a second optimum (64 MB,
# interleaved without prefetch, huge pages) in a copy of the database.
cp "$db" "$TMP/sizes.db"
q "$TMP/sizes.db" "INSERT INTO optima (platform, host, fingerprint, kernel, context, size_class, variant, params, best_point, median, ci_low, ci_high, runner_up, trials, sweep_id, decided) SELECT platform, host, fingerprint, kernel, 'size_mb=64', 'dram', 'interleaved', json_object('variant', 'interleaved', 'size_mb', 64, 'hugepages', 'on', 'group_size', 7), 7, median, ci_low, ci_high, NULL, trials, sweep_id, decided FROM optima WHERE json_extract(params, '\$.size_mb') = 4"
"$tune" export header --platform tiny --db "$TMP/sizes.db" -o "$TMP/sizes.h" > /dev/null
cat > "$TMP/sizes.c" <<'C'
#include <stdio.h>
#include "sizes.h"
int main(void)
{
	unsigned long long mb[] = { 1, 4, 5, 64, 4096 };

	for (int i = 0; i < 5; i++)
		printf("%llu %lld %lld %lld %lld\n", mb[i], tuned_chase_group_size_for(mb[i] << 20),
		       tuned_chase_variant_for(mb[i] << 20), tuned_chase_hint_for(mb[i] << 20),
		       tuned_chase_hugepages_for(mb[i] << 20));
	return 0;
}
C
check "per-size header compiles" cc -std=c11 -Wall -Wextra -Werror -pedantic -I"$TMP" -o "$TMP/sizes" "$TMP/sizes.c"
row4=$(q "$TMP/sizes.db" "SELECT COALESCE(json_extract(params, '\$.group_size'), 0) || ' ' || (CASE variant WHEN 'scalar' THEN 0 WHEN 'scalar-prefetch' THEN 1 WHEN 'interleaved' THEN 2 ELSE 3 END) || ' ' || (CASE json_extract(params, '\$.hint') WHEN 'pldl1keep' THEN 0 WHEN 'pldl2keep' THEN 1 WHEN 'pldl3keep' THEN 2 WHEN 'pldl1strm' THEN 3 ELSE -1 END) || ' ' || (json_extract(params, '\$.hugepages') = 'on') FROM optima WHERE json_extract(params, '\$.size_mb') = 4")
check "each size gets its own row's g, variant, hint and pages" test "$("$TMP/sizes")" = "1 $row4
4 $row4
5 7 2 -1 1
64 7 2 -1 1
4096 7 2 -1 1"

# Two platforms in one header, each in its own block.
"$tune" run tests/data/sweeps/adaptive.yaml --platform tests/data/platforms/tiny-o3.yaml --db "$db" > /dev/null 2>&1
"$tune" export header --platform tiny --platform tiny-o3 --db "$db" -o "$TMP/two.h"
check "two-platform header" test "$(grep -c '^#define TUNED_PLATFORM_NAME' "$TMP/two.h")" = 2
for sel in -DTUNED_PLATFORM_TINY -DTUNED_PLATFORM_TINY_O3 -DTUNED_PLATFORM=TINY -DTUNED_PLATFORM=TINY_O3 ""; do
	printf '#include <stdio.h>\n#include "two.h"\nint main(void) { return puts(TUNED_PLATFORM_NAME) < 0; }\n' > "$TMP/two.c"
	check "two-platform header compiles with '$sel'" cc -std=c11 -Wall -Wextra -Werror -pedantic $sel -I"$TMP" -o "$TMP/two" "$TMP/two.c"
	case $sel in *O3) want=tiny-o3 ;; *) want=tiny ;; esac
	check "'$sel' selects $want" test "$("$TMP/two")" = "$want"
done
# Platforms whose names differ only where C cannot (tiny and Tiny) would
# define the same macros twice: refused, naming both, and nothing written.
sed 's/^name: tiny$/name: Tiny/' $plat > "$TMP/Tiny.yaml"
"$tune" run tests/data/sweeps/adaptive.yaml --platform "$TMP/Tiny.yaml" --db "$db" > /dev/null 2>&1
out=$("$tune" export header --platform tiny --platform Tiny --db "$db" -o "$TMP/clash.h" 2>&1)
check "platforms one C name apart are refused: exit 2 ($out)" test $? = 2
check "naming both and what to do" grep -q "platforms 'tiny' and 'Tiny' have the same name in C; export them to two headers" <<< "$out"
check "and no header written" test ! -e "$TMP/clash.h"
out=$("$tune" export header --platform Tiny --db "$db" -o "$TMP/one.h" 2>&1)
check "each alone exports ($out)" grep -q '^#define TUNED_PLATFORM_NAME "Tiny"' "$TMP/one.h"
# A platform the header does not have is an error, not a silent fallback.
for sel in -DTUNED_PLATFORM=EPCY -DTUNED_PLATFORM=1 -DTUNED_PLATFORM; do
	cc -std=c11 -Wall -Werror $sel -I"$TMP" -o "$TMP/two" "$TMP/two.c" 2> "$TMP/two.err"
	check "'$sel' is an #error naming the platforms" grep -q "TUNED_PLATFORM names none of this header's platforms (TINY, TINY_O3)" "$TMP/two.err"
done

# The example production program.
cp "$TMP/tuned_config.h" "$TMP/lookup_config.h"
mkdir -p "$TMP/example" && cp examples/lookup/*.c examples/lookup/*.h examples/lookup/Makefile "$TMP/example/"
cp "$TMP/tuned_config.h" "$TMP/example/tuned_config.h"
check "example builds" make -s -C "$TMP/example" CFLAGS="-O2 -I$src/kernels -I$src/kernels/sdk"
"$TMP/example/lookup" 4 > "$TMP/lookup.out"
check "example times the tuned lookups against scalar, side by side ($(cat "$TMP/lookup.out"))" \
	grep -Eq "^platform tiny: 4 MiB, [a-z-]+ g=[0-9]+ hint [a-z0-9]+: [0-9.]+ ns/lookup, scalar [0-9.]+ ns/lookup: [0-9.]+x \(median of 7 rounds, side by side\); checksum ok$" "$TMP/lookup.out"
check "example uses the header's variant, g and hint for its size" test "$(grep -o '[a-z-]* g=[0-9]* hint [a-z0-9]*' "$TMP/lookup.out")" = "$(q "$db" "SELECT o.variant || ' g=' || json_extract(o.params, '\$.group_size') || ' hint ' || COALESCE(json_extract(o.params, '\$.hint'), 'none') FROM optima o WHERE o.platform = 'tiny' AND o.kernel = 'chase' AND json_extract(o.params, '\$.size_mb') >= 4 ORDER BY json_extract(o.params, '\$.size_mb') LIMIT 1")"

# --check: fresh, then stale by fingerprint, then stale by newer optima.
out=$("$tune" export header --check "$TMP/tuned_config.h" --db "$db" 2>&1)
check "fresh header passes --check ($out)" test $? = 0
# A run of the finished sweep measures nothing and decides nothing new.
decided=$(q "$db" "SELECT group_concat(decided || id, ',') FROM optima")
sleep 1
"$tune" run tests/data/sweeps/adaptive.yaml --platform $plat --db "$db" > /dev/null 2> "$TMP/again.err"
check "the finished sweep again: already complete ($(tail -1 "$TMP/again.err"))" grep -q "is already complete" "$TMP/again.err"
check "and its optima are as they were, decision times too" test "$(q "$db" "SELECT group_concat(decided || id, ',') FROM optima")" = "$decided"
out=$("$tune" export header --check "$TMP/tuned_config.h" --db "$db" 2>&1)
check "and the header is still fresh ($out)" test $? = 0
sed 's/^#define TUNED_HOST_FINGERPRINT ".*"/#define TUNED_HOST_FINGERPRINT "0000000000000000"/' "$TMP/tuned_config.h" > "$TMP/other.h"
out=$("$tune" export header --check "$TMP/other.h" --db "$db" 2>&1)
rc=$?
check "other fingerprint is stale (exit 7)" test $rc = 7
check "stale message names the fingerprint" grep -q "this host's fingerprint is" <<< "$out"
sleep 1
"$tune" run tests/data/sweeps/adaptive.yaml --platform $plat --db "$db" --fresh > /dev/null 2>&1
out=$("$tune" export header --check "$TMP/tuned_config.h" --db "$db" 2>&1)
rc=$?
check "newer optima make it stale (exit 7)" test $rc = 7
check "stale message says newer optima" grep -q "newer optima exist" <<< "$out"
out=$("$tune" export header --check "$TMP/use.c" --db "$db" 2>&1)
check "a file that is no header is refused" test $? = 2

# JSON.
check "header: the optimum against its runner-up, as the headline says it" grep -qE '^/\* against the runner-up \(.*\): (knee|tie|ahead), ' "$TMP/tuned_config.h"
"$tune" export json --platform tiny --db "$db" -o "$TMP/optima.json"
check "json exits 0" test $? = 0
check "json is valid, versioned, names the host" test "$(q "$db" "SELECT json_extract(readfile('$TMP/optima.json'), '\$.version') || ' ' || json_extract(readfile('$TMP/optima.json'), '\$.platforms[0].host')")" = "1 $(hostname)"

# An interrupted adaptive search resumes from its state to an optimum (an
# anchor it stored but never measured is dropped, not left pending).
db=$TMP/resume.db
killed_runs "$db" tests/data/sweeps/adaptive.yaml
# As a kill between storing a round and measuring it leaves one:
q "$db" "INSERT INTO trials (sweep_id, trial_key, kernel, variant, phase, work, seed, runs, warmup, params, context)
	SELECT sweep_id, trial_key || '/anchor999', kernel, variant, 'anchor', work, seed, runs, warmup, params, context
	FROM trials WHERE phase = 'search' LIMIT 1"
"$tune" run tests/data/sweeps/adaptive.yaml --platform $plat --db "$db" > /dev/null 2> "$TMP/err9"
rc=$?
check "resumed adaptive sweep exits 0 ($(tail -1 "$TMP/err9")) (rc $rc)" test $rc = 0
check "resumed: one sweep" test "$(q "$db" "SELECT count(*) FROM sweeps")" = 1
check "resumed: optimum recorded" test "$(q "$db" "SELECT count(*) FROM optima")" = 1
check "resumed: no trial without its samples" test "$(q "$db" "SELECT count(*) FROM trials t WHERE status = 'done' AND NOT EXISTS (SELECT 1 FROM samples s WHERE s.trial_id = t.id)")" = 0
check "resumed: nothing left pending" test "$(q "$db" "SELECT count(*) FROM trials WHERE status != 'done'")" = 0

e2e_done export
