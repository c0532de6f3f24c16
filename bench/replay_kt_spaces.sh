#!/usr/bin/env bash
# Benchmark: the joint search against random on every Kernel Tuner cache
# file in a folder (the FAIR benchmark hub's, say), not only the two spaces
# the README's table names. Each space is replayed by `tune replay
# --kernel-tuner` at each drift, SEEDS seeds, the default budgets; a row per
# space, drift and budget gives random's and the joint search's median ratio
# and share within 5%, marked where the joint search is behind random in
# either, and the last line counts those rows per drift.
# usage: bench/replay_kt_spaces.sh [path/to/tune] DIR [seeds] [drifts]
#        (default build/tune, seeds 100, drifts "0 10")
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
tune=$src/build/tune
[ $# -ge 2 ] && { tune=$1; shift; }
dir=${1:?usage: bench/replay_kt_spaces.sh [path/to/tune] DIR [seeds] [drifts]}
seeds=${2:-100}
drifts=${3:-0 10}
out=$(mktemp)
rows=$(mktemp)
trap 'rm -f "$out" "$rows"' EXIT
found=0
for f in "$dir"/*.json "$dir"/*.json.gz; do
	[ -f "$f" ] || continue
	found=1
	for d in $drifts; do
		echo "replaying $(basename "$f") at ${d}% drift" >&2
		# tune names the file and the key of a malformed cache file
		"$tune" replay --kernel-tuner "$f" --seeds "$seeds" --drift "$d" --strategies random,joint \
			--format json >"$rows" || {
			rc=$?
			echo "bench/replay_kt_spaces.sh: tune replay could not replay '$f' (exit $rc)" >&2
			exit "$rc"
		}
		python3 -c 'import json, sys
for r in json.load(open(sys.argv[1])):
    r["space"] = sys.argv[2]
    print(json.dumps(r))' "$rows" "$(basename "$f")" >>"$out"
	done
done
[ $found = 1 ] || { echo "bench/replay_kt_spaces.sh: no .json or .json.gz file in '$dir'" >&2; exit 2; }
python3 - "$out" <<'EOF'
import collections, json, sys
rows = collections.defaultdict(dict)
for line in open(sys.argv[1]):
    r = json.loads(line)
    rows[(r["space"], r["drift_pct"], r["budget_fraction"])][r["strategy"]] = r
behind = collections.Counter()
total = collections.Counter()
print("%-36s %5s %7s %16s %16s" % ("space", "drift", "budget", "random", "joint"))
for key in sorted(rows):
    s = rows[key]
    if "random" not in s or "joint" not in s:
        continue
    r, j = s["random"], s["joint"]
    worse = j["median_ratio"] > r["median_ratio"] or j["within_5pct"] < r["within_5pct"]
    total[key[1]] += 1
    behind[key[1]] += worse
    print("%-36s %4g%% %6g%% %8.3f, %3.0f%% %8.3f, %3.0f%%%s" % (key[0][:36], key[1], 100 * key[2],
          r["median_ratio"], 100 * r["within_5pct"], j["median_ratio"], 100 * j["within_5pct"],
          "  joint behind" if worse else ""))
for d in sorted(total):
    print("drift %g%%: the joint search is behind random in %d of %d rows" % (d, behind[d], total[d]))
EOF
