#!/usr/bin/env bash
# Benchmark: does the tuned g reproduce? N independent tunes of the chase at
# one working set (chase-tune's settings, one hint, 4 KiB pages), each into
# its own database, then every chosen g measured side by side with a grid of
# g in one kernel process (7 runs, interleaved). Prints each choice's ratio to
# the fastest g of that measurement, whether it lies in the plateau (within
# 2% of the fastest), the plateau itself and the time each tune took.
# usage: bench/retune.sh [path/to/tune] [size_mb] [tunes]   (default build/tune, 512, 5)
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
tune=${1:-$src/build/tune}
size=${2:-512}
tunes=${3:-5}
dir=$(mktemp -d)
# chase-tune (sweeps/chase-tune.yaml) at one working set, one hint, 4 KiB pages.
sed -e '/^quick:/,$d' -e 's/^name: chase-tune/name: bench-retune/' \
	-e "s/^  variant: .*/  variant: [interleaved-prefetch]\n  size_mb: [$size]\n  hint: [pldl1keep]\n  hugepages: [off]/" \
	"$src/sweeps/chase-tune.yaml" > "$dir/tune.yaml"
choices=()
for i in $(seq 1 "$tunes"); do
	"$tune" run "$dir/tune.yaml" --platform local --db "$dir/tune$i.db" > /dev/null 2> "$dir/tune$i.err"
	read -r g secs trials <<< "$(sqlite3 -separator ' ' "$dir/tune$i.db" "SELECT json_extract(o.params, '$.group_size'),
		CAST(round((julianday(s.finished) - julianday(s.started)) * 86400) AS INTEGER),
		(SELECT count(*) FROM trials t WHERE t.sweep_id = s.id AND t.phase = 'search')
		FROM optima o JOIN sweeps s ON s.id = o.sweep_id")"
	choices+=("$g")
	echo "tune $i: g=$g, $secs s, $trials search trials" >&2
	echo "$i $g $secs $trials" >> "$dir/tunes"
done
grid=$( (for g in 16 19 23 27 32 38 45 54 64 76 91 108 128 152 181 215 256; do echo "$g"; done
	printf '%s\n' "${choices[@]}") | sort -un | paste -sd, -)
cat > "$dir/compare.yaml" <<YAML
name: bench-retune-compare
kernel: chase
strategy: grid
record_optima: false
runs: 7
warmup: 1
seed: 42
timeout_s: 3000
params:
  variant: [interleaved-prefetch]
  size_mb: [$size]
  hint: [pldl1keep]
  hugepages: [off]
  depth: 12
  queries: 500000
  group_size: [$grid]
YAML
"$tune" run "$dir/compare.yaml" --platform local --db "$dir/compare.db" > /dev/null 2> "$dir/compare.err"
sqlite3 -separator ' ' "$dir/compare.db" "SELECT json_extract(t.params, '$.group_size'), m.median FROM trials t JOIN trial_summary m ON m.trial_id = t.id
	ORDER BY json_extract(t.params, '$.group_size')" > "$dir/side"
best=$(sort -k2 -g "$dir/side" | head -1)
read -r best_g best_ns <<< "$best"
plateau=$(awk -v b="$best_ns" '$2 <= 1.02 * b { print $1 }' "$dir/side" | paste -sd' ' -)
echo "side by side (7 runs, one process): fastest g=$best_g at $best_ns ns/lookup; within 2%: g = $plateau"
inside=0
while read -r i g secs trials; do
	ns=$(awk -v g="$g" '$1 == g { print $2 }' "$dir/side")
	ratio=$(awk -v a="$ns" -v b="$best_ns" 'BEGIN { printf "%.3f", a / b }')
	in=$(awk -v r="$ratio" 'BEGIN { print (r <= 1.02) ? "inside" : "OUTSIDE" }')
	[ "$in" = inside ] && inside=$((inside + 1))
	echo "tune $i: g=$g in $secs s ($trials search trials): ${ratio}x of the fastest, $in the plateau"
done < "$dir/tunes"
echo "$inside of $tunes choices inside the 2% plateau; choices: $(printf '%s ' "${choices[@]}")"
echo "databases: $dir"
