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
# The header, now declared by the kernels' views (migration 18): every macro
# as the previous tune wrote it (tests/data/schema13/header.h), and its
# lookups, now written from tune's fixed kinds, answering as the old ones
# over a grid of working sets and (speedup, apps) points.
"$tune" export header --db "$db13" -o "$TMP/h13.h"
# (the tables a row at a time, TUNED_<K>_TABLE(X), are new: checked below)
defines() { grep '^#define' "$1" | grep -v -e TUNED_GENERATED_AT -e '_TABLE(X)' | sort; }
check "schema 13: every macro of the header as before" diff -u <(defines tests/data/schema13/header.h) <(defines "$TMP/h13.h")
# Each table a row at a time: as many X(...) rows as TABLE_LEN, the row the
# lookup finds for each context X's own keys.
for K in CHASE SCHED; do
	rows=$(sed -n "/#define TUNED_${K}_TABLE(X)/,/[^\\]\$/p" "$TMP/h13.h" | grep -c 'X(.*)')
	len=$(sed -n "s/^#define TUNED_${K}_TABLE_LEN \([0-9]*\)/\1/p" "$TMP/h13.h" | head -1)
	check "schema 13: TUNED_${K}_TABLE(X) has a row per context ($rows of $len)" test "$rows" = "$len" -a "$rows" -gt 0
done
cat > "$TMP/lookups.c" <<'C'
#include <stdio.h>
#include HEADER
int main(void)
{
	static const unsigned long long mb[] = { 0, 1, 3, 4, 5, 64, 1024, 1048576 };
	static const unsigned speedups[] = { 1, 2, 7, 25, 49, 50, 51, 400 }, apps[] = { 1, 2, 3, 4, 9 };

	for (unsigned i = 0; i < sizeof(mb) / sizeof(mb[0]); i++)
		printf("%llu MB: %lld %lld %lld %lld\n", mb[i], (long long)tuned_chase_group_size_for(mb[i] << 20),
		       (long long)tuned_chase_variant_for(mb[i] << 20), (long long)tuned_chase_hint_for(mb[i] << 20),
		       (long long)tuned_chase_hugepages_for(mb[i] << 20));
	for (unsigned s = 0; s < sizeof(speedups) / sizeof(speedups[0]); s++)
		for (unsigned a = 0; a < sizeof(apps) / sizeof(apps[0]); a++)
			printf("%ux %u apps: %lld\n", speedups[s], apps[a], (long long)tuned_sched_policy_for(speedups[s], apps[a]));
	return 0;
}
C
# (The fixture lacks the opening line, which names when it was made.)
{ echo '/* tuned_config.h'; cat tests/data/schema13/header.h; } > "$TMP/h13-before.h"
cc -std=c11 -Wall -Wextra -Werror -DHEADER='"h13-before.h"' -I"$TMP" -o "$TMP/lookups-before" "$TMP/lookups.c"
check "schema 13: the header's lookups compile" cc -std=c11 -Wall -Wextra -Werror -DHEADER='"h13.h"' -I"$TMP" -o "$TMP/lookups-after" "$TMP/lookups.c"
check "schema 13: and answer as before ($("$TMP/lookups-after" | wc -l) lookups)" diff -u <("$TMP/lookups-before") <("$TMP/lookups-after")
# On tables where the kinds could differ from the old code (the chase's of
# three working sets, sched's with a point left out), against the old
# functions, copied here from the previous tune's header.
cp "$db13" "$TMP/sparse.db"
q "$TMP/sparse.db" "INSERT INTO optima (platform, host, fingerprint, kernel, context, size_class, variant, params, best_point, median, ci_low, ci_high, trials, sweep_id, decided) SELECT platform, host, fingerprint, kernel, 'size_mb=' || mb, 'dram', 'interleaved', json_object('variant', 'interleaved', 'size_mb', mb, 'hugepages', 'on', 'group_size', mb / 8), 7, median, ci_low, ci_high, trials, sweep_id, decided FROM optima, (SELECT 64 AS mb UNION ALL SELECT 512) WHERE kernel = 'chase';
DELETE FROM optima WHERE kernel = 'sched' AND context = 'speedup=50 apps=1'"
"$tune" export header --db "$TMP/sparse.db" -o "$TMP/sparse.h" 2> /dev/null
cat > "$TMP/old.c" <<'C'
#include <stdio.h>
#include "sparse.h"
static unsigned old_chase_row(unsigned long long bytes)
{
	static const unsigned long long sizes_mb[] = TUNED_CHASE_TABLE_SIZES_MB;
	unsigned i;

	for (i = 0; i + 1 < TUNED_CHASE_TABLE_LEN; i++)
		if (bytes <= sizes_mb[i] << 20)
			break;
	return i;
}
static int old_sched_policy(unsigned speedup, unsigned apps)
{
	static const unsigned speedups[] = TUNED_SCHED_TABLE_SPEEDUPS;
	static const unsigned app_counts[] = TUNED_SCHED_TABLE_APPS;
	static const int policies[] = TUNED_SCHED_TABLE_POLICIES;
	unsigned i, best = 0;
	double best_d = -1.0;

	for (i = 0; i < TUNED_SCHED_TABLE_LEN; i++) {
		double ds = (double)(speedups[i] > speedup ? speedups[i] * 1.0 / (speedup ? speedup : 1)
						       : speedup * 1.0 / speedups[i]);
		double da = (double)(app_counts[i] > apps ? app_counts[i] * 1.0 / (apps ? apps : 1)
						       : apps * 1.0 / app_counts[i]);
		double d = ds * 1000.0 + da;

		if (best_d < 0 || d < best_d) {
			best = i;
			best_d = d;
		}
	}
	return policies[best];
}
int main(void)
{
	static const long long g[] = TUNED_CHASE_TABLE_GROUP_SIZES;
	int differ = 0, n = 0;

	static const unsigned long long mb[] = { 0, 1, 3, 4, 5, 63, 64, 65, 511, 512, 513, 4096 };

	for (unsigned i = 0; i < sizeof(mb) / sizeof(mb[0]); i++, n++) {
		differ += tuned_chase_group_size_for((long long)(mb[i] << 20)) != g[old_chase_row(mb[i] << 20)];
		differ += tuned_chase_group_size_for((long long)(mb[i] << 20) + 1) != g[old_chase_row((mb[i] << 20) + 1)];
	}
	for (unsigned s = 1; s < 200; s += 3)
		for (unsigned a = 1; a < 12; a++, n++)
			differ += tuned_sched_policy_for(s, a) != old_sched_policy(s, a);
	printf("%d of %d differ, %d rows\n", differ, n, TUNED_SCHED_TABLE_LEN + TUNED_CHASE_TABLE_LEN);
	return differ != 0;
}
C
check "lookups on sparser tables compile" cc -std=c11 -Wall -Wextra -Werror -I"$TMP" -o "$TMP/old" "$TMP/old.c"
check "and answer as the previous tune's functions ($("$TMP/old"))" "$TMP/old"
# An optimum recorded before contexts were beside a newer one of the same
# working set, and a runner-up that is no JSON: the export takes the newer
# one and leaves the runner-up's comment out, as the previous tune did.
cp "$db13" "$TMP/twice.db"
q "$TMP/twice.db" "INSERT INTO optima (platform, host, fingerprint, kernel, context, legacy_key, size_class, variant, params, best_point, median, ci_low, ci_high, trials, sweep_id, decided) SELECT platform, host, fingerprint, kernel, '', '4/0/0', size_class, variant, json_set(params, '$.group_size', 7), 7, median, ci_low, ci_high, trials, sweep_id, '2026-01-01T00:00:00Z' FROM optima WHERE kernel = 'chase';
UPDATE optima SET runner_up = '{bad' WHERE kernel IN ('chase', 'sched')"
"$tune" export header --db "$TMP/twice.db" -o "$TMP/twice.h" 2> "$TMP/twice.err"
check "an old optimum beside a new one of its working set: the newer exported ($(tail -1 "$TMP/twice.err"))" \
	sh -c '[ "$(grep -c "^#define TUNED_CHASE_VARIANT " "$1")" = 1 ] && grep -q "^#define TUNED_CHASE_TABLE_GROUP_SIZES { 59 }$" "$1" &&
	       ! grep -q "against the runner-up" "$1"' _ "$TMP/twice.h"
check "and the JSON too, its runner-up null" sh -c '"$1" export json --db "$2" | python3 -c "import json, sys
p = json.load(sys.stdin)[\"platforms\"][0]
assert len(p[\"chase\"][\"table\"]) == 1 and p[\"chase\"][\"table\"][0][\"runner_up\"] is None, p[\"chase\"]"' _ "$tune" "$TMP/twice.db"
kernel_cols=$(q "$db13" "SELECT group_concat(name, ' ') FROM pragma_table_info('optima') WHERE name IN ('size_mb', 'hint',
	'group_size', 'best_group_size', 'hugepages', 'threshold_ns', 'speedup', 'apps', 'dispatch')")
check "no column of optima is a kernel's parameter (${kernel_cols:-none})" [ -z "$kernel_cols" ]
check "each optimum's parameters are data" [ "$(q "$db13" "SELECT COUNT(*) FROM optima WHERE params IS NULL OR json_valid(params) = 0")" = 0 ]
e2e_done migrate
