#!/usr/bin/env bash
# The layout DESIGN.md promises, checked: tuner/ is one folder per stage in
# the order of CMakeLists.txt's TUNE_STAGES, and a file includes only headers
# of its own stage or of the stages before it; every tuner/ source is in a
# stage folder (main.c aside); another stage is used through its one
# header, <stage>/<stage>.h (base/ is a toolbox of small modules, each with
# its own); store/ includes nothing of tuner/; only the executors touch an
# executor's state; no include runs in a loop, between files or between
# folders (report/ and kernels/ too); no source file passes 600 lines.
# Run from the source tree.
set -u
fail=0
stages=$(sed -n 's/^set(TUNE_STAGES \(.*\))$/\1/p' CMakeLists.txt)
if [ -z "$stages" ]; then
	echo "FAIL: no TUNE_STAGES line in CMakeLists.txt"
	exit 1
fi
rank() { # the position of stage $1 in TUNE_STAGES, or nothing
	local i=0 s
	for s in $stages; do
		[ "$s" = "$1" ] && { echo $i; return; }
		i=$((i + 1))
	done
}
for f in tuner/*.c tuner/*.h; do
	[ "$f" = tuner/main.c ] && continue
	[ -e "$f" ] || continue
	echo "FAIL: $f is in no stage folder"
	fail=1
done
for dir in tuner/*/; do
	stage=$(basename "$dir")
	if [ -z "$(rank "$stage")" ]; then
		echo "FAIL: tuner/$stage/ is not a stage of TUNE_STAGES ($stages)"
		fail=1
	fi
done
checked=0
for stage in $stages; do
	own=$(rank "$stage")
	for f in tuner/"$stage"/*.[ch]; do
		[ -e "$f" ] || continue
		while IFS= read -r inc; do
			# "../<stage>/x.h" names another stage; "x.h" is this one's.
			case "$inc" in
			../*/*) other=${inc#../}; other=${other%%/*} ;;
			*) continue ;;
			esac
			r=$(rank "$other")
			[ -z "$r" ] && continue # kernels/, store/: outside tuner/
			checked=$((checked + 1))
			# One header a stage: the others are its own business (base is a toolbox).
			if [ "$other" != "$stage" ] && [ "$other" != base ] && [ "${inc##*/}" != "$other.h" ]; then
				echo "FAIL: $f includes $inc: another stage is used through its header, ../$other/$other.h"
				fail=1
			fi
			if [ "$r" -gt "$own" ]; then
				echo "FAIL: $f includes $inc: stage '$other' comes after '$stage'"
				fail=1
			fi
		done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f")
	done
done
# The store has its own rows and includes nothing from tuner/.
while IFS= read -r hit; do
	echo "FAIL: $hit: store/ includes nothing from tuner/ (it has its own rows, store.h)"
	fail=1
done < <(grep -n -E '^[[:space:]]*#[[:space:]]*include[[:space:]]*"[^"]*(tuner|kernels)/' store/*.[ch])
# No C code outside kernels/ is to know a kernel by its id or name
# (DESIGN.md, "Kernels are plug-ins"). The shipped kernels still do; their
# count only goes down: lower kernel_refs_max as they move to their folders.
kernel_refs_max=0
kernel_refs=$(grep -rn -E 'KERNEL_(CHASE|IPA|SCHED)' --include='*.c' --include='*.h' tuner report store | wc -l)
if [ "$kernel_refs" -gt "$kernel_refs_max" ]; then
	echo "FAIL: $kernel_refs references to a shipped kernel's id in tuner/, report/ and store/ (at most $kernel_refs_max):"
	echo "      a kernel's own knowledge belongs in its folder and its manifest"
	fail=1
fi
# Nor by a name in its code or SQL ('chase', "ipa"), nor by including a
# shipped kernel's header: what it knows lives in its folder (its manifest
# and its views file). The old sweep keys that moved (CONF_MOVED) are names of keys.
while IFS= read -r hit; do
	echo "FAIL: $hit: names a shipped kernel outside kernels/: move it to the kernel's folder (its manifest or its report)"
	fail=1
done < <(grep -rn -E "['\"](chase|ipa|sched)['\".]|kernels/(chase|ipa|sched)/" --include='*.c' --include='*.h' \
	tuner report store | grep -v CONF_MOVED)
# Nor includes anything of kernels/ but the protocol, which the tuner and
# the kernel SDK share (kernels/sdk/tune_protocol.h); the store not even that.
while IFS= read -r hit; do
	echo "FAIL: $hit: includes a file of kernels/: of it the tuner and the report take the protocol alone (kernels/sdk/tune_protocol.h), the store nothing"
	fail=1
done < <(grep -rn -E '^[[:space:]]*#[[:space:]]*include[[:space:]]*"[^"]*kernels/' --include='*.c' --include='*.h' tuner report store |
	grep -v -E '^(tuner|report)/[^:]*:[0-9]+:[[:space:]]*#[[:space:]]*include[[:space:]]*"(\.\./)+kernels/sdk/tune_protocol\.h"')
# The executors behind one interface: an executor's own state is handed to
# it by execute.c, set by the command that chooses one, and read by no one
# else; nothing asks which executor it has.
while IFS= read -r hit; do
	echo "FAIL: $hit: touches an executor's own state or asks which executor it has; go through struct executor (run/run.h)"
	fail=1
done < <(grep -n -E 'executor_state|(ctx|context)->(agent|slurm)\b|== *&executor_' tuner/*/*.c | grep -v -E '^tuner/(run/execute|cli/cmd_run)\.c:')
# No include cycle between files, nor between folders (tuner's stages,
# store/, report/, kernels/ and each kernel's folder): tsort finds loops.
edges=$(for f in tuner/*.c tuner/*/*.[ch] store/*.[ch] report/*.[ch] kernels/*.c kernels/*/*.[ch]; do
	[ -e "$f" ] || continue
	sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f" | while IFS= read -r inc; do
		to=$(realpath -m --relative-to=. "$(dirname "$f")/$inc")
		[ -e "$to" ] && echo "$f $to"
	done
done)
for level in file folder; do
	if [ $level = file ]; then pairs=$edges; else pairs=$(awk '{ a = $1; b = $2; sub(/\/[^\/]*$/, "", a); sub(/\/[^\/]*$/, "", b); if (a != b) print a, b }' <<< "$edges"); fi
	loops=$( { tsort <<< "$pairs" > /dev/null; } 2>&1 | grep -v '^tsort: -: input contains a loop:$' | sed 's/^tsort: //')
	if [ -n "$loops" ]; then
		echo "FAIL: includes between ${level}s run in a loop through:" $loops
		fail=1
	fi
done
if [ "$(wc -l <<< "$edges")" -lt 100 ]; then
	echo "FAIL: only $(wc -l <<< "$edges") includes between files found: is the include pattern still right?"
	fail=1
fi
for f in tuner/*.c tuner/*/*.[ch] store/*.[ch] report/*.[ch] kernels/*.c kernels/*/*.[ch]; do
	[ -e "$f" ] || continue
	n=$(wc -l < "$f")
	if [ "$n" -gt 600 ]; then
		echo "FAIL: $f has $n lines: past 600 it holds two concerns"
		fail=1
	fi
done
if [ "$checked" -lt 20 ]; then
	echo "FAIL: only $checked includes across stages found: is the include pattern still right?"
	fail=1
fi
[ $fail = 0 ] && echo "ok: $(echo "$stages" | wc -w) stages, $checked includes across stages, all forward"
exit $fail
