#!/usr/bin/env bash
# A kernel folder is outside input too: what its program does cannot hang
# tune or outlive the trial, and what it reports is checked. A source that
# is a FIFO is refused (it blocked tune forever); a kernel that exits 0 but
# leaves a child holding its output times out and fails (it was accepted as
# ok); a child that left the process group (setsid) ends with the trial; a
# metric of -1 or 0 fails the run, naming the value (-1 was chosen as the
# optimum). The database keeps what was recorded before each.
tune=$1
# shellcheck source=tests/e2e/lib.sh
source "$(dirname "$0")/lib.sh"
kd=$TMP/kernels
# kernel NAME BODY: a kernel NAME whose main runs BODY once per list value
# and prints its line; BODY sees g, r (the run) and w (1 in a warm-up).
kernel() {
	mkdir -p "$kd/$1"
	printf 'name: %s\nmain: %s/main.c\nsources: [%s/main.c]\nvariants: [one]\nbaseline: one\nparameters:\n  - { name: g, type: int, min: 1, max: 64, default: 1, flag: --g, role: list }\nmetric: { field: ns }\n' \
		"$1" "$1" "$1" > "$kd/$1/kernel.yaml"
	cat > "$kd/$1/main.c" << C
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
int main(int argc, char **argv)
{
	long runs = 1, warmup = 0, gs[64], ng = 0;

	for (int i = 1; i + 1 < argc; i += 2)
		if (!strcmp(argv[i], "--runs")) runs = strtol(argv[i + 1], NULL, 10);
		else if (!strcmp(argv[i], "--warmup")) warmup = strtol(argv[i + 1], NULL, 10);
		else if (!strcmp(argv[i], "--g"))
			for (char *p = argv[i + 1]; *p && ng < 64; p += *p == ',') gs[ng++] = strtol(p, &p, 10);
	for (long r = 0; r < warmup + runs; r++)
		for (long b = 0; b < ng; b++) {
			long g = gs[b];
			int w = r < warmup;
			$2
		}
	fflush(stdout);
	return 0;
}
C
	printf 'name: %s\nkernel: %s\nparams:\n  g: [1, 2]\nruns: 2\nwarmup: 0\ntimeout_s: %s\n' "$1" "$1" "${3:-10}" > "$TMP/$1.yaml"
}
line='printf("{\"g\":%ld,\"run\":%ld,\"warmup\":%s,\"ns\":%.1f}\n", g, r, w ? "true" : "false", 10.0 + g);'
db=$TMP/c.db
kernel good "$line"
"$tune" run "$TMP/good.yaml" --platform $plat --kernels-dir "$kd" --db "$db" > /dev/null 2> "$TMP/err"
rc=$?
check "a good kernel first ($(tail -1 "$TMP/err"))" test $rc = 0
before=$(q "$db" "SELECT count(*) FROM samples")

# A FIFO as a source: refused at once, naming it.
kernel fifo "$line"
rm "$kd/fifo/main.c"
mkfifo "$kd/fifo/main.c"
out=$(timeout 20 "$tune" run "$TMP/fifo.yaml" --platform $plat --kernels-dir "$kd" --db "$db" 2>&1)
rc=$?
check "a FIFO source: refused, not waited on (rc $rc: $out)" test $rc != 0 -a $rc != 124
check "a FIFO source: said so" grep -q "fifo/main.c' (listed in .*): not a regular file" <<< "$out"

# A kernel that exits 0 and leaves a child holding its stdout.
kernel held "$line if (r == warmup + runs - 1 && b == ng - 1 && fork() == 0) { sleep(60); _exit(0); }" 3
t0=$(date +%s)
"$tune" run "$TMP/held.yaml" --platform $plat --kernels-dir "$kd" --db "$db" > /dev/null 2> "$TMP/held.err"
t1=$(date +%s)
check "held stdout: the trials failed, not ok ($(q "$db" "SELECT group_concat(DISTINCT status) FROM trials WHERE kernel = 'held'"))" \
	test "$(q "$db" "SELECT count(*) FROM trials WHERE kernel = 'held' AND status = 'done'")" = 0
check "held stdout: as timed out" test "$(q "$db" "SELECT count(*) FROM trials WHERE kernel = 'held' AND status = 'failed' AND reason LIKE '%timed out%'")" -ge 1
check "held stdout: the child ended with the trial" test -z "$(pgrep -f "$TMP/cache/builds/.*/held")"
check "held stdout: within its time, not the child's 60 s ($((t1 - t0)) s)" test $((t1 - t0)) -lt 40

# A child that leaves the process group (setsid) and would run on.
# The kernel waits until its grandchild is in a session of its own.
# (it writes its pid by a rename, and the kernel waits for that, so that
# tune cannot end it before it says who it is)
kernel escape "$line if (r == 0 && b == 0) { pid_t c = fork(); if (c == 0) { setsid(); if (fork() == 0) { int i; for (i = 0; i < 3; i++) close(i); FILE *f = fopen(\"$TMP/escaped.tmp\", \"w\"); fprintf(f, \"%d\", (int)getpid()); fclose(f); rename(\"$TMP/escaped.tmp\", \"$TMP/escaped.pid\"); sleep(60); } _exit(0); } waitpid(c, NULL, 0); int k; for (k = 0; k < 5000 && access(\"$TMP/escaped.pid\", F_OK) != 0; k++) usleep(1000); }"
"$tune" run "$TMP/escape.yaml" --platform $plat --kernels-dir "$kd" --db "$db" > /dev/null 2> "$TMP/escape.err"
rc=$?
check "setsid child: the sweep runs ($(tail -1 "$TMP/escape.err"))" test $rc = 0
for _ in $(seq 20); do [ -s "$TMP/escaped.pid" ] && break; sleep 0.1; done
pid=$(cat "$TMP/escaped.pid" 2> /dev/null)
check "setsid child: it started ($pid)" test -n "$pid"
check "setsid child: it did not outlive tune" test -n "$pid" -a ! -d "/proc/${pid:-0}"
[ -n "$pid" ] && kill "$pid" 2> /dev/null

# A metric of -1 and of 0.
for v in -1 0; do
	kernel "m${v#-}" "printf(\"{\\\"g\\\":%ld,\\\"run\\\":%ld,\\\"warmup\\\":%s,\\\"ns\\\":%.1f}\\n\", g, r, w ? \"true\" : \"false\", g == 2 ? $v.0 : 5.0);"
	"$tune" run "$TMP/m${v#-}.yaml" --platform $plat --kernels-dir "$kd" --db "$db" > /dev/null 2> "$TMP/m.err"
	check "metric $v: no optimum chosen from it" test "$(q "$db" "SELECT count(*) FROM optima WHERE kernel = 'm${v#-}' AND median <= 0")" = 0
	check "metric $v: the run fails naming the value" \
		test "$(q "$db" "SELECT count(*) FROM trials WHERE kernel = 'm${v#-}' AND status = 'failed' AND reason LIKE '%field ''ns'' (the metric) is ${v}, outside its range: above 0%'")" -ge 1
done
# A kernel's stderr with terminal sequences is stored and shown as text.
kernel esc 'fprintf(stderr, "\033]0;pwned\007\033[2J failing\n"); return 1;'
out=$("$tune" run "$TMP/esc.yaml" --platform $plat --kernels-dir "$kd" --db "$db" 2>&1)
check "stderr with terminal sequences: stored without them" \
	test "$(q "$db" "SELECT count(*) FROM trials WHERE kernel = 'esc' AND status = 'failed' AND instr(reason, char(27)) = 0 AND reason LIKE '%\x1b]0;pwned\x07\x1b[2J failing%'")" -ge 1
check "and shown without them" test -z "$(LC_ALL=C grep -l $'\x1b' <<< "$out")"
check "what was recorded before is intact" test "$(q "$db" "SELECT count(*) FROM samples s JOIN trials t ON t.id = s.trial_id WHERE t.kernel = 'good'")" = "$before"
check "the database is consistent" test "$(q "$db" "PRAGMA integrity_check")" = ok
pkill -f "$TMP/cache/builds/" 2> /dev/null # what an older tune left running
e2e_done contain
