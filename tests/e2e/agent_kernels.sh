#!/usr/bin/env bash
# A user's kernel on a remote host: an agent started with --kernels-dir
# serves it (and lists it with its manifest and sources hash in its facts),
# the orchestrator compares that hash with its own copy's and refuses a
# mismatch or a missing kernel naming the host and the kernel; the agent
# checks the spec against its own manifest and refuses what it does not
# have. Agents over loopback, started here.
tune=$1
# shellcheck source=tests/e2e/lib.sh
source "$(dirname "$0")/lib.sh"
agent_token
port=$((28000 + RANDOM % 2000)) # its own range: tests run in parallel
apid=
start() {
	[ -n "$apid" ] && kill "$apid" 2> /dev/null && wait "$apid" 2> /dev/null
	TUNE_CACHE_DIR=$TMP/cache-agent "$tune" agent --listen 127.0.0.1:$port --token-file "$TMP/token" \
		--platform $plat --name agent1 "$@" 2>> "$TMP/agent.log" &
	apid=$!
	agent_wait $port "$TMP/agent.log" $apid
}
trap '[ -n "$apid" ] && kill "$apid" 2> /dev/null; wait 2> /dev/null; e2e_cleanup' EXIT

write_sumk "$TMP/here"
write_sumk "$TMP/there"
{ tiny_platform remote; printf 'hosts: [http://127.0.0.1:%s]\ntoken_file: %s\n' $port "$TMP/token"; } > "$TMP/remote.yaml"
printf 'name: sumk-remote\nkernel: sumk\nparams:\n  n: [2000]\n  unroll: [2]\n  g: [1, 4]\nruns: 2\nwarmup: 1\nfinal_top: 0\n' \
	> "$TMP/sweep.yaml"
db=$TMP/r.db

check "the agent starts with --kernels-dir" start --kernels-dir "$TMP/there"
facts=$(curl -s -H "Authorization: Bearer $token" "http://127.0.0.1:$port/v1/facts")
check "its facts list the kernel with a hash" grep -qE '"sumk":"[0-9a-f]{16}"' <<< "$facts"
check "and the shipped ones" grep -q '"chase":"' <<< "$facts"

"$tune" run "$TMP/sweep.yaml" --platform "$TMP/remote.yaml" --kernels-dir "$TMP/here" --db "$db" > /dev/null 2> "$TMP/err1"
rc=$?
check "a sweep of the user's kernel runs on the agent (rc $rc: $(tail -1 "$TMP/err1"))" [ "$rc" = 0 ]
check "its trials done, recorded as the agent's host" [ "$(q "$db" "SELECT COUNT(*) FROM trials t JOIN sweeps s ON s.id = t.sweep_id JOIN hosts h ON h.id = s.host_id WHERE t.kernel = 'sumk' AND t.status = 'done' AND h.hostname = 'agent1'")" = 4 ]
check "built by the agent (the build's place is its URL)" [ "$(q "$db" "SELECT DISTINCT binary_path FROM builds WHERE kernel = 'sumk'")" = "http://127.0.0.1:$port" ]
check "the agent built in its own cache" test -d "$TMP/cache-agent/builds"
check "an optimum for the agent's host" [ "$(q "$db" "SELECT COUNT(*) FROM optima WHERE kernel = 'sumk' AND host = 'agent1'")" = 1 ]

# The agent's copy differs: refused before anything runs.
echo "/* changed there */" >> "$TMP/there/sumk/main.c"
check "the agent restarts with the changed copy" start --kernels-dir "$TMP/there"
"$tune" run "$TMP/sweep.yaml" --platform "$TMP/remote.yaml" --kernels-dir "$TMP/here" --db "$db" --fresh > /dev/null 2> "$TMP/err2"
rc=$?
check "a differing copy is refused (rc $rc)" [ "$rc" = 3 ]
check "naming the host, the kernel and both hashes: $(cat "$TMP/err2")" \
	grep -qE "host 'http://127.0.0.1:$port': kernel 'sumk' differs from this host's \(manifest and sources hash [0-9a-f]{16} here, [0-9a-f]{16} there\)" "$TMP/err2"
check "nothing ran there" [ "$(q "$db" "SELECT COUNT(*) FROM trials WHERE kernel = 'sumk'")" = 4 ]

# Without --kernels-dir the agent has no such kernel.
check "the agent restarts without --kernels-dir" start
"$tune" run "$TMP/sweep.yaml" --platform "$TMP/remote.yaml" --kernels-dir "$TMP/here" --db "$db" --fresh > /dev/null 2> "$TMP/err3"
check "a kernel the agent does not have is named" grep -q "host 'http://127.0.0.1:$port': kernel 'sumk' is not served there" "$TMP/err3"

# The agent's own checks, for a client that skips the orchestrator's.
check "the agent restarts with the kernel again" start --kernels-dir "$TMP/here"
hash=$(curl -s -H "Authorization: Bearer $token" "http://127.0.0.1:$port/v1/facts" | grep -oE '"sumk":"[0-9a-f]{16}"' | cut -d'"' -f4)
good='{"api":1,"kernel":"sumk","kernel_hash":"'$hash'","variant":"unrolled","params":{"n":100,"unroll":2},"list":[1,4],"runs":1,"warmup":0,"seed":1,"timeout_s":30}'
post() { curl -s -w '\n%{http_code}' -H "Authorization: Bearer $token" -d "$1" "http://127.0.0.1:$port/v1/run"; }
out=$(post "$good")
check "a good spec runs: $(head -c 200 <<< "$out")" grep -q '"built":true' <<< "$out"
check "with the list's values" [ "$(grep -o '\\"g\\":4' <<< "$out" | wc -l)" = 1 ]
out=$(post "${good/$hash/0000000000000000}")
check "another hash: 409 naming both" grep -q "kernel 'sumk' here differs from the orchestrator's (manifest and sources hash $hash here, 0000000000000000 there)" <<< "$out"
check "another hash: 409" [ "$(tail -1 <<< "$out")" = 409 ]
out=$(post "${good/\"unroll\":2/\"unroll\":9}")
check "out of range: 400 with the parameter" grep -q "parameter 'unroll': 9 is out of range \[1, 8\]" <<< "$out"
out=$(post "${good/\"unroll\":2/\"unroll\":2,\"cmd\":\"id\"}")
check "an unknown parameter: 400" grep -q "'cmd' is no parameter of variant 'unrolled' here" <<< "$out"
out=$(post "${good/\"api\":1/\"api\":1,\"binary\":\"/bin/sh\"}")
check "an unknown field: 400" grep -q "unknown field 'binary'" <<< "$out"
out=$(post "${good/,\"unroll\":2/}")
check "a missing value: 400, nothing defaulted" grep -q "parameter 'unroll' is missing" <<< "$out"
out=$(post "${good/\"kernel\":\"sumk\"/\"kernel\":\"nope\"}")
check "a kernel it does not have: 400 with those it has" grep -q "field 'kernel' must be one of chase ipa ipa_hybrid sched sumk" <<< "$out"
# A working set over half of the agent's memory is refused there.
check "the agent restarts with the examples too" start --kernels-dir "$TMP/here" --kernels-dir examples
hp=$(curl -s -H "Authorization: Bearer $token" "http://127.0.0.1:$port/v1/facts" | grep -oE '"hashprobe":"[0-9a-f]{16}"' | cut -d'"' -f4)
out=$(post '{"api":1,"kernel":"hashprobe","kernel_hash":"'$hp'","variant":"scalar","params":{"size_mb":1048576,"queries":10},"runs":1,"warmup":0,"seed":1,"timeout_s":30}')
check "over half its memory: 422" [ "$(tail -1 <<< "$out")" = 422 ]
check "saying so: $(head -c 150 <<< "$out")" grep -q "size_mb=1048576 MB is over half of this host's memory" <<< "$out"
e2e_done agent_kernels
