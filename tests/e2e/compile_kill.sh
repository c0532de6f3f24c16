#!/usr/bin/env bash
# A compile is part of the sweep's process group: SIGTERM during a compile
# stops tune at once (exit 130) and kills the compiler's own children; the
# temporary binaries that a killed tune of this machine left in the build
# cache are removed by the next build, and those of a live one are not.
tune=$1
# shellcheck source=tests/e2e/lib.sh
source "$(dirname "$0")/lib.sh"
marker="sleep 3$RANDOM"
# A compiler that answers --version like one, then hangs in the compile
# with a child of its own.
printf '#!/bin/sh\n[ "$1" = --version ] && exec cc --version\n%s &\ntouch "%s/started"\nwait\n' "$marker" "$TMP" > "$TMP/slowcc"
chmod +x "$TMP/slowcc"
{ tiny_platform slowcc; printf 'compiler: %s\n' "$TMP/slowcc"; } | sed '/^compiler: cc$/d' > "$TMP/slowcc.yaml"
"$tune" run tests/data/sweeps/tiny.yaml --platform "$TMP/slowcc.yaml" --db "$TMP/c.db" > /dev/null 2> "$TMP/c.err" &
pid=$!
for _ in $(seq 100); do [ -e "$TMP/started" ] && break; sleep 0.1; done
check "the compile started" test -e "$TMP/started"
kill -TERM $pid
for _ in $(seq 150); do kill -0 $pid 2>/dev/null || break; sleep 0.1; done
if kill -0 $pid 2>/dev/null; then
	check "tune stops during a compile" false
	kill -9 $pid
fi
wait $pid
rc=$?
check "interrupted during a compile: exit 130 ($(tail -1 "$TMP/c.err"))" test $rc = 130
sleep 0.2
check "the compiler's own child is killed with it" test -z "$(pgrep -f "^$marker\$")"
pkill -f "^$marker\$"

# Temporary binaries: a dead pid's is removed, a live one's kept.
dir=$TUNE_CACHE_DIR/builds/0000000000000000
mkdir -p "$dir"
dead=999999
while kill -0 $dead 2>/dev/null; do dead=$((dead - 1)); done
touch "$dir/chase.tmp.$(hostname).$dead" "$dir/chase.tmp.$(hostname).$$" "$dir/chase.tmp.other-machine.$dead"
"$tune" run tests/data/sweeps/tiny.yaml --platform $plat --db "$TMP/t.db" > /dev/null 2>&1
check "a sweep that builds runs" test $? = 0
check "a killed build's temporary binary is removed" test ! -e "$dir/chase.tmp.$(hostname).$dead"
check "a live build's is kept" test -e "$dir/chase.tmp.$(hostname).$$"
check "another machine's is kept" test -e "$dir/chase.tmp.other-machine.$dead"
e2e_done compile_kill
