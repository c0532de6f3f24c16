#!/usr/bin/env bash
# Benchmark: the exhaustive grid over g in [1, 1024] against the adaptive
# search on the same working set, in one session. Reports the fraction of the
# grid's time in kernels that the adaptive search used, and the ratio of the
# median ns/lookup of its chosen g to that of the grid's best, both measured
# again side by side in one kernel process (so drift between the two sweeps
# does not enter the ratio).
# usage: bench/search.sh [path/to/tune] [size_mb]   (default build/tune, 512)
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
tune=${1:-$src/build/tune}
size=${2:-512}
dir=$(mktemp -d)
db=$dir/bench.db
common="kernel: chase
list_min: 1
list_max: 1024
runs: 3
warmup: 1
seed: 42
timeout_s: 3000"
# The chase's parameters, and (for the grids) the group sizes measured.
params() {
	printf 'params:\n  variant: [interleaved-prefetch]\n  size_mb: [%s]\n  hint: [pldl1keep]\n  depth: 12\n' "$size"
	printf '  queries: 200000\n'
	[ -z "${1:-}" ] || printf '  group_size: [%s]\n' "$1"
}
printf 'name: bench-grid\nstrategy: grid\nrecord_optima: false\n%s\n%s\n' "$common" "$(params "$(seq -s, 1 1024)")" \
	> "$dir/grid.yaml"
printf 'name: bench-adaptive\nstrategy: adaptive\nfinal_top: 3\n%s\n%s\n' "$common" "$(params)" > "$dir/adaptive.yaml"
"$tune" run "$dir/grid.yaml" --platform local --db "$db" > /dev/null
"$tune" run "$dir/adaptive.yaml" --platform local --db "$db" > /dev/null
grid_ns=$(sqlite3 "$db" "SELECT measure_ns FROM sweeps WHERE name = 'bench-grid'")
read -r best_g adapt_g adapt_ns trials <<< "$(sqlite3 -separator ' ' "$db" "SELECT best_point, json_extract(o.params, '$.group_size'), measure_ns, (SELECT count(*) FROM trials WHERE sweep_id = s.id) FROM sweeps s JOIN optima o ON o.sweep_id = s.id WHERE s.name = 'bench-adaptive'")"
grid_best=$(sqlite3 "$db" "SELECT json_extract(t.params, '$.group_size') FROM trials t JOIN trial_summary m ON m.trial_id = t.id JOIN sweeps s ON s.id = t.sweep_id WHERE s.name = 'bench-grid' ORDER BY m.median LIMIT 1")
printf 'name: bench-compare\nstrategy: grid\nrecord_optima: false\n%s\n%s\n' \
	"$(sed -e 's/^runs: 3/runs: 15/' <<< "$common")" \
	"$(params "$(printf '%s\n' "$grid_best" "$adapt_g" | sort -un | paste -sd,)")" > "$dir/compare.yaml"
"$tune" run "$dir/compare.yaml" --platform local --db "$db" > /dev/null
sqlite3 "$db" "
SELECT printf('grid: 1024 trials, best g=%d, %.1f s in kernels', $grid_best, $grid_ns / 1e9);
SELECT printf('adaptive: %d trials, fastest g=%d, chosen (knee) g=%d, %.1f s in kernels', $trials, $best_g, $adapt_g, $adapt_ns / 1e9);
SELECT printf('adaptive time / grid time: %.1f%%', 100.0 * $adapt_ns / $grid_ns);
SELECT printf('side by side, 15 runs: g=%d %.2f ns/lookup, g=%d %.2f ns/lookup: chosen / grid best = %.3f',
       $grid_best, (SELECT m.median FROM trials t JOIN trial_summary m ON m.trial_id = t.id JOIN sweeps s ON s.id = t.sweep_id WHERE s.name = 'bench-compare' AND json_extract(t.params, '$.group_size') = $grid_best),
       $adapt_g, (SELECT m.median FROM trials t JOIN trial_summary m ON m.trial_id = t.id JOIN sweeps s ON s.id = t.sweep_id WHERE s.name = 'bench-compare' AND json_extract(t.params, '$.group_size') = $adapt_g),
       (SELECT m.median FROM trials t JOIN trial_summary m ON m.trial_id = t.id JOIN sweeps s ON s.id = t.sweep_id WHERE s.name = 'bench-compare' AND json_extract(t.params, '$.group_size') = $adapt_g) /
       (SELECT m.median FROM trials t JOIN trial_summary m ON m.trial_id = t.id JOIN sweeps s ON s.id = t.sweep_id WHERE s.name = 'bench-compare' AND json_extract(t.params, '$.group_size') = $grid_best));"
echo "database: $db"
