#!/usr/bin/env bash
# The hash-probe example, as its README section runs it: one command tunes it
# beside the chase (its platform file, under --quick), the header it exports
# builds the production program, whose tuned probe finds what the scalar loop
# finds. No timing is asserted.
tune=$1
. "$(dirname "$0")/lib.sh"

db=$TMP/hp.db
"$tune" --platform examples/hashprobe/platform.yaml --quick --db "$db" > "$TMP/out" 2> "$TMP/err"
rc=$?
check "one command tunes the example (rc $rc: $(tail -1 "$TMP/err"))" [ "$rc" = 0 ]
# Each kernel declares its tables (in place of the generic ones): the
# headline gives both optima.
check "and shows both kernels' optima and tables, for a platform given as a file" \
	sh -c 'grep -Eq "^hashprobe-local +[^ ]+ +hashprobe +size_mb=256 " "$1" && grep -q "^Optima of chase: platform hashprobe-local" "$1"' _ "$TMP/out"
check "the probe's optimum at 256 MB" [ "$(q "$db" "SELECT context FROM optima WHERE kernel = 'hashprobe'")" = "size_mb=256" ]
check "its own view, from its folder, reads its trials" \
	[ "$(q "$db" "SELECT COUNT(*) FROM hashprobe_results WHERE size_mb = 256 AND (variant = 'scalar' OR g > 0)")" = \
	  "$(q "$db" "SELECT COUNT(*) FROM trials WHERE kernel = 'hashprobe' AND status = 'done'")" ]
check "its own table, declared in its views file, in tune results" \
	grep -Eq "^256 MB +[0-9.]+ +[0-9.]+ +[0-9]+ +(t[0-2]|nta) +[0-9.]+x$" "$TMP/out"
check "under its title, in the platform's section" \
	grep -q "^Hash probe: the scalar loop against the fastest interleaved g (ns per probe, search round)$" "$TMP/out"
check "the chase's at the same working set" [ "$(q "$db" "SELECT json_extract(params, '\$.size_mb') FROM optima WHERE kernel = 'chase'")" = 256 ]
check "every probe agreed with the scalar loop" \
	[ "$(q "$db" "SELECT COUNT(DISTINCT s.checksum) FROM samples s JOIN trials t ON t.id = s.trial_id WHERE t.kernel = 'hashprobe'")" = 1 ]

mkdir -p "$TMP/ex"
cp examples/hashprobe/prod.c examples/hashprobe/hashprobe.h examples/hashprobe/Makefile "$TMP/ex/"
"$tune" export header --platform hashprobe-local --db "$db" -o "$TMP/ex/tuned_config.h" 2> "$TMP/err2"
check "export header ($(tail -1 "$TMP/err2"))" [ -s "$TMP/ex/tuned_config.h" ]
check "the production program builds against it" make -s -C "$TMP/ex" CFLAGS=-O2
"$TMP/ex/prod" 64 > "$TMP/prod.out" 2>&1
check "it runs the tuned probe: $(cat "$TMP/prod.out")" grep -q "checksum ok" "$TMP/prod.out"
want=$(q "$db" "SELECT 'g=' || json_extract(exports, '$.g.value') FROM optima WHERE kernel = 'hashprobe'")
check "with the g tune chose ($want)" grep -q "$want" "$TMP/prod.out"
# A table over half this host's memory is not built: said, and not run.
printf 'name: huge\nkernel: hashprobe\nparams:\n  size_mb: [1048576]\n  g: [4]\n' > "$TMP/huge.yaml"
"$tune" run "$TMP/huge.yaml" --platform $plat --kernels-dir examples --db "$TMP/huge.db" > /dev/null 2> "$TMP/huge.err"
rc=$?
check "a working set over half the memory is skipped (rc $rc)" [ "$rc" = 3 ]
check "and said: $(grep skipping "$TMP/huge.err")" grep -q "skipping size_mb=1048576 in sweep 'huge': more than half of the" "$TMP/huge.err"
check "the platform's hints (chase's) are not its hint's: said, and its default used" \
	grep -q "tiny.yaml:10:10: key 'params': kernel hashprobe's parameter 'hint' takes no value of this list ('pldl1keep' is not one of t0 t1 t2 nta), another kernel's: sweep 'huge' uses its default" "$TMP/huge.err"
e2e_done hashprobe
