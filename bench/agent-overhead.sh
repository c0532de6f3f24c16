#!/usr/bin/env bash
# Per-trial overhead of running through `tune agent` over loopback against
# running here: the same short sweep (tests/data/sweeps/tiny.yaml: 24 trials
# in 9 kernel processes), alternately here and through an agent this script
# starts, ROUNDS times each (default 5), each with --fresh, the build caches
# warm. Prints the median wall time per trial of each and their ratio.
# Usage: bench/agent-overhead.sh [build/tune] [rounds]
set -eu
tune=$(realpath "${1:-build/tune}")
rounds=${2:-5}
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'kill $agent 2>/dev/null; wait 2>/dev/null; rm -rf "$tmp"' EXIT
(umask 077; head -c 24 /dev/urandom | base64 > "$tmp/token")
port=$((20000 + RANDOM % 20000))
TUNE_CACHE_DIR=$tmp/cache-agent "$tune" agent --listen 127.0.0.1:$port --token-file "$tmp/token" \
	--platform tests/data/platforms/tiny.yaml 2> "$tmp/agent.log" &
agent=$!
sleep 1
sed "s|^sweeps:.*|hosts: [http://127.0.0.1:$port]\ntoken_file: $tmp/token|" tests/data/platforms/tiny.yaml > "$tmp/remote.yaml"
sweep=tests/data/sweeps/tiny.yaml
trials=24
run() { # run PLATFORM DB: seconds
	local t0 t1
	t0=$(date +%s%N)
	TUNE_CACHE_DIR=$tmp/cache-local "$tune" run $sweep --platform "$1" --db "$2" --fresh > /dev/null 2>&1
	t1=$(date +%s%N)
	echo $(((t1 - t0) / 1000))
}
run tests/data/platforms/tiny.yaml "$tmp/local.db" > /dev/null   # warm the caches
run "$tmp/remote.yaml" "$tmp/remote.db" > /dev/null
for i in $(seq "$rounds"); do
	echo "local $(run tests/data/platforms/tiny.yaml "$tmp/local.db")"
	echo "agent $(run "$tmp/remote.yaml" "$tmp/remote.db")"
done > "$tmp/times"
median() { grep "^$1 " "$tmp/times" | cut -d' ' -f2 | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
l=$(median local) a=$(median agent)
awk -v l="$l" -v a="$a" -v n=$trials -v r="$rounds" 'BEGIN {
	printf "per trial, median of %d rounds: here %.2f ms, through the agent %.2f ms, ratio %.3f (+%.2f ms per trial)\n",
	       r, l / n / 1000, a / n / 1000, a / l, (a - l) / n / 1000 }'
