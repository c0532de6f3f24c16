#!/usr/bin/env bash
# tune replay end to end: a grid of g = 1..96 recorded by a real sweep (two
# kernel processes) and a bridge of every eighth g in one process, then an
# adaptive sweep of the same parameters replayed against those runs for
# every strategy: both processes scaled to the bridge, a row each, the grid
# measuring every point, the adaptive search fewer, the same table for the
# same seeds; and the errors (no such recording, a bad number, an unknown
# strategy) say so.
tune=$1
# shellcheck source=tests/e2e/lib.sh
source "$(dirname "$0")/lib.sh"
db=$TMP/replay.db
params="params:
  variant: [interleaved-prefetch]
  size_mb: [1]
  hint: [pldl1keep]
  hugepages: [off]
  depth: 4
  queries: 2000"
printf 'name: rec-grid\nkernel: chase\nstrategy: grid\nrecord_optima: false\nruns: 5\nwarmup: 1\n%s\n  group_size: [%s]\n' \
	"$params" "$(seq -s, 1 96)" > "$TMP/grid.yaml"
sed -e 's/^name: rec-grid/name: rec-bridge/' -e "s/group_size: .*/group_size: [$(seq -s, 8 8 96)]/" "$TMP/grid.yaml" > "$TMP/bridge.yaml"
printf 'name: rec-adaptive\nkernel: chase\nstrategy: adaptive\nruns: 5\nwarmup: 1\nlist_min: 1\nlist_max: 96\n%s\n' \
	"$params" > "$TMP/adaptive.yaml"
"$tune" run "$TMP/grid.yaml" --platform $plat --db "$db" > /dev/null 2> "$TMP/rec.err"
"$tune" run "$TMP/bridge.yaml" --platform $plat --db "$db" > /dev/null 2>> "$TMP/rec.err"
check "the grid and the bridge are recorded ($(tail -1 "$TMP/rec.err"))" test "$(q "$db" "SELECT count(*) || ' ' || count(DISTINCT batch) FROM trials WHERE status = 'done'")" = "108 3"

"$tune" replay "$TMP/adaptive.yaml" --from rec-grid --bridge rec-bridge --platform $plat --db "$db" --seeds 30 > "$TMP/out" 2> "$TMP/err"
rc=$?
check "replay exits 0 (rc $rc: $(cat "$TMP/err"))" test $rc = 0
check "it names what it replays and the record's plateau" sh -c "grep -q \"sweep 'rec-adaptive' replayed against 'rec-grid': 96 of its 96 points recorded, 480 runs; 30 seeds\" '$TMP/out' && grep -q '^recorded: best at [0-9]*; the plateau' '$TMP/out'"
check "both kernel processes of the record scaled to the bridge" grep -q "the record's kernel processes scaled to 'rec-bridge': 2 of 2" "$TMP/out"
row() { awk -v s="$1" '$1 == s' "$TMP/out"; }
check "a row per strategy" test "$(grep -cE '^(grid|random|adaptive) ' "$TMP/out")" = 3
check "grid: every point, a decision per seed ($(row grid))" test "$(row grid | awk '{ print $5 }') $(row grid | sed -n 's|.*/\([0-9]*\)).*|\1|p')" = "96.0 30"
check "grid: two kernel processes of 64 points at most, then its final ($(row grid | awk '{ print $8 }'))" test "$(row grid | awk '{ print $8 }')" = 3.0
adaptive=$(row adaptive | awk '{ print $5 }')
check "adaptive: fewer trials than the grid ($adaptive)" awk -v a="$adaptive" 'BEGIN { exit !(a > 0 && a < 96) }'
check "adaptive: fewer kernel processes than search trials ($(row adaptive | awk '{ print $8 " < " $5 }'))" awk -v p="$(row adaptive | awk '{ print $8 }')" -v a="$adaptive" 'BEGIN { exit !(p > 0 && p < a) }'
check "random: the adaptive search's budget ($(row random))" awk -v r="$(row random | awk '{ print $5 }')" -v a="$adaptive" 'BEGIN { d = r - a; exit !(d <= 0.55 && d >= -0.55) }'
"$tune" replay "$TMP/adaptive.yaml" --from rec-grid --bridge rec-bridge --platform $plat --db "$db" --seeds 30 > "$TMP/out2" 2>&1
check "the same seeds, the same table" cmp -s "$TMP/out" "$TMP/out2"
"$tune" replay "$TMP/adaptive.yaml" --from rec-grid --platform $plat --db "$db" --seeds 30 --drift 0 --strategies adaptive > "$TMP/out3" 2>&1
check "--strategies adaptive: that row alone" test "$(grep -cE '^(grid|random|adaptive) ' "$TMP/out3")" = 1
# --start: the adaptive search again, started in a range, as a probe's
# bounds start it: a row of its own, fewer trials than the full probe.
"$tune" replay "$TMP/adaptive.yaml" --from rec-grid --platform $plat --db "$db" --seeds 30 --drift 0 --strategies adaptive \
	--start 16,48 > "$TMP/out4" 2>&1
started=$(awk '$1 == "started" { print $5 }' "$TMP/out4")
full=$(awk '$1 == "adaptive" { print $5 }' "$TMP/out4")
check "--start: a started row, fewer trials than the full probe ($started against $full)" \
	awk -v s="$started" -v f="$full" 'BEGIN { exit !(s > 0 && s < f) }'
out=$("$tune" replay "$TMP/adaptive.yaml" --from rec-grid --db "$db" --start 48,16 2>&1)
check "--start HI below LO: exit 2, naming the option ($out)" grep -q "option '--start': '48,16' is not LO,HI" <<< "$out"

out=$("$tune" replay "$TMP/adaptive.yaml" --from no-such --platform $plat --db "$db" 2>&1)
rc=$?
check "no such recording: exit 10 (rc $rc)" test $rc = 10
check "no such recording: says so, naming it ($out)" grep -q "no runs of sweep 'no-such'" <<< "$out"
out=$("$tune" replay "$TMP/adaptive.yaml" --from rec-grid --seeds lots --db "$db" 2>&1)
rc=$?
check "a bad number: exit 2, naming the option ($out)" grep -q "option '--seeds': 'lots' is not a number" <<< "$out"
check "a bad number: exit 2 (rc $rc)" test $rc = 2
out=$("$tune" replay "$TMP/adaptive.yaml" --from rec-grid --strategies tpe --db "$db" 2>&1)
rc=$?
check "an unknown strategy: exit 2 (rc $rc)" test $rc = 2
check "an unknown strategy: says which ($out)" grep -q "'tpe' is not a strategy" <<< "$out"
e2e_done replay
