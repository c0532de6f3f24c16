#!/usr/bin/env bash
# Benchmark: the search strategies replayed against a recorded grid (tune
# replay). Records every g in [1, G_MAX] of the chase at one working set (one
# hint, 4 KiB pages, 9 runs each; 64 group sizes per kernel process) and a
# bridge of every eighth g (every G_MAX/64th past G_MAX 512: 64 at most) in
# one process (15 runs), to which each of those
# processes is scaled, so that the record reads as if measured side by side.
# G_MAX is chase-tune's own list_max, 1024, by default: the range the tool
# searches. Then replays an adaptive search over [1, G_MAX], the grid and
# a random sample of the adaptive search's size over many seeds (and the
# adaptive search started where the probe's Little's law bounds put g), with no
# drift and with a drift of 10% and 20% per kernel process. Prints how often
# each decision lands in the plateau, the search trials, and the measuring
# time against one pass of the grid; then Optuna's TPE on the same objective
# (bench/replay_tpe.py), at budgets of 3 to 80 trials.
# usage: bench/replay.sh [path/to/tune] [size_mb] [seeds] [list_max]   (default build/tune, 512, 200, 1024)
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
tune=${1:-$src/build/tune}
size=${2:-512}
seeds=${3:-200}
gmax=${4:-1024}
step=$((gmax / 64 > 8 ? gmax / 64 : 8))
dir=$(mktemp -d)
db=$dir/replay.db
params="params:
  variant: [interleaved-prefetch]
  size_mb: [$size]
  hint: [pldl1keep]
  hugepages: [off]
  depth: 12
  queries: 500000"
grid() { # name runs group sizes
	printf 'name: %s\nkernel: chase\nstrategy: grid\nrecord_optima: false\nruns: %s\nwarmup: 1\nseed: 42\ntimeout_s: 3000\n%s\n  group_size: [%s]\n' \
		"$1" "$2" "$params" "$3"
}
grid replay-grid 9 "$(seq -s, 1 "$gmax")" > "$dir/grid.yaml"
grid replay-bridge 15 "$(seq -s, "$step" "$step" "$gmax")" > "$dir/bridge.yaml"
printf 'name: replay-adaptive\nkernel: chase\nstrategy: adaptive\nruns: 9\nwarmup: 1\nseed: 42\nlist_min: 1\nlist_max: %s\ntolerance_pct: 2\nfinal_top: 3\n%s\n' \
	"$gmax" "$params" > "$dir/adaptive.yaml"
"$tune" run "$dir/grid.yaml" --platform local --db "$db" > /dev/null
"$tune" run "$dir/bridge.yaml" --platform local --db "$db" > /dev/null
# The probe's Little's law bounds on g (measured as the grid started, when
# its working set reaches the probe's): the adaptive search again, started
# there, as a sweep on this host starts it.
start=$(sqlite3 "$db" "SELECT CAST(lo.value AS INTEGER) || ',' || CAST(round(hi.value) AS INTEGER) FROM host_probes lo
	JOIN host_probes hi ON hi.host_id = lo.host_id AND hi.field = 'g_high/hugepages=off'
	WHERE lo.field = 'g_low/hugepages=off' AND lo.value >= 1 AND lo.value <= hi.value")
for drift in 0 10 20; do
	echo "== drift $drift% per kernel process"
	"$tune" replay "$dir/adaptive.yaml" --from replay-grid --bridge replay-bridge --db "$db" --seeds "$seeds" \
		--drift "$drift" ${start:+--start "$start"}
	echo
done
# Optuna's TPE (python3-optuna) on the same objective, when it is installed.
if /usr/bin/python3 -c "import optuna" 2> /dev/null; then
	for drift in 0 10; do
		/usr/bin/python3 "$src/bench/replay_tpe.py" "$tune" "$dir/adaptive.yaml" replay-grid replay-bridge "$db" 1 "$gmax" \
			"$seeds" "$drift" 3 5 8 10 12 15 20 40 80
		echo
	done
else
	echo "(no python3-optuna: apt-get install python3-optuna for the TPE comparison)"
fi
echo "database: $db"
