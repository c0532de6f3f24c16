#!/usr/bin/env bash
# Names from outside are data: a host or platform name that reached the
# database (an older tune, a proxy on a plain http:// link, a hand edit) runs
# nothing in `tune report` (gnuplot) and adds nothing to the exported header,
# which compiles with exactly the macros of a clean one and holds the name as
# a string; report files stay in the output directory. Compiler flags reach
# the compiler whole (200 flags, 5 KB), too many bytes of them are an error,
# and the HTML title names ten long platforms whole.
tune=$1
# shellcheck source=tests/e2e/lib.sh
source "$(dirname "$0")/lib.sh"
db=$TMP/names.db
"$tune" run tests/data/sweeps/adaptive.yaml --platform $plat --db "$db" > /dev/null 2>&1
check "adaptive sweep for the optima" test $? = 0
"$tune" run tests/data/sweeps/ipa.yaml --platform $plat --db "$db" > /dev/null 2>&1
check "ipa sweep" test $? = 0
"$tune" export header --platform tiny --db "$db" -o "$TMP/clean.h" > /dev/null
macros() { cc -std=c11 -dM -E -x c "$1" | grep -o '^#define TUNED_[A-Za-z0-9_]*' | sed 's/TUNED_SELECTED_.*/TUNED_SELECTED_X/; s/TUNED_PLATFORM_NUMBER_.*/TUNED_PLATFORM_NUMBER_X/' | sort; }
macros "$TMP/clean.h" > "$TMP/clean.macros"
check "a clean header defines the host" grep -q '^#define TUNED_HOST$' "$TMP/clean.macros"

# Hostile names, as a proxy or an old database would leave them.
host=$'h\'; system("touch '"$TMP"'/PWNED_HOST") #"\\ ??/\n#define TUNED_EVIL 1\n*/ int evil; /* `touch '"$TMP"'/PWNED_TICK` @x'
platform="../../evil'.system('touch $TMP/PWNED_PLATFORM').'"
sqlite3 "$db" "UPDATE hosts SET hostname = CAST(x'$(printf %s "$host" | od -An -tx1 | tr -d ' \n')' AS TEXT);
	UPDATE optima SET host = (SELECT hostname FROM hosts LIMIT 1)"
out=$("$tune" report --platform tiny --db "$db" -o "$TMP/out/host-only" 2>&1)
check "hostile host: report exits 0 ($out)" test $? = 0
check "hostile host: report ran no command" test -z "$(find "$TMP" -name 'PWNED*')"
sqlite3 "$db" "UPDATE platforms SET name = CAST(x'$(printf %s "$platform" | od -An -tx1 | tr -d ' \n')' AS TEXT) WHERE name = 'tiny';
	UPDATE optima SET platform = (SELECT name FROM platforms WHERE name LIKE '../../evil%')"
check "the database holds the hostile names" test "$(q "$db" "SELECT count(*) FROM optima WHERE platform LIKE '../../evil%' AND host LIKE 'h''%'")" -ge 1

mkdir -p "$TMP/out/a/b"
touch "$TMP/marker"
out=$("$tune" report --platform "$platform" --db "$db" -o "$TMP/out/a/b/rep" 2>&1)
check "report exits 0 ($out)" test $? = 0
check "report ran no command (gnuplot system, backquotes)" test -z "$(find "$TMP" -name 'PWNED*')"
check "report drew the charts" test "$(find "$TMP/out/a/b/rep" -name '*.png' | wc -l)" -ge 3
check "report wrote nothing outside its directory" test -z "$(find "$TMP" -newer "$TMP/marker" -type f ! -path "$TMP/out/a/b/rep/*" ! -path "$TMP/cache/*" ! -name 'names.db*')"
check "the HTML shows the platform as text" grep -q "\.\./\.\./evil&#39;\|\.\./\.\./evil'" "$TMP/out/a/b/rep/report.html"

"$tune" export header --platform "$platform" --db "$db" -o "$TMP/out/hostile.h" > /dev/null
check "export header exits 0" test $? = 0
macros "$TMP/out/hostile.h" > "$TMP/hostile.macros"
check "the header defines exactly the macros of a clean one" diff "$TMP/clean.macros" "$TMP/hostile.macros"
check "no macro of the name's" test -z "$(grep TUNED_EVIL "$TMP/hostile.macros")"
printf '#include <stdio.h>\n#include "hostile.h"\nint main(void) { fputs(TUNED_HOST, stdout); fputs("|", stdout); fputs(TUNED_PLATFORM_NAME, stdout); return 0; }\n' > "$TMP/out/use.c"
check "the header compiles with -Wall -Wextra -Werror -pedantic" cc -std=c11 -Wall -Wextra -Werror -pedantic -I"$TMP/out" -o "$TMP/out/use" "$TMP/out/use.c"
check "TUNED_HOST and TUNED_PLATFORM_NAME hold the names byte for byte" test "$("$TMP/out/use")" = "$host|$platform"
check "export json keeps the names as strings" sh -c "'$tune' export json --platform \"\$1\" --db '$db' | grep -q 'evil'" _ "$platform"

# Compiler flags: all 200 (5 KB) reach the compiler; 9 KB are refused.
printf '#!/bin/sh\nprintf "%%s\\n" "$@" > "%s/cc-args"\nexec cc "$@"\n' "$TMP" > "$TMP/cc-log"
chmod +x "$TMP/cc-log"
{
	printf 'name: flags\narch: auto\ncompiler: %s\nparams: { hint: [pldl1keep], size_mb: [1], group_size: [4] }\ncflags: [-O2' "$TMP/cc-log"
	for i in $(seq 1 200); do printf ', -DTUNE_TEST_FLAG_%03d_PADDING_PAD=%d' "$i" "$i"; done
	printf ']\n'
} > "$TMP/flags.yaml"
out=$("$tune" run tests/data/sweeps/tiny.yaml --platform "$TMP/flags.yaml" --db "$TMP/flags.db" 2>&1)
check "200 flags: the sweep runs ($out)" test $? = 0
check "200 flags: the 200th reaches the compiler" grep -q -- '-DTUNE_TEST_FLAG_200_PADDING_PAD=200' "$TMP/cc-args"
check "200 flags: all reach the compiler" test "$(grep -c -- '-DTUNE_TEST_FLAG_' "$TMP/cc-args")" = 200
check "200 flags: the flags are over 5 KB" test "$(q "$TMP/flags.db" "SELECT length(cflags) FROM sweeps LIMIT 1")" -gt 5000
check "200 flags: stored whole" test "$(q "$TMP/flags.db" "SELECT cflags LIKE '%FLAG_200_PADDING_PAD=200' FROM sweeps LIMIT 1")" = 1
{
	printf 'name: flags\narch: auto\ncflags: [-O2'
	for i in $(seq 1 300); do printf ', -DTUNE_TEST_FLAG_%03d_PADDING_PAD=%d' "$i" "$i"; done
	printf ']\n'
} > "$TMP/flags9k.yaml"
out=$("$tune" run tests/data/sweeps/tiny.yaml --platform "$TMP/flags9k.yaml" --db "$TMP/flags.db" 2>&1)
check "9 KB of flags: exit 3" test $? = 3
check "9 KB of flags: the key, the place and the limit ($out)" grep -q "flags9k.yaml:3:[0-9]*: key 'cflags': [0-9]* bytes, over the limit of 8191" <<< "$out"

# Ten platforms with 64-character names: the report's title names them all.
args=()
for i in $(seq 0 9); do
	name=$(printf 'platform-%d-%053d' "$i" 0)
	{ tiny_platform "$name"; printf 'sweeps: [tests/data/sweeps/tiny.yaml]\n'; } > "$TMP/p$i.yaml"
	"$tune" run tests/data/sweeps/tiny.yaml --platform "$TMP/p$i.yaml" --db "$TMP/ten.db" > /dev/null 2>&1
	args+=(--platform "$name")
done
out=$("$tune" report "${args[@]}" --db "$TMP/ten.db" -o "$TMP/ten" 2>&1)
check "ten long platforms: report exits 0 ($out)" test $? = 0
title=$(grep -o '<title>[^<]*</title>' "$TMP/ten/report.html")
check "ten long platforms: the title names all ten" test "$(grep -o 'platform-[0-9]-0*' <<< "$title" | wc -l)" = 10
# Names of 200 characters, as an older database may hold: whole in the title too.
pad=$(printf '%0136d' 0)
q "$TMP/ten.db" "UPDATE platforms SET name = name || '$pad'; UPDATE optima SET platform = platform || '$pad'"
long=()
for i in $(seq 0 9); do long+=(--platform "$(printf 'platform-%d-%053d' "$i" 0)$pad"); done
out=$("$tune" report "${long[@]}" --db "$TMP/ten.db" -o "$TMP/ten200" 2>&1)
check "ten 200-character platforms: report exits 0 ($out)" test $? = 0
title=$(grep -o '<title>[^<]*</title>' "$TMP/ten200/report.html")
check "ten 200-character platforms: the title names all ten whole" test "$(grep -oE 'platform-[0-9]-0{189}' <<< "$title" | wc -l)" = 10
e2e_done names
