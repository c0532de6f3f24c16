#!/usr/bin/env bash
# A database someone hands you is outside input: made by a real sweep, then
# edited the way a hostile colleague would, and read with the commands that
# read it (results, report, export). Nothing it holds runs as a command or
# replaces tune's own views.
tune=$1
# shellcheck source=tests/e2e/lib.sh
source "$(dirname "$0")/lib.sh"
kd=$TMP/mykernels
write_sumk "$kd"
printf 'name: sumk-tune\nkernel: sumk\nparams:\n  variant: [plain]\n  n: [1000]\n  g: [1, 2, 4]\nruns: 3\nwarmup: 1\n' > "$TMP/sumk.yaml"
db=$TMP/base.db
"$tune" run "$TMP/sumk.yaml" --platform $plat --kernels-dir "$kd" --db "$db" > /dev/null 2> "$TMP/err"
check "a user's kernel's sweep for the base database ($(tail -1 "$TMP/err"))" test $? = 0

# A kernel name that closes gnuplot's quote and calls system() (no '/' in
# it: the path it touches comes from the environment).
evil=$TMP/evil.db
cp "$db" "$evil"
export PWNED=$TMP/PWNED_KERNEL
name="x';system \"touch \$PWNED\";a='"
hex=$(printf %s "$name" | od -An -tx1 | tr -d ' \n')
q "$evil" "UPDATE trials SET kernel = CAST(x'$hex' AS TEXT); UPDATE optima SET kernel = CAST(x'$hex' AS TEXT);
	UPDATE sweeps SET spec_json = json_set(spec_json, '$.kernel', CAST(x'$hex' AS TEXT))"
check "the database holds the hostile kernel name" test "$(q "$evil" "SELECT count(*) FROM trials WHERE kernel LIKE 'x''%'")" -ge 3
mkdir -p "$TMP/rep"
touch "$TMP/marker"
out=$("$tune" report --platform tiny --db "$evil" -o "$TMP/rep" 2>&1)
check "hostile kernel: report exits 0 ($out)" test $? = 0
check "hostile kernel: report ran no command" test -z "$(find "$TMP" -name 'PWNED*')"
check "hostile kernel: the kernel's chart is drawn" test "$(find "$TMP/rep" -name '*kernel-x*.svg' | wc -l)" = 1
check "hostile kernel: no name reaches a script's text" test -z "$(grep -l "system" "$TMP"/rep/*.gp)"
check "hostile kernel: nothing written outside the report's folder" \
	test -z "$(find "$TMP" -newer "$TMP/marker" -type f ! -path "$TMP/rep/*" ! -name 'evil.db*')"
e2e_done hostile_db
