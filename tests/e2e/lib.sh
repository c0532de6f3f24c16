# Shared set-up of the end-to-end tests, sourced after `tune=$1`: runs from
# the source tree, in a fresh temporary directory ($TMP, removed at exit,
# also holding the build cache), with check/q helpers and a closing summary.
set -u
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$src" || exit 2
TMP=$(mktemp -d)
export TMP
e2e_cleanup() { rm -rf "$TMP"; }
trap 'e2e_cleanup' EXIT
export TUNE_CACHE_DIR=$TMP/cache
plat=tests/data/platforms/tiny.yaml
pass=0 fail=0
# check DESCRIPTION COMMAND...: counts a pass when COMMAND succeeds.
check() { local what=$1; shift; if "$@"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $what"; fi; }
q() { sqlite3 "$1" "$2"; }
# tiny_platform NAME: the lines of a platform like tests/data/platforms/tiny.yaml
# named NAME, without sweeps; callers add where it runs (hosts, executor).
tiny_platform() {
	printf 'name: %s\narch: auto\ncompiler: cc\ncflags: [-O2]\nhints: [pldl1keep, pldl1strm]\n' "$1"
	printf 'sizes_mb: [1, 4]\ngroup_sizes: [1, 4, 16]\n'
}
# agent_token: a token for agents and orchestrators in $TMP/token, mode 600
# as both sides require; its text in $token.
agent_token() {
	(umask 077; head -c 24 /dev/urandom | base64 > "$TMP/token")
	token=$(cat "$TMP/token")
}
# e2e_done NAME [EXTRA_RC]: the summary line; exits non-zero on any failure.
e2e_done() { echo "$1: $pass passed, $fail failed"; [ "$fail" = 0 ] && [ "${2:-0}" = 0 ]; }
