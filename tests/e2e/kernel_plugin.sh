#!/usr/bin/env bash
# A kernel of the user's own, tuned end to end with no file of the tree
# changed: a tiny C program and its manifest (a context, a compile-time
# define, a list parameter; write_sumk in lib.sh) written into a temporary
# folder, then sweep -> optima ->
# results -> header -> a program compiled against that header. Also: the
# manifest and sweep errors name file:line:column, a changed kernel source
# is another sweep, and the shipped manifests name flags their binaries take.
tune=$1
. "$(dirname "$0")/lib.sh"

before=$(git -C "$src" status --porcelain 2> /dev/null)
kd=$TMP/mykernels
write_sumk "$kd"
cat > "$TMP/sumk.yaml" << 'YAML'
name: sumk-tune
kernel: sumk
params:
  variant: [plain, unrolled]
  n: [1000, 3000]
  unroll: [1, 4]
  g: [1, 2, 4, 8]
runs: 3
warmup: 1
final_top: 2
YAML
db=$TMP/k.db

"$tune" kernels --kernels-dir "$kd" > "$TMP/kernels" 2>&1
check "tune kernels lists the user's kernel beside the shipped ones" \
	grep -q "^sumk  sums an array in blocks of g" "$TMP/kernels"
check "with its parameters" grep -qE "unroll +int 1..8 = 2, -D SUMK_UNROLL, searched, for unrolled" "$TMP/kernels"
check "and the shipped ones" grep -q "^chase  " "$TMP/kernels"
check "with the keys their parameters replaced" grep -qxF "  moved:       sizes_mb: now size_mb (a key of older sweeps and platforms: write params: { ... })" "$TMP/kernels"

"$tune" run "$TMP/sumk.yaml" --platform $plat --kernels-dir "$kd" --db "$db" > /dev/null 2> "$TMP/err1"
rc=$?
check "the sweep runs (rc $rc: $(tail -1 "$TMP/err1"))" [ "$rc" = 0 ]
# 2 contexts x (plain + unrolled x 2 unrolls) x 4 g = 24 search trials.
check "24 search trials done" [ "$(q "$db" "SELECT COUNT(*) FROM trials WHERE phase = 'search' AND status = 'done'")" = 24 ]
check "every sample's metric recorded" [ "$(q "$db" "SELECT COUNT(*) FROM samples s JOIN trials t ON t.id = s.trial_id WHERE t.phase = 'search' AND s.warmup = 0")" = 72 ]
check "one optimum per context" [ "$(q "$db" "SELECT group_concat(context, ';') FROM (SELECT context FROM optima WHERE kernel = 'sumk' ORDER BY id)")" = "n=1000;n=3000" ]
check "parameters as rows (trial_params)" \
	[ "$(q "$db" "SELECT COUNT(DISTINCT value) FROM trial_params WHERE kernel = 'sumk' AND name = 'g'")" = 4 ]
check "unroll only where it applies" \
	[ "$(q "$db" "SELECT COUNT(*) FROM trials WHERE kernel = 'sumk' AND variant = 'plain' AND json_extract(params, '$.unroll') IS NOT NULL")" = 0 ]
check "the builds: plain, and unrolled once per unroll" \
	[ "$(q "$db" "SELECT group_concat(defines, ';') FROM (SELECT defines FROM builds WHERE kernel = 'sumk' ORDER BY defines)")" = "-DSUMK_VARIANT=0;-DSUMK_VARIANT=1 -DSUMK_UNROLL=1;-DSUMK_VARIANT=1 -DSUMK_UNROLL=4" ]
# The knee: the optimum's g is the smallest within tolerance of the best of its process.
check "the optimum is the fastest of its final measurement, or its knee" \
	[ "$(q "$db" "SELECT COUNT(*) FROM optima o WHERE kernel = 'sumk' AND median <= (SELECT MIN(ts.median) FROM trial_summary ts JOIN trials t ON t.id = ts.trial_id WHERE t.sweep_id = o.sweep_id AND t.phase = 'final' AND t.context = o.context) * 1.02 + 1e-9")" = 2 ]

"$tune" results --db "$db" > "$TMP/results" 2>&1
check "results: a table per kernel with its metric" grep -q "Kernel sumk on platform tiny, host .*: ns_per_item in ns, lower is better" "$TMP/results"
check "results: the chosen trial marked" [ "$(grep -cE '^n=[0-9]+ .* \*$' "$TMP/results")" = 2 ]
check "results: the optima" grep -q "Optima of sumk: platform tiny" "$TMP/results"

"$tune" export header --platform tiny --db "$db" -o "$TMP/tuned.h" 2> "$TMP/err2"
check "export header ($(tail -1 "$TMP/err2"))" [ -s "$TMP/tuned.h" ]
check "the header holds no other kernel's text (chase, ipa, sched)" test -z "$(grep -iE 'chase|ipa|sched' "$TMP/tuned.h")"
# What the database chose, row by row, against what the compiled header says.
want=$(q "$db" "SELECT context || ' ' || json_extract(exports, '$.variant.value') || ' ' || COALESCE(json_extract(exports, '$.unroll.value'), -1) || ' ' || json_extract(exports, '$.g.value') FROM optima WHERE kernel = 'sumk' ORDER BY id" | sed 's/^n=//')
cat > "$TMP/prog.c" << 'C'
#include <stdio.h>
#include "tuned.h"
int main(void)
{
	static const long long n[] = TUNED_SUMK_TABLE_N;

	for (unsigned i = 0; i < TUNED_SUMK_TABLE_LEN; i++)
		printf("%lld %lld %lld %lld\n", n[i], tuned_sumk_variant_for(n[i]), tuned_sumk_unroll_for(n[i]),
		       tuned_sumk_g_for(n[i]));
	printf("default %d %s %d\n", TUNED_SUMK_VARIANT, TUNED_SUMK_VARIANT_NAME, TUNED_SUMK_G);
	printf("row %u %u %u\n", tuned_sumk_row_for(1), tuned_sumk_row_for(2000), tuned_sumk_row_for(1000000));
	return 0;
}
C
check "a program compiles against the header" cc -std=c11 -Wall -Werror -DTUNED_PLATFORM_TINY -I"$TMP" -o "$TMP/prog" "$TMP/prog.c"
"$TMP/prog" > "$TMP/prog.out" 2>&1
check "its lookups give what the database chose" [ "$(head -2 "$TMP/prog.out")" = "$want" ]
check "its defaults are the last context's" \
	[ "$(sed -n 3p "$TMP/prog.out" | cut -d' ' -f2,4)" = "$(echo "$want" | tail -1 | cut -d' ' -f2,4)" ]
check "a context between rows takes the next larger, past the last the largest" \
	[ "$(sed -n 4p "$TMP/prog.out")" = "row 0 1 1" ]

"$tune" report --platform tiny --db "$db" -o "$TMP/rep" > /dev/null 2> "$TMP/err2r"
check "report: a chart of the metric against g ($(tail -1 "$TMP/err2r"))" test -s "$TMP/rep/tiny-kernel-sumk.svg"
check "report: a line per context, variant and unroll" \
	[ "$(grep -c '^"' "$TMP/rep/tiny-kernel-sumk.dat")" = 6 ]
check "report: in the HTML with its caption" grep -q "Kernel sumk: its metric (ns) against g" "$TMP/rep/report.html"
check "report: its axes named by the manifest, its metric and unit against its list" \
	sh -c 'grep -q ">ns_per_item (ns)<" "$1" && grep -q ">g<" "$1" && ! grep -q "list parameter" "$1"' _ "$TMP/rep/tiny-kernel-sumk.svg"

# A parameter the chosen variant does not use is still in the header (-1),
# so the same program compiles whatever was chosen.
sed 's/variant: \[plain, unrolled\]/variant: [plain]/' "$TMP/sumk.yaml" > "$TMP/plain.yaml"
"$tune" run "$TMP/plain.yaml" --platform $plat --kernels-dir "$kd" --db "$TMP/plain.db" > /dev/null 2>&1
mkdir -p "$TMP/plain"
"$tune" export header --platform tiny --db "$TMP/plain.db" -o "$TMP/plain/tuned.h" > /dev/null 2>&1
check "a header where no context chose unrolled compiles the same program" \
	sh -c 'cp "$1/prog.c" "$1/plain/" && cc -std=c11 -Wall -Werror -o "$1/prog2" "$1/plain/prog.c"' _ "$TMP"
check "and says unroll does not apply (-1): $("$TMP/prog2" | head -2 | tr '\n' ';')" \
	[ "$("$TMP/prog2" | head -2 | cut -d' ' -f2,3 | sort -u)" = "0 -1" ]

"$tune" export json --platform tiny --db "$db" -o "$TMP/tuned.json" 2> "$TMP/err2j"
check "export json carries the kernel's optima ($(tail -1 "$TMP/err2j"))" \
	[ "$(grep -c '"kernel": "sumk"' "$TMP/tuned.json")" = 2 ]

# The adaptive search walks the numeric list as it walks chase's g.
printf 'name: sumk-adaptive\nkernel: sumk\nstrategy: adaptive\nlist_min: 1\nlist_max: 64\nparams:\n  variant: [unrolled]\n  n: [3000]\n  unroll: [2]\nruns: 3\nwarmup: 1\n' > "$TMP/adaptive.yaml"
"$tune" run "$TMP/adaptive.yaml" --platform $plat --kernels-dir "$kd" --db "$TMP/adaptive.db" > /dev/null 2> "$TMP/err2a"
searched=$(q "$TMP/adaptive.db" "SELECT COUNT(*) FROM trials WHERE phase = 'search' AND status = 'done'")
check "adaptive: a probe of g = 1, 2, 4 .. 64 and more, fewer than all 64 ($searched; $(tail -1 "$TMP/err2a"))" \
	[ "$searched" -ge 7 ] && [ "$searched" -lt 64 ]
check "adaptive: an optimum" [ "$(q "$TMP/adaptive.db" "SELECT COUNT(*) FROM optima WHERE kernel = 'sumk'")" = 1 ]

# The knee: among list values within tolerance of the best, the smallest is
# chosen, unless the manifest says the list has none (knee: none). A kernel
# whose metric falls by 0.01% per step of g, so the best is the largest g.
for knee in smallest none; do
	mkdir -p "$TMP/kn-$knee/flat"
	printf 'name: flat\nmain: flat/main.c\nsources: [flat/main.c]\nvariants: [one]\nbaseline: one\nparameters:\n  - { name: g, type: int, min: 1, max: 64, default: 1, flag: --g, role: list, knee: %s }\nmetric: { field: ns }\n' \
		"$knee" > "$TMP/kn-$knee/flat/kernel.yaml"
	cat > "$TMP/kn-$knee/flat/main.c" << 'C'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(int argc, char **argv)
{
	long runs = 1, warmup = 0, g[64], ng = 0;

	for (int i = 1; i + 1 < argc; i += 2)
		if (!strcmp(argv[i], "--runs")) runs = atol(argv[i + 1]);
		else if (!strcmp(argv[i], "--warmup")) warmup = atol(argv[i + 1]);
		else if (!strcmp(argv[i], "--g"))
			for (char *p = argv[i + 1]; *p && ng < 64; p += *p == ',') g[ng++] = strtol(p, &p, 10);
	for (long r = 0; r < warmup + runs; r++)
		for (long b = 0; b < ng; b++)
			printf("{\"g\":%ld,\"run\":%ld,\"warmup\":%s,\"ns\":%.4f}\n", g[b], r, r < warmup ? "true" : "false",
			       100.0 - 0.01 * (double)g[b]);
	return 0;
}
C
	printf 'name: flat\nkernel: flat\nparams:\n  g: [1, 2, 4, 8]\nruns: 3\nwarmup: 0\nfinal_top: 3\n' > "$TMP/flat.yaml"
	"$tune" run "$TMP/flat.yaml" --platform $plat --kernels-dir "$TMP/kn-$knee" --db "$TMP/kn-$knee.db" > /dev/null 2> "$TMP/errk"
	chosen=$(q "$TMP/kn-$knee.db" "SELECT json_extract(params, '$.g') FROM optima WHERE kernel = 'flat'")
	want=1
	[ $knee = none ] && want=8
	check "knee: $knee chooses g=$want (chose '$chosen'; $(tail -1 "$TMP/errk"))" [ "$chosen" = $want ]
	check "knee: $knee: the best at the largest g measured, short of g's end: said" \
		grep -q "^tune: warning: sweep 'flat': the best g is 8, the largest measured: a larger one may be better (raise list_max, or list larger values)$" "$TMP/errk"
done
# At the parameter's own end there is nothing larger to try: no warning.
sed 's/^  g: \[1, 2, 4, 8\]/  g: [8, 64]/' "$TMP/flat.yaml" > "$TMP/flat64.yaml"
"$tune" run "$TMP/flat64.yaml" --platform $plat --kernels-dir "$TMP/kn-none" --db "$TMP/kn-64.db" > /dev/null 2> "$TMP/errk"
check "the best at g's end (64): no warning of a larger one ($(tail -1 "$TMP/errk"))" \
	[ "$(q "$TMP/kn-64.db" "SELECT json_extract(params, '$.g') FROM optima")" = 64 ] && ! grep -q "a larger one may be better" "$TMP/errk"

# Resume: the same command measures nothing again.
"$tune" run "$TMP/sumk.yaml" --platform $plat --kernels-dir "$kd" --db "$db" > /dev/null 2> "$TMP/err3"
check "a second run is complete already" grep -q "is already complete: 24 trials" "$TMP/err3"
# A changed kernel is another sweep, never mixed with the old one's samples.
echo "/* changed */" >> "$kd/sumk/main.c"
"$tune" run "$TMP/sumk.yaml" --platform $plat --kernels-dir "$kd" --db "$db" > /dev/null 2> "$TMP/err4"
check "a changed source starts a new sweep" [ "$(q "$db" "SELECT COUNT(*) FROM sweeps WHERE name = 'sumk-tune'")" = 2 ]

# A kernel the folders do not hold, bad params: file:line:column and what to do.
bad() {
	printf 'name: b\nkernel: sumk\nparams:\n%s\n' "$1" > "$TMP/bad.yaml"
	"$tune" run "$TMP/bad.yaml" --platform $plat --kernels-dir "$kd" --db "$TMP/bad.db" > /dev/null 2> "$TMP/err5"
	local rc=$?
	check "bad params '$1': rc $rc, '$2' in: $(cat "$TMP/err5")" sh -c "[ $rc = 3 ] && grep -qF -- \"\$1\" \"\$2\"" _ "$2" "$TMP/err5"
}
bad "  speed: [1]" "bad.yaml:4:3: key 'params': kernel 'sumk' has no parameter 'speed' (it has: n unroll g, and variant)"
bad "  g: [1, 99]" "bad.yaml:4:10: key 'params': parameter 'g': 99 is out of range [1, 64]"
bad "  variant: [plain, fast]" "bad.yaml:4:20: key 'params': 'fast' is not a variant of kernel 'sumk'"
bad "  g: [1, 1]" "bad.yaml:4:10: key 'g': value '1' is listed twice"
printf 'name: b\nkernel: nosuch\n' > "$TMP/bad.yaml"
"$tune" run "$TMP/bad.yaml" --platform $plat --kernels-dir "$kd" --db "$TMP/bad.db" > /dev/null 2> "$TMP/err6"
check "an unknown kernel names the file, line, column and the kernels there" \
	grep -q "bad.yaml:2:9: key 'kernel': unknown value 'nosuch'.*chase ipa ipa_hybrid sched sumk" "$TMP/err6"
"$tune" run "$TMP/sumk.yaml" --platform $plat --db "$TMP/bad.db" > /dev/null 2> "$TMP/err7"
check "without its folder the kernel is not found" grep -q "key 'kernel': unknown value 'sumk'" "$TMP/err7"
TUNE_KERNELS_DIR=$kd "$tune" kernels > "$TMP/kernels2" 2>&1
check "TUNE_KERNELS_DIR adds the folder too" grep -q "^sumk  " "$TMP/kernels2"
"$tune" kernels --kernels-dir "$TMP/none" > /dev/null 2> "$TMP/err8"
check "a --kernels-dir that is no folder is named" grep -q "kernels: --kernels-dir '$TMP/none' is not a folder" "$TMP/err8"

# A platform names the folder itself, relative to its own file.
{ tiny_platform kplat; printf 'kernels_dirs: [mykernels]\n'; } > "$TMP/kplat.yaml"
"$tune" run "$TMP/sumk.yaml" --platform "$TMP/kplat.yaml" --db "$TMP/k2.db" > /dev/null 2> "$TMP/err9"
check "a platform's kernels_dirs finds the kernel ($(tail -1 "$TMP/err9"))" \
	[ "$(q "$TMP/k2.db" "SELECT COUNT(*) FROM trials WHERE phase = 'search' AND status = 'done'")" = 24 ]
{ tiny_platform kplat; printf 'kernels_dirs: [nope]\n'; } > "$TMP/kplat.yaml"
"$tune" run "$TMP/sumk.yaml" --platform "$TMP/kplat.yaml" --db "$TMP/k2.db" > /dev/null 2> "$TMP/err10"
check "a kernels_dirs entry that is no folder is named" grep -q "kplat.yaml: key 'kernels_dirs': '$TMP/nope' is not a folder" "$TMP/err10"

# The shipped manifests name only flags their binaries take.
for km in chase/chase_main.c ipa/ipa_main.c ipa_hybrid/hybrid_main.c sched/sched_main.c; do
	k=${km%%/*}
	cc -std=c11 -O0 -D_GNU_SOURCE -Ikernels -Ikernels/sdk -o "$TMP/$k" "kernels/$km" -pthread -lm 2> /dev/null
	"$TMP/$k" --help > "$TMP/$k.help" 2>&1
	missing=""
	for f in $(sed -n "/^$k  /,/^  exports:/p" "$TMP/kernels" | grep -oE 'flag --[a-z0-9-]+' | cut -d' ' -f2); do
		grep -q -- "$f" "$TMP/$k.help" || missing="$missing $f"
	done
	check "$k's manifest flags are its binary's (missing:$missing)" [ -z "$missing" ] && [ -s "$TMP/$k.help" ]
done

# Where a kernel runs, as its manifest asks: pinned by the runner and told
# its CPU (cpu_flag), or pinning its own threads on the platform's CPUs and
# a device CPU (app_cpus_flag, device_cpu_flag), never narrowed as a whole.
for k in pinned threads; do
	mkdir -p "$TMP/place/$k"
	place="cpu_flag: --cpu"
	[ $k = threads ] && place=$(printf 'app_cpus_flag: --app-cpus\ndevice_cpu_flag: --device-cpu')
	printf 'name: %s\nmain: %s/main.c\nsources: [%s/main.c]\nvariants: [one]\nbaseline: one\n%s\nparameters:\n  - { name: g, type: int, min: 1, max: 4, default: 1, flag: --g, role: list }\nmetric: { field: ns }\n' \
		$k $k $k "$place" > "$TMP/place/$k/kernel.yaml"
	cat > "$TMP/place/$k/main.c" << 'C'
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(int argc, char **argv)
{
	long runs = 1, warmup = 0, cpu = -1, device = -1;
	const char *apps = "";
	cpu_set_t set;

	for (int i = 1; i + 1 < argc; i += 2)
		if (!strcmp(argv[i], "--runs")) runs = atol(argv[i + 1]);
		else if (!strcmp(argv[i], "--warmup")) warmup = atol(argv[i + 1]);
		else if (!strcmp(argv[i], "--cpu")) cpu = atol(argv[i + 1]);
		else if (!strcmp(argv[i], "--device-cpu")) device = atol(argv[i + 1]);
		else if (!strcmp(argv[i], "--app-cpus")) apps = argv[i + 1];
		else if (strcmp(argv[i], "--seed") && strcmp(argv[i], "--g")) return 2;
	sched_getaffinity(0, sizeof(set), &set);
	for (long r = 0; r < warmup + runs; r++)
		printf("{\"g\":1,\"run\":%ld,\"warmup\":%s,\"ns\":1.0,\"got_cpu\":%ld,\"got_apps\":\"%s\",\"got_device\":%ld,\"allowed\":%d}\n",
		       r, r < warmup ? "true" : "false", cpu, apps, device, CPU_COUNT(&set));
	return 0;
}
C
	printf 'name: %s\nkernel: %s\nparams:\n  g: [1]\nruns: 2\nwarmup: 0\n' $k $k > "$TMP/place-$k.yaml"
	"$tune" run "$TMP/place-$k.yaml" --platform $plat --kernels-dir "$TMP/place" --db "$TMP/place.db" > /dev/null 2> "$TMP/errp"
	check "$k: the sweep runs ($(tail -1 "$TMP/errp"))" [ "$(q "$TMP/place.db" "SELECT COUNT(*) FROM samples s JOIN trials t ON t.id = s.trial_id WHERE t.kernel = '$k' AND t.phase = 'search'")" = 2 ]
done
pinned=$(q "$TMP/place.db" "SELECT DISTINCT t.cpu || ' ' || json_extract(s.raw_json, '$.got_cpu') || ' ' || json_extract(s.raw_json, '$.allowed') FROM samples s JOIN trials t ON t.id = s.trial_id WHERE t.kernel = 'pinned'")
check "cpu_flag: pinned to one CPU and told which ('$pinned': trial's CPU, told, allowed)" \
	sh -c '[ "$(echo "$1" | wc -l)" = 1 ] && [ "$(echo "$1" | cut -d" " -f1)" = "$(echo "$1" | cut -d" " -f2)" ] && [ "$(echo "$1" | cut -d" " -f3)" = 1 ]' _ "$pinned"
threads=$(q "$TMP/place.db" "SELECT DISTINCT COALESCE(t.cpu, 'none') || ' ' || json_extract(s.raw_json, '$.got_apps') || ' ' || json_extract(s.raw_json, '$.got_device') || ' ' || json_extract(s.raw_json, '$.allowed') FROM samples s JOIN trials t ON t.id = s.trial_id WHERE t.kernel = 'threads'")
check "app_cpus_flag, device_cpu_flag: told the CPUs, not pinned as a whole ('$threads'; $(nproc) CPUs)" \
	sh -c '[ "$(echo "$1" | wc -l)" = 1 ] && [ "$(echo "$1" | cut -d" " -f1)" = none ] && echo "$1" | grep -qE "^none [0-9][0-9,]* [0-9]+ $(nproc)$"' _ "$threads"
"$tune" kernels --kernels-dir "$TMP/place" > "$TMP/placek0" 2>&1
check "no exports: given: the default is said, not '-'" \
	grep -q "exports:     variant, g (by default: the variant and the searched and list parameters)" "$TMP/placek0"
sed -i 's/^cpu_flag: --cpu$/cpu_flag: --g/' "$TMP/place/pinned/kernel.yaml"
"$tune" kernels --kernels-dir "$TMP/place" > "$TMP/placek" 2>&1
check "a placement flag that a parameter has is refused, naming the key" \
	grep -q "place/pinned/kernel.yaml: key 'cpu_flag': '--g' is also g's flag (give each its own)" "$TMP/placek"

# Its views, from its folder: SQL that would do more than create views
# named for it is refused, naming the file and line, and nothing recorded
# changes; views that only read are made and answer.
echo "views: sumk/views.sql" >> "$kd/sumk/kernel.yaml"
printf 'CREATE VIEW sumk_best AS SELECT context, MIN(median) AS ns FROM kernel_results WHERE kernel = %s GROUP BY context;\nDELETE FROM samples;\n' "'sumk'" > "$kd/sumk/views.sql"
samples=$(q "$db" "SELECT COUNT(*) FROM samples")
"$tune" run "$TMP/sumk.yaml" --platform $plat --kernels-dir "$kd" --db "$db" > /dev/null 2> "$TMP/errv"
rc=$?
check "a views file that deletes is refused as a bad kernel file (rc $rc)" [ "$rc" = 3 ]
check "naming its file and line: $(tail -1 "$TMP/errv")" \
	grep -q "sumk/views.sql:2: it does more than create a view: it would delete from 'samples'" "$TMP/errv"
check "nothing recorded changed, no view made" \
	[ "$(q "$db" "SELECT COUNT(*) FROM samples") $(q "$db" "SELECT COUNT(*) FROM sqlite_master WHERE name = 'sumk_best'")" = "$samples 0" ]
sed -i '/^DELETE/d' "$kd/sumk/views.sql"
"$tune" run "$TMP/sumk.yaml" --platform $plat --kernels-dir "$kd" --db "$db" > /dev/null 2> "$TMP/errv"
check "a views file that only reads is made ($(tail -1 "$TMP/errv"))" \
	[ "$(q "$db" "SELECT COUNT(*) FROM sumk_best")" = 2 ]
# Its own table in tune results, declared as a view named sumk_table_*: a
# row of it a row of the table its title names. One that is no table (no
# title) is refused at its line, and the views before stay.
cat >> "$kd/sumk/views.sql" << 'SQL'
CREATE VIEW sumk_table_best AS
SELECT platform, host, fingerprint, 'Sumk: the fastest of each context' AS title, context AS "Context",
       printf('%.3f', MIN(median)) AS "Best ns", context AS _order
FROM kernel_results WHERE kernel = 'sumk' GROUP BY platform, host, fingerprint, context;
CREATE VIEW sumk_table_g AS
SELECT platform, host, fingerprint, 'Sumk: median ns per item against g' AS title, variant AS "Variant",
       context AS "Context", COALESCE(json_extract(params, '$.unroll'), '-') AS "Unroll",
       'g=' || json_extract(params, '$.g') AS _column, json_object('printf', json_array('%.3f', median)) AS _cell,
       printf('%s %s %s %06d', variant, context, json_extract(params, '$.unroll'), json_extract(params, '$.g')) AS _order
FROM kernel_results WHERE kernel = 'sumk' AND phase = 'search';
CREATE VIEW sumk_table_wide AS SELECT platform, host, fingerprint, 'Same title' AS title, 1 AS a, 2 AS b, 3 AS c
FROM kernel_results WHERE kernel = 'sumk' LIMIT 1;
CREATE VIEW sumk_table_narrow AS SELECT platform, host, fingerprint, 'Same title' AS title, 4 AS d
FROM kernel_results WHERE kernel = 'sumk' LIMIT 1;
CREATE VIEW sumk_table_per_variant AS
SELECT platform, host, fingerprint, json_object('variant', variant) AS _section, 'Sumk: best per variant' AS title,
       context AS "Context", printf('%.3f ns', MIN(median)) AS "Best", variant || context AS _order
FROM kernel_results WHERE kernel = 'sumk' GROUP BY platform, host, fingerprint, variant, context;
CREATE VIEW sumk_table_wide_pivot AS
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 70)
SELECT platform, host, fingerprint, 'Seventy columns' AS title, 'row' AS "Row", 'c' || i AS _column, i AS _cell
FROM (SELECT DISTINCT platform, host, fingerprint FROM kernel_results WHERE kernel = 'sumk'), n;
-- a table across platforms needs their platform
CREATE VIEW sumk_overview_bare AS SELECT 'Across' AS title, 1 AS n;
-- not a table: no title
CREATE VIEW sumk_table_bare AS SELECT 1 AS ns;
SQL
"$tune" run "$TMP/sumk.yaml" --platform $plat --kernels-dir "$kd" --db "$db" > /dev/null 2> "$TMP/errt"
check "a table view across platforms without one is refused at its line: $(tail -1 "$TMP/errt")" \
	grep -q "sumk/views.sql:25: view sumk_overview_bare is a table of tune results across platforms (its name says so): it needs a column title (the table's), a column platform" "$TMP/errt"
sed -i '/sumk_overview_bare/d; /needs their platform/d' "$kd/sumk/views.sql"
"$tune" run "$TMP/sumk.yaml" --platform $plat --kernels-dir "$kd" --db "$db" > /dev/null 2> "$TMP/errt"
check "a table view without a title is refused at its line: $(tail -1 "$TMP/errt")" \
	grep -q "sumk/views.sql:25: view sumk_table_bare is a table of tune results (its name says so): it needs a column title" "$TMP/errt"
check "and nothing of the file is made" [ "$(q "$db" "SELECT COUNT(*) FROM sqlite_master WHERE name LIKE 'sumk_table%'")" = 0 ]
sed -i '/sumk_table_bare/d; /not a table/d' "$kd/sumk/views.sql"
echo "CREATE VIEW sumk_header AS SELECT 'BEST' AS define, 1 AS value;" >> "$kd/sumk/views.sql"
"$tune" run "$TMP/sumk.yaml" --platform $plat --kernels-dir "$kd" --db "$db" > /dev/null 2> "$TMP/errt"
check "a header view without a platform is refused at its line: $(tail -1 "$TMP/errt")" \
	grep -q "sumk/views.sql:24: view sumk_header is the kernel's block of tune export header (its name says so): it needs a column platform" "$TMP/errt"
sed -i '/sumk_header/d' "$kd/sumk/views.sql"
"$tune" run "$TMP/sumk.yaml" --platform $plat --kernels-dir "$kd" --db "$db" > /dev/null 2> "$TMP/errt"
"$tune" results --platform tiny --db "$db" > "$TMP/rt" 2>&1
check "its declared table is in tune results ($(tail -1 "$TMP/errt"))" grep -q "^Sumk: the fastest of each context$" "$TMP/rt"
check "a row per context, as its view has them" \
	[ "$(grep -cE '^n=[0-9]+ +[0-9]+\.[0-9]{3}$' "$TMP/rt")" = "$(q "$db" "SELECT COUNT(DISTINCT context) FROM kernel_results WHERE kernel = 'sumk'")" ]
check "two tables of one title and other columns stay two tables" \
	sh -c '[ "$(grep -c "^Same title$" "$1")" = 2 ] && grep -qE "^a +b +c$" "$1" && grep -qE "^d$" "$1"' _ "$TMP/rt"
check "a pivoted table (_column, _cell): a column per g" \
	grep -qE '^Variant +Context +Unroll +g=1 +g=2 +g=4 +g=8$' "$TMP/rt"
check "a row per variant, context and unroll, a cell per g" \
	[ "$(sed -n '/^Sumk: median ns per item against g$/,/^$/p;/^Sumk: median ns per item against g$/,/^[A-Z][a-z]* [a-z]/p' "$TMP/rt" | grep -cE '^(plain|unrolled) +n=[0-9]+ +[-0-9]+( +[0-9]+\.[0-9]{3}){4}$')" = \
	  "$(q "$db" "SELECT COUNT(DISTINCT variant || context || COALESCE(json_extract(params, '\$.unroll'), '-')) FROM kernel_results WHERE kernel = 'sumk' AND phase = 'search'")" ]
variants=$(q "$db" "SELECT COUNT(DISTINCT variant) FROM kernel_results WHERE kernel = 'sumk'")
check "a view with _section: a section per value, saying it, its table in each" \
	sh -c '[ "$(grep -cE "^Platform tiny on host .* \(variant (plain|unrolled), fingerprint [0-9a-f]+\)$" "$1")" = "$2" ] &&
	       [ "$(grep -c "^Sumk: best per variant$" "$1")" = "$2" ]' _ "$TMP/rt" "$variants"
check "the views without one after the last section" \
	sh -c '[ "$(grep -n "^Sumk: the fastest of each context$" "$1" | cut -d: -f1)" -gt "$(grep -n "(variant unrolled, fingerprint" "$1" | cut -d: -f1)" ]' _ "$TMP/rt"
check "a pivot of more columns than a table has: the first 63 beside its row's, the rest said" \
	sh -c 'grep -qE "^row +1 +2 .* 62 +63\$" "$1" && grep -q "table view .sumk_table_wide_pivot., column ._column.: more distinct values" "$1"' _ "$TMP/rt"
"$tune" results --platform tiny --db "$db" --format json > "$TMP/rt.json" 2> /dev/null
check "in JSON, each section has the _section's keys" \
	[ "$(python3 -c 'import json,sys; print(sorted(s.get("variant", "") for s in json.load(open(sys.argv[1]))["sections"] if "variant" in s))' "$TMP/rt.json")" = "['plain', 'unrolled']" ]
# A typed cell tune cannot format costs that cell, said once, not the report.
sed -i "s/printf('%.3f', MIN(median)) AS \"Best ns\"/json_object('printf', json_array('%x', 1)) AS \"Best ns\"/" "$kd/sumk/views.sql"
"$tune" run "$TMP/sumk.yaml" --platform $plat --kernels-dir "$kd" --db "$db" > /dev/null 2>&1
"$tune" results --platform tiny --db "$db" > "$TMP/rt2" 2> "$TMP/rt2.err"
rc=$?
check "a bad typed cell: tune results still exits 0 (rc $rc) with the rest of the report" \
	sh -c '[ "$1" = 0 ] && grep -Eq "^tiny +[^ ]+ +sumk " "$2" && grep -qE "^n=[0-9]+ +\?$" "$2"' _ "$rc" "$TMP/rt2"
check "and says once what is wrong: $(head -1 "$TMP/rt2.err")" \
	sh -c '[ "$(grep -c "warning: the table view .sumk_table_best., column .Best ns.: format .%x.: conversion %x is not one tune formats" "$1")" = 1 ]' _ "$TMP/rt2.err"

# Beside the chase: the header holds the kernels asked for, else those with optima.
"$tune" run tests/data/sweeps/tiny.yaml --platform $plat --db "$db" > /dev/null 2>&1
"$tune" export header --platform tiny --db "$db" -o "$TMP/both.h" 2> /dev/null
# Its samples as CSV, declared as a view sumk_csv; beside the chase's, which
# kernel's is asked. One without a platform to select by is refused.
echo "CREATE VIEW sumk_csv AS SELECT 1 AS n;" >> "$kd/sumk/views.sql"
"$tune" run "$TMP/sumk.yaml" --platform $plat --kernels-dir "$kd" --db "$db" > /dev/null 2> "$TMP/errc"
check "a CSV view without a platform is refused at its line: $(tail -1 "$TMP/errc")" \
	grep -q "sumk/views.sql:[0-9]*: view sumk_csv is the kernel's samples as CSV (its name says so: tune export csv): it needs a column platform" "$TMP/errc"
sed -i '/^CREATE VIEW sumk_csv AS SELECT 1 AS n;$/d' "$kd/sumk/views.sql"
cat >> "$kd/sumk/views.sql" << 'SQL'
CREATE VIEW sumk_csv AS
SELECT r.platform, r.variant, r.context, json_extract(r.params, '$.g') AS g, s.run_id,
       json_object('printf', json_array('%.3f', s.ns_per_lookup)) AS ns_per_item, r.trial_id AS _all_trial,
       printf('%020d %020d', r.trial_id, s.run_id) AS _order
FROM kernel_results r JOIN samples s ON s.trial_id = r.trial_id AND s.warmup = 0 WHERE r.kernel = 'sumk';
SQL
"$tune" run "$TMP/sumk.yaml" --platform $plat --kernels-dir "$kd" --db "$db" > /dev/null 2>&1
out=$("$tune" export csv --db "$db" 2>&1)
rc=$?
check "export csv with two kernels declaring one: exit 2 naming them (rc $rc: $out)" \
	sh -c '[ "$1" = 2 ] && printf %s "$2" | grep -q "several kernels declare a CSV (chase, sumk): say which with --kernel K"' _ "$rc" "$out"
"$tune" export csv --db "$db" --kernel sumk --columns all > "$TMP/sumk.csv" 2> "$TMP/errc"
check "export csv --kernel sumk: its columns, then --columns all's ($(tail -1 "$TMP/errc"))" \
	test "$(head -1 "$TMP/sumk.csv")" = "variant,context,g,run_id,ns_per_item,trial"
check "a row per measured run, the value as its format says" \
	sh -c '[ "$(grep -cE "^(plain|unrolled),n=[0-9]+,[0-9]+,[0-9]+,[0-9]+\.[0-9]{3},[0-9]+$" "$1")" = "$2" ]' _ "$TMP/sumk.csv" \
	"$(q "$db" "SELECT COUNT(*) FROM kernel_results r JOIN samples s ON s.trial_id = r.trial_id AND s.warmup = 0 WHERE r.kernel = 'sumk'")"
# A database the chase never measured has the chase's CSV view (migration
# 17 makes it in each): its one measured kernel's CSV needs no --kernel.
cp "$TMP/sumk.yaml" "$TMP/only.yaml"
"$tune" run "$TMP/only.yaml" --platform $plat --kernels-dir "$kd" --db "$TMP/only.db" > /dev/null 2>&1
"$tune" export csv --db "$TMP/only.db" > "$TMP/only.csv" 2> "$TMP/erro"
check "export csv where sumk alone was measured: its CSV, without --kernel ($(tail -1 "$TMP/erro"))" \
	test "$(head -1 "$TMP/only.csv")" = "variant,context,g,run_id,ns_per_item"
# Charts of its own: on a log y axis from 0 with a band (gnuplot refuses a
# log range reaching 0), and a series whose name is longer than a chart keeps.
long=$(printf 'series%.0s' $(seq 25))
cat >> "$kd/sumk/views.sql" << SQL
CREATE VIEW sumk_chart_log AS
SELECT platform, host, 'Sumk on log axes' AS title, 'g' AS xlabel, 'ns' AS ylabel, '$long' AS series,
       json_extract(params, '\$.g') AS x, median AS y, ci_low AS low, ci_high AS high, 10 AS _logy, 2 AS _logx,
       1 AS _y0, 'line' AS _style, printf('%020d', json_extract(params, '\$.g')) AS _order
FROM kernel_results WHERE kernel = 'sumk' AND phase = 'search' AND context = 'n=1000' AND variant = 'plain'
UNION ALL SELECT platform, host, NULL, NULL, NULL, 'a band', NULL, MIN(median), MIN(ci_low), MAX(ci_high), 10, 2, 1,
       'band', 'z' FROM kernel_results WHERE kernel = 'sumk' GROUP BY platform, host;
SQL
"$tune" run "$TMP/sumk.yaml" --platform $plat --kernels-dir "$kd" --db "$db" > /dev/null 2>&1
"$tune" report --platform tiny --db "$db" -o "$TMP/replog" > /dev/null 2> "$TMP/errl"
check "a chart on a log y axis from 0 with a band is drawn, the report stands ($(tail -1 "$TMP/errl"))" \
	test -s "$TMP/replog/tiny-sumk-log.svg"
check "a series of a long name is one line" test "$(grep -c '^"' "$TMP/replog/tiny-sumk-log.dat")" = 2
"$tune" export csv --db "$db" --kernel chase > "$TMP/chase.csv" 2>&1
check "and --kernel chase: amaco2's columns" grep -q "^variant,workload_size_mb,depth,group_size,hint,run_id," "$TMP/chase.csv"
out=$("$tune" export csv --db "$db" --kernel ipa 2>&1)
rc=$?
check "--kernel ipa, which declares none: exit 10 saying so (rc $rc: $out)" \
	sh -c '[ "$1" = 10 ] && printf %s "$2" | grep -q "kernel .ipa. declares no CSV (a view ipa_csv in its views file; those that do: chase, sumk)"' _ "$rc" "$out"
check "by default the kernels with optima: sumk and chase" \
	sh -c 'grep -q TUNED_SUMK_G "$1" && grep -q TUNED_CHASE_ "$1"' _ "$TMP/both.h"
"$tune" export header --platform tiny --kernel sumk --db "$db" -o "$TMP/sumk-only.h" 2> "$TMP/errk"
check "--kernel sumk: sumk's block and no chase text ($(tail -1 "$TMP/errk"))" \
	sh -c 'grep -q TUNED_SUMK_G "$1" && ! grep -qi chase "$1"' _ "$TMP/sumk-only.h"
out=$("$tune" export header --platform tiny --kernel ipa --db "$db" 2>&1)
rc=$?
check "--kernel ipa without its optima: exit 10 (rc $rc)" [ "$rc" = 10 ]
check "naming those with optima ($out)" grep -q "kernel 'ipa' has no optima on this platform (those with optima: chase, sumk)" <<< "$out"

# A header block and a JSON object it declares, in place of the generic ones:
# a macro per context's n, its g as a table looked up by n.
cat >> "$kd/sumk/views.sql" <<'SQL'
CREATE VIEW "{kernel}_header" AS
WITH o AS (SELECT platform, CAST(substr(context, 3) AS INTEGER) AS n, json_extract(params, '$.g') AS g FROM optima
           WHERE id IN (SELECT MAX(id) FROM optima WHERE kernel = '{kernel}' GROUP BY platform, context) ORDER BY 2)
SELECT platform, 1 AS _order, 'contexts' AS define, COUNT(*) AS value, NULL AS type, 'of n' AS comment, NULL AS key,
       NULL AS function, NULL AS scale FROM o GROUP BY platform
UNION ALL SELECT platform, 2, 'TABLE_N', json_group_array(n), 'table', NULL, 'n', NULL, NULL FROM o GROUP BY platform
UNION ALL SELECT platform, 3, 'TABLE_G', json_group_array(g), 'table', NULL, NULL, 'best_g', NULL FROM o
          GROUP BY platform
UNION ALL SELECT platform, 4, 'TABLE_KN', json_group_array(n / 1000), 'table', NULL, 'n2', NULL, 1000 FROM o
          GROUP BY platform
UNION ALL SELECT platform, 5, 'HALF', 1.5 * 2, NULL, NULL, NULL, NULL, NULL FROM o GROUP BY platform
UNION ALL SELECT platform, 6, 'FLAGS', json_array(json('true'), json('false')), 'table', NULL, NULL, NULL, NULL FROM o
          GROUP BY platform;
CREATE VIEW "{kernel}_json" AS
SELECT platform, json_object('contexts', COUNT(*)) AS value FROM optima WHERE kernel = '{kernel}' GROUP BY platform;
SQL
"$tune" run "$TMP/sumk.yaml" --platform $plat --kernels-dir "$kd" --db "$db" > /dev/null 2> "$TMP/errt"
"$tune" export header --platform tiny --kernel sumk --db "$db" -o "$TMP/declared.h" 2> "$TMP/errk"
check "a declared header block replaces the generic one ($(tail -1 "$TMP/errk"))" \
	sh -c 'grep -q "^#define TUNED_SUMK_CONTEXTS [0-9]* /\* of n \*/$" "$1" && ! grep -q TUNED_SUMK_G "$1"' _ "$TMP/declared.h"
n_big=$(q "$db" "SELECT MAX(CAST(substr(context, 3) AS INTEGER)) FROM optima WHERE kernel = 'sumk'")
printf '#include <stdio.h>\n#include "declared.h"\nint main(void) { printf("%%lld\\n", tuned_sumk_best_g_for(%s, %s)); return 0; }\n' "$n_big" "$n_big" > "$TMP/decl.c"
check "its lookup compiles" cc -std=c11 -Wall -Wextra -Werror -I"$TMP" -o "$TMP/decl" "$TMP/decl.c"
check "a real stays a real, true and false are 1 and 0" \
	sh -c 'grep -q "^#define TUNED_SUMK_HALF 3.0$" "$1" && grep -q "^#define TUNED_SUMK_FLAGS { 1, 0 }$" "$1"' _ "$TMP/declared.h"
check "and gives the g of the context asked for, its second key scaled" test "$("$TMP/decl")" = \
	"$(q "$db" "SELECT json_extract(params, '$.g') FROM optima WHERE kernel = 'sumk' AND context = 'n=$n_big' ORDER BY id DESC LIMIT 1")"
"$tune" export json --platform tiny --db "$db" > "$TMP/decl.json" 2> /dev/null
check "its JSON object under its name" python3 -c 'import json, sys
assert json.load(open(sys.argv[1]))["platforms"][0]["sumk"]["contexts"] >= 1' "$TMP/decl.json"

check "no file of the tree changed" [ "$(git -C "$src" status --porcelain 2> /dev/null)" = "$before" ]
e2e_done kernel_plugin
