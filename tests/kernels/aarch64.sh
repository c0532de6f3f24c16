#!/usr/bin/env bash
# Cross-compiles the chase tests and kernel for AArch64 and runs them under
# qemu-user: every hint's checksums agree across variants, and the AArch64
# kernel returns the same checksum as the native one for the same seed.
# Exits 77 (skipped) when the cross compiler or qemu is not installed.
set -u
src=$(cd "$(dirname "$0")/../.." && pwd)
native=$1
cc=${AARCH64_CC:-aarch64-linux-gnu-gcc}
qemu=${QEMU_AARCH64:-qemu-aarch64}
command -v "$cc" > /dev/null && command -v "$qemu" > /dev/null || {
	echo "aarch64: $cc or $qemu not installed (apt-get install gcc-aarch64-linux-gnu qemu-user)"; exit 77; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
pass=0 fail=0
for hint in 0 1 2 3; do
	"$cc" -std=c11 -O2 -Wall -Wextra -Werror -static -I"$src/kernels/sdk" -DCHASE_HINT=$hint -o "$TMP/test_chase_$hint" \
		"$src/tests/kernels/test_chase.c" -lm || { fail=$((fail + 1)); continue; }
	# The prefetch instruction is the one the hint names.
	want=$(sed -n "$((hint + 1))p" <<< $'pldl1keep\npldl2keep\npldl3keep\npldl1strm')
	if "${cc%gcc}objdump" -d "$TMP/test_chase_$hint" | grep -q "prfm.*$want"; then pass=$((pass + 1)); else
		fail=$((fail + 1)); echo "hint $hint: no 'prfm $want' in the binary"; fi
	if "$qemu" "$TMP/test_chase_$hint"; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
done
for v in 0 1 2 3; do
	"$cc" -std=c11 -O2 -static -I"$src/kernels/sdk" -DCHASE_VARIANT=$v -o "$TMP/chase_$v" "$src/kernels/chase/chase_main.c" -lm || {
		fail=$((fail + 1)); continue; }
	args="--size-mb 2 --runs 1 --warmup 0 --queries 3000 --group-size 5"
	# shellcheck disable=SC2086
	a=$("$qemu" "$TMP/chase_$v" $args | sed 's/.*"checksum":\([0-9]*\).*/\1/')
	# shellcheck disable=SC2086
	n=$("$native" $args | sed 's/.*"checksum":\([0-9]*\).*/\1/')
	if [ -n "$a" ] && [ "$a" = "$n" ]; then pass=$((pass + 1)); else
		fail=$((fail + 1)); echo "variant $v: aarch64 checksum '$a' != native '$n'"; fi
done
echo "aarch64: $pass passed, $fail failed"
[ "$fail" = 0 ]
