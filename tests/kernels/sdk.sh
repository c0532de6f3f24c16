#!/usr/bin/env bash
# The kernel SDK (kernels/sdk/tune_kernel.h) speaks the protocol: a test
# kernel using each of its parts, compiled as C11 and as C++20, run with
# good and bad flags; its lines are checked field by field.
set -u
src=$(cd "$(dirname "$0")/../.." && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
pass=0 fail=0
check() { local what=$1; shift; if "$@"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $what"; fi; }
k=$TMP/k
check "compiles as C11 with -Wall -Wextra -Werror -pedantic" \
	cc -std=c11 -O1 -Wall -Wextra -Werror -pedantic -I"$src/kernels/sdk" -o "$k" "$src/tests/kernels/sdk_kernel.c"
if command -v c++ > /dev/null; then
	check "compiles as C++20 with -Wall -Wextra -Werror" c++ -std=c++20 -x c++ -O1 -Wall -Wextra -Werror \
		-Wno-missing-field-initializers \
		-I"$src/kernels/sdk" -o "$TMP/kxx" "$src/tests/kernels/sdk_kernel.c"
	check "and the C++ build runs" sh -c "'$TMP/kxx' --runs 1 --warmup 0 --work 10 > /dev/null"
fi
[ -x "$k" ] || { echo "sdk: FAIL (no kernel)"; exit 1; }

# lines FILE PYTHON: runs the check PYTHON on the JSON lines of FILE (as L).
lines() { python3 -c 'import json, sys
L = [json.loads(x) for x in open(sys.argv[1])]
sys.exit(0 if eval(sys.argv[2]) else 1)' "$1" "$2"; }

"$k" --runs 2 --warmup 1 --work 100 --shape 'round,square,odd "one"' --extra 1,2 > "$TMP/out" 2> "$TMP/err"
rc=$?
check "three runs of three shapes exit 0 ($(cat "$TMP/err"))" test $rc = 0
check "nine lines, each a JSON object" lines "$TMP/out" 'len(L) == 9'
check "the list's names in the list's field, rotated run by run" lines "$TMP/out" \
	'[x["shape"] for x in L] == ["round", "square", "odd \"one\"", "square", "odd \"one\"", "round", "odd \"one\"", "round", "square"]'
check "index is the value's place in the list" lines "$TMP/out" \
	'all(["round", "square", "odd \"one\""][x["index"]] == x["shape"] for x in L)'
check "warm-ups first, runs counted apart" lines "$TMP/out" \
	'[(x["warmup"], x["run"]) for x in L] == [(True, 0)] * 3 + [(False, 0)] * 3 + [(False, 1)] * 3'
check "the metric is a positive number, ns_total beside it" lines "$TMP/out" \
	'all(x["ns_per_step"] > 0 and x["ns_total"] > 0 and abs(x["ns_per_step"] * 100 - x["ns_total"]) <= 0.01 * 100 for x in L)'
check "one checksum, a cpu, the kernel's own fields (a list, a bool, inf as null)" lines "$TMP/out" \
	'len({x["checksum"] for x in L}) == 1 and all(x["cpu"] >= 0 and x["extra"] == [1, 2] and x["verbose"] is False and x["inf"] is None for x in L)'

"$k" --runs 1 --warmup 0 --mode own --shape square,round --cpu 0 --verbose=on > "$TMP/own"
check "the kernel's own metric, as it set it; pinned to the CPU given" lines "$TMP/own" \
	'[(x["shape"], x["ns_per_step"], x["cpu"], x["verbose"]) for x in L] == [("square", 20.0, 0, True), ("round", 10.0, 0, True)]'

"$k" --probe on --seed 7 > "$TMP/probe"
check "a probe mode prints its own line and exits 0" lines "$TMP/probe" 'L == [{"probe": "seed", "seed": 7}]'

"$k" --runs 3 --warmup 1 --fail-at 1 --shape round,square > "$TMP/failed" 2> "$TMP/err"
check "a failing run exits with its code" test $? = 3
check "what was measured before it is printed, not the failed run" lines "$TMP/failed" 'len(L) == 4'
check "and says why" grep -q "failing at run 1 as asked" "$TMP/err"

# bad ARGS... EXPECTED: exit 2, and standard error says EXPECTED; nothing on stdout.
bad() {
	local want=${*: -1}
	"$k" "${@:1:$#-1}" > "$TMP/bad.out" 2> "$TMP/bad.err"
	local rc=$?
	check "'${*:1:$#-1}': exit 2 ($rc)" test $rc = 2
	check "'${*:1:$#-1}': says '$want' ($(cat "$TMP/bad.err"))" grep -qF "$want" "$TMP/bad.err"
	check "'${*:1:$#-1}': prints no line" test ! -s "$TMP/bad.out"
}
bad --work 0 "sdk_kernel: option '--work': 0 is out of range [1, 100000000]"
bad --work 12x "option '--work': '12x' is not a non-negative integer"
bad --runs 0 "option '--runs': 0 is out of range [1, 100000]"
bad --warmup 1001 "option '--warmup': 1001 is out of range [0, 1000]"
bad --shape triangle "option '--shape': 'triangle' is not one of round square odd \"one\""
bad --shape round,,square "option '--shape': 'round,,square' is not a comma-separated list of names"
bad --extra "$(seq -s, 1 65 | sed 's/[0-9][0-9]*/1/g')" "option '--extra': more than 64 values"
bad --verbose maybe "option '--verbose': 'maybe' is not on or off"
bad --mode bogus "option '--mode': 'bogus' is not one of timed own"
bad --bogus 1 "unknown option '--bogus' (see --help)"
bad --work "option '--work' needs a value"
bad stray "unexpected argument 'stray' (options start with --; see --help)"
bad --work 13 "sdk_kernel: work 13 is unlucky (take another)"

"$k" --help > "$TMP/help"
check "--help exits 0" test $? = 0
check "--help lists the kernel's flags and the protocol's" grep -q -- '--shape .*round|square' "$TMP/help"
for f in runs warmup seed cpu; do
	check "--help lists --$f" grep -q -- "--$f " "$TMP/help"
done
check "--help ends with the protocol's version" sh -c "tail -1 '$TMP/help' | grep -q 'tune kernel protocol [0-9]'"

echo "sdk: $pass passed, $fail failed"
[ "$fail" = 0 ]
