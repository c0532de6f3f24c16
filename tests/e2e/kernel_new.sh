#!/usr/bin/env bash
# A kernel in minutes: tune kernel new writes a folder that speaks the
# protocol and tunes at once; the user's edit (an interleaved binary search,
# tests/data/kernels/bsearch/main.c, over the placeholder loop) is checked,
# tuned, exported, and a program built on the header takes its g. Bad
# names and a folder that exists are refused, and nothing is overwritten.
tune=$1
# shellcheck source=tests/e2e/lib.sh
source "$(dirname "$0")/lib.sh"
ks=$TMP/ks
db=$TMP/new.db

"$tune" kernel new bsearch --dir "$ks" > "$TMP/out" 2> "$TMP/err"
rc=$?
check "kernel new exits 0 ($(tail -1 "$TMP/err"))" test $rc = 0
for f in kernel.yaml main.c sweep.yaml; do
	check "it writes $f" test -s "$ks/bsearch/$f"
done
check "no placeholder is left" test -z "$(grep -l '@name@' "$ks"/bsearch/*)"
check "it says what to run next" grep -qF "tune kernel check bsearch --kernels-dir $ks" "$TMP/out"
"$tune" kernels --kernels-dir "$ks" > "$TMP/kernels" 2>&1
check "tune kernels lists it" grep -q "^bsearch " "$TMP/kernels"

"$tune" kernel check bsearch --kernels-dir "$ks" --platform $plat > "$TMP/out" 2> "$TMP/err"
rc=$?
check "the new kernel speaks the protocol ($(tail -1 "$TMP/err"))" test $rc = 0

# The user's edit: the binary search in place of the placeholder loop.
cp tests/data/kernels/bsearch/main.c "$ks/bsearch/main.c"
sed -i 's/^description: .*/description: binary searches of a sorted table, g in flight/' "$ks/bsearch/kernel.yaml"
"$tune" kernel check bsearch --kernels-dir "$ks" --platform $plat > "$TMP/out" 2> "$TMP/err"
rc=$?
check "the edited kernel speaks the protocol ($(tail -1 "$TMP/err"))" test $rc = 0
lines=$(sed -n '/^static int setup/,$p' "$ks/bsearch/main.c" | wc -l)
check "its protocol side (setup, run, main) is at most 40 lines ($lines)" test "$lines" -le 40

"$tune" run "$ks/bsearch/sweep.yaml" --kernels-dir "$ks" --platform $plat --quick --db "$db" > /dev/null 2> "$TMP/err"
rc=$?
check "its sweep runs ($(tail -1 "$TMP/err"))" test $rc = 0
check "every trial measured" test "$(q "$db" "SELECT COUNT(*) FROM trials WHERE kernel = 'bsearch' AND status != 'done'")" = 0
check "an optimum recorded" test "$(q "$db" "SELECT COUNT(*) FROM optima WHERE kernel = 'bsearch'")" -ge 1

"$tune" export header --platform tiny --kernel bsearch --db "$db" -o "$TMP/tuned.h" 2> "$TMP/err"
rc=$?
check "export header ($(tail -1 "$TMP/err"))" test $rc = 0
want=$(q "$db" "SELECT COALESCE(json_extract(exports, '$.g.value'), -1) || ' ' || json_extract(exports, '$.variant.text')
	FROM optima WHERE kernel = 'bsearch' ORDER BY id DESC LIMIT 1")
cat > "$TMP/prog.c" << 'C'
#include <stdio.h>
#include "tuned.h"
int main(void)
{
	printf("%lld %s\n", tuned_bsearch_g_for(64), TUNED_BSEARCH_VARIANT_NAME);
	return 0;
}
C
check "a program compiles against the header" cc -std=c11 -Wall -Wextra -Werror -DTUNED_PLATFORM_TINY -I"$TMP" \
	-o "$TMP/prog" "$TMP/prog.c"
check "and takes the g and variant tune chose ($want)" test "$("$TMP/prog")" = "$want"

# refused NAME TEXT: kernel new NAME exits 2 saying TEXT, and writes nothing.
refused() {
	"$tune" kernel new "$1" --dir "$TMP/other" > /dev/null 2> "$TMP/err"
	rc=$?
	check "new '$1': exit 2 ($(tail -1 "$TMP/err"))" test $rc = 2
	check "new '$1': says '$2'" grep -qF -- "$2" "$TMP/err"
	check "new '$1': writes nothing" test ! -e "$TMP/other/$1"
}
refused Bad-Name "is not a kernel name: 1 to 32 lower-case letters, digits or '_', starting with a letter"
refused ../up "is not a kernel name"
refused chase "a kernel named 'chase' exists already"
before=$(cat "$ks/bsearch/main.c")
"$tune" kernel new bsearch --dir "$ks" > /dev/null 2> "$TMP/err"
rc=$?
check "a folder that exists: exit 2 ($(tail -1 "$TMP/err"))" test $rc = 2
check "and says it never writes into one" grep -q "never writes into a folder that exists" "$TMP/err"
check "the user's main.c is untouched" test "$(cat "$ks/bsearch/main.c")" = "$before"

echo "e2e: $pass passed, $fail failed"
[ "$fail" = 0 ]
