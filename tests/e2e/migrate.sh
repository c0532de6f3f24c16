#!/usr/bin/env bash
# A database of schema 4 (chase, ipa and sched results written by an older
# tune, tests/data/schema4/db.sql) migrates to this tune's schema keeping every
# sample, trial, sweep and optimum: `tune results` reads the same as it did
# for the tune that wrote it (tests/data/schema4/results.txt), and every trial and
# optimum has its parameters as data (trial_params, optimum_params).
tune=$1
. "$(dirname "$0")/lib.sh"

db=$TMP/s4.db
sqlite3 "$db" < tests/data/schema4/db.sql
check "the fixture is schema 4" [ "$(q "$db" "PRAGMA user_version")" = 4 ]
counts="SELECT (SELECT COUNT(*) FROM samples) || ' ' || (SELECT COUNT(*) FROM trials) || ' ' ||
	(SELECT COUNT(*) FROM sweeps) || ' ' || (SELECT group_concat(k, ',') FROM (SELECT kernel || '=' || COUNT(*) AS k
	FROM optima GROUP BY kernel ORDER BY kernel))"
before=$(q "$db" "$counts")
sums="SELECT SUM(ns_per_lookup), SUM(checksum % 1000003) FROM samples"
sums_before=$(q "$db" "$sums")
# What the chase's and ipa's trial columns held, to find again in their views.
chase_cols="SELECT group_concat(k, ';') FROM (SELECT id || ':' || variant || ':' || COALESCE(hint, '-') || ':' || size_mb
	|| ':' || group_size || ':' || hugepages || ':' || depth || ':' || queries AS k FROM %s WHERE kernel = 'chase'
	AND status = 'done' ORDER BY id)"
chase_before=$(q "$db" "$(printf "$chase_cols" trials)")
ipa_before=$(q "$db" "SELECT group_concat(id || '=' || threshold_ns, ' ') FROM trials WHERE kernel = 'ipa'")

# Reading writes nothing: the file stays schema 4, byte for byte, and its
# journal mode as it was; what is read is a migrated copy.
md5_before=$(md5sum < "$db")
mkdir "$TMP/rt"
TMPDIR=$TMP/rt "$tune" results --db "$db" > "$TMP/results" 2> "$TMP/err"
rc=$?
check "results of a schema-4 database (rc $rc: $(head -1 "$TMP/err"))" [ "$rc" = 0 ]
check "the same results as the tune that wrote it" diff -u tests/data/schema4/results.txt "$TMP/results"
check "it says it read a migrated copy" grep -q "has an older schema: read from a migrated copy, the file left as it is" "$TMP/err"
check "the file is left byte for byte" [ "$(md5sum < "$db")" = "$md5_before" ]
check "and its journal mode" [ "$(q "$db" "PRAGMA journal_mode")" = delete ]
check "no private copy is left behind" [ -z "$(ls -A "$TMP/rt")" ]
out=$("$tune" migrate --db "$db" 2>&1)
check "tune migrate migrates it in place ($out)" grep -q "migrated from schema 4 to" <<< "$out"
"$tune" results --db "$db" > "$TMP/results2" 2> "$TMP/err2"
check "the same results after" diff -u tests/data/schema4/results.txt "$TMP/results2"
check "schema is this tune's" [ "$(q "$db" "PRAGMA user_version")" = "$("$tune" version | sed -n 's/.*(schema \([0-9]*\).*/\1/p')" ]
check "every sample, trial, sweep and optimum kept ($before)" [ "$(q "$db" "$counts")" = "$before" ]
check "every sample's values kept" [ "$(q "$db" "$sums")" = "$sums_before" ]
check "integrity" [ "$(q "$db" "PRAGMA integrity_check")" = ok ]
check "every trial has its parameters" [ "$(q "$db" "SELECT COUNT(*) FROM trials WHERE params IS NULL")" = 0 ]
check "every optimum has its parameters" [ "$(q "$db" "SELECT COUNT(*) FROM optima WHERE params IS NULL")" = 0 ]
check "chase's view reads its columns' values back from its parameters" [ "$(q "$db" "$(printf "$chase_cols" \
	"(SELECT trial_id AS id, *, 'done' AS status FROM chase_results)")")" = "$chase_before" ]
check "ipa's threshold is a parameter" [ "$(q "$db" "SELECT group_concat(trial_id || '=' || value, ' ') FROM trial_params
	WHERE kernel = 'ipa' AND name = 'threshold_ns'")" = "$ipa_before" ]
kernel_cols=$(q "$db" "SELECT group_concat(name, ' ') FROM pragma_table_info('trials') WHERE name IN ('size_mb', 'hint',
	'group_size', 'depth', 'queries', 'hugepages', 'threshold_ns', 'speedup', 'apps', 'dispatch')")
check "no column of trials is a kernel's parameter (${kernel_cols:-none})" [ -z "$kernel_cols" ]
check "sched's point is parameters" [ "$(q "$db" "SELECT COUNT(DISTINCT optimum_id) FROM optimum_params WHERE kernel = 'sched' AND name IN ('speedup', 'apps', 'dispatch')")" = "$(q "$db" "SELECT COUNT(*) FROM optima WHERE kernel = 'sched'")" ]
check "ipa's wake-up cost is a probe stored with the host" [ "$(q "$db" "SELECT group_concat(field || '=' || value, ' ') FROM (SELECT field, value FROM host_probes WHERE kernel = 'ipa' AND probe = 'wakeup' ORDER BY field)")" = "cross_cpu_ns=18796.0 same_cpu_ns=2495.0" ]
check "the shipped kernels' views still answer" [ "$(q "$db" "SELECT COUNT(*) FROM ipa_results") $(q "$db" "SELECT COUNT(*) FROM sched_results")" = "6 48" ]
# A trial recorded after the migration has its parameters, and the chase's views answer for it.
"$tune" run tests/data/sweeps/tiny.yaml --platform $plat --db "$db" --fresh > /dev/null 2>&1
check "a new chase trial's parameters" [ "$(q "$db" "SELECT COUNT(*) FROM trials WHERE kernel = 'chase' AND params IS NULL")-$(q "$db" "SELECT COUNT(*) FROM trials WHERE kernel = 'chase'")" = "0-48" ]
check "the chase's views made again from its folder" [ "$(q "$db" "SELECT COUNT(*) FROM kernel_views WHERE kernel = 'chase' AND sql_hash != ''")" = "$(grep -c '^CREATE VIEW' kernels/chase/views.sql)" ]
check "and they answer for the old trials and the new" [ "$(q "$db" "SELECT COUNT(DISTINCT sweep_id) FROM chase_results")" -ge 2 ]
# A database of schema 13 (tests/data/schema13/db.sql: chase, ipa and sched
# results and optima, with the optima's parameters still in the chase's, ipa's
# and sched's columns) migrates keeping every row, and reads as it did:
# the same results, a byte-identical amaco2 CSV and the same header.
db13=$TMP/s13.db
sqlite3 "$db13" < tests/data/schema13/db.sql
before13=$(q "$db13" "$counts")
"$tune" migrate --db "$db13" > /dev/null 2>&1
check "schema 13: every sample, trial, sweep and optimum kept ($before13)" [ "$(q "$db13" "$counts")" = "$before13" ]
"$tune" results --db "$db13" > "$TMP/results13" 2>&1
check "schema 13: the same results" diff -u tests/data/schema13/results.txt "$TMP/results13"
"$tune" export csv --db "$db13" -o "$TMP/amaco2.csv"
check "schema 13: the amaco2 CSV byte for byte" cmp tests/data/schema13/amaco2.csv "$TMP/amaco2.csv"
"$tune" export header --db "$db13" -o "$TMP/h13.h"
check "schema 13: the same header" sh -c "grep -v 'TUNED_GENERATED_AT\|generated by tune' '$TMP/h13.h' | diff -u tests/data/schema13/header.h -"
kernel_cols=$(q "$db13" "SELECT group_concat(name, ' ') FROM pragma_table_info('optima') WHERE name IN ('size_mb', 'hint',
	'group_size', 'best_group_size', 'hugepages', 'threshold_ns', 'speedup', 'apps', 'dispatch')")
check "no column of optima is a kernel's parameter (${kernel_cols:-none})" [ -z "$kernel_cols" ]
check "each optimum's parameters are data" [ "$(q "$db13" "SELECT COUNT(*) FROM optima WHERE params IS NULL OR json_valid(params) = 0")" = 0 ]
e2e_done migrate
