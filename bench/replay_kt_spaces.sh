#!/usr/bin/env bash
# Benchmark: the joint search against random on every Kernel Tuner cache
# file under a folder (the FAIR benchmark hub's cachefiles/, say), not only
# the two spaces the README's table names. Each .json or .json.gz file found
# (in subfolders too, symbolic links followed) is replayed by `tune replay --kernel-tuner` at each
# drift, SEEDS seeds, the default budgets; a row per file, drift and budget
# gives random's and the joint search's median ratio and share within 5%,
# marked where the joint search is behind random in either, and whether
# beyond the seeds' noise (seed by seed, as both draw the same seeds: a
# bootstrap interval of the ratio of medians wholly above 1, or an exact
# sign test on the share within 5%, p < 0.05); the last lines count those
# rows per drift. A file tune cannot read as a cache file
# (tune's exit 3: another format, say) is skipped with tune's message and
# counted; any other failure of tune stops the run.
# usage: bench/replay_kt_spaces.sh [path/to/tune] DIR [seeds] [drifts]
#        (default build/tune, seeds 100, drifts "0 10")
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
usage() {
	echo "usage: bench/replay_kt_spaces.sh [path/to/tune] DIR [seeds] [drifts]" >&2
	echo "  (default build/tune, seeds 100, drifts \"0 10\"; every .json and .json.gz under DIR)" >&2
	exit 2
}
case ${1:-} in '' | -h | --help) usage ;; esac
tune=$src/build/tune
if [ ! -d "$1" ] && [ $# -ge 2 ]; then
	tune=$1
	shift
fi
dir=$1
seeds=${2:-100}
drifts=${3:-0 10}
[ -d "$dir" ] || { echo "bench/replay_kt_spaces.sh: '$dir' is not a folder" >&2; usage; }
[ -x "$tune" ] || { echo "bench/replay_kt_spaces.sh: no tune at '$tune' (build it, or give its path first)" >&2; exit 2; }
out=$(mktemp)
rows=$(mktemp)
files=$(mktemp)
trap 'rm -f "$out" "$rows" "$files"' EXIT
find -L "$dir" -type f \( -name '*.json' -o -name '*.json.gz' \) | sort > "$files"
[ -s "$files" ] || { echo "bench/replay_kt_spaces.sh: no .json or .json.gz file under '$dir'" >&2; exit 2; }
skipped=0
while IFS= read -r f; do
	name=${f#"$dir"/}
	for d in $drifts; do
		echo "replaying $name at ${d}% drift" >&2
		rc=0
		"$tune" replay --kernel-tuner "$f" --seeds "$seeds" --drift "$d" --strategies random,joint \
			--format json >"$rows" || rc=$?
		if [ $rc = 3 ]; then
			echo "bench/replay_kt_spaces.sh: skipped '$f': not a cache file tune reads (its message above)" >&2
			skipped=$((skipped + 1))
			break
		elif [ $rc != 0 ]; then
			echo "bench/replay_kt_spaces.sh: tune replay failed (exit $rc) on '$f' with seeds '$seeds'," \
				"drift '$d': see its message above" >&2
			exit $rc
		fi
		python3 -c 'import json, sys
for r in json.load(open(sys.argv[1])):
    r["space"] = sys.argv[2]
    print(json.dumps(r))' "$rows" "$name" >>"$out"
	done
done < "$files"
python3 - "$out" <<'EOF'
import collections, json, math, random, statistics, sys
rows = collections.defaultdict(dict)
for line in open(sys.argv[1]):
    r = json.loads(line)
    rows[(r["space"], r["drift_pct"], r["budget_fraction"])][r["strategy"]] = r


def beyond_noise(r, j):
    """Whether the joint search is behind random beyond the seeds' noise, seed by seed (both draw the same
    seeds): the 95% bootstrap interval of its median over random's lies wholly above 1, or it is within 5%
    in fewer seeds than random by an exact sign test on the seeds where one is and the other not (p < 0.05)."""
    rr = [x if x is not None else math.inf for x in r["ratios"]]
    jr = [x if x is not None else math.inf for x in j["ratios"]]
    n, rng, over = len(rr), random.Random(1), []
    for _ in range(2000):
        idx = [rng.randrange(n) for _ in range(n)]
        mr, mj = statistics.median(rr[i] for i in idx), statistics.median(jr[i] for i in idx)
        over.append(mj / mr if math.isfinite(mr) and math.isfinite(mj) else (math.inf if math.isinf(mj) else 0))
    over.sort()
    lost = sum(a <= 1.05 < b for a, b in zip(rr, jr))
    won = sum(b <= 1.05 < a for a, b in zip(rr, jr))
    k, m = min(lost, won), lost + won
    p = min(1.0, 2 * sum(math.comb(m, i) for i in range(k + 1)) / 2 ** m) if m else 1.0
    return over[int(0.025 * len(over))] > 1 or (lost > won and p < 0.05)


behind = collections.Counter()
significant = collections.Counter()
total = collections.Counter()
print("%-36s %5s %7s %16s %16s" % ("space", "drift", "budget", "random", "joint"))
print("%-36s %5s %7s %16s %16s" % ("", "", "", "(median, w/in 5%)", "(median, w/in 5%)"))
for key in sorted(rows):
    s = rows[key]
    if "random" not in s or "joint" not in s:
        continue
    r, j = s["random"], s["joint"]
    worse = j["median_ratio"] > r["median_ratio"] or j["within_5pct"] < r["within_5pct"]
    sure = worse and beyond_noise(r, j)
    total[key[1]] += 1
    behind[key[1]] += worse
    significant[key[1]] += sure
    print("%-36s %4g%% %6g%% %8.3f, %3.0f%% %8.3f, %3.0f%%%s" % (key[0][-36:], key[1], 100 * key[2],
          r["median_ratio"], 100 * r["within_5pct"], j["median_ratio"], 100 * j["within_5pct"],
          "  joint behind, beyond the noise" if sure else "  joint behind" if worse else ""))
for d in sorted(total):
    print("drift %g%%: the joint search is behind random in %d of %d rows, beyond the seeds' noise in %d" %
          (d, behind[d], total[d], significant[d]))
EOF
if [ $skipped -gt 0 ]; then
	echo "bench/replay_kt_spaces.sh: $skipped file(s) skipped: not cache files tune reads" >&2
	exit 3
fi
