#!/usr/bin/env bash
# Benchmark: the joint search (strategy joint) against a search of g in every
# context (strategy adaptive), on the chase at one working set with 4 prefetch
# hints x 2 page sizes x g in [1, 1024]. TUNES re-tunes with joint and
# ATUNES with adaptive, each into its own database: the choice, the kernel
# processes it took (each builds the working set anew) and its time. Then
# a grid of g in all 8 contexts, measured in PASSES passes whose processes
# run in alternating orders (so that a drift across a pass falls on each
# context early and late), every choice's g among its points: a point's
# figure is the median of its passes' medians, its ratio to the fastest the
# median over passes of the two measured in the same pass. Prints each
# choice's ratio and whether it lies in the 2% plateau.
# usage: bench/chase-joint.sh [path/to/tune] [size_mb] [tunes] [atunes] [queries] [passes]
#        (default build/tune, 512, 5, 2, 100000, 9)
#        bench/chase-joint.sh --again DIR   (the tables again from a run's databases)
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
tune=${1:-$src/build/tune}
size=${2:-512}
tunes=${3:-5}
atunes=${4:-2}
queries=${5:-100000}
passes=${6:-9}
again=
[ "${1:-}" = --again ] && again=$2 && set --
dir=${again:-$(mktemp -d)}
hints="pldl1keep, pldl2keep, pldl3keep, pldl1strm"
sweep() { # name strategy hints pages [group sizes]
	printf 'name: %s\nkernel: chase\nstrategy: %s\nrecord_optima: %s\nseed: 42\ntimeout_s: 3000\n' "$1" "$2" \
		"$([ "$2" = grid ] && echo false || echo true)"
	printf 'list_min: 1\nlist_max: 1024\ntolerance_pct: 2\nfinal_top: 3\nruns: %s\nwarmup: 1\nmax_runs: %s\nci_target_pct: 2\n' \
		"$([ "$2" = grid ] && echo 7 || echo 5)" "$([ "$2" = grid ] && echo 7 || echo 15)"
	printf 'params:\n  variant: [interleaved-prefetch]\n  size_mb: [%s]\n  hint: [%s]\n  hugepages: [%s]\n' \
		"$size" "$3" "$4"
	printf '  depth: 12\n  queries: %s\n' "$queries"
	[ -z "${5:-}" ] || printf '  group_size: [%s]\n' "$5"
}
# One tune: "strategy i hint hugepages g seconds batches processes".
one() {
	sweep "bench-$1" "$1" "$hints" "off, on" > "$dir/$1.yaml"
	"$tune" run "$dir/$1.yaml" --platform local --db "$dir/$1$2.db" > /dev/null 2> "$dir/$1$2.err"
	tunes_of "$1" "$2"
}
tunes_of() {
	sqlite3 -separator ' ' "$dir/$1$2.db" "SELECT '$1', $2, json_extract(o.params, '$.hint'),
		json_extract(o.params, '$.hugepages'),
		json_extract(o.params, '$.group_size'),
		CAST(round((julianday(s.finished) - julianday(s.started)) * 86400) AS INTEGER),
		(SELECT count(DISTINCT batch) FROM trials t WHERE t.sweep_id = s.id),
		(SELECT count(*) FROM samples x JOIN trials t ON t.id = x.trial_id
		 WHERE t.sweep_id = s.id AND x.warmup = 1 AND t.id = t.batch)
		FROM optima o JOIN sweeps s ON s.id = o.sweep_id"
}
if [ -n "$again" ]; then
	: > "$dir/tunes"
	for db in "$dir"/joint*.db "$dir"/adaptive*.db; do
		i=${db##*/}; i=${i%.db}; s=${i%%[0-9]*}; i=${i#"$s"}
		tunes_of "$s" "$i" >> "$dir/tunes"
	done
else
	for i in $(seq 1 "$tunes"); do one joint "$i" | tee -a "$dir/tunes" >&2; done
	for i in $(seq 1 "$atunes"); do one adaptive "$i" | tee -a "$dir/tunes" >&2; done
fi
[ -n "$again" ] || grid=$( (for g in 8 11 16 23 32 45 64 91 128 181 256 362 512 724 1024; do echo "$g"; done
	awk '{ print $5 }' "$dir/tunes") | sort -un | paste -sd, -)
if [ -z "$again" ]; then
	sweep bench-joint-grid grid "$hints" "off, on" "$grid" > "$dir/grid1.yaml"
	sweep bench-joint-grid grid "pldl1strm, pldl3keep, pldl2keep, pldl1keep" "on, off" "$grid" > "$dir/grid2.yaml"
fi
[ -z "$again" ] || passes=$(find "$dir" -name 'pass*.db' | wc -l)
for pass in $(seq 1 "$passes"); do
	[ -n "$again" ] || "$tune" run "$dir/grid$((2 - pass % 2)).yaml" --platform local --db "$dir/pass$pass.db" \
		> /dev/null 2> "$dir/pass$pass.err"
	sqlite3 -separator ' ' "$dir/pass$pass.db" "SELECT json_extract(t.params, '$.hint'),
		json_extract(t.params, '$.hugepages'),
		json_extract(t.params, '$.group_size'), m.median
		FROM trials t JOIN trial_summary m ON m.trial_id = t.id WHERE t.status = 'done'" |
		awk -v p="$pass" '{ print $1 "/" $2 "/" $3, $4, p }'
done > "$dir/points"
# A point's figure: the median of its passes; the fastest point: the least
# figure; a point's ratio: the median over passes of its median over the
# fastest's in the same pass (a pass that ran slow in one spell moves one
# of its ratios, not the verdict); its spread: its largest over its smallest.
awk '{ v[$1, $3] = $2; k[$1] = 1; p[$3] = 1 }
	function median(a, n,   i, j, t) {
		for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j] < a[j - 1]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
		return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
	END {
		for (x in k) { n = 0; for (q in p) if ((x, q) in v) a[++n] = v[x, q]
			fig[x] = median(a, n); spread[x] = a[n] / a[1]
			if (best == "" || fig[x] < fig[best]) best = x }
		for (x in k) { n = 0; for (q in p) if ((x, q) in v && (best, q) in v) a[++n] = v[x, q] / v[best, q]
			print x, fig[x], spread[x], median(a, n) }
	}' "$dir/points" | sort > "$dir/side"
read -r best best_ns _ <<< "$(sort -k2 -g "$dir/side" | head -1)"
echo "grid of 8 contexts x g, $passes passes in alternating orders: fastest $best at $best_ns ns/lookup;" \
	"a point's passes spread by a median factor of" \
	"$(awk '{ print $3 }' "$dir/side" | sort -g | awk '{ a[NR] = $1 } END { printf "%.3f", a[int((NR + 1) / 2)] }')"
echo "each context's fastest point (ns/lookup): $(awk '{ split($1, k, "/"); c = k[1] "/" k[2]
	if (!(c in b) || $2 < b[c]) { b[c] = $2; g[c] = k[3] } } END { for (c in b) printf "%s/%s %.1f\n", c, g[c], b[c] }' \
	"$dir/side" | sort -k2 -g | paste -sd' ' -)"
echo "within 2% of it: $(awk '$4 <= 1.02 { print $1 }' "$dir/side" | paste -sd' ' -)"
printf '%-9s %-3s %-10s %-5s %5s %8s %8s %9s %7s %s\n' strategy run hint pages g ratio plateau processes batches seconds
while read -r strat i hint pages g secs batches procs; do
	ratio=$(awk -v k="$hint/$pages/$g" '$1 == k { printf "%.3f", $4 }' "$dir/side")
	in=$(awk -v r="$ratio" 'BEGIN { print (r <= 1.02 ? "yes" : "no") }')
	printf '%-9s %-3s %-10s %-5s %5s %8s %8s %9s %7s %s\n' "$strat" "$i" "$hint" "$pages" "$g" "$ratio" "$in" "$procs" \
		"$batches" "$secs"
done < "$dir/tunes"
awk '{ p[$1] += $8; n[$1]++ } END { for (s in p) printf "%s: %.1f kernel processes per tune\n", s, p[s] / n[s] }' "$dir/tunes"
echo "databases and logs: $dir"
