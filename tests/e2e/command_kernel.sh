#!/usr/bin/env bash
# Command kernels: programs tune does not build, run as their manifest's
# argv with {name} replaced, once a run, the metric read from their output.
# dd (tests/data/kernels/ddcopy: a regular expression over stderr) is tuned
# and checked; a missing program, a non-zero exit, a metric not found and a
# hang past the timeout each fail their trials with the program's words,
# and the database keeps what was recorded; examples/fio's quick form runs
# on a small file (fio reads JSON by a path), its psync engine measured at
# iodepth 1 alone as its manifest's constraint says.
tune=$1
# shellcheck source=tests/e2e/lib.sh
source "$(dirname "$0")/lib.sh"
kd=tests/data/kernels
db=$TMP/cmd.db

# sweep NAME MB TIMEOUT [PARAM LINES...]: a dd sweep of 3 block sizes of MB
# MiB into $TMP/NAME.yaml, a process killed after TIMEOUT s.
sweep() {
	printf 'name: %s\nkernel: ddcopy\nparams:\n  variant: [small, tuned]\n  mb: [%s]\n  bs_kib: [1, 16, 256]\n' "$1" "$2"
	printf '%s\n' "${@:4}"
	printf 'runs: 3\nwarmup: 1\nmax_runs: 3\ntimeout_s: %s\n' "$3"
}
sweep dd-good 16 30 > "$TMP/good.yaml"
"$tune" run "$TMP/good.yaml" --kernels-dir $kd --platform $plat --db "$db" > /dev/null 2> "$TMP/err"
rc=$?
check "dd's block size is tuned ($(tail -1 "$TMP/err"))" test $rc = 0
check "every trial measured" test "$(q "$db" "SELECT COUNT(*) FROM trials WHERE kernel = 'ddcopy' AND status != 'done'")" = 0
check "a run is one process: 4 samples (a warm-up and 3 runs) of each search trial" \
	test "$(q "$db" "SELECT MIN(n) || ' ' || MAX(n) FROM (SELECT COUNT(*) AS n FROM samples s JOIN trials t ON t.id = s.trial_id
		WHERE t.phase = 'search' GROUP BY t.id)")" = "4 4"
check "the metric is dd's seconds, as read from its stderr" \
	test "$(q "$db" "SELECT COUNT(*) FROM samples WHERE ns_per_lookup > 0 AND ns_per_lookup < 60")" = \
	"$(q "$db" "SELECT COUNT(*) FROM samples")"
check "an optimum recorded" test "$(q "$db" "SELECT COUNT(*) FROM optima WHERE kernel = 'ddcopy'")" = 1
check "dd's version is recorded with its build" \
	test "$(q "$db" "SELECT COUNT(*) FROM builds WHERE kernel = 'ddcopy' AND compiler = 'dd' AND compiler_version LIKE 'dd (%'")" -ge 1
"$tune" kernels --kernels-dir $kd > "$TMP/kernels"
check "tune kernels shows ddcopy's constraint" grep -qxF '  constraints: bs_kib <= mb * 1024' "$TMP/kernels"
samples=$(q "$db" "SELECT COUNT(*) FROM samples")
"$tune" kernel check ddcopy --kernels-dir $kd --platform $plat > "$TMP/out" 2> "$TMP/err"
rc=$?
check "kernel check passes it ($(tail -1 "$TMP/err"))" test $rc = 0

# broken NAME REASON DIR [sweep lines...]: a sweep of the dd kernel in DIR
# fails every trial with REASON stored and shown, and the database keeps
# the good sweep's samples.
broken() {
	local name=$1 reason=$2 dir=$3 quoted
	shift 3
	quoted=$(printf '%s' "$reason" | sed "s/'/''/g")
	sweep "$name" "$@" > "$TMP/$name.yaml"
	"$tune" run "$TMP/$name.yaml" --kernels-dir "$dir" --platform $plat --db "$db" > /dev/null 2> "$TMP/$name.err"
	rc=$?
	check "$name: exit 1 ($(tail -1 "$TMP/$name.err"))" test $rc = 1
	check "$name: every trial failed with '$reason'" test "$(q "$db" "SELECT COUNT(*) FROM trials t JOIN sweeps w ON
		w.id = t.sweep_id WHERE w.name = '$name' AND (t.status != 'failed' OR instr(t.reason, '$quoted') = 0)")" = 0
	check "$name: the reason is shown" grep -qF -- "$reason" "$TMP/$name.err"
	check "$name: the samples recorded before are kept" test "$(q "$db" "SELECT COUNT(*) FROM samples s JOIN trials t
		ON t.id = s.trial_id JOIN sweeps w ON w.id = t.sweep_id WHERE w.name = 'dd-good'")" = "$samples"
	check "$name: the database is intact" test "$(q "$db" "PRAGMA integrity_check")" = ok
}
mkdir -p "$TMP/missing/ddcopy" "$TMP/nometric/ddcopy"
sed 's/^command: \[dd, /command: [tune-no-such-program, /' $kd/ddcopy/kernel.yaml > "$TMP/missing/ddcopy/kernel.yaml"
sed "s/regex: 'copied, /regex: 'moved, /" $kd/ddcopy/kernel.yaml > "$TMP/nometric/ddcopy/kernel.yaml"
broken dd-missing "'tune-no-such-program --version' failed" "$TMP/missing" 16 30
check "dd-missing: the shell's words for it" grep -q "cannot run 'tune-no-such-program'" "$TMP/dd-missing.err"
broken dd-exit "dd: failed to open '/dev/nosuchdevice'" $kd 16 30 "  input: [nosuchdevice]"
check "dd-exit: with its exit status" test "$(q "$db" "SELECT COUNT(*) FROM trials WHERE reason LIKE 'kernel exit status 1: %'")" -ge 1
broken dd-nometric "its output does not match 'moved, ([0-9.]+(e-?[0-9]+)?) s'" "$TMP/nometric" 16 30
broken dd-hang "timed out after 1 s" $kd 1048576 1

# fio, on a small file in $TMP: the example's manifest with its file moved.
if command -v fio > /dev/null; then
	mkdir -p "$TMP/ex/fio"
	sed "s#/var/tmp/tune-fio-#$TMP/tune-fio-#; s/default: 256, role: context/default: 8, role: context/; s/default: 2, help: seconds/default: 1, help: seconds/" \
		examples/fio/kernel.yaml > "$TMP/ex/fio/kernel.yaml"
	"$tune" kernel check fio --kernels-dir "$TMP/ex" --platform $plat > "$TMP/out" 2> "$TMP/err"
	rc=$?
	check "kernel check passes fio ($(tail -1 "$TMP/err"))" test $rc = 0
	cat > "$TMP/fio.yaml" << 'YAML'
name: fio-small
kernel: fio
params:
  variant: [qd1, queued]
  engine: [psync, libaio]
  size_mb: [8]
  iodepth: [1, 8]
  runtime_s: 1
  direct: 0
runs: 2
warmup: 0
max_runs: 2
final_top: 1
timeout_s: 60
YAML
	"$tune" run "$TMP/fio.yaml" --kernels-dir "$TMP/ex" --platform $plat --db "$TMP/fio.db" > /dev/null 2> "$TMP/fio.err"
	rc=$?
	check "fio's iodepth is tuned per engine ($(tail -1 "$TMP/fio.err"))" test $rc = 0
	check "an optimum per engine" test "$(q "$TMP/fio.db" "SELECT COUNT(*) FROM optima WHERE kernel = 'fio'")" = 2
	# The manifest's constraint: psync is synchronous, its queue one deep.
	check "psync's process measured iodepth 1 alone" test "$(q "$TMP/fio.db" "SELECT group_concat(DISTINCT
		json_extract(params, '$.iodepth')) FROM trials WHERE kernel = 'fio' AND json_extract(params, '$.engine') =
		'psync' AND json_extract(params, '$.variant') = 'queued'")" = 1
	check "libaio's measured 1 and 8" test "$(q "$TMP/fio.db" "SELECT COUNT(DISTINCT json_extract(params, '$.iodepth'))
		FROM trials WHERE kernel = 'fio' AND json_extract(params, '$.engine') = 'libaio' AND json_extract(params,
		'$.variant') = 'queued' AND status = 'done'")" = 2
	check "no sample of an excluded combination" test "$(q "$TMP/fio.db" "SELECT COUNT(*) FROM samples s JOIN trials t
		ON t.id = s.trial_id WHERE json_extract(t.params, '$.engine') = 'psync' AND json_extract(t.params,
		'$.iodepth') > 1")" = 0
	check "the run says what the constraint excluded" grep -qF "constraint 'engine != psync or iodepth == 1' ($TMP/ex/fio/kernel.yaml:" "$TMP/fio.err"
	check "one of six combinations" grep -q "excludes 1 of 6 combinations" "$TMP/fio.err"
	check "IOPS read from fio's JSON" test "$(q "$TMP/fio.db" "SELECT COUNT(*) FROM samples WHERE ns_per_lookup > 0")" = \
		"$(q "$TMP/fio.db" "SELECT COUNT(*) FROM samples")"
	check "fio's version with its build" \
		test "$(q "$TMP/fio.db" "SELECT COUNT(*) FROM builds WHERE compiler_version LIKE 'fio-%'")" -ge 1
	"$tune" export header --platform tiny --kernel fio --db "$TMP/fio.db" -o "$TMP/fio.h" 2> "$TMP/err"
	rc=$?
	check "its header ($(tail -1 "$TMP/err"))" test $rc = 0
	check "gives the iodepth per engine" grep -q "tuned_fio_iodepth_for" "$TMP/fio.h"
else
	echo "command_kernel: fio is not installed (bash .ci/install-deps): its part is skipped"
fi

echo "e2e: $pass passed, $fail failed"
[ "$fail" = 0 ]
