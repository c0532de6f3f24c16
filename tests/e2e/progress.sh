#!/usr/bin/env bash
# Progress: in a pipe, a timestamped line per batch naming the sweep (its
# place in the run), the round or the context decided, the count and an ETA;
# on a terminal (a pseudo-terminal from script(1), 60 columns), one line
# redrawn every second while a batch runs, never wider than the terminal.
tune=$1
# shellcheck source=tests/e2e/lib.sh
source "$(dirname "$0")/lib.sh"

# A pipe: two sweeps of one run, one deciding its optimum.
{ tiny_platform twosweeps; printf 'sweeps: [%s, %s]\n' "$src/tests/data/sweeps/tiny.yaml" "$TMP/decide.yaml"; } > "$TMP/two.yaml"
sed -e 's/^name: tiny/name: decide/' -e 's/^final_top: 0.*/final_top: 2/' tests/data/sweeps/tiny.yaml > "$TMP/decide.yaml"
"$tune" --platform "$TMP/two.yaml" --db "$TMP/p.db" > /dev/null 2> "$TMP/pipe.err"
rc=$?
check "a pipe: the run exits 0 ($(tail -1 "$TMP/pipe.err"))" test $rc = 0
stamp='[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z'
check "a pipe: each batch's line has its time, sweep, place in the run, count and ETA" \
	grep -Eq "^$stamp tiny \(1/2\) \[[0-9]+/24, ETA [^]]+\] chase scalar size_mb=1 " "$TMP/pipe.err"
check "a pipe: no estimate of the run before it ever ran" test "$(grep -c 'left in the run' "$TMP/pipe.err")" = 0
"$tune" --platform "$TMP/two.yaml" --db "$TMP/p.db" --fresh > /dev/null 2> "$TMP/again.err"
check "a pipe, again: each sweep says what is left of the run, from the last run's time in kernels" \
	sh -c "grep -Eq '^tune: sweep 1 of 2 \(.*tiny.yaml\): about [0-9]+s left in the run' '$TMP/again.err' && grep -Eq '^tune: sweep 2 of 2 \(.*decide.yaml\): about [0-9]+s left in the run' '$TMP/again.err'"
check "a pipe: the second sweep is 2/2" grep -Eq "^$stamp decide \(2/2\) \[" "$TMP/pipe.err"
check "a pipe: the re-measure names the context it decides" grep -Eq "^$stamp decide \(2/2\) final size_mb=4 \[[0-9]+/[0-9]+, ETA" "$TMP/pipe.err"
check "a pipe: a round's total is timestamped and named" grep -Eq "^$stamp decide \(2/2\) final size_mb=1: [0-9]+ trials? in [0-9]+s$" "$TMP/pipe.err"
check "a pipe: no terminal control codes" test "$(grep -c $'\033' "$TMP/pipe.err")" = 0

# A terminal, 60 columns wide, and one batch that takes more than a second.
if command -v script > /dev/null; then
	script -qfec "stty cols 60; '$tune' run tests/data/sweeps/long.yaml --platform $plat --db '$TMP/t.db' > /dev/null" "$TMP/tty.log" > /dev/null
	check "a terminal: the run exits 0" test $? = 0
	tr '\r' '\n' < "$TMP/tty.log" | grep -a $'^\033\\[K' | sed $'s/^\033\\[K//' > "$TMP/draws"
	check "a terminal: the line is drawn with a bar, count, time and ETA" grep -Eq '^long \[[.#]{10}\] 0/1 0%  0s, ETA --  chase' "$TMP/draws"
	check "a terminal: redrawn while the batch runs ($(grep -c ' 0/1 ' "$TMP/draws") draws at 0/1)" test "$(grep -c ' 0/1 ' "$TMP/draws")" -ge 2
	check "a terminal: no line wider than the terminal" test "$(awk '{ if (length($0) > 59) n++ } END { print n + 0 }' "$TMP/draws")" = 0
	check "a terminal: the line is cleared at the end, the total stays" grep -aEq '^long: 1 trial in [0-9]+s' "$TMP/draws"
else
	echo "progress: script(1) not installed: terminal checks not run"
fi
echo "progress: $pass passed, $fail failed"
[ "$fail" = 0 ]
