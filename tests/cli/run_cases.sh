#!/usr/bin/env bash
# Runs a CLI contract file: each line is `arguments | exit code | text`, and
# passes when the program exits with that code and prints that text (stdout
# or stderr). $TMP in a line is a fresh temporary directory.
set -u
prog=$1 cases=$2
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
export TUNE_CACHE_DIR=$TMP/cache
pass=0 fail=0 n=0
while IFS= read -r line; do
	case "$line" in ''|'#'*) continue ;; esac
	n=$((n + 1))
	args=$(printf '%s' "${line%%|*}" | sed "s|\$TMP|$TMP|g")
	rest=${line#*|}
	want_rc=$(printf '%s' "${rest%%|*}" | tr -d ' ')
	want_text=$(printf '%s' "${rest#*|}" | sed -e 's/^ //' -e "s|\$TMP|$TMP|g")
	# shellcheck disable=SC2086
	out=$("$prog" $args 2>&1 < /dev/null)
	rc=$?
	if [ "$rc" = "$want_rc" ] && printf '%s' "$out" | grep -qF -- "$want_text"; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		printf 'case %d failed: %s %s\n  want exit %s and "%s"\n  got exit %s:\n%s\n' "$n" "$prog" "$args" \
			"$want_rc" "$want_text" "$rc" "$(printf '%s' "$out" | head -5 | sed 's/^/    /')"
	fi
done < "$cases"
echo "$(basename "$cases"): $pass passed, $fail failed"
[ "$fail" = 0 ]
