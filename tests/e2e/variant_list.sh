#!/usr/bin/env bash
# A kernel whose one process measures several variants interleaved (the
# manifest's variant_field, as sched measures its policies): each process
# runs every variant of its context and searched values, each output line
# is told apart by the variant it names, and a run's whole time and rate
# come from the fields the metric names (total, rate). Locally and on an
# agent over loopback, started here. A list parameter beside the variants,
# or a parameter for some variants only, is refused with file:line:column.
tune=$1
# shellcheck source=tests/e2e/lib.sh
source "$(dirname "$0")/lib.sh"
kd=$TMP/k
mkdir -p "$kd/sum3"
cat > "$kd/sum3/kernel.yaml" << 'YAML'
name: sum3
description: sums 1..n three ways, all three in one process
main: sum3/main.c
sources: [sum3/main.c]
variants: [loop, pairs, closed]
baseline: loop
variant_flag: --method
variant_field: method
parameters:
  - { name: n, type: int, min: 1, max: 1000000, default: 1000, flag: --n, role: context }
  - { name: reps, type: int, min: 1, max: 100, default: 10, flag: --reps, role: searched }
metric: { field: ns_per_item, unit: ns, per: [reps], total: total_ns, rate: items_per_s }
correctness: checksum
YAML
cat > "$kd/sum3/main.c" << 'C'
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e9 + t.tv_nsec;
}
static const char *names[] = { "loop", "pairs", "closed" };
int main(int argc, char **argv)
{
	long runs = 1, warmup = 0, n = 1000, reps = 1;
	int m[3], nm = 0;

	for (int i = 1; i + 1 < argc; i += 2) {
		const char *v = argv[i + 1];

		if (!strcmp(argv[i], "--runs")) runs = strtol(v, NULL, 10);
		else if (!strcmp(argv[i], "--warmup")) warmup = strtol(v, NULL, 10);
		else if (!strcmp(argv[i], "--seed")) ;
		else if (!strcmp(argv[i], "--n")) n = strtol(v, NULL, 10);
		else if (!strcmp(argv[i], "--reps")) reps = strtol(v, NULL, 10);
		else if (!strcmp(argv[i], "--method"))
			for (const char *p = v; *p && nm < 3; p += strcspn(p, ",") + (p[strcspn(p, ",")] == ',')) {
				int k = 0;
				while (k < 3 && strncmp(p, names[k], strcspn(p, ",")) != 0) k++;
				if (k == 3) { fprintf(stderr, "sum3: no method %s\n", p); return 2; }
				m[nm++] = k;
			}
		else { fprintf(stderr, "sum3: unknown flag %s\n", argv[i]); return 2; }
	}
	for (long r = 0; r < warmup + runs; r++)
		for (int b = 0; b < nm; b++) {
			double t0 = now();
			volatile unsigned long long sum = 0;
			for (long rep = 0; rep < reps; rep++) {
				unsigned long long s = 0;
				if (m[b] == 0) for (long i = 1; i <= n; i++) s += (unsigned long long)i;
				else if (m[b] == 1) { for (long i = 1; i + 1 <= n; i += 2) s += 2 * (unsigned long long)i + 1; if (n % 2) s += (unsigned long long)n; }
				else s = (unsigned long long)n * (unsigned long long)(n + 1) / 2;
				sum = s;
			}
			double ns = now() - t0;
			printf("{\"method\":\"%s\",\"run\":%ld,\"warmup\":%s,\"reps\":%ld,\"ns_per_item\":%.4f,\"total_ns\":%.0f,"
			       "\"items_per_s\":%.1f,\"checksum\":%llu,\"pid\":%ld}\n", names[m[b]], r, r < warmup ? "true" : "false",
			       reps, ns / n, ns, n * reps / (ns > 0 ? ns : 1) * 1e9, (unsigned long long)sum, (long)getpid());
		}
	return 0;
}
C
printf 'name: sum3-tune\nkernel: sum3\nparams:\n  n: [1000, 5000]\n  reps: [1, 4]\nruns: 2\nwarmup: 1\nfinal_top: 0\n' > "$TMP/sweep.yaml"

# pids DB: each kernel process's variants, one line a process.
per_process() { q "$1" "SELECT group_concat(m, ',') FROM (SELECT DISTINCT json_extract(raw_json, '$.pid') p, json_extract(raw_json, '$.method') m FROM samples ORDER BY 1, 2) GROUP BY p"; }
sum3_checks() { # DB WHERE
	check "$2: 2 contexts x 2 reps x 3 variants done" [ "$(q "$1" "SELECT COUNT(*) FROM trials WHERE kernel = 'sum3' AND status = 'done'")" = 12 ]
	check "$2: every process measured all three variants" [ "$(per_process "$1" | sort -u)" = "closed,loop,pairs" ]
	check "$2: one process per context and reps" [ "$(per_process "$1" | wc -l)" = 4 ]
	check "$2: each sample is its line's variant" [ "$(q "$1" "SELECT COUNT(*) FROM samples s JOIN trials t ON t.id = s.trial_id WHERE t.variant != json_extract(s.raw_json, '$.method')")" = 0 ]
	check "$2: the run's whole time from 'total'" [ "$(q "$1" "SELECT COUNT(*) FROM samples WHERE ns_total != CAST(json_extract(raw_json, '$.total_ns') AS INTEGER)")" = 0 ]
	check "$2: the rate from 'rate'" [ "$(q "$1" "SELECT COUNT(*) FROM samples WHERE abs(lookups_per_sec - json_extract(raw_json, '$.items_per_s')) > 0.01")" = 0 ]
	check "$2: the metric per rep" [ "$(q "$1" "SELECT COUNT(*) FROM samples WHERE abs(ns_per_lookup * json_extract(raw_json, '$.reps') - json_extract(raw_json, '$.ns_per_item')) > 0.001")" = 0 ]
	check "$2: one optimum per context" [ "$(q "$1" "SELECT COUNT(*) FROM optima WHERE kernel = 'sum3'")" = 2 ]
}

"$tune" run "$TMP/sweep.yaml" --platform $plat --kernels-dir "$kd" --db "$TMP/l.db" > /dev/null 2> "$TMP/err1"
rc=$?
check "the sweep runs here (rc $rc: $(tail -1 "$TMP/err1"))" [ "$rc" = 0 ]
sum3_checks "$TMP/l.db" here

agent_token
port=$((30000 + RANDOM % 2000)) # its own range: tests run in parallel
TUNE_CACHE_DIR=$TMP/cache-agent "$tune" agent --listen 127.0.0.1:$port --token-file "$TMP/token" \
	--platform $plat --name agent1 --kernels-dir "$kd" 2>> "$TMP/agent.log" &
apid=$!
trap 'kill "$apid" 2> /dev/null; wait 2> /dev/null; e2e_cleanup' EXIT
check "the agent starts" agent_wait $port "$TMP/agent.log" $apid
{ tiny_platform remote; printf 'hosts: [http://127.0.0.1:%s]\ntoken_file: %s\n' $port "$TMP/token"; } > "$TMP/remote.yaml"
"$tune" run "$TMP/sweep.yaml" --platform "$TMP/remote.yaml" --kernels-dir "$kd" --db "$TMP/r.db" > /dev/null 2> "$TMP/err2"
rc=$?
check "the sweep runs on the agent (rc $rc: $(tail -1 "$TMP/err2"))" [ "$rc" = 0 ]
sum3_checks "$TMP/r.db" agent
check "recorded as the agent's" [ "$(q "$TMP/r.db" "SELECT DISTINCT h.hostname FROM sweeps s JOIN hosts h ON h.id = s.host_id")" = agent1 ]

# What a variant list cannot have, said where it is.
cp -r "$kd/sum3" "$kd/bad1" && sed -i 's/^name: sum3/name: bad1/; s/role: searched/role: list/' "$kd/bad1/kernel.yaml"
"$tune" kernels --kernels-dir "$kd" > /dev/null 2> "$TMP/err3"
check "a list beside the variants: file:line:column ($(cat "$TMP/err3"))" \
	grep -q "bad1/kernel.yaml:11:5: parameter 'reps': with 'variant_field' the variants are the list one process measures" "$TMP/err3"
rm -r "$kd/bad1"
cp -r "$kd/sum3" "$kd/bad2" && sed -i 's/^name: sum3/name: bad2/; s/role: searched }/role: searched, variants: [loop] }/' "$kd/bad2/kernel.yaml"
"$tune" kernels --kernels-dir "$kd" > /dev/null 2> "$TMP/err4"
check "a parameter of some variants: file:line:column ($(cat "$TMP/err4"))" \
	grep -q "bad2/kernel.yaml:11:5: parameter 'reps': with 'variant_field' every parameter applies to every variant" "$TMP/err4"
rm -r "$kd/bad2"
sed -i 's/^variant_flag: --method/variant_define: SUM3_METHOD/' "$kd/sum3/kernel.yaml"
"$tune" kernels --kernels-dir "$kd" > /dev/null 2> "$TMP/err5"
check "variants as a define: refused ($(cat "$TMP/err5"))" grep -q "key 'variant_field': one process measures several variants only when they reach it at run time" "$TMP/err5"
e2e_done variant_list
