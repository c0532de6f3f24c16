#!/usr/bin/env bash
# tune kernel check: every shipped kernel and the example speak the protocol
# (exit 0); a kernel that breaks it in one way (tests/data/kernels/liar,
# copied with that defect as its default) gets one message saying what to
# fix, and exit 1; nothing is recorded anywhere.
tune=$1
# shellcheck source=tests/e2e/lib.sh
source "$(dirname "$0")/lib.sh"
export TUNE_DB=$TMP/never.db # a check records nothing

for k in chase ipa ipa_hybrid sched; do
	"$tune" kernel check $k --platform $plat > "$TMP/out" 2> "$TMP/err"
	rc=$?
	check "$k speaks the protocol ($(tail -1 "$TMP/err"))" test $rc = 0
	check "$k: says so" grep -q "^$k: speaks the protocol" "$TMP/out"
done
"$tune" kernel check hashprobe --kernels-dir examples --platform $plat > "$TMP/out" 2> "$TMP/err"
rc=$?
check "the example speaks the protocol ($(tail -1 "$TMP/err"))" test $rc = 0
"$tune" kernel check liar --kernels-dir tests/data/kernels --platform $plat > "$TMP/out" 2> "$TMP/err"
rc=$?
check "the liar without a defect speaks it ($(tail -1 "$TMP/err"))" test $rc = 0

# defect DEFECT TEXT...: the liar with DEFECT fails the check, saying each TEXT.
defect() {
	local d=$1
	shift
	mkdir -p "$TMP/k-$d/liar"
	cp tests/data/kernels/liar/main.c "$TMP/k-$d/liar/"
	sed "s/default: none/default: $d/" tests/data/kernels/liar/kernel.yaml > "$TMP/k-$d/liar/kernel.yaml"
	"$tune" kernel check liar --kernels-dir "$TMP/k-$d" --platform $plat --timeout "${timeout:-2}" > "$TMP/out" \
		2> "$TMP/err"
	rc=$?
	check "$d: exit 1 ($(tail -1 "$TMP/err"))" test $rc = 1
	for text in "$@"; do
		check "$d: says '$text'" grep -qF -- "$text" "$TMP/err"
	done
	check "$d: one message a problem, then the count" test "$(grep -c '^liar: ' "$TMP/err")" = \
		"$(sed -n 's/.*liar: \([0-9]*\) problems\{0,1\} (above).*/\1/p' "$TMP/err")"
	check "$d: prints nothing on stdout" test ! -s "$TMP/out"
}
defect missing "plain, output line 1: field 'checksum' (the correctness check) is missing or not an integer (kernel.yaml names 'checksum'; the line has g, run, warmup, ns_per_item) (18 times"
defect mistyped "field 'ns_per_item' (the metric) is missing or not a number (the line has 'ns_per_itme': the kernel's name and the manifest's must be one"
defect unreported "plain g=64: never reported: each list value given needs a line in every run"
defect checksum "other, output line 1: checksum 43 differs from the baseline's 42: every variant and list value must compute the same result from the same --seed"
defect zero "plain: checksum is 0 on every line: set it to what the run computed"
defect range "other: the kernel failed (exit status 2): liar: option '--g': 64 is out of range [1, 16]"
defect garbage "plain, output line 1: not a JSON object ('[' or '{' expected near 'measuring'): print one object a line on standard output, and messages on standard error"
defect fails "plain: the kernel failed (exit status 3): liar: the device is gone; run it: " "--runs 2 --warmup 1 --seed 42 --g 4,1,64 --defect fails"
defect background "plain: output after exit: it exited, but a process it started still held its standard output 2 s later"
timeout=20 defect linger "plain: output after exit: it exited, but a process it started held its standard output" "s longer (end what it starts before it exits)"
defect slow "plain: a run on tiny parameters took longer than 2 s and was killed (make a run shorter, or give --timeout)"

# What the check would have caught, in a sweep: the variant that fails may
# have been the best, so its context gets no optimum (said), and the header
# none to ship.
printf 'name: liar-range\nkernel: liar\nparams:\n  variant: [plain, other]\n  g: [4, 64]\nruns: 2\nwarmup: 0\n' \
	> "$TMP/range.yaml"
"$tune" run "$TMP/range.yaml" --kernels-dir "$TMP/k-range" --platform $plat --db "$TMP/range.db" > /dev/null \
	2> "$TMP/range.err"
rc=$?
check "a sweep whose other variant fails: exit 1 ($(tail -1 "$TMP/range.err"))" test $rc = 1
check "no optimum from the trials left" test "$(q "$TMP/range.db" "SELECT COUNT(*) FROM optima")" = 0
check "and it says why" grep -q "liar: no optimum recorded: 2 of its trials failed, and one of them may have been the best" \
	"$TMP/range.err"

# A constraint the defaults break for a variant: a sweep leaving them out
# would measure nothing of it, said at the constraint.
mkdir -p "$TMP/k-rule/ddcopy"
sed 's/^constraints: \["bs_kib <= mb \* 1024"\]/constraints: ["bs_kib <= mb * 1024", "variant != tuned or mb > 100"]/' \
	tests/data/kernels/ddcopy/kernel.yaml > "$TMP/k-rule/ddcopy/kernel.yaml"
"$tune" kernel check ddcopy --kernels-dir "$TMP/k-rule" --platform $plat > /dev/null 2> "$TMP/err"
rc=$?
check "defaults breaking a constraint: exit 1 ($(tail -1 "$TMP/err"))" test $rc = 1
check "named with the constraint's place" grep -qF "ddcopy: tuned: its default values break constraint 'variant != tuned or mb > 100' ($TMP/k-rule/ddcopy/kernel.yaml:16:39)" "$TMP/err"

# usage CODE TEXT ARGS...: tune kernel ARGS exits CODE saying TEXT.
usage() {
	local code=$1 text=$2
	shift 2
	"$tune" kernel "$@" > /dev/null 2> "$TMP/err"
	rc=$?
	check "kernel $*: exit $code ($(tail -1 "$TMP/err"))" test $rc = "$code"
	check "kernel $*: says '$text'" grep -qF -- "$text" "$TMP/err"
}
usage 2 "new or check?"
usage 2 "which kernel? give its name" check
usage 2 "takes new or check, then a kernel's name" remove chase
usage 2 "--timeout applies to kernel check" new k --timeout 3
usage 2 "--dir applies to kernel new" check chase --dir x
usage 2 "option '--timeout': '0' is not a number of seconds in 1..86400" check chase --timeout 0
usage 3 "nosuch" check nosuch
check "nothing recorded: no database" test ! -e "$TMP/never.db"

echo "e2e: $pass passed, $fail failed"
[ "$fail" = 0 ]
