#!/usr/bin/env bash
# The generic path's final: the gain over the baseline is measured run by
# run in the process of the setting the final chooses. A kernel whose
# setting b reads 1% slower than a in the search and 10% faster in the
# final: the search's knee is a's, the final's b's, and the baseline point
# (baseline_as: g = 0) must stand beside b in its process, so that the gain
# is paired (it stood beside a only, and the gain was never paired).
tune=$1
# shellcheck source=tests/e2e/lib.sh
source "$(dirname "$0")/lib.sh"
kd=$TMP/kernels
mkdir -p "$kd/flip"
cat > "$kd/flip/kernel.yaml" << 'YAML'
name: flip
main: flip/main.c
sources: [flip/main.c]
variants: [plain, fast]
baseline: plain
baseline_as: { variant: fast, g: 0 }
variant_flag: --variant
parameters:
  - { name: mode, type: choice, choices: [a, b], default: a, flag: --mode, role: searched, variants: [fast] }
  - { name: g, type: int, min: 0, max: 64, default: 1, flag: --g, role: list }
metric: { field: ns }
exports: [variant, mode, g]
YAML
# Its processes are counted in a file: the search's three come first.
cat > "$kd/flip/main.c" << C
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(int argc, char **argv)
{
	long runs = 1, warmup = 0, g[64], ng = 0, seen = 0;
	const char *mode = "a", *variant = "plain";
	FILE *f = fopen("$TMP/processes", "a+");

	for (int i = 1; i + 1 < argc; i += 2)
		if (!strcmp(argv[i], "--runs")) runs = strtol(argv[i + 1], NULL, 10);
		else if (!strcmp(argv[i], "--warmup")) warmup = strtol(argv[i + 1], NULL, 10);
		else if (!strcmp(argv[i], "--mode")) mode = argv[i + 1];
		else if (!strcmp(argv[i], "--variant")) variant = argv[i + 1];
		else if (!strcmp(argv[i], "--g"))
			for (char *p = argv[i + 1]; *p && ng < 64; p += *p == ',') g[ng++] = strtol(p, &p, 10);
	if (f) {
		int c;

		while ((c = fgetc(f)) != EOF) seen += c == '\n';
		fputs("x\n", f);
		fclose(f);
	}
	for (long r = 0; r < warmup + runs; r++)
		for (long b = 0; b < ng; b++) {
			double ns = !strcmp(variant, "plain") || g[b] == 0 ? 200.0 : *mode == 'a' ? 100.0 : seen < 3 ? 101.0 : 90.0;

			printf("{\"g\":%ld,\"run\":%ld,\"warmup\":%s,\"ns\":%.3f}\n", g[b], r, r < warmup ? "true" : "false",
			       ns * (1 + 0.001 * (double)((r * 7 + b * 3) % 5)));
		}
	return 0;
}
C
printf 'name: flip\nkernel: flip\nparams:\n  variant: [plain, fast]\n  mode: [a, b]\n  g: [1, 2]\nruns: 5\nmax_runs: 5\nwarmup: 0\nfinal_top: 4\n' > "$TMP/flip.yaml"
db=$TMP/f.db
"$tune" run "$TMP/flip.yaml" --platform $plat --kernels-dir "$kd" --db "$db" > /dev/null 2> "$TMP/err"
rc=$?
check "the sweep runs ($(tail -1 "$TMP/err"))" test $rc = 0
check "the search took three processes, the final came after" test "$(q "$db" "SELECT count(DISTINCT batch) FROM trials WHERE phase = 'search'")" = 3
check "the final chose b" test "$(q "$db" "SELECT json_extract(params, '\$.mode') FROM optima WHERE kernel = 'flip'")" = b
check "the baseline point stood beside b in the final" \
	test "$(q "$db" "SELECT count(*) FROM trials WHERE kernel = 'flip' AND phase = 'final' AND json_extract(params, '\$.mode') = 'b' AND json_extract(params, '\$.g') = 0 AND status = 'done'")" = 1
check "the gain is paired, run by run" test -n "$(q "$db" "SELECT baseline_paired FROM optima WHERE kernel = 'flip'")"
"$tune" results --db "$db" > "$TMP/results" 2>&1
check "and the headline says so" grep -q "over .*run by run" "$TMP/results"
# The kernel's table: which phase each median comes from, the final's starred.
check "the kernel's table has a phase column" grep -qE '^Context +Variant +Parameters +Phase +Median' "$TMP/results"
check "its one star is on b's final median ($(grep -E ' \*$' "$TMP/results" | tr -s ' '))" \
	test "$(grep -cE ' \*$' "$TMP/results")-$(grep -E ' \*$' "$TMP/results" | grep -cE 'fast +mode=b g=1 +final +9[0-9.]+ ')" = 1-1
check "the search's medians are there too, said as such" test "$(grep -cE 'fast +mode=[ab] g=[12] +search ' "$TMP/results")" = 4
e2e_done generic_final
