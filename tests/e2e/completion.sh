#!/usr/bin/env bash
# Shell completion and the man page come from the tables the parser and the
# help read: for every command, completing "--" offers exactly the options
# its --help lists; values (formats, column sets, platforms) and operands
# complete; the zsh script is the bash one through bashcompinit; the man
# page has every command and option and groff reads it without a warning.
tune=$1
# shellcheck source=tests/e2e/lib.sh
source "$(dirname "$0")/lib.sh"

"$tune" completion bash > "$TMP/tune.bash"
check "completion bash: a script bash parses" bash -n "$TMP/tune.bash"
# complete WORDS...: what the script offers for the last word.
complete_words() {
	bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _tune; printf "%s\n" "${COMPREPLY[@]}" | sort | paste -sd" "' _ "$TMP/tune.bash" "$@"
}
commands=$("$tune" help | sed -n '/^commands:/,/^$/p' | awk 'NF > 1 { print $1 }' | sort | paste -sd" ")
check "the commands complete ($commands)" test "$(complete_words tune '')" = "$commands"
for cmd in tune $commands; do
	if [ "$cmd" = tune ]; then help=$("$tune" --platform x --help); words=(tune --); else help=$("$tune" "$cmd" --help); words=(tune "$cmd" --); fi
	want=$(sed -n '/^options:/,/^$/p' <<< "$help" | grep -oE -- '--[a-z-]+' | sort -u | paste -sd" ")
	check "tune $cmd: '--' completes to the options its --help lists ($want)" test "$(complete_words "${words[@]}")" = "$want"
done
check "a format completes" test "$(complete_words tune results --format '')" = "csv json md table"
check "a column set completes" test "$(complete_words tune export csv --columns '')" = "all amaco2 own"
check "export's formats complete" test "$(complete_words tune export '')" = "csv header json"
check "a platform completes from platforms/" sh -c "echo '$(complete_words tune run chase-g --platform lo)' | grep -qw local"
check "a sweep completes from sweeps/" sh -c "echo '$(complete_words tune run chase-)' | grep -qw chase-tune"
"$tune" completion zsh > "$TMP/_tune"
check "completion zsh: the bash script through bashcompinit" sh -c "head -3 '$TMP/_tune' | grep -q 'bashcompinit' && tail -n +4 '$TMP/_tune' | cmp -s - '$TMP/tune.bash'"
if command -v zsh > /dev/null; then
	check "completion zsh: zsh loads it" zsh -c "source '$TMP/_tune'"
fi
out=$("$tune" completion fish 2>&1)
check "completion of another shell: exit 2, says which" sh -c "[ $? = 2 ] && echo '$out' | grep -q 'which shell'"

"$tune" man > "$TMP/tune.1"
check "man: a manual page, section 1" grep -q '^\.TH TUNE 1 ' "$TMP/tune.1"
for cmd in $commands; do
	check "man: command $cmd has its section" grep -q "^\.SS \"tune $cmd\"" "$TMP/tune.1"
done
opts=$(for cmd in tune $commands; do if [ "$cmd" = tune ]; then "$tune" --platform x --help; else "$tune" "$cmd" --help; fi; done | sed -n '/^options:/,/^$/p' | grep -oE -- '--[a-z-]+' | grep -v -- '--help' | sort -u)
missing=$(for o in $opts; do grep -q "^\.B .*$(sed 's/-/\\\\-/g' <<< "$o")" "$TMP/tune.1" || echo "$o"; done)
check "man: every option is described (missing: $missing)" test -z "$missing"
check "man: the exit codes are tune help exit-codes'" test "$(grep -A1 '^\.TP' "$TMP/tune.1" | grep -cE '^\.B (0|1|2|3|4|5|6|7|8|9|10|130)$')" = "$("$tune" help exit-codes | grep -cE '^  [0-9]+ ')"
if command -v groff > /dev/null; then
	check "man: groff reads it without a warning ($(groff -man -Tutf8 -ww -z "$TMP/tune.1" 2>&1 | head -2))" \
		test -z "$(groff -man -Tutf8 -ww -z "$TMP/tune.1" 2>&1)"
else
	echo "completion: groff not installed (apt-get install groff-base): the man page's rendering not checked"
fi
echo "completion: $pass passed, $fail failed"
[ "$fail" = 0 ]
