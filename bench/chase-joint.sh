#!/usr/bin/env bash
# Benchmark: the joint search (strategy joint) against a search of g in every
# context (strategy adaptive), on the chase at one working set with 4 prefetch
# hints x 2 page sizes x g in [1, 1024]. TUNES re-tunes with joint and
# ATUNES with adaptive, each into its own database: the choice, the kernel
# processes it took (each builds the working set anew) and its time. Then
# a grid of g in all 8 contexts, measured in two passes whose processes run
# in opposite orders (so that a drift across a pass falls on each context
# once early and once late), every choice's g among its points: a point's
# figure is the geometric mean of its two medians. Prints each choice's
# ratio to the fastest point of that grid and whether it lies in the 2%
# plateau.
# usage: bench/chase-joint.sh [path/to/tune] [size_mb] [tunes] [atunes] [queries]
#        (default build/tune, 512, 5, 2, 100000)
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
tune=${1:-$src/build/tune}
size=${2:-512}
tunes=${3:-5}
atunes=${4:-2}
queries=${5:-100000}
dir=$(mktemp -d)
hints="pldl1keep, pldl2keep, pldl3keep, pldl1strm"
sweep() { # name strategy hints pages [group sizes]
	printf 'name: %s\nkernel: chase\nstrategy: %s\nrecord_optima: %s\nseed: 42\ntimeout_s: 3000\n' "$1" "$2" \
		"$([ "$2" = grid ] && echo false || echo true)"
	printf 'g_min: 1\ng_max: 1024\ntolerance_pct: 2\nfinal_top: 3\nruns: %s\nwarmup: 1\nmax_runs: %s\nci_target_pct: 2\n' \
		"$([ "$2" = grid ] && echo 7 || echo 5)" "$([ "$2" = grid ] && echo 7 || echo 15)"
	printf 'params:\n  variant: [interleaved-prefetch]\n  size_mb: [%s]\n  hint: [%s]\n  hugepages: [%s]\n' \
		"$size" "$3" "$4"
	printf '  depth: 12\n  queries: %s\n' "$queries"
	[ -z "${5:-}" ] || printf '  group_size: [%s]\n' "$5"
}
# One tune: "strategy i hint hugepages g seconds batches processes".
one() {
	local db=$dir/$1$2.db
	sweep "bench-$1" "$1" "$hints" "off, on" > "$dir/$1.yaml"
	"$tune" run "$dir/$1.yaml" --platform local --db "$db" > /dev/null 2> "$dir/$1$2.err"
	sqlite3 -separator ' ' "$db" "SELECT '$1', $2, json_extract(o.params, '$.hint'),
		CASE json_extract(o.params, '$.hugepages') WHEN 1 THEN 'on' ELSE 'off' END,
		json_extract(o.params, '$.group_size'),
		CAST(round((julianday(s.finished) - julianday(s.started)) * 86400) AS INTEGER),
		(SELECT count(DISTINCT batch) FROM trials t WHERE t.sweep_id = s.id),
		(SELECT count(*) FROM samples x JOIN trials t ON t.id = x.trial_id
		 WHERE t.sweep_id = s.id AND x.warmup = 1 AND t.id = t.batch)
		FROM optima o JOIN sweeps s ON s.id = o.sweep_id"
}
for i in $(seq 1 "$tunes"); do one joint "$i" | tee -a "$dir/tunes" >&2; done
for i in $(seq 1 "$atunes"); do one adaptive "$i" | tee -a "$dir/tunes" >&2; done
grid=$( (for g in 8 11 16 23 32 45 64 91 128 181 256 362 512 724 1024; do echo "$g"; done
	awk '{ print $5 }' "$dir/tunes") | sort -un | paste -sd, -)
sweep bench-joint-grid grid "$hints" "off, on" "$grid" > "$dir/grid1.yaml"
sweep bench-joint-grid grid "pldl1strm, pldl3keep, pldl2keep, pldl1keep" "on, off" "$grid" > "$dir/grid2.yaml"
for pass in 1 2; do
	"$tune" run "$dir/grid$pass.yaml" --platform local --db "$dir/grid$pass.db" > /dev/null 2> "$dir/grid$pass.err"
	sqlite3 -separator ' ' "$dir/grid$pass.db" "SELECT json_extract(t.params, '$.hint'),
		CASE json_extract(t.params, '$.hugepages') WHEN 1 THEN 'on' ELSE 'off' END,
		json_extract(t.params, '$.group_size'), m.median
		FROM trials t JOIN trial_summary m ON m.trial_id = t.id WHERE t.status = 'done'" | sort > "$dir/side$pass"
done
join -j1 <(awk '{ print $1 "/" $2 "/" $3, $4 }' "$dir/side1") <(awk '{ print $1 "/" $2 "/" $3, $4 }' "$dir/side2") |
	awk '{ print $1, sqrt($2 * $3), $2 / $3 }' > "$dir/side"
read -r best best_ns <<< "$(sort -k2 -g "$dir/side" | head -1)"
echo "grid of 8 contexts x g, two passes in opposite orders: fastest $best at $best_ns ns/lookup;" \
	"the passes' medians of a point differ by a median factor of" \
	"$(awk '{ r = $3 < 1 ? 1 / $3 : $3; print r }' "$dir/side" | sort -g | awk '{ a[NR] = $1 } END { printf "%.3f", a[int((NR + 1) / 2)] }')"
echo "within 2% of it: $(awk -v b="$best_ns" '$2 <= 1.02 * b { print $1 }' "$dir/side" | paste -sd' ' -)"
printf '%-9s %-3s %-10s %-5s %5s %8s %8s %9s %7s %s\n' strategy run hint pages g ratio plateau processes batches seconds
while read -r strat i hint pages g secs batches procs; do
	ns=$(awk -v k="$hint/$pages/$g" '$1 == k { print $2 }' "$dir/side")
	ratio=$(awk -v a="$ns" -v b="$best_ns" 'BEGIN { printf "%.3f", a / b }')
	in=$(awk -v r="$ratio" 'BEGIN { print (r <= 1.02 ? "yes" : "no") }')
	printf '%-9s %-3s %-10s %-5s %5s %8s %8s %9s %7s %s\n' "$strat" "$i" "$hint" "$pages" "$g" "$ratio" "$in" "$procs" \
		"$batches" "$secs"
done < "$dir/tunes"
awk '{ p[$1] += $8; n[$1]++ } END { for (s in p) printf "%s: %.1f kernel processes per tune\n", s, p[s] / n[s] }' "$dir/tunes"
echo "databases and logs: $dir"
