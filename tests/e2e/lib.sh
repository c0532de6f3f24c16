# Shared set-up of the end-to-end tests, sourced after `tune=$1`: runs from
# the source tree, in a fresh temporary directory ($TMP, removed at exit,
# also holding the build cache), with check/q helpers and a closing summary.
set -u
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$src" || exit 2
TMP=$(mktemp -d)
export TMP
e2e_cleanup() { rm -rf "$TMP"; }
trap 'e2e_cleanup' EXIT
export TUNE_CACHE_DIR=$TMP/cache
plat=tests/data/platforms/tiny.yaml
pass=0 fail=0
# check DESCRIPTION COMMAND...: counts a pass when COMMAND succeeds.
check() { local what=$1; shift; if "$@"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $what"; fi; }
q() { sqlite3 "$1" "$2"; }
# finals_missing DB KERNEL: how many search trials of KERNEL whose interval
# reaches within 2% of their context's best median were not measured again
# in the final (without anchors, a grid's scores are its medians).
finals_missing() {
	q "$1" "SELECT count(*) FROM trials t JOIN trial_summary m ON m.trial_id = t.id WHERE t.kernel = '$2'
		AND t.phase = 'search' AND m.ci_low <= 1.02 * (SELECT min(m2.median) FROM trials t2 JOIN trial_summary m2
		ON m2.trial_id = t2.id WHERE t2.sweep_id = t.sweep_id AND t2.phase = 'search' AND t2.context = t.context)
		AND NOT EXISTS (SELECT 1 FROM trials f WHERE f.sweep_id = t.sweep_id AND f.trial_key = t.trial_key || '/final'
		AND f.status = 'done')"
}
# tiny_platform NAME: the lines of a platform like tests/data/platforms/tiny.yaml
# named NAME, without sweeps; callers add where it runs (hosts, executor).
tiny_platform() {
	printf 'name: %s\narch: auto\ncompiler: cc\ncflags: [-O2]\n' "$1"
	printf 'params:\n  hint: [pldl1keep, pldl1strm]\n  size_mb: [1, 4]\n  group_size: [1, 4, 16]\n'
}
# killed_runs DB SWEEP: three runs of SWEEP into DB on $plat, each killed
# (-9) at a random moment within its first second; the database must be
# whole after each.
killed_runs() {
	local i pid
	for i in 1 2 3; do
		"$tune" run "$2" --platform $plat --db "$1" > /dev/null 2>&1 &
		pid=$!
		sleep "0.$((RANDOM % 6 + 3))"
		kill -9 $pid 2>/dev/null
		wait $pid 2>/dev/null
		[ -f "$1" ] && check "integrity after kill $i" test "$(q "$1" "PRAGMA integrity_check")" = ok
	done
}
# agent_token: a token for agents and orchestrators in $TMP/token, mode 600
# as both sides require; its text in $token.
agent_token() {
	(umask 077; head -c 24 /dev/urandom | base64 > "$TMP/token")
	token=$(cat "$TMP/token")
}
# agent_wait PORT LOG PID: waits until the agent PID on 127.0.0.1:PORT
# answers with $token; says what it logged and fails when it does not
# within 5 s, or has exited (another process holding the port answers too).
agent_wait() {
	for _ in $(seq 50); do
		kill -0 "$3" 2> /dev/null || break
		curl -s -o /dev/null -H "Authorization: Bearer $token" "http://127.0.0.1:$1/v1/facts" && return 0
		sleep 0.1
	done
	echo "agent on port $1 did not start: $(cat "$2")"
	return 1
}
# e2e_done NAME [EXTRA_RC]: the summary line; exits non-zero on any failure.
e2e_done() { echo "$1: $pass passed, $fail failed"; [ "$fail" = 0 ] && [ "${2:-0}" = 0 ]; }

# write_sumk DIR: a user's kernel, sumk, written into DIR/sumk: a tiny C
# program that sums an array in blocks of g, and its manifest (a context n,
# a compile-time define unroll for the unrolled variant, the list g).
write_sumk() {
mkdir -p "$1/sumk"
cat > "$1/sumk/kernel.yaml" << 'YAML'
name: sumk
description: sums an array in blocks of g
main: sumk/main.c
sources: [sumk/main.c]
variants: [plain, unrolled]
baseline: plain
variant_define: SUMK_VARIANT
parameters:
  - { name: n, type: int, min: 1, max: 1000000, default: 1000, flag: --n, role: context }
  - { name: unroll, type: int, min: 1, max: 8, default: 2, define: SUMK_UNROLL, role: searched, variants: [unrolled] }
  - { name: g, type: int, min: 1, max: 64, default: 1, flag: --g, role: list }
metric: { field: ns_per_item, unit: ns }
correctness: checksum
exports: [variant, unroll, g]
YAML
cat > "$1/sumk/main.c" << 'C'
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifndef SUMK_UNROLL
#define SUMK_UNROLL 1
#endif
static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e9 + t.tv_nsec;
}
int main(int argc, char **argv)
{
	long runs = 1, warmup = 0, seed = 1, n = 1000, g[64], ng = 0;

	for (int i = 1; i + 1 < argc; i += 2) {
		long v = strtol(argv[i + 1], NULL, 10);

		if (!strcmp(argv[i], "--runs")) runs = v;
		else if (!strcmp(argv[i], "--warmup")) warmup = v;
		else if (!strcmp(argv[i], "--seed")) seed = v;
		else if (!strcmp(argv[i], "--n")) n = v;
		else if (!strcmp(argv[i], "--g"))
			for (char *p = argv[i + 1]; *p && ng < 64; p += *p == ',') g[ng++] = strtol(p, &p, 10);
		else { fprintf(stderr, "sumk: unknown flag %s\n", argv[i]); return 2; }
	}
	if (!ng) g[ng++] = 1;
	unsigned *a = malloc(n * sizeof(*a));
	for (long i = 0; i < n; i++) a[i] = (unsigned)(i * 2654435761u + seed);
	for (long r = 0; r < warmup + runs; r++)
		for (long b = 0; b < ng; b++) {
			double t0 = now();
			unsigned long long sum = 0;
			for (long rep = 0; rep < 50; rep++)
				for (long i = 0; i < n; i += g[b])
					for (long k = i; k < i + g[b] && k < n; k++) sum += (unsigned long long)a[k] * SUMK_UNROLL / SUMK_UNROLL;
			printf("{\"g\":%ld,\"run\":%ld,\"warmup\":%s,\"ns_per_item\":%.4f,\"checksum\":%llu}\n", g[b], r,
			       r < warmup ? "true" : "false", (now() - t0) / (50.0 * n), sum);
		}
	free(a);
	return 0;
}
C
}
