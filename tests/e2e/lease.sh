#!/usr/bin/env bash
# Two tunes on one database: a sweep being measured is claimed by its
# process; a second run of it exits 9 naming the pid, host and since, while
# another sweep runs beside it; a claim whose process was killed is taken
# over and the sweep resumes; the claim's heartbeat is renewed while it
# measures; a claim from another machine sharing the file
# holds while its heartbeat is fresh and is taken over once it is stale;
# commands that only read work on a database the user cannot write.
tune=$1
# shellcheck source=tests/e2e/lib.sh
source "$(dirname "$0")/lib.sh"
db=$TMP/lease.db
sed 's/^runs: 3/runs: 200/; s/^name: slow/name: long/' tests/data/sweeps/slow.yaml > "$TMP/long.yaml"
"$tune" run "$TMP/long.yaml" --platform $plat --db "$db" > /dev/null 2> "$TMP/a.err" &
a=$!
for _ in $(seq 100); do
	[ "$(q "$db" "SELECT count(*) FROM sweep_leases" 2>/dev/null)" = 1 ] && break
	sleep 0.1
done
check "the running sweep holds a lease" test "$(q "$db" "SELECT pid FROM sweep_leases WHERE sweep = 'long'")" = $a
out=$("$tune" run "$TMP/long.yaml" --platform $plat --db "$db" 2>&1)
rc=$?
check "a second run of the same sweep: exit 9 ($out)" test $rc = 9
check "it names the pid, the host and since" grep -q "sweep 'long' is being measured by pid $a on host $(hostname) since 20[0-9-]*T[0-9:]*Z; wait for it or use --db" <<< "$out"
beat0=$(q "$db" "SELECT heartbeat FROM sweep_leases")
sleep 6
check "the claim's heartbeat is renewed" test "$(q "$db" "SELECT heartbeat > $beat0 FROM sweep_leases")" = 1
"$tune" run tests/data/sweeps/tiny.yaml --platform $plat --db "$db" > /dev/null 2> "$TMP/b.err"
rc=$?
check "another sweep runs side by side ($(tail -1 "$TMP/b.err")) (rc $rc)" test $rc = 0
check "the first is still measuring" kill -0 $a
kill -9 $a
wait $a 2>/dev/null
check "the killed run's lease is still there" test "$(q "$db" "SELECT count(*) FROM sweep_leases")" = 1
"$tune" run "$TMP/long.yaml" --platform $plat --db "$db" > /dev/null 2> "$TMP/c.err"
rc=$?
check "the next run takes over and completes ($(tail -1 "$TMP/c.err")) (rc $rc)" test $rc = 0
check "it says whose claim it took" grep -q "taking over sweep 'long' from pid $a on host $(hostname) (that process is gone)" "$TMP/c.err"
check "it resumed, keeping what was measured" grep -q "resuming sweep 'long'" "$TMP/c.err"
check "one generation of the sweep" test "$(q "$db" "SELECT count(*) FROM sweeps WHERE name = 'long'")" = 1
check "every trial measured" test "$(q "$db" "SELECT count(*) = sum(t.status = 'done') FROM trials t JOIN sweeps s ON s.id = t.sweep_id WHERE s.name = 'long'")" = 1
check "every trial measured once: 201 samples each" test "$(q "$db" "SELECT count(*) FROM (SELECT x.trial_id, count(*) c FROM samples x JOIN trials t ON t.id = x.trial_id JOIN sweeps s ON s.id = t.sweep_id WHERE s.name = 'long' GROUP BY 1 HAVING c != 201)")" = 0
check "no lease left behind" test "$(q "$db" "SELECT count(*) FROM sweep_leases")" = 0

# A claim from another machine sharing the file.
q "$db" "INSERT INTO sweep_leases SELECT name, platform_id, host_id, 4242, 'other-machine', '2026-01-01T00:00:00Z', julianday('now') FROM sweeps WHERE name = 'tiny'"
out=$("$tune" run tests/data/sweeps/tiny.yaml --platform $plat --db "$db" --fresh 2>&1)
rc=$?
check "a fresh claim from another machine holds: exit 9" test $rc = 9
check "it names that machine" grep -q "by pid 4242 on host other-machine since 2026-01-01T00:00:00Z" <<< "$out"
q "$db" "UPDATE sweep_leases SET heartbeat = julianday('now') - 120.0 / 86400"
out=$("$tune" run tests/data/sweeps/tiny.yaml --platform $plat --db "$db" --fresh 2>&1)
check "a stale claim is taken over ($out)" test $? = 0
check "it says so" grep -q "taking over sweep 'tiny' from pid 4242 on host other-machine (no heartbeat since)" <<< "$out"

# Reading a database the user cannot write.
mkdir "$TMP/ro"
cp "$db" "$TMP/ro/r.db"
before=$(sha256sum < "$TMP/ro/r.db")
chmod 444 "$TMP/ro/r.db"
chmod 555 "$TMP/ro"
if [ "$(id -u)" = 0 ]; then as=(su nobody -s /bin/sh -c); chmod 755 "$TMP"; else as=(sh -c); fi
out=$("${as[@]}" "'$tune' results --db '$TMP/ro/r.db'" 2>&1)
check "results from a read-only database ($(head -2 <<< "$out"))" grep -q "Summary: scalar vs best" <<< "$out"
out=$("${as[@]}" "'$tune' export csv --db '$TMP/ro/r.db'" 2>&1)
check "export csv from a read-only database" test "$(wc -l <<< "$out")" -gt 10
check "the read-only database is unchanged" test "$(sha256sum < "$TMP/ro/r.db")" = "$before"
chmod 755 "$TMP/ro"
e2e_done lease
