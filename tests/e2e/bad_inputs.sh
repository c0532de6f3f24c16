#!/usr/bin/env bash
# The catalogue of bad inputs (bad_inputs.cases) against a database holding a
# finished sweep, then what needs the file system: a read-only database and a
# full disk (tmpfs mounts, when this user may mount). Each gives its exit code
# and message and loses no recorded sample.
tune=$1
# shellcheck source=tests/e2e/lib.sh
source "$(dirname "$0")/lib.sh"
mnt=$TMP/mnt
e2e_cleanup() { umount "$mnt" 2>/dev/null; rm -rf "$TMP"; }
"$tune" run tests/data/sweeps/tiny.yaml --platform $plat --db "$TMP/guard.db" > /dev/null 2>&1 || {
	echo "cannot make the guarded database"; exit 1; }
sqlite3 "$TMP/newer.db" "CREATE TABLE precious (x); INSERT INTO precious VALUES (1); PRAGMA user_version = 99"
head -c 4096 /dev/urandom > "$TMP/junk.db"
GUARD=$TMP/guard.db tests/cli/run_cases.sh "$tune" tests/e2e/bad_inputs.cases
rc=$?
check "newer database left as it was" test "$(sqlite3 "$TMP/newer.db" "SELECT x FROM precious; PRAGMA user_version")" = $'1\n99'

samples=$(sqlite3 "$TMP/guard.db" "SELECT count(*) FROM samples")
mkdir -p "$mnt"
if mount -t tmpfs -o size=2m tmpfs "$mnt" 2>/dev/null; then
	# Read-only: opening for a sweep fails clearly; the data stays readable.
	sqlite3 "$TMP/guard.db" "PRAGMA wal_checkpoint(TRUNCATE)" > /dev/null
	cp "$TMP/guard.db" "$mnt/ro.db"
	mount -o remount,ro "$mnt"
	out=$("$tune" run tests/data/sweeps/slow.yaml --platform $plat --db "$mnt/ro.db" 2>&1)
	rc_ro=$?
	check "read-only database exits 4 ($out)" test $rc_ro = 4
	check "read-only message names the database" grep -q "database '$mnt/ro.db'" <<< "$out"
	check "read-only data intact" test "$(sqlite3 "file:$mnt/ro.db?immutable=1" "SELECT count(*) FROM samples")" = "$samples"
	mount -o remount,rw "$mnt"
	rm -f "$mnt"/*
	# Full disk: the batch that does not fit is rolled back whole.
	cp "$TMP/guard.db" "$mnt/full.db"
	head -c $((2048 * 1024 - $(stat -c %s "$mnt/full.db") - 200 * 1024)) /dev/zero > "$mnt/filler" 2>/dev/null
	out=$("$tune" run tests/data/sweeps/slow.yaml --platform $plat --db "$mnt/full.db" 2>&1)
	rc_full=$?
	check "full disk exits 4 ($(tail -1 <<< "$out"))" test $rc_full = 4
	check "full disk says what to do" grep -q "free some space" <<< "$out"
	check "full disk message" grep -q "database or disk is full" <<< "$out"
	rm -f "$mnt/filler"
	check "full disk: integrity" test "$(sqlite3 "$mnt/full.db" "PRAGMA integrity_check")" = ok
	check "full disk: old samples kept" test "$(sqlite3 "$mnt/full.db" "SELECT count(*) FROM samples s JOIN trials t ON t.id = s.trial_id JOIN sweeps w ON w.id = t.sweep_id WHERE w.name = 'tiny'")" = "$samples"
	check "full disk: no half trial" test "$(sqlite3 "$mnt/full.db" "SELECT count(*) FROM trials t WHERE (status = 'done') != ((SELECT count(*) FROM samples s WHERE s.trial_id = t.id) = t.runs + t.warmup)")" = 0
	"$tune" run tests/data/sweeps/slow.yaml --platform $plat --db "$mnt/full.db" > /dev/null 2>&1
	check "full disk: resumes once there is room" test "$(sqlite3 "$mnt/full.db" "SELECT count(*) FROM trials WHERE status = 'done'")" = 87
	umount "$mnt"
else
	echo "bad_inputs: cannot mount a tmpfs here: read-only and full-disk cases not run"
fi
e2e_done "bad_inputs (file system)" "$rc"
