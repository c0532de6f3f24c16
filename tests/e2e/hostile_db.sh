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
rc=$?
check "a user's kernel's sweep for the base database ($(tail -1 "$TMP/err"))" test $rc = 0
"$tune" run tests/data/sweeps/tiny.yaml --platform $plat --db "$db" > /dev/null 2> "$TMP/err"
rc=$?
check "and the chase's ($(tail -1 "$TMP/err"))" test $rc = 0
# hex TEXT: TEXT as an SQL blob literal's digits, for names no quoting may cut.
hex() { printf %s "$1" | od -An -tx1 | tr -d ' \n'; }
# reads DB: every reading command on DB, each within 10 s; their outputs in
# $TMP/read/, their exit codes and times in $TMP/read/codes.
reads() {
	rm -rf "$TMP/read"
	mkdir -p "$TMP/read"
	local i=0
	while read -r name args; do
		local t0 rc one
		# What one statement making a 500 MB value costs (SQLite 3.40
		# computes it to the end before the length limit refuses it), just
		# before the command, side by side, as this machine's load varies.
		t0=$(date +%s.%N)
		sqlite3 :memory: ".limit length 1048576" "SELECT length(printf('%.*c', 500000000, 'x'))" > /dev/null 2>&1
		one=$(echo "$(date +%s.%N) - $t0 + 0.2" | bc)
		t0=$(date +%s.%N)
		# shellcheck disable=SC2086
		timeout 300 "$tune" $args --db "$1" > "$TMP/read/$name.out" 2> "$TMP/read/$name.err"
		rc=$?
		echo "$name $rc $(echo "$(date +%s.%N) - $t0" | bc) $one" >> "$TMP/read/codes"
		i=$((i + 1))
	done << CMDS
results-table results
results-md results --format md
results-json results --format json
results-csv results --format csv
report report --platform tiny -o $TMP/read/rep
header export header --platform tiny -o $TMP/read/tuned.h
json export json --platform tiny
csv export csv --platform tiny
CMDS
}

# A kernel name that closes gnuplot's quote and calls system() (no '/' in
# it: the path it touches comes from the environment).
evil=$TMP/evil.db
cp "$db" "$evil"
export PWNED=$TMP/PWNED_KERNEL
name="x';system \"touch \$PWNED\";a='"
hex=$(printf %s "$name" | od -An -tx1 | tr -d ' \n')
q "$evil" "UPDATE trials SET kernel = CAST(x'$hex' AS TEXT) WHERE kernel = 'sumk';
	UPDATE optima SET kernel = CAST(x'$hex' AS TEXT) WHERE kernel = 'sumk';
	UPDATE sweeps SET spec_json = json_set(spec_json, '$.kernel', CAST(x'$hex' AS TEXT)) WHERE json_extract(spec_json, '$.kernel') = 'sumk'"
check "the database holds the hostile kernel name" test "$(q "$evil" "SELECT count(*) FROM trials WHERE kernel LIKE 'x''%'")" -ge 3
# A chart of the database's making whose title, labels, series and panel
# close gnuplot's quotes and call system().
q "$evil" "CREATE VIEW chase_chart_forged AS SELECT platform, host, CAST(x'$hex' AS TEXT) AS title,
	CAST(x'$hex' AS TEXT) AS xlabel, CAST(x'$hex' AS TEXT) AS ylabel, CAST(x'$hex' AS TEXT) || char(10) || 'x' AS series,
	group_size AS x, median_ns_per_lookup AS y, CAST(x'$hex' AS TEXT) AS _panel, CAST(x'$hex' AS TEXT) AS _style
	FROM chase_results UNION ALL SELECT platform, host, 't', 'x', 'y', CAST(x'$hex' AS TEXT), 1, 2, 'b', 'line'
	FROM chase_results;
	INSERT INTO kernel_views VALUES ('chase', 'chase_chart_forged', 'x')"
mkdir -p "$TMP/rep"
touch "$TMP/marker"
out=$("$tune" report --platform tiny --db "$evil" -o "$TMP/rep" 2>&1)
check "hostile kernel: report exits 0 ($out)" test $? = 0
check "hostile kernel: report ran no command" test -z "$(find "$TMP" -name 'PWNED*')"
check "hostile kernel: the kernel's chart is drawn" test "$(find "$TMP/rep" -name '*kernel-x*.svg' | wc -l)" = 1
check "hostile kernel: no name reaches a script's text" test -z "$(grep -l "system" "$TMP"/rep/*.gp)"
check "a forged chart view: drawn, its names as gnuplot's arguments and safe data, a bad style said" \
	sh -c 'test -s "$1/rep/tiny-chase-forged.svg" && ! grep -q "system" "$1/rep/tiny-chase-forged.gp" &&
	       [ "$(grep -c "^\"" "$1/rep/tiny-chase-forged.dat")" = 1 ] && printf %s "$2" | grep -q "chart view .chase_chart_forged., column ._style.: not one of"' _ "$TMP" "$out"
check "hostile kernel: nothing written outside the report's folder" \
	test -z "$(find "$TMP" -newer "$TMP/marker" -type f ! -path "$TMP/rep/*" ! -name 'evil.db*')"
# A header block of the database's making: its names, values, comments, keys
# and functions close C's comments, strings and calls, and name system().
hdb=$TMP/header.db
cp "$evil" "$hdb"
code='*/ int system(const char *); int x = system("touch PWNED"); /* "'
forged_header() {
	q "$hdb" "DROP VIEW IF EXISTS chase_header;
	CREATE VIEW chase_header AS WITH p AS (SELECT DISTINCT platform FROM chase_results)
	SELECT platform, 1 AS _order, NULL AS _block, CAST(x'$(hex "$code")' AS TEXT) AS define,
	CAST(x'$(hex "$code")' AS TEXT) AS value, NULL AS type, CAST(x'$(hex "$code")' AS TEXT) AS comment, NULL AS key,
	NULL AS function FROM p
	UNION ALL SELECT platform, 2, 'b', NULL, NULL, NULL, CAST(x'$(hex "$code")' AS TEXT) || char(10) || '#error', NULL, NULL
	FROM p
	UNION ALL SELECT platform, 3, NULL, 'TABLE_K', json_array(1, 2), 'table', NULL, CAST(x'$(hex "$code")' AS TEXT), NULL
	FROM p
	UNION ALL SELECT platform, 4, NULL, 'TABLE_V', '[1, 2]', 'table', NULL, NULL, CAST(x'$(hex "$code")' AS TEXT) FROM p
	UNION ALL SELECT platform, 5, NULL, 'TABLE_W', '[3, 4]', 'table', NULL, 'int', NULL FROM p $1;
	INSERT OR REPLACE INTO kernel_views VALUES ('chase', 'chase_header', 'x')"
}
forged_header ""
"$tune" export header --platform tiny --kernel chase --db "$hdb" -o "$TMP/forged.h" 2> "$TMP/forged.err"
rc=$?
check "a forged header view: exported ($(tail -1 "$TMP/forged.err"))" test $rc = 0
printf '#include "forged.h"\nint main(void) { return 0; }\n' > "$TMP/forged.c"
check "a forged header view: it compiles as C" cc -std=c11 -Wall -Werror -I"$TMP" -c -o "$TMP/forged.o" "$TMP/forged.c"
code_only=$(cc -std=c11 -E -P -I"$TMP" -DTUNED_PLATFORM_TINY "$TMP/forged.c" | sed 's/"\([^"\\]\|\\.\)*"//g')
check "a forged header view: system is no word of its code, only of its comments and strings" \
	sh -c '! printf %s "$1" | grep -qw system && grep -q "system" "$2"' _ "$code_only" "$TMP/forged.h"
# One mistake of the view (a value not of its type, a row twice) stops the
# export, saying where, and leaves the header a build uses as it was.
for bad in "UNION ALL SELECT platform, 6, NULL, 'BAD', 'x', 'ull', NULL, NULL, NULL FROM p" \
	"UNION ALL SELECT platform, 6, NULL, 'TABLE_V', '[1, 2]', 'table', NULL, NULL, NULL FROM p"; do
	forged_header "$bad"
	cp "$TMP/forged.h" "$TMP/bad.h"
	"$tune" export header --platform tiny --kernel chase --db "$hdb" -o "$TMP/bad.h" 2> "$TMP/bad.err"
	rc=$?
	check "a forged header view's mistake: exit 3, saying where, the old header kept (rc $rc: $(tail -1 "$TMP/bad.err"))" \
		sh -c '[ "$1" = 3 ] && grep -q "the header view .chase_header., platform .tiny., define .\(BAD\|TABLE_V\)." "$2" &&
		       cmp -s "$3" "$4" && [ ! -e "$3.partial" ]' _ "$rc" "$TMP/bad.err" "$TMP/bad.h" "$TMP/forged.h"
done

# A kernel named like a field of a platform's JSON object cannot take it over.
q "$hdb" "INSERT INTO optima (platform, host, fingerprint, kernel, context, size_class, variant, params, best_point, median, ci_low,
	ci_high, trials, sweep_id, decided) SELECT platform, host, fingerprint, 'arch', context, size_class, variant, params, best_point,
	median, ci_low, ci_high, trials, sweep_id, decided FROM optima WHERE kernel = 'chase' LIMIT 1;
	CREATE VIEW arch_json AS SELECT 'tiny' AS platform, json_object('x', 1) AS value;
	INSERT INTO kernel_views VALUES ('arch', 'arch_json', 'x')"
out=$("$tune" export json --platform tiny --db "$hdb" 2>&1 > /dev/null)
rc=$?
check "a kernel named arch: its JSON view refused, exit 3 (rc $rc: $out)" \
	sh -c '[ "$1" = 3 ] && printf %s "$2" | grep -q "kernel .arch. is named like a field of a platform"' _ "$rc" "$out"

# CSV: a variant holding a comma, a line break and a formula stays one field
# of one row, and no cell is a formula.
csvdb=$TMP/csv.db
cp "$db" "$csvdb"
q "$csvdb" "UPDATE trials SET variant = CAST(x'$(hex $'x,y\n=1+1')' AS TEXT) WHERE kernel = 'chase' AND variant = 'interleaved';
	UPDATE trials SET params = json_set(params, '$.hint', '@SUM(A1)') WHERE kernel = 'chase' AND
	json_extract(params, '$.hint') = 'pldl1keep'"
"$tune" export csv --platform tiny --db "$csvdb" > "$TMP/evil.csv" 2> "$TMP/csv.err"
rc=$?
check "CSV: exits 0 ($(tail -1 "$TMP/csv.err"))" test $rc = 0
rows=$(python3 -c 'import csv,sys; r=list(csv.reader(open(sys.argv[1]))); print(len(r)-1, sum(1 for x in r for c in x if c[:1] in "=+@" or (c[:1] == "-" and c != "-" and not c[1:].replace(".","",1).isdigit())), len(set(len(x) for x in r)))' "$TMP/evil.csv")
check "CSV: parses back to one row per sample, no formula, every row the same width ($rows)" \
	test "$rows" = "$(q "$csvdb" "SELECT count(*) FROM chase_latest r JOIN current_fingerprints USING (platform, host, fingerprint) JOIN samples s ON s.trial_id = r.trial_id AND s.warmup = 0 WHERE r.platform = 'tiny' AND r.kernel = 'chase'") 0 1"
check "CSV: the variant is there, whole, as text" grep -q "^\"x,y\$" "$TMP/evil.csv"

# Reading writes nothing, and a view that never ends (or makes a 500 MB
# value) stops with a clear error in bounded time.
# poison DB CONDITION: a copy of the base database as DB whose result views
# hold their rows back until CONDITION, a scalar subquery, is true.
poison() {
	cp "$db" "$1"
	for v in kernel_results chase_latest chase_results; do
		body=$(q "$1" "SELECT substr(sql, instr(sql, ' AS') + 3) FROM sqlite_master WHERE name = '$v'")
		q "$1" "DROP VIEW $v; CREATE VIEW $v AS SELECT * FROM ($body) WHERE $2"
	done
}
views=$TMP/views.db
poison "$views" "(WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT max(x) FROM c) > 0"
big=$TMP/big.db
poison "$big" "length(printf('%.*c', 500000000, 'x')) > 0"
# Terminal sequences in what a database holds (OSC 0 sets the window's
# title, CSI 2J clears the screen).
esc=$TMP/esc.db
cp "$db" "$esc"
q "$esc" "UPDATE trials SET variant = variant || char(27) || '[2J' WHERE kernel = 'sumk';
	UPDATE trials SET reason = char(27) || ']0;pwned' || char(7) WHERE kernel = 'chase' AND id % 2 = 0;
	UPDATE trials SET params = json_set(params, '$.hint', 'pldl1strm' || char(27) || '[31m') WHERE kernel = 'chase' AND
	json_extract(params, '$.hint') = 'pldl1strm';
	UPDATE optima SET variant = variant || char(27) || ']0;pwned' || char(7) || char(155) WHERE kernel = 'chase'"
# Table views of the database's own making: one that is no table (its name
# a terminal sequence) and one whose typed cell has a format tune does not
# take (with a sequence in it): each is said, escaped, and the report stands.
q "$esc" "CREATE VIEW \"chase_table_x"$'\e'"[31m\" AS SELECT 1 AS ns;
	CREATE VIEW chase_table_fmt AS SELECT platform, host, fingerprint, 'Forged' AS title,
	json_object('printf', json_array('%x' || char(27) || '[2J', 1)) AS \"C\" FROM chase_results;
	INSERT INTO kernel_views VALUES ('chase', 'chase_table_x' || char(27) || '[31m', 'x'), ('chase', 'chase_table_fmt', 'x')"
# The header from extreme content: 14 context names of 150 characters, a
# kernel name of 100, a value of -2^63.
hdr=$TMP/hdr.db
cp "$db" "$hdr"
long=$(printf 'k%.0s' $(seq 100))
set_ctx=""
for i in $(seq 14); do set_ctx="$set_ctx, '\$.ctx$(printf 'c%.0s' $(seq 150))$i', json('{\"value\": $i, \"role\": \"context\"}')"; done
q "$hdr" "UPDATE optima SET exports = json_set(exports $set_ctx), kernel = '$long' WHERE kernel = 'sumk';
	UPDATE optima SET exports = json_set(exports, '\$.g.value', -9223372036854775807 - 1) WHERE kernel = '$long'"
check "the database holds a value of -2^63" test "$(q "$hdr" "SELECT count(*) FROM optima WHERE json_extract(exports, '\$.g.value') = -9223372036854775807 - 1")" -ge 1
for d in "$db" "$views" "$big" "$esc" "$hdr"; do
	what=$(basename "$d" .db)
	md5=$(md5sum < "$d")
	reads "$d"
	# Bounded: a view that never ends stops the command at 5 s; one making a
	# 500 MB value costs each statement that reads it what the probe before
	# the command took (its 4th field), and a command reads it a few times
	# (each of a kernel's table and chart views once), the report (tables
	# and charts) about twice as many.
	check "$what: every read command ends, within 10 such statements or 30 for the report ($(tr '\n' ';' < "$TMP/read/codes"))" \
		test -z "$(awk '($1 != "report" && $3 >= 10 * $4 + 6) || $3 >= 30 * $4 + 10 || $2 == 124' "$TMP/read/codes")"
	check "$what: the file is left byte for byte" test "$(md5sum < "$d")" = "$md5"
	check "$what: no raw control character reaches the terminal" \
		test -z "$(cat "$TMP"/read/*.out "$TMP"/read/*.err | LC_ALL=C grep -l $'[\x01-\x08\x0b-\x1f\x7f]')"
	mv "$TMP/read" "$TMP/read-$what"
done
check "base: every read command succeeds ($(tr '\n' ';' < "$TMP/read-base/codes"))" test -z "$(awk '$2 != 0' "$TMP/read-base/codes")"
check "a never-ending view: the commands fail, saying why" \
	grep -q "a query ran past 5 s and was stopped (does a view of this database never end" "$TMP/read-views/results-table.err"
for what in base esc hdr; do
	h=$TMP/read-$what/tuned.h
	check "$what: the header compiles as C with -Werror -pedantic" \
		cc -std=c11 -Wall -Wextra -Werror -pedantic -DTUNED_PLATFORM_TINY -fsyntax-only -x c "$h"
	check "$what: and as C++" c++ -std=c++11 -Wall -Wextra -Werror -pedantic -DTUNED_PLATFORM_TINY -fsyntax-only -x c++ "$h"
done
check "hdr: one block for the kernel of the long name" test "$(grep -c "^/\* Kernel $long:" "$TMP/read-hdr/tuned.h")" = 1
check "hdr: -2^63 as a constant of C" grep -q "(-9223372036854775807LL - 1)" "$TMP/read-hdr/tuned.h"
check "terminal sequences: shown escaped" grep -q 'x1b\[2J' "$TMP/read-esc/results-table.out"
check "a forged table view: said, escaped, and the results stand ($(grep '^results-table ' "$TMP/read-esc/codes"))" \
	sh -c 'grep -q "^results-table 0 " "$1/codes" && grep -q "warning: the table view .chase_table_x.x1b\[31m.: it has no column title" "$1/results-table.err" &&
	       grep -q "warning: the table view .chase_table_fmt., column .C.: format .%x.x1b\[2J" "$1/results-table.err" &&
	       grep -q "^Optima of chase" "$1/results-table.out"' _ "$TMP/read-esc"
check "a 500 MB value: no value past the length limit is made (tune's memory stays bounded)" \
	test -z "$(grep -l 'out of memory' "$TMP"/read-big/*.err)"
e2e_done hostile_db
