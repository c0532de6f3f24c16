#!/usr/bin/env bash
# The final's knee by paired ratios: a kernel whose every run is 30% slower
# or not as a whole (drift within the process, the same for every g of a
# run) and whose g = 2 is 1.5% slower than the best, g = 8. Each trial's
# own interval spans the drift, so no g but the best lies wholly within 2%
# of it; run by run, g = 2 over g = 8 is 1.015 every time, so the knee is
# g = 2.
tune=$1
# shellcheck source=tests/e2e/lib.sh
source "$(dirname "$0")/lib.sh"
kd=$TMP/kernels
mkdir -p "$kd/sway"
cat > "$kd/sway/kernel.yaml" << 'YAML'
name: sway
main: sway/main.c
sources: [sway/main.c]
variants: [plain]
baseline: plain
parameters:
  - { name: g, type: int, min: 1, max: 64, default: 1, flag: --g, role: list }
metric: { field: ns }
exports: [g]
YAML
cat > "$kd/sway/main.c" << 'C'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(int argc, char **argv)
{
	long runs = 1, warmup = 0, g[64], ng = 0;

	for (int i = 1; i + 1 < argc; i += 2)
		if (!strcmp(argv[i], "--runs")) runs = strtol(argv[i + 1], NULL, 10);
		else if (!strcmp(argv[i], "--warmup")) warmup = strtol(argv[i + 1], NULL, 10);
		else if (!strcmp(argv[i], "--g"))
			for (char *p = argv[i + 1]; *p && ng < 64; p += *p == ',') g[ng++] = strtol(p, &p, 10);
	for (long r = 0; r < warmup + runs; r++)
		for (long b = 0; b < ng; b++) {
			double ns = g[b] >= 8 ? 100.0 : g[b] >= 4 ? 100.5 : g[b] >= 2 ? 101.5 : 130.0;

			printf("{\"g\":%ld,\"run\":%ld,\"warmup\":%s,\"ns\":%.3f}\n", g[b], r, r < warmup ? "true" : "false",
			       ns * (r % 2 ? 1.3 : 1.0));
		}
	return 0;
}
C
printf 'name: sway\nkernel: sway\nparams:\n  g: [1, 2, 4, 8]\nruns: 8\nmax_runs: 8\nwarmup: 0\nfinal_top: 4\ntolerance_pct: 2\n' > "$TMP/sway.yaml"
db=$TMP/s.db
"$tune" run "$TMP/sway.yaml" --platform $plat --kernels-dir "$kd" --db "$db" > /dev/null 2> "$TMP/err"
rc=$?
check "the sweep runs ($(tail -1 "$TMP/err"))" test $rc = 0
check "the final measured g = 1, 2, 4 and 8 in one process" \
	test "$(q "$db" "SELECT count(DISTINCT batch) || '-' || count(*) FROM trials WHERE phase = 'final' AND status = 'done'")" = 1-4
check "the fastest is g = 8" test "$(q "$db" "SELECT json_extract(params, '\$.g') FROM trials t JOIN trial_summary m ON m.trial_id = t.id
	WHERE phase = 'final' ORDER BY m.median LIMIT 1")" = 8
check "the knee is g = 2, within 2% run by run ($(q "$db" "SELECT params FROM optima"))" \
	test "$(q "$db" "SELECT json_extract(params, '\$.g') FROM optima WHERE kernel = 'sway'")" = 2
e2e_done paired_knee
