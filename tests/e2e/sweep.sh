#!/usr/bin/env bash
# End to end: a tiny sweep into a real database, checked with sqlite3; a
# re-run resumes and measures nothing; the build cache is reused; results and
# CSV read the database; Ctrl-C in the middle of a sweep leaves a database that
# resumes; kernels that time out, crash, compute a wrong checksum or do not
# compile fail their trials with the reason while the sweep goes on.
tune=$1
# shellcheck source=tests/e2e/lib.sh
source "$(dirname "$0")/lib.sh"

# 1. A tiny sweep: 2 sizes x (scalar + 2 scalar-prefetch + 3 interleaved + 6 interleaved-prefetch).
db=$TMP/e2e.db
"$tune" run tests/data/sweeps/tiny.yaml --platform $plat --db "$db" > "$TMP/out1" 2> "$TMP/err1"
rc=$?
check "first run exits 0 ($(tail -3 "$TMP/err1")) (rc $rc)" test $rc = 0
check "24 trials done" test "$(q "$db" "SELECT count(*) FROM trials WHERE status='done'")" = 24
check "4 samples per trial" test "$(q "$db" "SELECT count(*) FROM samples")" = 96
check "one warm-up per trial" test "$(q "$db" "SELECT count(*) FROM samples WHERE warmup=1")" = 24
check "one checksum per size" test "$(q "$db" "SELECT count(DISTINCT json_extract(t.params, '$.size_mb') || '/' || s.checksum) FROM samples s JOIN trials t ON t.id=s.trial_id")" = 2
check "pinned CPU recorded" test "$(q "$db" "SELECT count(*) FROM trials WHERE cpu IS NULL")" = 0
check "samples ran on the pinned CPU" test "$(q "$db" "SELECT count(*) FROM samples s JOIN trials t ON t.id=s.trial_id WHERE s.cpu != t.cpu")" = 0
check "environment recorded" test "$(q "$db" "SELECT json_extract(env_json,'\$.tune_version') IS NOT NULL AND json_extract(env_json,'\$.compiler_version') != '' FROM sweeps")" = 1
check "integrity" test "$(q "$db" "PRAGMA integrity_check")" = ok
check "WAL mode" test "$(q "$db" "PRAGMA journal_mode")" = wal
check "six builds in the cache" test "$(ls "$TUNE_CACHE_DIR/builds" | wc -l)" = 6
check "builds recorded" test "$(q "$db" "SELECT count(*) FROM builds")" = 6
check "views answer" test "$(q "$db" "SELECT count(*) FROM chase_best_per_size WHERE platform='tiny'")" = 8

# 2. Re-running resumes: nothing is measured again, nothing recompiled.
touch -d '2000-01-01' "$TUNE_CACHE_DIR"/builds/*/chase
"$tune" run tests/data/sweeps/tiny.yaml --platform $plat --db "$db" > /dev/null 2> "$TMP/err2"
check "re-run exits 0" test $? = 0
check "re-run says complete" grep -q "already complete: 24 trials" "$TMP/err2"
check "no new samples" test "$(q "$db" "SELECT count(*) FROM samples")" = 96
check "cache reused" test -z "$(find "$TUNE_CACHE_DIR/builds" -name chase -newer "$db")"
check "--fresh measures again" "$tune" run tests/data/sweeps/tiny.yaml --platform $plat --db "$db" --fresh > /dev/null 2>&1
check "--fresh: a second generation" test "$(q "$db" "SELECT max(generation) FROM sweeps")" = 2
check "--fresh: 192 samples" test "$(q "$db" "SELECT count(*) FROM samples")" = 192

# 3. Results and CSV come from the database.
"$tune" results --platform tiny --db "$db" > "$TMP/results"
check "results exit 0" test $? = 0
check "summary table" grep -q "Summary: scalar vs best interleaved-prefetch" "$TMP/results"
check "isolation table" grep -q "Variant isolation" "$TMP/results"
check "group-size table" grep -q "Group-size sweep" "$TMP/results"
check "4 MB row" grep -q "^4 MB" "$TMP/results"
# The platform's file, as the run was given it: its results are under its name:.
"$tune" results --platform $plat --db "$db" > "$TMP/results-by-file"
check "results --platform FILE: the results of its name: ($?)" cmp -s "$TMP/results" "$TMP/results-by-file"
"$tune" results --platform tiny --platform $plat --db "$db" > "$TMP/results-twice"
check "the same platform by name and by file: once" cmp -s "$TMP/results" "$TMP/results-twice"
"$tune" results --platform "$TMP/none.yaml" --db "$db" > /dev/null 2> "$TMP/none.err"
check "results --platform of a missing file: nothing to show ($?)" test $? = 10
check "results --platform of a missing file: says it is no file either ($(cat "$TMP/none.err"))" grep -q "and no file '$TMP/none.yaml' either: give a platform's name" "$TMP/none.err"
"$tune" export header --platform "$TMP/none.yaml" --db "$db" > /dev/null 2> "$TMP/none.err"
check "export header --platform of a missing file: says it is no file either ($(cat "$TMP/none.err"))" grep -q "export: no optima for platform '$TMP/none.yaml' .*and no file '$TMP/none.yaml' either" "$TMP/none.err"
printf 'name: [tiny\n' > "$TMP/broken.yaml"
"$tune" results --platform "$TMP/broken.yaml" --db "$db" > /dev/null 2> "$TMP/broken.err"
check "results --platform of a broken file: a config error ($?)" test $? = 3
check "results --platform of a broken file: says what ($(cat "$TMP/broken.err"))" grep -q "results are stored under a platform's name:, and this file's cannot be read: .*broken.yaml:" "$TMP/broken.err"
"$tune" export csv --platform tiny --db "$db" -o "$TMP/out.csv"
check "csv exit 0" test $? = 0
check "amaco2 header" test "$(head -1 "$TMP/out.csv")" = "variant,workload_size_mb,depth,group_size,hint,run_id,ns_total,ns_per_lookup,lookups_per_sec,checksum"
check "csv rows: newest generation's measured runs" test "$(($(wc -l < "$TMP/out.csv") - 1))" = 72
check "csv names variants" grep -q "^interleaved-prefetch,4,6,16,pldl1strm,2," "$TMP/out.csv"
"$tune" export csv --platform tiny --db "$db" --columns all -o "$TMP/all.csv"
check "--columns all: amaco2's columns, then where each sample comes from" test "$(head -1 "$TMP/all.csv")" = "variant,workload_size_mb,depth,group_size,hint,run_id,ns_total,ns_per_lookup,lookups_per_sec,checksum,platform,host,fingerprint,hugepages,trial,phase,outlier"
check "--columns all: the same rows, amaco2's fields unchanged" bash -c "diff <(cut -d, -f1-10 '$TMP/all.csv') '$TMP/out.csv' > /dev/null"
check "--columns all: each row's trial, host and outlier flag are the database's" test "$(tail -n +2 "$TMP/all.csv" | awk -F, '{ print $15 "|" $6 "|" $12 "|" $17 }' | sort | md5sum)" = "$(q "$db" "SELECT s.trial_id || '|' || s.run_id || '|' || h.hostname || '|' || s.outlier FROM samples s JOIN trials t ON t.id = s.trial_id JOIN sweeps sw ON sw.id = t.sweep_id JOIN hosts h ON h.id = sw.host_id WHERE s.warmup = 0 AND s.trial_id IN ($(tail -n +2 "$TMP/all.csv" | cut -d, -f15 | sort -u | paste -sd,))" | sort | md5sum)"
out=$("$tune" export header --platform tiny --db "$db" --columns all 2>&1)
check "--columns is csv's: exit 2 ($out)" test $? = 2
# amaco2's columns are the kernel's own numbers, as it printed them.
check "csv's numbers are the kernel's fields (ns_total, ns_per_lookup, lookups_per_sec)" \
	test "$(q "$db" "SELECT COUNT(*) FROM samples s JOIN trials t ON t.id = s.trial_id WHERE t.kernel = 'chase' AND (s.ns_total != json_extract(s.raw_json, '$.ns_total') OR s.ns_per_lookup != json_extract(s.raw_json, '$.ns_per_lookup') OR s.lookups_per_sec != json_extract(s.raw_json, '$.lookups_per_sec'))")" = 0

# 4. Ctrl-C in the middle: exit 130, consistent, resumable.
db=$TMP/int.db
"$tune" run tests/data/sweeps/slow.yaml --platform $plat --db "$db" > /dev/null 2> "$TMP/err4" &
pid=$!
for _ in $(seq 100); do
	[ "$(q "$db" "SELECT count(*) FROM trials WHERE status='done'" 2>/dev/null)" -gt 0 ] 2>/dev/null && break
	sleep 0.1
done
kill -INT $pid
wait $pid
check "Ctrl-C exits 130" test $? = 130
check "Ctrl-C says how to resume" grep -q "run the same command again to resume" "$TMP/err4"
check "integrity after Ctrl-C" test "$(q "$db" "PRAGMA integrity_check")" = ok
check "sweep marked interrupted" test "$(q "$db" "SELECT status FROM sweeps")" = interrupted
done_before=$(q "$db" "SELECT count(*) FROM trials WHERE status='done'")
check "part of the sweep done ($done_before)" test "$done_before" -gt 0 -a "$done_before" -lt 63

# 5. Resuming after Ctrl-C completes the same trial set as an uninterrupted run
#    (tests/e2e/kill.sh does the same after many kill -9).
"$tune" run tests/data/sweeps/slow.yaml --platform $plat --db "$db" > /dev/null 2> "$TMP/err5"
rc=$?
check "resume completes ($(tail -2 "$TMP/err5")) (rc $rc)" test $rc = 0
check "all 63 trials done" test "$(q "$db" "SELECT count(*) FROM trials WHERE status='done'")" = 63
check "no duplicated samples" test "$(q "$db" "SELECT count(*) FROM samples")" = 252
check "one sweep row" test "$(q "$db" "SELECT count(*) FROM sweeps")" = 1

# 6. A trial over its time limit fails with the reason; the sweep goes on.
db=$TMP/timeout.db
"$tune" run tests/data/sweeps/timeout.yaml --platform $plat --db "$db" > /dev/null 2> "$TMP/err6"
check "failed trials exit 1" test $? = 1
check "reason stored" test "$(q "$db" "SELECT count(*) FROM trials WHERE status='failed' AND reason LIKE 'kernel timed out after 1 s%'")" = 2
check "reason shown" grep -q "timed out after 1 s" "$TMP/err6"

# 7. A kernel that does not compile: the compiler's output is shown.
mkdir -p "$TMP/kernels"
cp -r kernels/* "$TMP/kernels/"
echo "this is not C;" >> "$TMP/kernels/chase/chase_main.c"
TUNE_KERNELS_DIR=$TMP/kernels "$tune" run tests/data/sweeps/tiny.yaml --platform $plat --db "$TMP/cc.db" > /dev/null 2> "$TMP/err7"
check "compile error exits 1" test $? = 1
check "compiler output shown" grep -q "error:" "$TMP/err7"
check "the failed build named by variant and hint, from the manifest" grep -q "chase_main.c' (scalar-prefetch, pldl1strm)" "$TMP/err7"
check "build failure stored" test "$(q "$TMP/cc.db" "SELECT count(*) FROM trials WHERE reason LIKE 'build failed: cannot compile%'")" = 24

# 8. A kernel that crashes, and one whose checksum differs from scalar's: those
#    trials fail with the reason, the others are recorded.
rm -rf "$TMP/kernels"; mkdir -p "$TMP/kernels"
cp -r kernels/* "$TMP/kernels/"
# scalar-prefetch (variant 1) dies of SIGSEGV; the ring's checksum is off by one per lookup.
sed -i 's|^\treturn tk_main(&k, argc, argv);|\tif (CHASE_VARIANT == 1) raise(SIGSEGV);\n\treturn tk_main(\&k, argc, argv);|' "$TMP/kernels/chase/chase_main.c"
sed -i 's|^#include "tune_kernel.h"|#include "tune_kernel.h"\n#include <signal.h>|' "$TMP/kernels/chase/chase_main.c"
sed -i 's|sum += (uint64_t)(next - base);|sum += (uint64_t)(next - base) + 1;|' "$TMP/kernels/chase/chase.h"
TUNE_KERNELS_DIR=$TMP/kernels "$tune" run tests/data/sweeps/tiny.yaml --platform $plat --db "$TMP/bad.db" > /dev/null 2> "$TMP/err8"
check "bad kernels exit 1" test $? = 1
check "crash reason stored" test "$(q "$TMP/bad.db" "SELECT count(*) FROM trials WHERE variant='scalar-prefetch' AND reason LIKE 'kernel killed by signal 11%'")" = 4
check "checksum mismatch stored" test "$(q "$TMP/bad.db" "SELECT count(*) FROM trials WHERE variant LIKE 'interleaved%' AND reason LIKE 'checksum mismatch%'")" = 18
check "scalar still recorded" test "$(q "$TMP/bad.db" "SELECT count(*) FROM trials WHERE variant='scalar' AND status='done'")" = 2
check "failed trials have no samples" test "$(q "$TMP/bad.db" "SELECT count(*) FROM samples s JOIN trials t ON t.id=s.trial_id WHERE t.status!='done'")" = 0
# tune results says which trials failed and why, a row each.
"$tune" results --db "$TMP/bad.db" --format csv --table failed > "$TMP/failed.csv" 2> "$TMP/failed.err"
check "results: a table of the failed trials ($(head -c 300 "$TMP/failed.err"))" test "$(grep -c ',chase,' "$TMP/failed.csv")" = "$(q "$TMP/bad.db" "SELECT count(*) FROM trials WHERE status = 'failed'")"
check "results: each with its reason" grep -q "scalar-prefetch,.*kernel killed by signal 11" "$TMP/failed.csv"

# 9. Sizes over half the memory are skipped with a message.
"$tune" run tests/data/sweeps/tiny.yaml --platform tests/data/platforms/small-memory.yaml --db "$TMP/mem.db" > /dev/null 2> "$TMP/err9"
check "small memory exits 0" test $? = 0
check "skip message" grep -q "skipping size_mb=4 in sweep 'tiny': more than half of the 3 MB memory" "$TMP/err9"
check "only 1 MB measured" test "$(q "$TMP/mem.db" "SELECT group_concat(DISTINCT json_extract(params, '$.size_mb')) FROM trials")" = 1

e2e_done e2e
