#!/usr/bin/env bash
# The agent against hostile clients, and the orchestrator against a hostile
# agent, over loopback: a catalogue of hostile requests is refused (none
# served without the token, no hostile run spec run, the agent alive); a
# refusal comes as soon as the headers are read, with no 100 Continue; 20
# slow unauthenticated clients are cut at the request deadline while a real
# sweep through the agent completes; a trial whose client hangs up stops;
# run specs over this host's memory or the agent's --max-timeout are
# refused; a token file others can read, or a token too long, is refused; an
# agent reporting a host name that is not a name is refused; a run an agent
# hangs up on is not sent again; plain http://
# off loopback warns, and --require-tls makes it an error.
tune=$1
hostile=$2
# shellcheck source=tests/e2e/lib.sh
source "$(dirname "$0")/lib.sh"
agent_token
port=$((26000 + RANDOM % 2000)) # its own range: tests run in parallel
pids=()
stop_all() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done; wait 2>/dev/null; }
trap 'stop_all; e2e_cleanup' EXIT
TUNE_CACHE_DIR=$TMP/cache-agent "$tune" agent --listen 127.0.0.1:$port --token-file "$TMP/token" --platform $plat \
	--name hostile-test --max-timeout 60 2>> "$TMP/agent.log" &
pids+=($!)
for _ in $(seq 50); do
	curl -s -o /dev/null -H "Authorization: Bearer $token" "http://127.0.0.1:$port/v1/facts" && break
	sleep 0.1
done
url=http://127.0.0.1:$port
post() { curl -s -w '\n%{http_code}' -H "Authorization: Bearer $token" -d "$1" "$url/v1/run"; }
# answered CODE TEXT ANSWER: the answer's last line is CODE and it holds TEXT.
answered() { test "$(tail -1 <<< "$3")" = "$1" && grep -qF -- "$2" <<< "$3"; }
# says RC WANT TEXT OUT: the exit status is WANT and OUT holds TEXT.
says() { test "$1" = "$2" && grep -qF -- "$3" <<< "$4"; }

chase_hash=$(curl -s -H "Authorization: Bearer $token" "$url/v1/facts" | grep -oE '"chase":"[0-9a-f]{16}"' | cut -d'"' -f4)
out=$("$hostile" catalogue $port "$TMP/token" "$chase_hash" 2>&1)
check "catalogue: nothing served without the token, nothing hostile run ($out)" test $? = 0
echo "$out"
out=$("$hostile" early $port 2>&1)
check "a refusal comes after the headers, no 100 Continue, closed ($out)" test $? = 0
echo "$out"

spec='{"api":1,"kernel":"chase","kernel_hash":"'$chase_hash'","runs":1,"warmup":0,"seed":1,"variant":"interleaved-prefetch","list":[4]'
# params SIZE QUERIES [DEPTH]: chase's parameters.
params() { printf '"params":{"hint":"pldl1keep","depth":%s,"hugepages":"off","size_mb":%s,"queries":%s}' "${3:-0}" "$1" "$2"; }
out=$(post "$spec,\"timeout_s\":30,$(params 1 100),\"compiler\":\"/bin/sh\"}")
check "unknown field: 400 naming it ($out)" answered 400 "unknown field 'compiler'" "$out"
out=$(post "$spec,\"timeout_s\":30,$(params 1048576 100)}")
check "size over half the host's memory: 422 ($out)" answered 422 "over half of this host's memory" "$out"
out=$(post "$spec,\"timeout_s\":600,$(params 1 100)}")
check "timeout over --max-timeout: 422 ($out)" answered 422 "over this agent's --max-timeout of 60 s" "$out"

# A client that hangs up: its trial stops, and the host is free at once.
# 64 links per lookup: minutes of work (at depth 0 a fast host finished
# 2e9 lookups in about the 2 s the client waits, and nothing was stopped).
long="$spec,\"timeout_s\":60,$(params 64 2000000000 64)}"
t0=$(date +%s.%N)
(curl -s -o "$TMP/hangup.out" -w '%{http_code}' --max-time 2 -H "Authorization: Bearer $token" -d "$long" \
	"$url/v1/run" > "$TMP/hangup.code"; echo $? > "$TMP/hangup.rc") &
curl_pid=$!
kernel=
for _ in $(seq 40); do kernel=$(pgrep -P "${pids[0]}" -f '/chase --runs' | head -1); [ -n "$kernel" ] && break; sleep 0.05; done
fds=$(ls -l "/proc/$kernel/fd" 2>/dev/null)
check "the trial's kernel runs ($kernel)" test -n "$kernel" -a -n "$fds"
check "the trial's kernel holds no socket of the agent's clients" test -z "$(grep socket <<< "$fds")"
wait $curl_pid
for _ in $(seq 40); do
	out=$(post "$spec,\"timeout_s\":30,$(params 1 100)}")
	[ "$(tail -1 <<< "$out")" = 503 ] || break
	sleep 0.5
done
t1=$(date +%s.%N)
check "after a hang-up the next trial runs ($(tail -1 <<< "$out"))" test "$(tail -1 <<< "$out")" = 200
check "after a hang-up the host is free within 20 s, not after the long trial" test "$(echo "$t1 - $t0 < 20" | bc)" = 1
for _ in $(seq 20); do grep -q "hung up: trial stopped" "$TMP/agent.log" && break; sleep 0.2; done
check "the agent says it stopped the trial" grep -q "hung up: trial stopped" "$TMP/agent.log"
grep -q "hung up: trial stopped" "$TMP/agent.log" ||
	{ echo "curl exit $(cat "$TMP/hangup.rc"), http $(cat "$TMP/hangup.code"): $(head -c 600 "$TMP/hangup.out")"
	  tail -5 "$TMP/agent.log"; }

# A sweep through the agent, undisturbed and then beside 20 slow clients.
{
	tiny_platform remote
	echo "hosts: [$url]"
	echo "token_file: $TMP/token"
} > "$TMP/remote.yaml"
"$tune" run tests/data/sweeps/tiny.yaml --platform "$TMP/remote.yaml" --db "$TMP/warm.db" > /dev/null 2>&1
t0=$(date +%s.%N)
"$tune" run tests/data/sweeps/tiny.yaml --platform "$TMP/remote.yaml" --db "$TMP/quiet.db" > /dev/null 2> "$TMP/quiet.err"
rc=$?
check "undisturbed sweep exits 0 ($(tail -1 "$TMP/quiet.err")) (rc $rc)" test $rc = 0
t1=$(date +%s.%N)
"$hostile" slow $port 20 25 > "$TMP/slow.out" 2>&1 &
slow_pid=$!
sleep 3
"$tune" run tests/data/sweeps/tiny.yaml --platform "$TMP/remote.yaml" --db "$TMP/busy.db" > /dev/null 2> "$TMP/busy.err"
rc=$?
check "sweep beside 20 slow clients exits 0 ($(tail -2 "$TMP/busy.err")) (rc $rc)" test $rc = 0
t2=$(date +%s.%N)
check "the sweep finished while the slow clients still held on" kill -0 $slow_pid
wait $slow_pid
cat "$TMP/slow.out"
check "every slow client was cut at the deadline" grep -qE 'longest lived (9|1[0-9]) s' "$TMP/slow.out"
check "both sweeps measured every trial" test "$(q "$TMP/busy.db" "SELECT count(*) FROM trials WHERE status = 'done'")" = "$(q "$TMP/quiet.db" "SELECT count(*) FROM trials WHERE status = 'done'")"
printf 'slow clients: the sweep took %.1f s beside 20 slow clients, %.1f s undisturbed\n' "$(echo "$t2 - $t1 - 3" | bc)" "$(echo "$t1 - $t0" | bc)"

# 8 slow clients from the orchestrator's own address (a shared login node,
# one NAT) and 64 from others: only connections without the token count
# against the limits, so the orchestrator's own still get through.
"$hostile" slow $port 8 30 127.0.0.1 > "$TMP/slow-own.out" 2>&1 &
own_pid=$!
"$hostile" slow $port 64 30 > "$TMP/slow-many.out" 2>&1 &
many_pid=$!
sleep 3
for i in 1 2 3; do
	out=$(curl -s -w ' %{http_code}' --max-time 5 -H "Authorization: Bearer $token" "$url/v1/facts")
	check "with them all holding on, a request with the token is answered at once ($i: ${out: -20})" test "${out: -3}" = 200
done
t3=$(date +%s.%N)
"$tune" run tests/data/sweeps/tiny.yaml --platform "$TMP/remote.yaml" --db "$TMP/crowd.db" > /dev/null 2> "$TMP/crowd.err"
rc=$?
t4=$(date +%s.%N)
check "sweep beside 8 slow clients on its own address and 64 on others exits 0 ($(tail -2 "$TMP/crowd.err")) (rc $rc)" test $rc = 0
check "the sweep finished while they still held on" kill -0 $own_pid $many_pid
wait $own_pid $many_pid
cat "$TMP/slow-own.out" "$TMP/slow-many.out"
check "it measured every trial" test "$(q "$TMP/crowd.db" "SELECT count(*) FROM trials WHERE status = 'done'")" = "$(q "$TMP/quiet.db" "SELECT count(*) FROM trials WHERE status = 'done'")"
printf 'slow clients: the sweep took %.1f s beside 8 + 64 slow clients, %.1f s undisturbed (ratio %.2f)\n' \
	"$(echo "$t4 - $t3" | bc)" "$(echo "$t1 - $t0" | bc)" "$(echo "($t4 - $t3) / ($t1 - $t0)" | bc -l)"

# Token files.
(umask 022; cp "$TMP/token" "$TMP/open-token"; chmod 644 "$TMP/open-token")
out=$("$tune" agent --listen 127.0.0.1:$((port + 1)) --token-file "$TMP/open-token" 2>&1)
check "a token file others can read: exit 3, chmod 600 ($out)" says $? 3 "accessible by others (mode 0644): refused (chmod 600" "$out"
sed "s|token_file: .*|token_file: $TMP/open-token|" "$TMP/remote.yaml" > "$TMP/open.yaml"
out=$("$tune" hosts --platform "$TMP/open.yaml" 2>&1)
check "the orchestrator refuses it too" grep -q "accessible by others" <<< "$out"
(umask 077; head -c 600 /dev/zero | tr '\0' a > "$TMP/long-token")
out=$("$tune" agent --listen 127.0.0.1:$((port + 1)) --token-file "$TMP/long-token" 2>&1)
check "a token over the limit: exit 3, not cut ($out)" says $? 3 "holds a token over 510 characters" "$out"

# fake_agent N NAME [COUNT_FILE]: agent_hostile serving $TMP/NAME.json on
# port+N, and $TMP/NAME.yaml, a platform whose one host it is.
fake_agent() {
	"$hostile" serve $((port + $1)) "$TMP/$2.json" ${3:+"$3"} &
	pids+=($!)
	sleep 0.3
	sed "s|hosts: .*|hosts: [http://127.0.0.1:$((port + $1))]|" "$TMP/remote.yaml" > "$TMP/$2.yaml"
}

# A hostile agent (or a proxy on a plain link) sends a host name that is code.
printf '{"api":1,"facts":{"hostname":"x\\"; system(\\"id\\") #","arch":"x86_64","pus":2,"cores":2},"platform":"p","fingerprint":"0123456789abcdef","compiler":"cc","cpus":[0]}' > "$TMP/evil.json"
fake_agent 2 evil
out=$("$tune" run tests/data/sweeps/tiny.yaml --platform "$TMP/evil.yaml" --db "$TMP/evil.db" 2>&1)
rc=$?
check "a host name that is not a name: exit 8 ($out)" test $rc = 8
check "a host name that is not a name: says so, naming the host" grep -q "host 'http://127.0.0.1:$((port + 2))' sent facts that are refused: its host name is not a name" <<< "$out"
check "nothing of it recorded" test "$(q "$TMP/evil.db" "SELECT count(*) FROM hosts WHERE hostname LIKE 'x%'" 2>/dev/null || echo 0)" = 0

# An agent that hangs up on a run: the run is not sent again.
printf '{"api":1,"facts":{"hostname":"hangup","arch":"%s","pus":2,"cores":2,"memory_bytes":8589934592,"llc_bytes":33554432},"platform":"p","fingerprint":"0123456789abcdef","compiler":"cc","cpus":[0],"device_cpu":1,"pin":true,"kernels":{"chase":"%s"}}' "$(uname -m)" "$chase_hash" > "$TMP/hangup.json"
fake_agent 3 hangup "$TMP/posts"
out=$("$tune" run tests/data/sweeps/tiny.yaml --platform "$TMP/hangup.yaml" --db "$TMP/hangup.db" 2>&1)
rc=$?
check "a run the agent hung up on: exit 8 ($out)" test $rc = 8
check "it says the run may have started and is not sent again" grep -q "stopped answering a POST it may have started (.*): not sent again" <<< "$out"
check "the run was sent once ($(cat "$TMP/posts" 2>/dev/null))" test "$(cat "$TMP/posts" 2>/dev/null)" = 1
check "its trials stay pending" test "$(q "$TMP/hangup.db" "SELECT count(*) FROM trials WHERE status = 'done'")" = 0

# An agent that hangs up on every request for 6 s, as one does whose
# connections slow strangers hold until its 10 s deadline: the orchestrator
# tries again for longer than that deadline before it marks the host down.
"$hostile" busy $((port + 4)) "$TMP/hangup.json" 6 &
pids+=($!)
sleep 0.3
sed "s|hosts: .*|hosts: [http://127.0.0.1:$((port + 4))]|" "$TMP/remote.yaml" > "$TMP/busy.yaml"
out=$("$tune" hosts --platform "$TMP/busy.yaml" 2>&1)
check "a host that hangs up for 6 s is waited for, not marked down ($out)" test $? = 0

# Plain http:// off loopback.
sed "s|hosts: .*|hosts: [http://tune-test.invalid:7781]|" "$TMP/remote.yaml" > "$TMP/far.yaml"
out=$("$tune" hosts --platform "$TMP/far.yaml" 2>&1)
check "plain http off loopback warns" grep -q "warning: host 'http://tune-test.invalid:7781' is plain http:// off this host" <<< "$out"
out=$("$tune" hosts --platform "$TMP/far.yaml" --require-tls 2>&1)
check "--require-tls refuses it" grep -q "is plain http:// off this host, and TLS is required" <<< "$out"
echo "require_tls: true" >> "$TMP/far.yaml"
out=$("$tune" run tests/data/sweeps/tiny.yaml --platform "$TMP/far.yaml" --db "$TMP/far.db" 2>&1)
check "require_tls in the platform: exit 3 ($out)" test $? = 3
out=$("$tune" hosts --platform "$TMP/remote.yaml" 2>&1)
check "loopback http does not warn" test -z "$(grep warning <<< "$out")"
e2e_done agent_hostile
