#!/usr/bin/env bash
# Sweeps through Slurm: the test starts a single-node cluster on loopback
# (tests/slurm/cluster.sh: munged, slurmctld, slurmd, slurmrestd as nobody),
# runs a small chase sweep and the ipa sweep through its REST API (every
# sample lands with the node it ran on), interrupts a sweep with Ctrl-C (its
# job is cancelled, nothing is left queued) and resumes it, checks that a bad
# URL, a bad token and a rejected job give clear errors, and stops what it
# started by PID. Skipped (77) where Slurm is not installed or not root.
tune=$1
# shellcheck source=tests/e2e/lib.sh
source "$(dirname "$0")/lib.sh"
S=$TMP/slurm
chmod 755 "$TMP"   # munged and slurmctld run as their own users
"$src/tests/slurm/cluster.sh" start "$S" > "$TMP/env" 2> "$TMP/cluster.err"
rc=$?
[ $rc = 77 ] && { cat "$TMP/cluster.err"; exit 77; }
trap '"$src/tests/slurm/cluster.sh" stop "$S"; e2e_cleanup' EXIT
check "the cluster starts ($(tail -2 "$TMP/cluster.err"))" test $rc = 0
[ $rc = 0 ] || { e2e_done slurm; exit 1; }
set -a
# shellcheck disable=SC1091
source "$TMP/env"
set +a
export PATH=$PATH:/usr/sbin
# The build cache and the job outputs on the "shared" file system: this host's.
shared=$TMP/shared
mkdir -p "$shared" && chmod 777 "$shared"
platform() { # platform NAME URL PARTITION
	{
		tiny_platform "$1"
		printf 'executor: slurm\nslurm:\n  url: %s\n  partition: %s\n  user: root\n  shared_dir: %s\n' "$2" "$3" "$shared"
	} > "$TMP/$1.yaml"
}
platform cluster "$SLURM_URL" bench
db=$TMP/cluster.db
"$tune" run tests/data/sweeps/tiny.yaml --platform "$TMP/cluster.yaml" --db "$db" > /dev/null 2> "$TMP/run.err"
rc=$?
check "a sweep through Slurm exits 0 ($(tail -2 "$TMP/run.err")) (rc $rc)" test $rc = 0
check "every trial done" test "$(q "$db" "SELECT count(*) FROM trials WHERE status = 'done'")" = 24
check "every sample recorded (96)" test "$(q "$db" "SELECT count(*) FROM samples")" = 96
check "samples name the node" test "$(q "$db" "SELECT DISTINCT h.hostname FROM samples s JOIN trials t ON t.id = s.trial_id JOIN sweeps w ON w.id = t.sweep_id JOIN hosts h ON h.id = w.host_id")" = "$SLURM_NODE"
check "the node's facts came from a job on it" test "$(q "$db" "SELECT pus FROM hosts")" = "$(nproc)"
check "checksums agree across variants (as locally)" test "$(q "$db" "SELECT count(DISTINCT checksum) FROM samples s JOIN trials t ON t.id = s.trial_id GROUP BY json_extract(t.params, '$.size_mb')" | sort -u)" = 1
check "job outputs read and removed" test -z "$(ls "$shared")"
check "nothing left in the queue" test -z "$(squeue -h)"
"$tune" run tests/data/sweeps/ipa.yaml --platform "$TMP/cluster.yaml" --db "$db" > /dev/null 2> "$TMP/ipa.err"
rc=$?
check "the ipa sweep through Slurm exits 0 ($(tail -1 "$TMP/ipa.err")) (rc $rc)" test $rc = 0
check "ipa optimum recorded" test "$(q "$db" "SELECT count(*) FROM optima WHERE kernel = 'ipa'")" = 1

# Ctrl-C cancels the running job; the same command resumes.
"$tune" run tests/data/sweeps/slow.yaml --platform "$TMP/cluster.yaml" --db "$db" > /dev/null 2> "$TMP/int.err" &
run=$!
for _ in $(seq 100); do
	[ -n "$(squeue -h 2>/dev/null)" ] && [ "$(q "$db" "SELECT count(*) FROM trials t JOIN sweeps w ON w.id = t.sweep_id WHERE w.name = 'slow' AND t.status = 'done'" 2>/dev/null || echo 0)" -gt 0 ] && break
	sleep 0.1
done
kill -INT $run
wait $run
check "Ctrl-C exits 130" test $? = 130
sleep 0.5
check "Ctrl-C cancelled what tune submitted" test -z "$(squeue -h)"
check "integrity after Ctrl-C" test "$(q "$db" "PRAGMA integrity_check")" = ok
check "some trials still pending" test "$(q "$db" "SELECT count(*) FROM trials t JOIN sweeps w ON w.id = t.sweep_id WHERE w.name = 'slow' AND t.status != 'done'")" -gt 0
"$tune" run tests/data/sweeps/slow.yaml --platform "$TMP/cluster.yaml" --db "$db" > /dev/null 2> "$TMP/resume.err"
rc=$?
check "resume exits 0 ($(tail -1 "$TMP/resume.err")) (rc $rc)" test $rc = 0
check "resume completes the sweep (63 trials)" test "$(q "$db" "SELECT count(*) FROM trials t JOIN sweeps w ON w.id = t.sweep_id WHERE w.name = 'slow' AND t.status = 'done'")" = 63
check "no duplicated sample" test "$(q "$db" "SELECT count(*) - count(DISTINCT trial_id || '/' || warmup || '/' || run_id) FROM samples")" = 0

# Clear errors.
port=${SLURM_URL##*:}
platform badurl "http://127.0.0.1:$((port + 7))" bench
out=$("$tune" run tests/data/sweeps/tiny.yaml --platform "$TMP/badurl.yaml" --db "$TMP/e.db" 2>&1)
check "unreachable slurmrestd: exit 8" test $? = 8
check "unreachable slurmrestd: names it" grep -q "slurmrestd 'http://127.0.0.1:$((port + 7))' stopped answering" <<< "$out"
platform badproto "ftp://127.0.0.1:$port" bench
out=$("$tune" run tests/data/sweeps/tiny.yaml --platform "$TMP/badproto.yaml" --db "$TMP/e.db" 2>&1)
check "not an http URL: exit 3" sh -c "test $? = 3"
check "not an http URL: says so" grep -q "is not http://HOST:PORT of slurmrestd" <<< "$out"
out=$(SLURM_JWT=not-a-token "$tune" run tests/data/sweeps/tiny.yaml --platform "$TMP/cluster.yaml" --db "$TMP/e.db" 2>&1)
check "bad token: exit 3" sh -c "test $? = 3"
check "bad token: says what to do" grep -q "renew the JWT for user 'root'" <<< "$out"
out=$(env -u SLURM_JWT "$tune" run tests/data/sweeps/tiny.yaml --platform "$TMP/cluster.yaml" --db "$TMP/e.db" 2>&1)
check "no token: says where to put one" grep -q "no Slurm token: set SLURM_JWT" <<< "$out"
# The short partition allows one minute; the sweep's jobs ask for more.
platform short "$SLURM_URL" short
out=$("$tune" run tests/data/sweeps/tiny.yaml --platform "$TMP/short.yaml" --db "$TMP/e.db" 2>&1)
check "a rejected job: exit 3" sh -c "test $? = 3"
check "a rejected job: Slurm's reason" grep -q "slurmrestd '$SLURM_URL' rejected POST /job/submit" <<< "$out"
check "a rejected job: the database is intact" test "$(q "$TMP/e.db" "PRAGMA integrity_check")" = ok
"$src/tests/slurm/cluster.sh" stop "$S"
check "the cluster's daemons are stopped" test -z "$(ls "$S"/run/*.pid "$S"/munge/*.pid 2>/dev/null)"
e2e_done "slurm"
