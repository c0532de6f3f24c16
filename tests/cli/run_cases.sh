#!/usr/bin/env bash
# Runs a CLI contract file: each line is `arguments | exit code | text`, and
# passes when the program exits with that code and prints that text (stdout
# or stderr; a text starting with ^ at the start of a line). $TMP in a line is a fresh temporary directory, or $TMP given in
# the environment. With GUARD set to a database, $GUARD in a line is that
# database, and after every case it must pass integrity_check and hold as
# many samples as before.
set -u
prog=$1 cases=$2
own_tmp=""
if [ -z "${TMP:-}" ]; then
	TMP=$(mktemp -d)
	own_tmp=$TMP
fi
trap '[ -n "$own_tmp" ] && rm -rf "$own_tmp"' EXIT
GUARD=${GUARD:-}
guard_samples=""
[ -n "$GUARD" ] && guard_samples=$(sqlite3 "$GUARD" "SELECT count(*) FROM samples")
export TUNE_CACHE_DIR=$TMP/cache
pass=0 fail=0 n=0
while IFS= read -r line; do
	case "$line" in ''|'#'*) continue ;; esac
	n=$((n + 1))
	args=$(printf '%s' "${line%%|*}" | sed -e "s|\$TMP|$TMP|g" -e "s|\$GUARD|$GUARD|g")
	rest=${line#*|}
	want_rc=$(printf '%s' "${rest%%|*}" | tr -d ' ')
	want_text=$(printf '%s' "${rest#*|}" | sed -e 's/^ //' -e "s|\$TMP|$TMP|g")
	# shellcheck disable=SC2086
	out=$("$prog" $args 2>&1 < /dev/null)
	rc=$?
	guard_ok=1
	if [ -n "$GUARD" ] && { [ "$(sqlite3 "$GUARD" "PRAGMA integrity_check")" != ok ] ||
		[ "$(sqlite3 "$GUARD" "SELECT count(*) FROM samples")" != "$guard_samples" ]; }; then
		guard_ok=0
		out="$out
(the guarded database lost data or integrity)"
	fi
	# A text starting with ^ must start a line of the output.
	found=0
	case "$want_text" in
	'^'*) printf '%s\n' "$out" | sed 's/^/\x01/' | grep -qF -- $'\x01'"${want_text#^}" && found=1 ;;
	*) printf '%s' "$out" | grep -qF -- "$want_text" && found=1 ;;
	esac
	if [ "$guard_ok" = 1 ] && [ "$rc" = "$want_rc" ] && [ "$found" = 1 ]; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		printf 'case %d failed: %s %s\n  want exit %s and "%s"\n  got exit %s:\n%s\n' "$n" "$prog" "$args" \
			"$want_rc" "$want_text" "$rc" "$(printf '%s' "$out" | head -5 | sed 's/^/    /')"
	fi
done < "$cases"
echo "$(basename "$cases"): $pass passed, $fail failed"
[ "$fail" = 0 ]
