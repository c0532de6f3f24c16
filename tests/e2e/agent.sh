#!/usr/bin/env bash
# Remote hosts over loopback, with agents this test starts: a sweep across
# two agents and this host lands every sample with its host; an agent killed
# mid-sweep leaves its host down and the others complete, and a resume after
# its restart completes it with no sample lost or duplicated; a wrong or
# missing token, malformed JSON, unknown kernels, out-of-range parameters,
# oversized bodies, wrong paths and methods are refused with clear errors and
# run nothing; one trial at a time per host (a second gets 503 busy).
tune=$1
# shellcheck source=tests/e2e/lib.sh
source "$(dirname "$0")/lib.sh"
agent_token
# Each test that listens has its own port range (they run in parallel),
# below the ephemeral ports (32768 on).
base=$((20000 + RANDOM % 5900))
pids=()
# start_agent N [PLATFORM]: agent N on port base+N, its own build cache;
# waits until it answers.
start_agent() {
	TUNE_CACHE_DIR=$TMP/cache-agent$1 "$tune" agent --listen 127.0.0.1:$((base + $1)) --token-file "$TMP/token" \
		--platform "${2:-$plat}" --name "agent$1" 2>> "$TMP/agent$1.log" &
	pids[$1]=$!
	agent_wait $((base + $1)) "$TMP/agent$1.log" $!
}
stop_agents() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done; wait 2>/dev/null; }
trap 'stop_agents; e2e_cleanup' EXIT
url() { echo "http://127.0.0.1:$((base + $1))$2"; }
# post N PATH BODY [curl options]: prints the HTTP status, then the body.
post() { local n=$1 p=$2 b=$3; shift 3; curl -s -w '\n%{http_code}' "$@" -d "$b" "$(url "$n" "$p")"; }
auth=(-H "Authorization: Bearer $token")

check "agent 1 starts" start_agent 1
# Agent 2 pins to CPU 0; this host and agent 1 to the last core's (auto).
sed 's/^cpus: auto$/cpus: [0]/' "$plat" > "$TMP/cpu0.yaml"
check "agent 2 starts" start_agent 2 "$TMP/cpu0.yaml"
check "agent says where it listens" grep -q "listening on http://127.0.0.1:$((base + 1))" "$TMP/agent1.log"

# The API's refusals, none of which builds or runs anything.
chase_hash=$(curl -s "${auth[@]}" "$(url 1 /v1/facts)" | grep -oE '"chase":"[0-9a-f]{16}"' | cut -d'"' -f4)
good='{"api":1,"kernel":"chase","kernel_hash":"'$chase_hash'","runs":1,"warmup":0,"seed":1,"timeout_s":30,"variant":"interleaved-prefetch","params":{"hint":"pldl1keep","size_mb":1,"depth":2,"queries":100,"hugepages":"off"},"list":[1,4]}'
out=$(post 1 /v1/run "$good")
check "no token: 401" test "$(tail -1 <<< "$out")" = 401
check "no token: says what to send" grep -q "Authorization: Bearer TOKEN" <<< "$out"
out=$(post 1 /v1/run "$good" -H "Authorization: Bearer ${token}x")
check "wrong token: 401" test "$(tail -1 <<< "$out")" = 401
out=$(curl -s -w '\n%{http_code}' -H "Authorization: Bearer wrong" "$(url 1 /v1/facts)")
check "wrong token on facts: 401" test "$(tail -1 <<< "$out")" = 401
check "refused requests built nothing" test ! -e "$TMP/cache-agent1/builds"
out=$(post 1 /v1/run '{"api":1, "kernel":' "${auth[@]}")
check "malformed JSON: 400" test "$(tail -1 <<< "$out")" = 400
check "malformed JSON: where" grep -q "malformed JSON at line 1" <<< "$out"
out=$(post 1 /v1/run "${good/chase/bash}" "${auth[@]}")
check "unknown kernel: 400" test "$(tail -1 <<< "$out")" = 400
check "unknown kernel: the choices" grep -q "field 'kernel' must be one of chase ipa ipa_hybrid sched" <<< "$out"
out=$(post 1 /v1/run "${good/\"size_mb\":1/\"size_mb\":0}" "${auth[@]}")
check "out of range: 400 with the field" grep -q "parameter 'size_mb': 0 is out of range \[1, 1048576\]" <<< "$out"
out=$(post 1 /v1/run "${good/\"list\":\[1,4\]/\"list\":[1,4096]}" "${auth[@]}")
check "group size out of range: 400" grep -q "parameter 'group_size': 4096 is out of range \[0, 1024\]" <<< "$out"
out=$(post 1 /v1/run "${good/\"api\":1/\"api\":1,\"cflags\":\"-fplugin=x\",\"api\":1}" "${auth[@]}")
check "duplicate keys refused" test "$(tail -1 <<< "$out")" = 400
head -c 70000 /dev/zero | tr '\0' ' ' > "$TMP/big"
out=$(curl -s -w '\n%{http_code}' "${auth[@]}" --data-binary @"$TMP/big" "$(url 1 /v1/run)")
check "oversized body: 413" test "$(tail -1 <<< "$out")" = 413
out=$(curl -s -w '\n%{http_code}' "${auth[@]}" "$(url 1 /v1/run)")
check "GET /v1/run: 405" test "$(tail -1 <<< "$out")" = 405
out=$(curl -s -w '\n%{http_code}' "${auth[@]}" "$(url 1 /v1/shell)")
check "unknown path: 404" test "$(tail -1 <<< "$out")" = 404
check "still nothing built" test ! -e "$TMP/cache-agent1/builds"
out=$(post 1 /v1/run "$good" "${auth[@]}")
check "a good spec runs: 200" test "$(tail -1 <<< "$out")" = 200
check "a good spec runs the kernel" grep -q '"built":true' <<< "$out"
check "a run's answer has the host's load as it ended" grep -Eq '"loadavg1": ?[0-9.]+' <<< "$out"
check "the agent built it in its own cache" test -d "$TMP/cache-agent1/builds"

# One trial at a time: a second request while one runs is told the host is busy.
sched_hash=$(curl -s "${auth[@]}" "$(url 1 /v1/facts)" | grep -oE '"sched":"[0-9a-f]{16}"' | cut -d'"' -f4)
long='{"api":1,"kernel":"sched","kernel_hash":"'$sched_hash'","variant":"co","runs":3,"warmup":0,"seed":1,"timeout_s":60,"params":{"dispatch":"inline","cost_dist":"fixed","completion":"ipa","apps":2,"tasks":4000,"accels":1,"speedup":1,"cost_a_ns":100000,"cost_b_ns":100000,"threshold_ns":30000},"list":["co"]}'
# The long trial retries while a short one holds the host; the short ones are
# asked for until the long one holds it.
(
	for _ in $(seq 200); do
		out=$(post 1 /v1/run "$long" "${auth[@]}")
		[ "$(tail -1 <<< "$out")" != 503 ] && break
		sleep 0.02
	done
	echo "$out" > "$TMP/long.out"
) &
sleep 0.5
for _ in $(seq 100); do
	out=$(post 1 /v1/run "$good" "${auth[@]}")
	[ "$(tail -1 <<< "$out")" = 503 ] && break
	sleep 0.1
done
check "a second trial meanwhile: 503" test "$(tail -1 <<< "$out")" = 503
wait %%
check "a second trial meanwhile: says busy" grep -q "busy: a trial is running on this host" <<< "$out"
check "the first trial finished" grep -q '"built":true' "$TMP/long.out"

# A sweep across this host and both agents.
{
	tiny_platform fleet
	echo "hosts: [local, $(url 1 ""), $(url 2 "")]"
	echo "token_file: $TMP/token"
} > "$TMP/fleet.yaml"
db=$TMP/fleet.db
"$tune" run tests/data/sweeps/tiny.yaml --platform "$TMP/fleet.yaml" --db "$db" > /dev/null 2> "$TMP/fleet.err"
rc=$?
check "fleet sweep exits 0 ($(tail -2 "$TMP/fleet.err")) (rc $rc)" test $rc = 0
per_host=$(q "$db" "SELECT group_concat(n) FROM (SELECT h.hostname, count(*) n FROM samples s JOIN trials t ON t.id = s.trial_id JOIN sweeps w ON w.id = t.sweep_id JOIN hosts h ON h.id = w.host_id GROUP BY 1 ORDER BY 1)")
check "every host has every sample (96 each: $per_host)" test "$per_host" = "96,96,96"
check "each host's load sampled as its batches ended" test "$(q "$db" "SELECT count(*) FROM sweeps WHERE loadavg_max >= 0")" = 3
check "three hosts recorded" test "$(q "$db" "SELECT group_concat(hostname) FROM (SELECT hostname FROM hosts ORDER BY 1)")" = "agent1,agent2,$(hostname)"
local_cpu=$(q "$db" "SELECT group_concat(DISTINCT t.cpu) FROM trials t JOIN sweeps w ON w.id = t.sweep_id JOIN hosts h ON h.id = w.host_id WHERE h.hostname NOT LIKE 'agent%'")
agent2_cpu=$(q "$db" "SELECT group_concat(DISTINCT t.cpu) FROM trials t JOIN sweeps w ON w.id = t.sweep_id JOIN hosts h ON h.id = w.host_id WHERE h.hostname = 'agent2'")
check "an agent's trials record the CPU it pinned them to (agent2: '$agent2_cpu', this host: '$local_cpu')" test "$agent2_cpu" = 0 -a -n "$local_cpu"
check "every agent trial names its build" test "$(q "$db" "SELECT count(*) FROM trials t JOIN sweeps w ON w.id = t.sweep_id JOIN hosts h ON h.id = w.host_id WHERE h.hostname LIKE 'agent%' AND t.build_id IS NULL")" = 0
check "results show each host" sh -c "'$tune' results --db '$db' | grep -q 'Platform fleet on host agent2'"
"$tune" hosts --platform "$TMP/fleet.yaml" > "$TMP/hosts" 2>&1
check "tune hosts: all up" test "$(grep -c ' up ' "$TMP/hosts")" = 3

# An agent killed in the middle of a sweep: its host is marked down, the others finish.
slow=tests/data/sweeps/slow.yaml
"$tune" run $slow --platform "$TMP/fleet.yaml" --db "$TMP/ref.db" > /dev/null 2> "$TMP/ref.err"
rc=$?
check "the reference sweep exits 0 ($(grep -v '^slow\|^final' "$TMP/ref.err" | tail -3))" test $rc = 0
[ $rc = 0 ] || { echo "--- agent2.log"; cat "$TMP/agent2.log"; echo "--- ref.err"; cat "$TMP/ref.err"; }
want=$(q "$TMP/ref.db" "SELECT count(*) FROM samples s JOIN trials t ON t.id = s.trial_id JOIN sweeps w ON w.id = t.sweep_id JOIN hosts h ON h.id = w.host_id WHERE h.hostname = 'agent2'")
db=$TMP/kill.db
"$tune" run $slow --platform "$TMP/fleet.yaml" --db "$db" > /dev/null 2> "$TMP/kill.err" &
run=$!
agent2_samples() { q "$db" "SELECT count(*) FROM samples s JOIN trials t ON t.id = s.trial_id JOIN sweeps w ON w.id = t.sweep_id JOIN hosts h ON h.id = w.host_id WHERE h.hostname = 'agent2'" 2>/dev/null || echo 0; }
for _ in $(seq 400); do
	[ "$(agent2_samples)" -gt 0 ] && break
	sleep 0.05
done
kill -9 "${pids[2]}"
at_kill=$(agent2_samples)
wait "${pids[2]}" 2>/dev/null
wait $run
rc=$?
check "a host down: exit 8 (exit $rc; agent2 had $at_kill of $want samples at the kill)" test $rc = 8
check "it names the host and says what to do" grep -q "host '$(url 2 "")' stopped answering.*run the same command to resume" "$TMP/kill.err"
check "the other hosts finished" test "$(q "$db" "SELECT count(*) FROM sweeps WHERE status = 'done'")" = 2
check "no duplicated sample" test "$(q "$db" "SELECT count(*) - count(DISTINCT trial_id || '/' || warmup || '/' || run_id) FROM samples")" = 0
check "no half-recorded trial" test "$(q "$db" "SELECT count(*) FROM trials t WHERE (status = 'done') != ((SELECT count(*) FROM samples s WHERE s.trial_id = t.id) = t.runs + t.warmup)")" = 0
"$tune" hosts --platform "$TMP/fleet.yaml" > "$TMP/hosts" 2>&1
check "tune hosts: one down, exit 8" sh -c "grep -q 'agent2\|$(url 2 "").*down' '$TMP/hosts'"
check "agent 2 restarts" start_agent 2 "$TMP/cpu0.yaml"
"$tune" run $slow --platform "$TMP/fleet.yaml" --db "$db" > /dev/null 2> "$TMP/resume.err"
rc=$?
check "resume exits 0 ($(tail -1 "$TMP/resume.err")) (rc $rc)" test $rc = 0
check "agent 2 complete after the resume ($want samples)" test "$(q "$db" "SELECT count(*) FROM samples s JOIN trials t ON t.id = s.trial_id JOIN sweeps w ON w.id = t.sweep_id JOIN hosts h ON h.id = w.host_id WHERE h.hostname = 'agent2'")" = "$want"
check "still no duplicated sample" test "$(q "$db" "SELECT count(*) - count(DISTINCT trial_id || '/' || warmup || '/' || run_id) FROM samples")" = 0
check "same trials as uninterrupted" test "$(q "$db" "SELECT group_concat(k) FROM (SELECT h.hostname || t.trial_key || t.status k FROM trials t JOIN sweeps w ON w.id = t.sweep_id JOIN hosts h ON h.id = w.host_id ORDER BY 1)")" = "$(q "$TMP/ref.db" "SELECT group_concat(k) FROM (SELECT h.hostname || t.trial_key || t.status k FROM trials t JOIN sweeps w ON w.id = t.sweep_id JOIN hosts h ON h.id = w.host_id ORDER BY 1)")"

# TLS: an agent with a certificate, reached over https with the CA the platform names.
if command -v openssl > /dev/null; then
	openssl req -x509 -newkey rsa:2048 -nodes -keyout "$TMP/key.pem" -out "$TMP/cert.pem" -days 1 \
		-subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1 > /dev/null 2>&1
	TUNE_CACHE_DIR=$TMP/cache-agent3 "$tune" agent --listen 127.0.0.1:$((base + 3)) --token-file "$TMP/token" \
		--platform $plat --name agent3 --tls-cert "$TMP/cert.pem" --tls-key "$TMP/key.pem" 2>> "$TMP/agent3.log" &
	pids[3]=$!
	sleep 1
	check "the TLS agent says https" grep -q "listening on https://127.0.0.1:$((base + 3))" "$TMP/agent3.log"
	sed -e "s|^hosts:.*|hosts: [https://127.0.0.1:$((base + 3))]|" "$TMP/fleet.yaml" > "$TMP/tls.yaml"
	echo "ca_file: $TMP/cert.pem" >> "$TMP/tls.yaml"
	"$tune" run tests/data/sweeps/tiny.yaml --platform "$TMP/tls.yaml" --db "$TMP/tls.db" > /dev/null 2> "$TMP/tls.err"
	rc=$?
	check "a sweep over TLS exits 0 ($(tail -1 "$TMP/tls.err")) (rc $rc)" test $rc = 0
	check "a sweep over TLS recorded its samples" test "$(q "$TMP/tls.db" "SELECT count(*) FROM samples")" = 96
	grep -v '^ca_file:' "$TMP/tls.yaml" > "$TMP/tls-noca.yaml"
	"$tune" run tests/data/sweeps/tiny.yaml --platform "$TMP/tls-noca.yaml" --db "$TMP/tls2.db" > /dev/null 2> "$TMP/tls2.err"
	check "an unknown certificate: exit 3" test $? = 3
	check "an unknown certificate: says to check the CA file" grep -q "check the URL, and the CA file for https" "$TMP/tls2.err"
fi

# Start-up refusals.
timeout 20 "$tune" agent --listen 127.0.0.1:$((base + 1)) --token-file "$TMP/token" --platform $plat > /dev/null 2> "$TMP/inuse"
check "port in use: exit 6 and says so" sh -c "test $? = 6 && grep -q 'cannot listen on 127.0.0.1:$((base + 1))' '$TMP/inuse'"
(umask 077; echo short > "$TMP/short")
"$tune" agent --listen 127.0.0.1:$((base + 5)) --token-file "$TMP/short" > /dev/null 2> "$TMP/short.err"
check "short token: exit 3" sh -c "test $? = 3 && grep -q 'a token needs 16 or more' '$TMP/short.err'"
"$tune" agent --listen 127.0.0.1 --token-file "$TMP/token" > /dev/null 2> "$TMP/listen.err"
check "bad --listen: exit 2" sh -c "test $? = 2 && grep -q \"option '--listen': '127.0.0.1' is not ADDR:PORT\" '$TMP/listen.err'"
"$tune" agent > /dev/null 2> "$TMP/notoken.err"
check "no token file: exit 2" sh -c "test $? = 2 && grep -q 'give --token-file' '$TMP/notoken.err'"
timeout 3 "$tune" agent --listen 0.0.0.0:$((base + 6)) --token-file "$TMP/token" --platform $plat > /dev/null 2> "$TMP/open.err"
check "listening beyond loopback without TLS warns" grep -q "without TLS" "$TMP/open.err"
e2e_done "agent"
