#!/usr/bin/env bash
# tune replay --kernel-tuner: a hand-written Kernel Tuner cache whose answers
# are known (grid's order and ratios, random and the joint search finding the
# best with the whole budget), the same by seed, the JSON's keys, the same
# from gzip; --serve's answers, and Optuna's TPE through it
# (bench/replay_kt_tpe.py, when python3-optuna is there); the shared
# convolution_A100 space: a row per strategy and budget, no ratio below 1,
# the joint search ahead of random; and each malformed file refused with its
# key, exit 3.
tune=$1
# shellcheck source=tests/e2e/lib.sh
source "$(dirname "$0")/lib.sh"
kt=${TUNE_KT_DATA:-$src/tests/data/kernel-tuner}

# a in 1..3, b in 1..2: "2,1" the best (1 ms), "2,2" fails to launch, "3,2"
# is not recorded; each valid one costs 100 ms, so the space 400 ms. Grid
# asks 1,1 1,2 3,1 2,2 2,1: its best at 25, 50, 75 and 100% is 2, 1.5, 1.5, 1.
cat > "$TMP/small.json" << 'JSON'
{"tune_params_keys": ["a", "b"], "tune_params": {"a": [1, 2, 3], "b": [1, 2]}, "objective": "time",
 "kernel_name": "small", "cache": {
  "1,1": {"a": 1, "b": 1, "time": 2.0, "times": [2.0, 2.0], "compile_time": 90, "benchmark_time": 10},
  "1,2": {"a": 1, "b": 2, "time": 1.5, "times": [1.5, 1.5], "compile_time": 90, "benchmark_time": 10},
  "2,1": {"a": 2, "b": 1, "time": 1.0, "times": [1.0, 1.0], "compile_time": 90, "benchmark_time": 10},
  "2,2": {"a": 2, "b": 2, "time": "RuntimeFailedConfig", "compile_time": 50, "benchmark_time": 0},
  "3,1": {"a": 3, "b": 1, "time": 3.0, "times": [3.0, 3.0], "compile_time": 90, "benchmark_time": 10}}}
JSON
small() { "$tune" replay --kernel-tuner "$TMP/small.json" --drift 0 --budgets 25,50,75,100 "$@"; }
small --seeds 40 > "$TMP/out" 2> "$TMP/err"
rc=$?
check "the small space: exit 0 (rc $rc: $(cat "$TMP/err"))" test $rc = 0
check "it says what it replays" grep -q "^6 configurations of 2 parameters, 5 recorded, 4 valid; the best 1 ms (2,1); every valid one measured once: 0.4 s" "$TMP/out"
# strategy budget measured failed excluded median p90 within
ratios() { awk -v s="$1" '$1 == s { printf "%s %s %s %s|", $2, $6, $7, $8 }' "$TMP/out"; }
check "grid: 2, 1.5, 1.5 and 1 at 25..100% ($(ratios grid))" test "$(ratios grid)" = \
	"25% 2.000 2.000 0%|50% 1.500 1.500 0%|75% 1.500 1.500 0%|100% 1.000 1.000 100%|"
check "grid at 100%: four measured, the failing one asked once, the absent one not yet" \
	test "$(awk '$1 == "grid" && $2 == "100%" { print $3, $4, $5 }' "$TMP/out")" = "4.0 1.0 0.0"
check "random: the best in every seed with the whole budget ($(ratios random))" \
	test "$(awk '$1 == "random" && $2 == "100%" { print $6, $7, $8 }' "$TMP/out")" = "1.000 1.000 100%"
check "random: a quarter measures one, the best in some seeds only" \
	awk '$1 == "random" && $2 == "25%" { w = $8 + 0; found = 1; exit !($3 == "1.0" && w > 5 && w < 60) } END { exit !found }' "$TMP/out"
check "joint: the best in every seed with the whole budget ($(ratios joint))" \
	test "$(awk '$1 == "joint" && $2 == "100%" { print $6, $7, $8 }' "$TMP/out")" = "1.000 1.000 100%"
small --seeds 40 > "$TMP/out2" 2>&1
check "the same seeds, the same table" cmp -s "$TMP/out" "$TMP/out2"
small --seeds 41 > "$TMP/out3" 2>&1
check "a seed more, random's quarter may change but grid's rows do not" \
	test "$(grep '^grid' "$TMP/out")" = "$(grep '^grid' "$TMP/out3")"
gzip -c "$TMP/small.json" > "$TMP/small.json.gz"
"$tune" replay --kernel-tuner "$TMP/small.json.gz" --drift 0 --budgets 25,50,75,100 --seeds 40 > "$TMP/outgz" 2>&1
check "gzip'd, the same rows" test "$(grep -E '^(grid|random|joint) ' "$TMP/out")" = "$(grep -E '^(grid|random|joint) ' "$TMP/outgz")"
cp "$TMP/small.json.gz" "$TMP/small.cache"
"$tune" replay --kernel-tuner "$TMP/small.cache" --drift 0 --budgets 25,50,75,100 --seeds 40 > "$TMP/outmagic" 2>&1
check "gzip known by its first bytes too" test "$(grep -E '^(grid|random|joint) ' "$TMP/out")" = "$(grep -E '^(grid|random|joint) ' "$TMP/outmagic")"

small --seeds 40 --format json > "$TMP/json" 2> "$TMP/err"
rc=$?
check "--format json: exit 0 ($(cat "$TMP/err"))" test $rc = 0
check "--format json: an object per strategy and budget, exactly its keys, grid's ratios" python3 -c '
import json, sys
rows = json.load(open(sys.argv[1]))
keys = {"strategy", "budget_fraction", "drift_pct", "seeds", "median_ratio", "p90_ratio", "within_5pct", "ratios"}
assert [(r["strategy"], r["budget_fraction"]) for r in rows] == [(s, b) for s in ("grid", "random", "joint") for b in (0.25, 0.5, 0.75, 1.0)], rows
assert all(set(r) == keys and r["seeds"] == 40 and r["drift_pct"] == 0 for r in rows), rows
assert [r["median_ratio"] for r in rows[:4]] == [2.0, 1.5, 1.5, 1.0], rows
assert rows[3]["within_5pct"] == 1.0 and rows[7]["within_5pct"] == 1.0 and rows[11]["within_5pct"] == 1.0, rows
# The ratio of each seed, in seed order: what the row sums up, and what compares strategies seed by seed.
assert all(len(r["ratios"]) == 40 and sum(x <= 1.05 for x in r["ratios"]) == round(40 * r["within_5pct"]) for r in rows), rows
assert all(sorted(r["ratios"])[19] <= r["median_ratio"] <= sorted(r["ratios"])[20] for r in rows), rows
' "$TMP/json"

# --serve: the replay as another optimizer's objective, a request a line.
printf 'space\nseed 3\nmeasure 2,1\nmeasure 2,2\nmeasure 3,2\njudge 1,2\njudge 2,2\nmeasure 4,1\nmeasure 1\nfoo\n' |
	"$tune" replay --kernel-tuner "$TMP/small.json" --drift 0 --serve > "$TMP/serve" 2>&1
check "--serve: exit 0" test $? = 0
check "--serve: the space as JSON" grep -qxF '{"kernel":"small","params":[{"name":"a","values":["1","2","3"]},{"name":"b","values":["1","2"]}],"points":6,"valid":4,"total_ms":400.0}' "$TMP/serve"
check "--serve: seed, a measurement and its cost, failing and excluded ones, judgements ($(sed -n '2,7p' "$TMP/serve" | tr '\n' '|'))" \
	test "$(sed -n '2,7p' "$TMP/serve" | tr '\n' '|')" = "ok|1 100|invalid 50|invalid 0|1.5|invalid|"
check "--serve: what is no configuration, or no request, is an error and the next is read" test "$(sed -n '8,10p' "$TMP/serve" | cut -c1-60 | tr '\n' '|')" = \
	"error: '4,1' is not a configuration of the space (its 2 valu|error: '1' is not a configuration of the space (its 2 values|error: say 'space', 'seed N', 'measure CONFIG' or 'judge CON|"
printf 'seed 1\nmeasure 2,1\nmeasure 2,1\nseed 1\nmeasure 2,1\nmeasure 2,1\n' |
	"$tune" replay --kernel-tuner "$TMP/small.json" --drift 50 --serve > "$TMP/serve" 2>&1
check "--serve: each measurement its own process under the drift, the same again by seed ($(tr '\n' '|' < "$TMP/serve"))" \
	sh -c "test \"\$(sed -n 2p '$TMP/serve')\" != \"\$(sed -n 3p '$TMP/serve')\" && test \"\$(sed -n 2,3p '$TMP/serve')\" = \"\$(sed -n 5,6p '$TMP/serve')\""
# bench/replay_kt_spaces.sh over a folder of three spaces (one in a
# subfolder, one a symbolic link): a row per space, drift and budget, and the count of rows where
# the joint search is behind; a folder without cache files is refused by
# name; a file tune cannot read is skipped with its name, the others'
# rows still printed, exit 3.
mkdir -p "$TMP/spaces/sub" "$TMP/none" "$TMP/broken"
cp "$TMP/small.json" "$TMP/spaces/a.json"
gzip -c "$TMP/small.json" > "$TMP/spaces/sub/b.json.gz"
ln -s "$TMP/small.json" "$TMP/spaces/c.json"
bash "$src/bench/replay_kt_spaces.sh" "$tune" "$TMP/spaces" 10 "0 10" > "$TMP/spaces.out" 2> "$TMP/err"
rc=$?
check "replay_kt_spaces.sh: exit 0 (rc $rc: $(tail -1 "$TMP/err"))" test $rc = 0
check "replay_kt_spaces.sh: 3 spaces x 2 drifts x 5 budgets ($(tail -2 "$TMP/spaces.out" | tr '\n' '|'))" sh -c \
	"test \$(grep -c '^\(a\.json\|sub/b\.json\.gz\|c\.json\) ' '$TMP/spaces.out') = 30 && grep -q '^drift 0%: the joint search is behind random in [0-9]* of 15 rows' '$TMP/spaces.out' && grep -q '^drift 10%: .* of 15 rows' '$TMP/spaces.out'"
bash "$src/bench/replay_kt_spaces.sh" "$tune" "$TMP/none" > /dev/null 2> "$TMP/err"
rc=$?
check "replay_kt_spaces.sh: an empty folder is exit 2, named ($(cat "$TMP/err"))" sh -c "test $rc = 2 && grep -q \"no .json or .json.gz file under '$TMP/none'\" '$TMP/err'"
printf '{"cache": 1' > "$TMP/broken/bad.json"
cp "$TMP/small.json" "$TMP/broken/c.json"
bash "$src/bench/replay_kt_spaces.sh" "$tune" "$TMP/broken" 5 0 > "$TMP/broken.out" 2> "$TMP/err"
rc=$?
check "replay_kt_spaces.sh: a malformed file is skipped, named by tune and by the script, the rest replayed, exit 3 ($(tr '\n' '|' < "$TMP/err"))" \
	sh -c "test $rc = 3 && grep -q '^tune: $TMP/broken/bad.json:1:' '$TMP/err' && grep -q \"skipped '$TMP/broken/bad.json'\" '$TMP/err' && ! grep -q Traceback '$TMP/err' && test \$(grep -c '^c\.json ' '$TMP/broken.out') = 5"
if /usr/bin/python3 -c 'import optuna' 2> /dev/null; then
	/usr/bin/python3 "$src/bench/replay_kt_tpe.py" --tune "$tune" --seeds 10 --drift 0 --budgets 25,50,75,100 "$TMP/small.json" \
		> "$TMP/tpe" 2> "$TMP/err"
	rc=$?
	check "tpe: exit 0 (rc $rc: $(cat "$TMP/err"))" test $rc = 0
	check "tpe: a row per budget in the table's columns ($(grep '^tpe' "$TMP/tpe" | tr '\n' '|'))" awk '$1 == "tpe" {
		n++; if (!($6 >= 1 && ($7 == "inf" || $7 >= $6) && $8 ~ /%$/)) bad = 1; budgets = budgets $2 " " } END {
		exit !(n == 4 && !bad && budgets == "25% 50% 75% 100% ") }' "$TMP/tpe"
	check "tpe: more measured with more budget, the best in some seed with all of it" awk '$1 == "tpe" {
		if ($3 + 0 < last) bad = 1; last = $3 + 0; w = $8 + 0 } END { exit !(!bad && w > 0) }' "$TMP/tpe"
	/usr/bin/python3 "$src/bench/replay_kt_tpe.py" --tune "$tune" --seeds 3 --drift 0 --budgets 50,100 --format json \
		"$TMP/small.json" > "$TMP/tpe.json" 2> "$TMP/err"
	check "tpe --format json: the replay's keys ($(cat "$TMP/err"))" python3 -c '
import json, sys
rows = json.load(open(sys.argv[1]))
keys = {"strategy", "budget_fraction", "drift_pct", "seeds", "median_ratio", "p90_ratio", "within_5pct", "ratios"}
assert [(r["strategy"], r["budget_fraction"]) for r in rows] == [("tpe", 0.5), ("tpe", 1.0)], rows
assert all(set(r) == keys and r["seeds"] == 3 for r in rows), rows
' "$TMP/tpe.json"
else
	echo "skip: no python3-optuna for /usr/bin/python3: Optuna's TPE through --serve not run (.ci/install-deps --tests installs it)"
fi

# The shared space, a few seeds: every strategy at every default budget.
if [ -r "$kt/convolution_A100.json.gz" ]; then
	"$tune" replay --kernel-tuner "$kt/convolution_A100.json.gz" --seeds 10 > "$TMP/conv" 2> "$TMP/err"
	rc=$?
	check "convolution_A100: exit 0 (rc $rc: $(cat "$TMP/err"))" test $rc = 0
	check "convolution_A100: 10240 configurations, 4201 valid" grep -q "^10240 configurations of 10 parameters, 4362 recorded, 4201 valid" "$TMP/conv"
	rows=$(awk '$1 == "grid" || $1 == "random" || $1 == "joint" { print $1, $2 }' "$TMP/conv" | tr '\n' ' ')
	check "convolution_A100: a row per strategy and budget ($rows)" test "$rows" = "grid 0.2% grid 0.5% grid 1% grid 2% \
grid 5% random 0.2% random 0.5% random 1% random 2% random 5% joint 0.2% joint 0.5% joint 1% joint 2% joint 5% "
	check "convolution_A100: no ratio below 1, none infinite" awk '$1 == "grid" || $1 == "random" || $1 == "joint" {
		n++; if (!($6 >= 1 && $7 >= $6 && $7 < 100)) bad = 1 } END { exit !(n == 15 && !bad) }' "$TMP/conv"
	check "convolution_A100: grid measures more with more budget" awk '$1 == "grid" {
		if ($3 + 0 <= last) bad = 1; last = $3 + 0 } END { exit bad }' "$TMP/conv"
	# Deterministic by seed: the joint search's median choice against
	# random's, at 2% of the space's time under the default drift.
	"$tune" replay --kernel-tuner "$kt/convolution_A100.json.gz" --seeds 30 --budgets 2 --strategies random,joint \
		> "$TMP/conv2" 2> "$TMP/err"
	r=$(awk '$1 == "random" { r = $6 } $1 == "joint" { j = $6 } END { if (r > 0) printf "%.3f", j / r }' "$TMP/conv2")
	check "convolution_A100 at 2%, 30 seeds: the joint search's median over random's under 0.85 (${r:-none})" \
		awk -v r="${r:-9}" 'BEGIN { exit !(r < 0.85) }'
else
	echo "FAIL: no $kt/convolution_A100.json.gz (set TUNE_KT_DATA to its folder)"
	fail=$((fail + 1))
fi

# Malformed files: each names the file and what is wrong, exit 3.
bad() { # NAME TEXT EXPECTED: the file NAME holding TEXT is refused saying EXPECTED
	printf '%s' "$2" > "$TMP/$1"
	out=$("$tune" replay --kernel-tuner "$TMP/$1" --seeds 2 2>&1)
	rc=$?
	check "$1: exit 3 (rc $rc)" test $rc = 3
	check "$1: says '$3' ($out)" grep -qF "tune: $TMP/$1$3" <<< "$out"
}
head=$'{"tune_params_keys": ["a"], "tune_params": {"a": [1, 2]},\n'
ok='"compile_time": 1, "benchmark_time": 1'
bad syntax.json "$head\"cache\": {\"1\": {\"a\": 1,, }}}" ":2:"
bad syntax.json "$head\"cache\": {\"1\": {\"a\": 1,, }}}" ":2:24: not a Kernel Tuner cache file:"
bad notgzip.json.gz "$head}" ": not a gzip file: gzip -dc: exit status 1: gzip: "
bad nocache.json "$head\"objective\": \"time\"}" ": key 'cache': missing (the recorded configurations)"
bad times.json "$head\"cache\": {\"1\": {\"a\": 1, \"time\": 1.0, \"times\": \"fast\", $ok}}}" \
	": cache key '1': 'times' is not an array of numbers"
bad times2.json "$head\"cache\": {\"1\": {\"a\": 1, \"time\": 1.0, \"times\": [1, null], $ok}}}" \
	": cache key '1': 'times' is not an array of numbers (item 1)"
bad disagree.json "$head\"cache\": {\"2\": {\"a\": 1, \"time\": 1.0, \"times\": [1], $ok}}}" \
	": cache key '2': its 'a' disagrees with the key's value '2'"
bad empty.json "$head\"cache\": {}}" ": key 'cache': no valid configuration (0 recorded)"
bad allfail.json "$head\"cache\": {\"1\": {\"a\": 1, \"time\": \"CompilationFailedConfig\"}}}" \
	": key 'cache': no valid configuration (1 recorded, each a failure)"
bad notobject.json "[1, 2]" ": not a Kernel Tuner cache file: not a JSON object"
out=$("$tune" replay --kernel-tuner "$TMP/no-such.json" 2>&1)
rc=$?
check "a missing file: exit 3 (rc $rc)" test $rc = 3
check "a missing file: says so ($out)" grep -qF "tune: cannot read '$TMP/no-such.json': No such file" <<< "$out"

# Options that do not go together, or bad values: exit 2.
usage() { # WHAT EXPECTED ARGS...: exit 2, saying EXPECTED
	local what=$1 says=$2
	shift 2
	out=$("$tune" replay "$@" 2>&1)
	rc=$?
	check "$what: exit 2 (rc $rc)" test $rc = 2
	check "$what: says '$says' ($out)" grep -qF -- "$says" <<< "$out"
}
usage "a sweep too" "--kernel-tuner replays a recorded space, no sweep: 'sweeps/chase-tune.yaml'" \
	sweeps/chase-tune.yaml --kernel-tuner "$TMP/small.json"
usage "--from too" "--kernel-tuner replays a recorded space, without --from" --kernel-tuner "$TMP/small.json" --from x
usage "a budget of 0" "option '--budgets': '0,1' is not a list" --kernel-tuner "$TMP/small.json" --budgets 0,1
usage "a budget not a number" "option '--budgets': 'lots' is not a list" --kernel-tuner "$TMP/small.json" --budgets lots
usage "--format md" "option '--format': 'md' is not one of table, json" --kernel-tuner "$TMP/small.json" --format md
usage "adaptive" "'adaptive' is not a strategy of a recorded space" --kernel-tuner "$TMP/small.json" --strategies adaptive
usage "--serve with a table's options" "--serve answers requests, its optimizer keeps the budgets, seeds and table: without '--budgets'" \
	--kernel-tuner "$TMP/small.json" --serve --budgets 1
usage "--budgets without a space" "option '--budgets' is for a recorded space" sweeps/chase-tune.yaml --from x --budgets 1
check "--help names --kernel-tuner and --budgets" sh -c "'$tune' replay --help | grep -q -- '--kernel-tuner FILE' && '$tune' replay --help | grep -q -- '--budgets LIST'"
e2e_done replay_kt
