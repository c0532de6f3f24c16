#!/usr/bin/env bash
# A measuring command with no platform named: it shows the plan on the
# default platform (local) and measures only when confirmed: --yes in a
# script, "y" or "yes" alone on a terminal (a pseudo-terminal from script(1)); a pipe
# without --yes, or a "no", measures nothing and creates no database.
tune=$1
# shellcheck source=tests/e2e/lib.sh
source "$(dirname "$0")/lib.sh"

# One scalar trial at 1 MB, whatever local's sizes are.
sed -e 's/^name: tiny/name: one/' -e 's/^  variant: .*/  variant: [scalar]\n  size_mb: [1]\n  hugepages: [false]/' \
	tests/data/sweeps/tiny.yaml > "$TMP/one.yaml"

"$tune" run "$TMP/one.yaml" --db "$TMP/pipe.db" < /dev/null > /dev/null 2> "$TMP/pipe.err"
check "a pipe without --yes: a usage error ($?)" test $? = 2
check "a pipe: the plan names the default platform" grep -q "^tune: no platform named: this would measure on 'local'" "$TMP/pipe.err"
check "a pipe: the plan says what the sweep would measure" grep -Eq '^  one +1 trials, 1 context, working sets up to 1 MB; never finished on this host$' "$TMP/pipe.err"
check "a pipe: the error says how to go on" grep -q "or --yes to measure the plan above" "$TMP/pipe.err"
check "a pipe: no database created" test ! -e "$TMP/pipe.db"

# A sweep that does not load: its error alone, no plan's heading before it.
sed -e 's/^  size_mb: \[1\]/  sizes_mb: [1]/' "$TMP/one.yaml" > "$TMP/bad.yaml"
"$tune" run "$TMP/bad.yaml" --db "$TMP/bad.db" < /dev/null > /dev/null 2> "$TMP/bad.err"
check "a sweep that does not load: a config error ($?)" test $? = 3
check "a sweep that does not load: its error is the first line ($(head -1 "$TMP/bad.err"))" \
	grep -q "^tune: $TMP/bad.yaml:[0-9]*:[0-9]*: key 'params': 'sizes_mb' is no longer read" <(head -1 "$TMP/bad.err")
check "a sweep that does not load: no plan shown" test "$(wc -l < "$TMP/bad.err")" = 1

# --quick on a sweep with no quick: section: said, in the plan and as it runs.
sed -e '/^quick:/,$d' "$TMP/one.yaml" > "$TMP/noquick.yaml"
"$tune" run "$TMP/noquick.yaml" --quick --db "$TMP/nq.db" < /dev/null > /dev/null 2> "$TMP/nq.err"
check "--quick without a quick: section: the plan says its full settings" grep -q "^  one .*(no quick: section: its full settings)$" "$TMP/nq.err"
"$tune" run "$TMP/noquick.yaml" --quick --platform $plat --db "$TMP/nq.db" > /dev/null 2> "$TMP/nq.err"
check "--quick without a quick: section: the run says so" grep -q "^tune: sweep 'one' has no quick: section: --quick measures it with its full settings$" "$TMP/nq.err"

"$tune" run "$TMP/one.yaml" --db "$TMP/yes.db" --yes < /dev/null > /dev/null 2> "$TMP/yes.err"
check "--yes: measures ($(tail -1 "$TMP/yes.err"))" test "$(q "$TMP/yes.db" "SELECT p.name || ' ' || s.status FROM sweeps s JOIN platforms p ON p.id = s.platform_id")" = "local done"
"$tune" run "$TMP/one.yaml" --db "$TMP/yes.db" < /dev/null 2> "$TMP/again.err"
check "the plan gives the time the sweep's kernels took here the last time" grep -Eq '^  one .*; its kernels took [0-9]+s the last time here$' "$TMP/again.err"
sed -e 's/^name: one/name: two/' "$TMP/one.yaml" > "$TMP/two.yaml"
"$tune" run "$TMP/two.yaml" --db "$TMP/yes.db" < /dev/null 2> "$TMP/two.err"
check "a grid never run here: estimated at its kernel's rate on this host" grep -Eq '^  two .*; roughly [0-9]+s in kernels, at the rate chase has had on this host$' "$TMP/two.err"

if command -v script > /dev/null; then
	printf 'n\n' | script -qec "'$tune' run '$TMP/one.yaml' --db '$TMP/no.db'" "$TMP/no.log" > /dev/null
	check "a terminal, no: a usage error" test $? = 2
	check "a terminal: asks" grep -q 'measure it? \[y/N\]' "$TMP/no.log"
	check "a terminal, no: says nothing was measured" grep -q 'nothing measured' "$TMP/no.log"
	check "a terminal, no: no database created" test ! -e "$TMP/no.db"
	printf 'yesterday\n' | script -qec "'$tune' run '$TMP/one.yaml' --db '$TMP/later.db'" "$TMP/later.log" > /dev/null
	check "a terminal, a word that only starts with yes: nothing measured" test $? = 2 -a ! -e "$TMP/later.db"
	printf ' YES \n' | script -qec "'$tune' run '$TMP/one.yaml' --db '$TMP/upper.db'" "$TMP/upper.log" > /dev/null
	check "a terminal, YES: measures" test "$(q "$TMP/upper.db" "SELECT status FROM sweeps")" = "done"
	printf 'y\n' | script -qec "'$tune' run '$TMP/one.yaml' --db '$TMP/tty.db'" "$TMP/tty.log" > /dev/null
	check "a terminal, yes: measures" test "$(q "$TMP/tty.db" "SELECT status FROM sweeps")" = "done"
else
	echo "confirm: script(1) not installed: terminal checks not run"
fi
e2e_done confirm
