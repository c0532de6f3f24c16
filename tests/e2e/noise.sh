#!/usr/bin/env bash
# A noisy host: another process on the pinned CPU is warned about and stored
# with the sweep; a resume that measures nothing adds no warning (even when
# the host is still busy, with another process); the load average is read
# for each sweep and sampled as each batch ends (sweeps.loadavg_max).
tune=$1
# shellcheck source=tests/e2e/lib.sh
source "$(dirname "$0")/lib.sh"
spinners=()
spin() { for cpu in $(seq 0 $(($(nproc) - 1))); do taskset -c "$cpu" sh -c 'while :; do :; done' & spinners+=($!); done; }
unspin() { kill "${spinners[@]}" 2> /dev/null; wait "${spinners[@]}" 2> /dev/null; spinners=(); }
trap 'unspin; e2e_cleanup' EXIT
db=$TMP/n.db

spin
"$tune" run tests/data/sweeps/tiny.yaml --platform $plat --db "$db" > /dev/null 2> "$TMP/err1"
rc=$?
check "a busy host: the sweep runs ($(tail -1 "$TMP/err1"))" test $rc = 0
unspin
check "a busy host: warned on stderr" grep -q "warning: sweep 'tiny': another process is running on pinned CPU" "$TMP/err1"
before=$(q "$db" "SELECT warnings FROM sweeps")
check "a busy host: the warning is stored with the sweep" grep -q "another process is running on pinned CPU" <<< "$before"

spin
"$tune" run tests/data/sweeps/tiny.yaml --platform $plat --db "$db" > /dev/null 2> "$TMP/err2"
check "a resume that measures nothing exits 0" test $? = 0
unspin
check "a resume that measures nothing says so" grep -q "is already complete" "$TMP/err2"
check "a resume that measures nothing warns of nothing" test "$(grep -c warning "$TMP/err2")" = 0
check "a resume that measures nothing adds no warning to the finished sweep" test "$(q "$db" "SELECT warnings FROM sweeps")" = "$before"

check "the load is sampled as batches end" test "$(q "$db" "SELECT loadavg_max >= 0 AND loadavg >= 0 FROM sweeps")" = 1
# Two sweeps of one run read the load each: a sweep's loadavg is not copied
# from the run's start. The kernel updates the load average every 5 s, so the
# first sweep takes longer than that, on a host that spinners load.
{ tiny_platform twosweeps; printf 'sweeps: [%s, %s]\n' "$src/tests/data/sweeps/long.yaml" "$src/tests/data/sweeps/tiny.yaml"; } > "$TMP/two.yaml"
spin
"$tune" --platform "$TMP/two.yaml" --db "$TMP/two.db" > /dev/null 2>&1
unspin
check "each sweep reads its own load average" test "$(q "$TMP/two.db" "SELECT count(DISTINCT loadavg) FROM sweeps")" = 2
echo "noise: $pass passed, $fail failed"
[ "$fail" = 0 ]
