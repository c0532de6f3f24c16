#!/usr/bin/env bash
# One kind of kernel: a copy of the chase's folder under another name, given
# with --kernels-dir, is a kernel like any other and gets what the chase
# gets from its folder: its views (chase2_results ...), amaco2's tables in
# tune results, its CSV and its charts, each with its own name.
tune=$1
# shellcheck source=tests/e2e/lib.sh
source "$(dirname "$0")/lib.sh"

before=$(git -C "$src" status --porcelain 2> /dev/null)
kd=$TMP/kernels
mkdir -p "$kd"
cp -r "$src/kernels/chase" "$kd/chase2"
# Its name and its paths.
sed -i 's/^name: chase$/name: chase2/; s#chase/#chase2/#g' "$kd/chase2/kernel.yaml"
sed 's/^kernel: chase$/kernel: chase2/; s/^name: tiny$/name: tiny2/' "$src/tests/data/sweeps/tiny.yaml" > "$TMP/tiny2.yaml"
db=$TMP/copy.db
"$tune" run tests/data/sweeps/tiny.yaml --platform $plat --db "$db" > /dev/null 2> "$TMP/err1"
rc=$?
check "the chase's sweep ($(tail -1 "$TMP/err1"))" test $rc = 0
"$tune" run "$TMP/tiny2.yaml" --platform $plat --kernels-dir "$kd" --db "$db" > /dev/null 2> "$TMP/err2"
rc=$?
check "the copy's sweep ($(tail -1 "$TMP/err2"))" test $rc = 0

check "the copy's views, as many as the chase's, under its name" \
	test "$(q "$db" "SELECT COUNT(*) FROM kernel_views WHERE kernel = 'chase2'")" = \
	"$(q "$db" "SELECT COUNT(*) FROM kernel_views WHERE kernel = 'chase'")" -a \
	"$(q "$db" "SELECT COUNT(*) FROM kernel_views WHERE kernel = 'chase2' AND name NOT LIKE 'chase2\_%' ESCAPE '\\'")" = 0
check "and they read its trials alone" \
	test "$(q "$db" "SELECT COUNT(*) FROM chase2_results")" = "$(q "$db" "SELECT COUNT(*) FROM trials WHERE kernel = 'chase2' AND status = 'done'")"

# The tables: the same titles, in the same order, for each (the optima's
# naming its kernel); in JSON, the same columns. (The copy, with no header
# code of its own, also gets the generic optima table, its first column
# Context: left out here.)
"$tune" results --platform tiny --db "$db" --format json > "$TMP/r.json" 2> "$TMP/errr"
# A kernel's sections are those holding its optima table (the tables of no
# section come in its last): their tables' titles and columns, its name as K.
tables_of() {
	python3 -c 'import json, sys
d, k = json.load(open(sys.argv[1])), sys.argv[2]
for s in d["sections"]:
    if any(t["title"].startswith("Optima of %s:" % k) for t in s["tables"]):
        for t in s["tables"]:
            if t["columns"][0]["name"] != "Context" and t["title"].startswith(("Summary", "Variant isolation",
                                                                               "Group-size", "Optima of")):
                print(s.get("depth"), t["title"].replace("of %s:" % k, "of K:"), [c["name"] for c in t["columns"]])' "$TMP/r.json" "$1"
}
chase=$(tables_of chase)
copy=$(tables_of chase2)
check "amaco2's tables, the same for the copy as for the chase ($(echo "$copy" | grep -c .) tables)" \
	test "$(echo "$copy" | grep -c .)" -ge 4 -a "$chase" = "$copy"
check "the copy's optima under its own name" grep -q '"title": "Optima of chase2: platform tiny' "$TMP/r.json"

# Its samples in amaco2's columns.
"$tune" export csv --platform tiny --kernel chase2 --db "$db" > "$TMP/c2.csv" 2> "$TMP/errc"
check "export csv --kernel chase2: amaco2's columns ($(tail -1 "$TMP/errc"))" \
	test "$(head -1 "$TMP/c2.csv")" = "variant,workload_size_mb,depth,group_size,hint,run_id,ns_total,ns_per_lookup,lookups_per_sec,checksum"
check "a row per measured run of its newest results" \
	test "$(($(wc -l < "$TMP/c2.csv") - 1))" = "$(q "$db" "SELECT COUNT(*) FROM chase2_latest r JOIN samples s ON s.trial_id = r.trial_id AND s.warmup = 0")"

"$tune" export csv --platform nope --kernel chase2 --db "$db" > "$TMP/none.csv" 2> "$TMP/errn"
rc=$?
check "a platform with no samples: exit 10 saying so, nothing on stdout (rc $rc: $(tail -1 "$TMP/errn"))" \
	test "$rc" = 10 -a ! -s "$TMP/none.csv"

# Its charts.
"$tune" report --platform tiny --db "$db" -o "$TMP/rep" > /dev/null 2> "$TMP/errp"
for chart in throughput_vs_size speedup_vs_groupsize; do
	check "its chart $chart beside the chase's ($(tail -1 "$TMP/errp"))" \
		test -s "$TMP/rep/tiny-chase2-$chart.svg" -a -s "$TMP/rep/tiny-chase-$chart.svg"
done
# Its header block: the chase's macros under its own name, its lookups, and
# its object in the JSON.
"$tune" export header --platform tiny --db "$db" -o "$TMP/both.h" 2> "$TMP/errh"
rc=$?
check "export header ($(tail -1 "$TMP/errh"))" test $rc = 0
macros() { sed -n "s/^#define TUNED_$1_\([A-Z_]*\) .*/\1/p" "$TMP/both.h"; }
check "the copy's block: the chase's $(macros CHASE | grep -c .) macros, as TUNED_CHASE2_*" \
	test "$(macros CHASE | grep -c .)" -ge 10 -a "$(macros CHASE)" = "$(macros CHASE2)"
printf '#include <stdio.h>\n#include "both.h"\nint main(void) { printf("%%lld %%lld\\n", tuned_chase_group_size_for(4ull << 20), tuned_chase2_group_size_for(4ull << 20)); return TUNED_CHASE2_GROUP_SIZE > 0 ? 0 : 1; }\n' > "$TMP/use.c"
check "which compiles beside the chase's" cc -std=c11 -Wall -Wextra -Werror -I"$TMP" -o "$TMP/use" "$TMP/use.c"
check "and its lookup gives its own optimum's g" test "$("$TMP/use" | cut -d' ' -f2)" = \
	"$(q "$db" "SELECT json_extract(params, '$.group_size') FROM optima WHERE kernel = 'chase2' AND json_extract(params, '$.size_mb') = 4")"
"$tune" export json --platform tiny --db "$db" -o "$TMP/o.json" 2> /dev/null
check "its object in the JSON, as the chase's" python3 -c 'import json, sys
p = json.load(open(sys.argv[1]))["platforms"][0]
assert p["chase2"] and sorted(p["chase2"]) == sorted(p["chase"]), p.get("chase2")' "$TMP/o.json"
check "no file of the tree changed" test "$(git -C "$src" status --porcelain 2> /dev/null)" = "$before"
e2e_done kernel_copy
