#!/usr/bin/env bash
# Crash safety: a sweep killed with SIGKILL at random moments, TUNE_KILLS
# times (default 20; `TUNE_KILLS=500 tests/e2e/kill.sh build/tune` for a long
# local run). After every kill the database passes integrity_check, no trial
# is half recorded and no sample is duplicated; resuming completes the sweep
# with the same trials and sample count as an uninterrupted run. When a
# sweep completes between kills, it starts over in a new database.
tune=$1
# shellcheck source=tests/e2e/lib.sh
source "$(dirname "$0")/lib.sh"
kills=${TUNE_KILLS:-20}
sweep=tests/data/sweeps/slow.yaml
keys() { q "$1" "SELECT group_concat(trial_key || ':' || status) FROM (SELECT trial_key, status FROM trials ORDER BY 1)"; }

# The reference: the same sweep, uninterrupted (this also fills the build cache).
"$tune" run $sweep --platform $plat --db "$TMP/clean.db" > /dev/null 2>&1
check "uninterrupted run" test $? = 0
want_keys=$(keys "$TMP/clean.db")
want_samples=$(q "$TMP/clean.db" "SELECT count(*) FROM samples")
# An uninterrupted run takes this long (the faster of two, as this host is
# noisy); kills land anywhere within it.
span_ms=
for t in 1 2; do
	t0=$(date +%s%N)
	"$tune" run $sweep --platform $plat --db "$TMP/timing-$t.db" > /dev/null 2>&1
	ms=$((($(date +%s%N) - t0) / 1000000))
	[ -z "$span_ms" ] || [ "$ms" -lt "$span_ms" ] && span_ms=$ms
done

cycle=1 landed=0
db=$TMP/kill-$cycle.db
for i in $(seq "$kills"); do
	# A resume runs only what is left: the kill lands within that share of
	# the span, so most kills find the sweep still running.
	done_trials=0
	[ -f "$db" ] && done_trials=$(q "$db" "SELECT count(*) FROM trials WHERE status = 'done'" 2>/dev/null || echo 0)
	"$tune" run $sweep --platform $plat --db "$db" > /dev/null 2>&1 &
	pid=$!
	sleep "$(awk -v r=$RANDOM -v s=$span_ms -v d="${done_trials:-0}" 'BEGIN { printf "%.3f", r / 32768 * s * (63 - d) / 63 / 1000 }')"
	kill -9 $pid 2>/dev/null && landed=$((landed + 1))
	wait $pid 2>/dev/null
	[ -f "$db" ] || continue
	check "integrity after kill $i" test "$(q "$db" "PRAGMA integrity_check")" = ok
	# Killed before the schema's first commit: the file exists and holds no
	# tables at all, never part of a schema; the next run migrates it.
	if [ "$(q "$db" "SELECT count(*) FROM sqlite_master")" = 0 ]; then
		check "schema-less database after kill $i is empty" test "$(q "$db" "PRAGMA user_version")" = 0
		continue
	fi
	check "whole schema after kill $i" test "$(q "$db" "SELECT count(*) FROM sqlite_master WHERE name IN ('trials', 'samples', 'sweeps')")" = 3
	check "no half-recorded trial after kill $i" test "$(q "$db" "SELECT count(*) FROM trials t WHERE (status = 'done') != ((SELECT count(*) FROM samples s WHERE s.trial_id = t.id) = t.runs + t.warmup)")" = 0
	check "no duplicated sample after kill $i" test "$(q "$db" "SELECT count(*) - count(DISTINCT trial_id || '/' || warmup || '/' || run_id) FROM samples")" = 0
	if [ "$(q "$db" "SELECT count(*) FROM trials WHERE status = 'done'")" = 63 ]; then
		cycle=$((cycle + 1))
		db=$TMP/kill-$cycle.db
	fi
done
check "at least half of the kills landed in a running sweep ($landed of $kills)" test $((landed * 2)) -ge "$kills"
check "no kernel left running" test -z "$(pgrep -f "$TUNE_CACHE_DIR/builds" || true)"
# Resume every database the kills left and compare with the reference.
for d in "$TMP"/kill-*.db; do
	[ -f "$d" ] || continue
	"$tune" run $sweep --platform $plat --db "$d" > /dev/null 2>&1
	rc=$?
	check "resume of $(basename "$d") exits 0 (rc $rc)" test $rc = 0
	check "$(basename "$d"): same trials as uninterrupted" test "$(keys "$d")" = "$want_keys"
	check "$(basename "$d"): same sample count ($want_samples)" test "$(q "$d" "SELECT count(*) FROM samples")" = "$want_samples"
	check "$(basename "$d"): one sweep row" test "$(q "$d" "SELECT count(*) FROM sweeps")" = 1
done
e2e_done "kill ($kills kills, $cycle sweeps)"
