#!/usr/bin/env bash
# Reports: `tune report` writes its four charts (chase throughput and
# speedup, ipa wall time against T, sched makespan against apps) as PNG and
# SVG and one self-contained HTML file, which headless Chromium opens and in
# which it finds the four charts drawn; `tune results --format` gives table, md, csv and
# versioned JSON naming the host; two platforms get a comparison table;
# missing gnuplot, an empty database and an unknown format say so clearly.
tune=$1
# shellcheck source=tests/e2e/lib.sh
source "$(dirname "$0")/lib.sh"
db=$TMP/rep.db
"$tune" run tests/data/sweeps/tiny.yaml --platform $plat --db "$db" > /dev/null 2>&1
"$tune" run tests/data/sweeps/tiny.yaml --platform tests/data/platforms/tiny-o3.yaml --db "$db" > /dev/null 2>&1
"$tune" run tests/data/sweeps/ipa.yaml --platform $plat --db "$db" > /dev/null 2>&1
"$tune" run tests/data/sweeps/sched.yaml --platform $plat --db "$db" > /dev/null 2>&1
out=$("$tune" report --platform tiny --db "$db" -o "$TMP/report" 2>&1)
check "report exits 0 ($out)" test $? = 0
for chart in chase-throughput_vs_size chase-speedup_vs_groupsize ipa-wall_vs_threshold sched-makespan_vs_apps; do
	check "$chart.png is a PNG" test "$(head -c 8 "$TMP/report/tiny-$chart.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a
	check "$chart.svg is an SVG" grep -q '<svg' "$TMP/report/tiny-$chart.svg"
done
# What each chart marks, read from the data and scripts gnuplot drew them
# from (each declared in its kernel's views.sql: report/declared_charts.c).
# Each cache whose size lies within the sizes measured (1 and 4 MB) is marked, no other.
for c in l1d_bytes:L1d l2_bytes:L2 llc_bytes:last-level; do
	in=$(q "$db" "SELECT json_extract(env_json, '\$.${c%%:*}') BETWEEN 1048576 AND 4194304 FROM sweeps ORDER BY id DESC LIMIT 1")
	check "throughput: ${c#*:} marked only when within the sizes measured ($in)" test "$(grep -c "^\"${c#*:}" "$TMP/report/tiny-chase-throughput_vs_size.dat")" = "$in"
done
check "throughput: a mark is a vertical line" \
	sh -c "! grep -q '^\"L' '$TMP/report/tiny-chase-throughput_vs_size.dat' || grep -q \"with lines dt [0-9] lw 2 lc rgb 'gray25'\" '$TMP/report/tiny-chase-throughput_vs_size.gp'"
check "speedup: y = 1 drawn and the chosen g of each size marked ($(grep -A9 '"chosen g"' "$TMP/report/tiny-chase-speedup_vs_groupsize.dat" | grep -c '^[0-9]'))" \
	sh -c "grep -q 'first 1 nohead' '$TMP/report/tiny-chase-speedup_vs_groupsize.gp' && [ \"\$(sed -n '/\"chosen g\"/,/^\$/p' '$TMP/report/tiny-chase-speedup_vs_groupsize.dat' | grep -c '^[0-9]')\" = \"$(q "$db" "SELECT count(*) FROM optima o JOIN current_fingerprints USING (platform, host, fingerprint) WHERE o.platform = 'tiny' AND o.kernel = 'chase' AND o.variant = 'interleaved-prefetch'")\" ]"
flagged=$(q "$db" "SELECT count(*) FROM (SELECT outliers, MIN(median_ns_per_lookup) FROM chase_latest JOIN current_fingerprints USING (platform, host, fingerprint) WHERE platform = 'tiny' AND kernel = 'chase' AND variant = 'interleaved-prefetch' GROUP BY size_mb, group_size) WHERE outliers > 0")
check "speedup: the points with runs flagged as outliers marked ($flagged)" \
	sh -c "[ \"\$(sed -n '/\"runs flagged as outliers\"/,/^\$/p' '$TMP/report/tiny-chase-speedup_vs_groupsize.dat' | grep -c '^[0-9]')\" = $flagged ] && { [ $flagged = 0 ] || grep -q \"lc rgb 'red' title\" '$TMP/report/tiny-chase-speedup_vs_groupsize.gp'; }"
check "ipa: in microseconds, always block and always poll with their intervals" \
	sh -c "grep -q 'set ylabel ARG7' '$TMP/report/tiny-ipa-wall_vs_threshold.gp' && grep -q '^\"always block' '$TMP/report/tiny-ipa-wall_vs_threshold.dat' && grep -q 'filledcurves' '$TMP/report/tiny-ipa-wall_vs_threshold.gp'"
check "ipa: no label drawn on the plot (each line is in the key)" test "$(grep -c 'set label' "$TMP/report/tiny-ipa-wall_vs_threshold.gp")" = 0
check "sched: worker dispatch drawn dashed, a panel per speedup on one y range" \
	sh -c "grep -A1 '^\"co worker\"' '$TMP/report/tiny-sched-makespan_vs_apps.dat' | grep -q '^[0-9]' && grep -q ' dt 2 title' '$TMP/report/tiny-sched-makespan_vs_apps.gp' && [ \"\$(grep -c 'set yrange \[0:' '$TMP/report/tiny-sched-makespan_vs_apps.gp')\" = 1 ] && [ \"\$(grep -c 'set title field(ARG8' '$TMP/report/tiny-sched-makespan_vs_apps.gp')\" = \"$(q "$db" "SELECT COUNT(DISTINCT speedup) FROM sched_results r JOIN newest_kernel_sweeps n ON n.sweep_id = r.sweep_id WHERE n.platform = 'tiny' AND n.kernel = 'sched'")\" ]"
html=$TMP/report/report.html
check "HTML inlines the four charts" test "$(grep -c '<svg' "$html")" -ge 4
check "HTML has no external resources" test -z "$(grep -Eo '(src|href)="[a-z]+://' "$html")"
check "HTML has the host facts" grep -q "cpu_model" "$html"
check "HTML has the tables" grep -q "Variant isolation" "$html"
check "HTML opens with the headline" grep -q "Headline: what to use, how sure, how much it gains, how near the limit" "$html"
check "HTML says when and by which tune it was made" grep -q "<td>Generated</td><td>20[0-9-]*T[0-9:]*Z</td>" "$html"
check "HTML has the host facts as the newest sweep found them, in readable units" \
	sh -c "grep -q '<h3>Host $(hostname), as sweep [a-z-]* found it at ' '$html' && grep -Eq '<td>memory_bytes</td><td>[0-9.]+ GiB</td>' '$html'"
check "HTML lists the sweeps: quick or full, runs, load, warnings beside them" \
	sh -c "grep -q '<h3>Sweeps: how each ran' '$html' && grep -q '<td>tiny</td><td>20[^<]*</td><td>[0-9]*s</td><td>full</td><td>done</td>' '$html'"
# (whichever variant the noise made fastest: a text cell has no class)
check "HTML aligns text left and numbers right" sh -c "grep -Eq '<td>(scalar|interleaved)[a-z-]*</td>' '$html' && grep -q '<td class=\"n\">[0-9.]* \[' '$html'"
check "HTML has the ipa and sched tables" sh -c "grep -q 'IPA optimum' '$html' && grep -q 'Inline against worker dispatch' '$html'"
if command -v chromium > /dev/null; then
	flags="--headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking --disable-component-update --disable-sync"
	# shellcheck disable=SC2086
	dom=$(timeout 120 chromium $flags --user-data-dir="$TMP/chrome1" --virtual-time-budget=3000 --dump-dom "file://$html" 2>/dev/null)
	# The four charts above, and a kernel's own chart of its metric against its list (ipa's threshold).
	charts=$(grep -c '<figure class="chart">' "$html")
	rendered=$(grep -o 'data-charts-rendered="[0-9]*"' <<< "$dom")
	check "Chromium shows what made the page, then the headline" test "$(grep -o '<h2[^>]*>[^<]*' <<< "$dom" | sed -n 's/.*>//p' | head -2 | paste -sd,)" = "About this report,Headline"
	check "Chromium shows the headline's rows" test "$(grep -o '<tr>' <<< "$(sed -n '/Headline: what to use/,/<\/table>/p' <<< "$dom")" | wc -l)" -gt "$(q "$db" "SELECT count(*) FROM optima WHERE platform = 'tiny'")"
	check "Chromium draws every chart ($charts, at least the four)" test "$charts" -ge 4 -a "$rendered" = "data-charts-rendered=\"$charts\""
	# shellcheck disable=SC2086
	timeout 120 chromium $flags --user-data-dir="$TMP/chrome2" --window-size=1200,1600 --screenshot="$TMP/shot.png" "file://$html" > /dev/null 2>&1
	check "Chromium takes a screenshot" test "$(stat -c %s "$TMP/shot.png" 2>/dev/null || echo 0)" -gt 20000
else
	echo "report: chromium not installed (apt-get install chromium): browser checks not run"
fi

# Formats.
"$tune" results --platform tiny --db "$db" > "$TMP/r.txt" 2>&1
check "no table says (null): a runner-up without a hint is named by its variant ($(grep -m1 '(null)' "$TMP/r.txt"))" \
	test -z "$(grep '(null)' "$TMP/r.txt")"
check "table format" sh -c "'$tune' results --platform tiny --db '$db' --format table | grep -q '^Summary: scalar vs best'"
check "md format" sh -c "'$tune' results --platform tiny --db '$db' --format md | grep -q '^| Working set | Scalar |'"
"$tune" results --platform tiny --db "$db" --format csv > "$TMP/r.csv"
check "csv format: a row of a section per depth says its depth" grep -q '^platform,host,depth,table,Working set' "$TMP/r.csv"
"$tune" results --platform tiny --db "$db" --format json > "$TMP/r.json"
# The platform's first section (after the headline's).
sec=$(q "$db" "SELECT min(key) FROM json_each(readfile('$TMP/r.json'), '\$.sections') WHERE json_extract(value, '\$.host') != ''")
check "json: versioned and names the host" test "$(q "$db" "SELECT json_extract(readfile('$TMP/r.json'), '\$.version') || ' ' || json_extract(readfile('$TMP/r.json'), '\$.sections[$sec].host')")" = "3 $(hostname)"
# Typed: numbers are numbers, intervals objects with their runs and coverage, units fields.
jt() { q "$db" "SELECT group_concat(json_type(readfile('$TMP/r.json'), '\$.sections[$sec].tables[$1].' || value), ' ') FROM json_each('$2')"; }
check "json: the summary's cells are typed" test "$(jt 0 '["rows[0][0]","rows[0][1]","rows[0][3]","rows[0][4]","rows[0][5]"]')" = "integer real integer text real"
check "json: the summary's units" test "$(jt 0 '["columns[1].unit","columns[5].unit"]')" = "text text"
check "json: a working set is in MB" test "$(q "$db" "SELECT json_extract(readfile('$TMP/r.json'), '\$.sections[$sec].tables[0].rows[0][0]') = MIN(json_extract(params, '\$.size_mb')) FROM trials WHERE kernel = 'chase'")" = 1
opt=$(q "$db" "SELECT key FROM json_each(readfile('$TMP/r.json'), '\$.sections[$sec].tables') WHERE json_extract(value, '\$.title') LIKE 'Optima of chase:%'")
check "json: an optimum's median is an interval with runs and coverage" test "$(jt "$opt" '["rows[0][5].median","rows[0][5].low","rows[0][5].high","rows[0][5].runs","rows[0][5].coverage","rows[0][6]"]')" = "real real real integer real object"
runs=$(q "$db" "SELECT json_extract(readfile('$TMP/r.json'), '\$.sections[$sec].tables[$opt].rows[0][5].runs')")
cov=$(q "$db" "SELECT json_extract(readfile('$TMP/r.json'), '\$.sections[$sec].tables[$opt].rows[0][5].coverage')")
check "json: the coverage follows from the runs ($runs runs: $cov)" sh -c "{ [ '$runs' = 3 ] && [ '$cov' = 0.75 ]; } || { [ '$runs' = 5 ] && [ '$cov' = 0.9375 ]; } || { [ '$runs' -ge 6 ] && [ \"\$(awk 'BEGIN { print ($cov >= 0.95) }')\" = 1 ]; }"
left=$(q "$db" "SELECT count(*) FROM json_tree(readfile('$TMP/r.json')) WHERE type = 'text' AND fullkey LIKE '%.rows[%' AND (atom GLOB '*[0-9]x' OR atom GLOB '*[0-9] \[*' OR atom GLOB '[0-9]*' AND atom NOT GLOB '*[^0-9.]*')")
check "json: no number or interval left as text ($left)" test "$left" = 0
check "unknown format" sh -c "'$tune' results --db '$db' --format xml 2>&1 | grep -q \"unknown format 'xml'\""
# The headline: a row per optimum, typed.
"$tune" results --platform tiny --db "$db" --format json --table headline > "$TMP/h.json"
hq() { q "$db" "SELECT $1 FROM json_each(readfile('$TMP/h.json'), '\$.sections[0].tables[0].rows') $2"; }
check "headline: opens the results" test "$("$tune" results --platform tiny --db "$db" | sed -n 1p)" = Headline
check "headline: a row per optimum of the current fingerprints" test "$(hq 'count(*)' '')" = "$(q "$db" "SELECT count(*) FROM optima JOIN current_fingerprints USING (platform, host, fingerprint) WHERE platform = 'tiny'")"
check "headline: each row says tie, ahead or knee against its runner-up" test "$(hq 'count(*)' "WHERE json_extract(value, '\$[6].verdict') IN ('tie', 'ahead', 'knee')")" = "$(hq 'count(*)' "WHERE json_type(value, '\$[6]') = 'object'")"
check "headline: a knee is a better runner-up, a tie overlapping intervals" test "$(hq 'count(*)' "WHERE (json_extract(value, '\$[6].verdict') = 'knee') != (json_extract(value, '\$[6].median') < json_extract(value, '\$[5].median')) OR (json_extract(value, '\$[6].verdict') = 'tie') != (json_extract(value, '\$[6].median') >= json_extract(value, '\$[5].median') AND json_extract(value, '\$[6].low') <= json_extract(value, '\$[5].high'))")" = 0
paired=$(hq 'count(*)' "WHERE json_extract(value, '\$[6].paired') = 1")
check "headline: a runner-up of the same process is judged run by run ($paired rows)" test "$paired" -ge 1
check "headline: run by run, a knee is a better runner-up, a tie an interval holding 1" test "$(hq 'count(*)' "WHERE json_extract(value, '\$[6].paired') = 1 AND ((json_extract(value, '\$[6].verdict') = 'knee') != (json_extract(value, '\$[6].ratio') < 1) OR (json_extract(value, '\$[6].verdict') = 'tie') != (json_extract(value, '\$[6].ratio') >= 1 AND json_extract(value, '\$[6].low') <= 1 AND 1 <= json_extract(value, '\$[6].high')))")" = 0
check "optima: the paired ratio's runs are the runs of the final trials" test "$(q "$db" "SELECT count(*) FROM optima WHERE json_extract(runner_up, '\$.paired.runs') IS NOT NULL AND json_extract(runner_up, '\$.paired.runs') != runs")" = 0
check "headline: the chase's gain over scalar, its interval around it (none where scalar itself won)" test "$(hq 'count(*)' "WHERE json_extract(value, '\$[2]') = 'chase' AND NOT (json_extract(value, '\$[7].baseline') = 'scalar' AND json_extract(value, '\$[7].low') <= json_extract(value, '\$[7].ratio') AND json_extract(value, '\$[7].ratio') <= json_extract(value, '\$[7].high') OR json_type(value, '\$[7]') = 'null' AND json_extract(value, '\$[4]') LIKE 'scalar %')")" = 0
# On a noisy machine scalar itself may win a working set (no gain then): take one it did not win.
gain=$(hq "json_extract(value, '\$[3]') || ' ' || json_extract(value, '\$[7].ratio')" "WHERE json_extract(value, '\$[2]') = 'chase' AND json_type(value, '\$[7].ratio') = 'real' LIMIT 1")
gain_size=${gain%% *}; gain_size=${gain_size#size_mb=}; ratio=${gain#* }
if [ -z "$gain" ]; then echo "skip: scalar won every working set, no gain to recompute (the check above covers that case)"; else
check "headline: the gain is the baseline's median (the final's, else the best) over the optimum's (size_mb=$gain_size: $ratio)" test "$(q "$db" "SELECT round((SELECT x.median FROM trials t JOIN trial_summary x ON x.trial_id = t.id JOIN sweeps s ON s.id = t.sweep_id WHERE t.variant = 'scalar' AND json_extract(t.params, '\$.size_mb') = $gain_size AND s.id = o.sweep_id ORDER BY t.phase = 'final' DESC, x.median LIMIT 1) / o.median, 3) = $ratio FROM optima o JOIN current_fingerprints USING (platform, host, fingerprint) WHERE o.platform = 'tiny' AND o.kernel = 'chase' AND json_extract(o.params, '\$.size_mb') = $gain_size")" = 1
fi
# ipa's baseline, interrupt, is IPA at T = 0 (baseline_as): the gain over it
# is measured in the thresholds' process, where T = 0 always is.
ipa_row="WHERE json_extract(value, '\$[2]') = 'ipa'"
check "headline: ipa's gain is over interrupt, with its interval ($(hq "json_extract(value, '\$[7]')" "$ipa_row"))" \
	test "$(hq 'count(*)' "$ipa_row AND json_extract(value, '\$[7].baseline') = 'interrupt' AND json_extract(value, '\$[7].low') <= json_extract(value, '\$[7].ratio') AND json_extract(value, '\$[7].ratio') <= json_extract(value, '\$[7].high') OR $(echo "${ipa_row#WHERE }") AND json_type(value, '\$[7]') = 'null' AND json_extract(value, '\$[4].threshold_ns') = 0")" = 1
# T = 0 and the optimum were measured in one process: the gain is the median
# of each run's ratio (T = 0's time over the optimum's), not a ratio of medians.
ratio=$(hq "json_extract(value, '\$[7].ratio')" "$ipa_row")
# On a busy machine blocking may win: T = 0 chosen is the baseline itself, no gain to pair.
if [ "$(hq "json_extract(value, '\$[4].threshold_ns')" "$ipa_row")" = 0 ]; then
	echo "skip: ipa chose T = 0, the baseline itself (the check above covers that case)"
else
check "headline: ipa's gain over interrupt is paired, run by run" test "$(hq "json_extract(value, '\$[7].paired')" "$ipa_row")" = 1
check "headline: ipa's gain is the optimum's stored paired ratio ($ratio)" test "$(q "$db" "SELECT round(json_extract(baseline_paired, '\$.ratio'), 3) = $ratio FROM optima o JOIN current_fingerprints USING (platform, host, fingerprint) WHERE o.platform = 'tiny' AND o.kernel = 'ipa'")" = 1
runs=$(q "$db" "SELECT min(b.ns_per_lookup / k.ns_per_lookup) || ' ' || max(b.ns_per_lookup / k.ns_per_lookup) || ' ' || count(*) FROM optima o JOIN current_fingerprints USING (platform, host, fingerprint) JOIN trials tb ON tb.sweep_id = o.sweep_id AND tb.phase = 'final' AND json_extract(tb.params, '\$.threshold_ns') = 0 JOIN trials tk ON tk.sweep_id = o.sweep_id AND tk.phase = 'final' AND json_extract(tk.params, '\$.threshold_ns') = json_extract(o.params, '\$.threshold_ns') AND tk.batch = tb.batch JOIN samples b ON b.trial_id = tb.id AND b.warmup = 0 JOIN samples k ON k.trial_id = tk.id AND k.run_id = b.run_id AND k.warmup = 0 WHERE o.platform = 'tiny' AND o.kernel = 'ipa'")
check "headline: ipa's paired gain lies within its runs' own ratios, T = 0 beside the optimum (min max runs: $runs)" \
	test "$(q "$db" "SELECT $ratio BETWEEN round(${runs%% *}, 3) AND round($(echo "$runs" | cut -d' ' -f2), 3) AND ${runs##* } = json_extract(o.baseline_paired, '\$.runs') FROM optima o JOIN current_fingerprints USING (platform, host, fingerprint) WHERE o.platform = 'tiny' AND o.kernel = 'ipa'")" = 1
fi
check "headline: chase's scalar ran in another process: its gain divides the medians" test "$(hq 'count(*)' "WHERE json_extract(value, '\$[2]') = 'chase' AND json_extract(value, '\$[7].paired') != 0")" = 0
check "limits: sweeps of 1 and 4 MB run no probe over 512 MB" test "$(q "$db" "SELECT count(*) FROM host_probes WHERE kernel = 'chase'")" = 0
check "headline: below the probe's working set, no limit (4 MB)" test "$(hq "json_type(value, '\$[8]')" "WHERE json_extract(value, '\$[2]') = 'chase' AND json_extract(value, '\$[3]') = 'size_mb=4'")" = null
check "headline: below the probe's working set, it says from where the limit holds, though no probe ran" \
	sh -c "'$tune' results --platform tiny --db '$db' | grep -E '^tiny +[^ ]+ +chase +size_mb=4 ' | grep -q -- '- (the limit holds from 512 MiB)'"
# The host's limits: chase's probe (one dependent hop, the prefetched ceiling
# per line over 512 MiB), once per page size the sweep measures, stored with
# the host, and an optimum past the caches set against depth x the ceiling of
# its own page size; a sweep of 1 and 4 MB is not.
printf 'name: past-caches\nkernel: chase\nparams:\n  variant: [interleaved-prefetch]\n  size_mb: [512]\n  hint: [pldl1keep]\n  hugepages: [off, on]\n  group_size: [16, 32]\n  queries: [20000]\nruns: 3\nwarmup: 1\nfinal_top: 1\n' > "$TMP/past.yaml"
"$tune" run "$TMP/past.yaml" --platform $plat --db "$TMP/limit.db" > /dev/null 2> "$TMP/past.err"
check "limits: hop and ceiling per page size stored with the host ($(grep probe "$TMP/past.err" | paste -sd' '))" test "$(q "$TMP/limit.db" "SELECT count(*) FROM host_probes WHERE kernel = 'chase' AND probe = 'limits' AND field IN ('hop_ns/hugepages=off', 'line_ns/hugepages=off', 'hop_ns/hugepages=on', 'line_ns/hugepages=on') AND value > 0")" = 4
"$tune" results --platform tiny --db "$TMP/limit.db" --format json --table headline > "$TMP/hl.json"
lim=$(q "$TMP/limit.db" "SELECT json_extract(value, '\$[8].ratio') || ' ' || json_extract(value, '\$[8].limit') FROM json_each(readfile('$TMP/hl.json'), '\$.sections[0].tables[0].rows')")
check "limits: the optimum at 512 MB against 12 x its page size's ceiling per line ($lim)" test "$(q "$TMP/limit.db" "SELECT abs(o.median / (12 * p.value) - ${lim% *}) < 0.001 AND abs(12 * p.value - ${lim#* }) < 0.001 FROM optima o, host_probes p WHERE p.field = 'line_ns/hugepages=' || json_extract(o.params, '\$.hugepages')")" = 1
"$tune" facts --probes --db "$TMP/limit.db" > "$TMP/facts.json"
check "limits: tune facts --probes shows them for this host" test "$(q "$TMP/limit.db" "SELECT json_extract(readfile('$TMP/facts.json'), '\$.probes.chase.limits.\"line_ns/hugepages=on\"') = value FROM host_probes WHERE field = 'line_ns/hugepages=on'")" = 1
check "limits: the probes table shows them" sh -c "'$tune' results --platform tiny --db '$TMP/limit.db' --table probes | grep -q 'chase .*limits .*line_ns/hugepages=off'"
# The last-level cache hwloc reports, checked against where the probe's
# dependent chain leaves the cache: a 2 GiB one (as a VM may report) is
# replaced by the measured size, said, and 512 MB is classed by it.
HWLOC_SYNTHETIC="l3:1(size=2GiB) l2:2(size=2MiB) l1d:1(size=48KiB) core:1 pu:1" \
	"$tune" run "$TMP/past.yaml" --platform $plat --db "$TMP/llc.db" > /dev/null 2> "$TMP/llc.err"
measured=$(q "$TMP/llc.db" "SELECT round(value) FROM host_probes WHERE field = 'llc_mb/hugepages=off'")
check "llc: a 2048 MiB cache hwloc reports is replaced by the measured $measured MiB, and said ($(grep -o 'hwloc reports.*' "$TMP/llc.err" | head -1))" \
	grep -q "hwloc reports a 2048 MiB last-level cache, but a dependent chain leaves the cache at about" "$TMP/llc.err"
check "llc: the sweep's host facts hold the measured size, and hwloc's beside it" test "$(q "$TMP/llc.db" "SELECT json_extract(env_json, '\$.llc_bytes_hwloc') = 2147483648 AND json_extract(env_json, '\$.llc_bytes') < 2147483648 / 8 FROM sweeps")" = 1
check "llc: 512 MB is classed by the measured cache ($(q "$TMP/llc.db" "SELECT size_class FROM optima"))" test "$(q "$TMP/llc.db" "SELECT size_class FROM optima")" = dram
check "llc: the warning is in the sweep's row" test "$(q "$TMP/llc.db" "SELECT warnings LIKE '%hwloc reports a 2048 MiB%' FROM sweeps")" = 1
# One hwloc agrees with (within 8x of the measured size) is kept, unsaid;
# hwloc is told the size the run above measured, and the one below
# measures anew (on a loaded host the edge has read 14 MiB, then 193), so
# what is checked is the rule against this run's own measure.
hw_mb=$(( ${measured%.*} > 0 ? ${measured%.*} : 1 ))
HWLOC_SYNTHETIC="l3:1(size=${hw_mb}MiB) l2:2(size=2MiB) l1d:1(size=48KiB) core:1 pu:1" \
	"$tune" run "$TMP/past.yaml" --platform $plat --db "$TMP/llc2.db" > /dev/null 2> "$TMP/llc2.err"
measured2=$(q "$TMP/llc2.db" "SELECT value FROM host_probes WHERE field = 'llc_mb/hugepages=off'")
if awk -v h="$hw_mb" -v m="$measured2" 'BEGIN { exit !(h <= 8 * m && m <= 8 * h) }'; then
	check "llc: ${hw_mb} MiB, near the measured $measured2 MiB, is kept ($(grep -o 'hwloc reports.*' "$TMP/llc2.err" | head -1))" sh -c "! grep -q 'hwloc reports' '$TMP/llc2.err' && test \"\$(sqlite3 '$TMP/llc2.db' \"SELECT json_extract(env_json, '\\\$.llc_bytes_hwloc') IS NULL FROM sweeps\")\" = 1"
else
	check "llc: ${hw_mb} MiB, far from this run's measured $measured2 MiB, is replaced and said" sh -c "grep -q 'hwloc reports a $hw_mb MiB' '$TMP/llc2.err' && test \"\$(sqlite3 '$TMP/llc2.db' \"SELECT json_extract(env_json, '\\\$.llc_bytes_hwloc') = $hw_mb * 1048576 FROM sweeps\")\" = 1"
fi
# Outliers: per sweep, the flagged runs the database holds.
"$tune" results --platform tiny --db "$db" --format json --table outliers > "$TMP/o.json"
flagged=$(q "$db" "SELECT sum(json_extract(value, '\$[2]')) || ' ' || sum(json_extract(value, '\$[1]')) FROM json_each(readfile('$TMP/o.json'), '\$.sections[0].tables[0].rows')")
check "outliers: the table counts every flagged run of the platform's sweeps ($flagged)" test "$flagged" = "$(q "$db" "SELECT sum(x.outlier) || ' ' || count(*) FROM samples x JOIN trials t ON t.id = x.trial_id JOIN sweeps s ON s.id = t.sweep_id JOIN platforms p ON p.id = s.platform_id WHERE p.name = 'tiny' AND x.warmup = 0")"
# One table by name; one CSV file per table.
ntab=$(q "$db" "SELECT sum(json_array_length(value, '\$.tables')) FROM json_each(readfile('$TMP/r.json'), '\$.sections')")
"$tune" results --platform tiny --db "$db" --format json --table summary > "$TMP/s.json"
check "--table summary: that table alone" test "$(q "$db" "SELECT json_array_length(readfile('$TMP/s.json'), '\$.sections[0].tables') || ' ' || json_extract(readfile('$TMP/s.json'), '\$.sections[0].tables[0].title')")" = "1 Summary: scalar vs best interleaved-prefetch (median ns/lookup; best is the fastest g measured, an optimum the knee: the smallest g within the tolerance of it)"
check "--table makespan: the tables whose names start so" sh -c "'$tune' results --platform tiny --db '$db' --table makespan | grep -c '^Makespan in ms' | grep -qx 4"
out=$("$tune" results --platform tiny --db "$db" --table summry 2>&1)
rc=$?
check "--table of no table: exit 2, naming the tables ($out)" bash -c "[ $rc = 2 ] && grep -q \"no table is named 'summry' (the tables: headline, summary, variant-isolation\" <<< \"\$1\"" _ "$out"
"$tune" results --platform tiny --db "$db" --format csv -o "$TMP/csv dir" > "$TMP/csv.list"
check "-o DIR: one CSV file per table ($ntab), each path listed" test "$(find "$TMP/csv dir" -name '*.csv' | wc -l) $(wc -l < "$TMP/csv.list")" = "$ntab $ntab"
check "-o DIR: a table's file holds its rows under one header" test "$(head -1 "$TMP/csv dir/tiny-$(hostname)-summary.csv")" = "platform,host,depth,Working set,Scalar,Interleaved+prefetch,Best g,Hint,Speedup"
check "-o DIR: the headline's file is of all platforms, not of a platform named Headline" \
	sh -c 'ls "$1" | grep -q "^all-all-headline.csv$" && ! ls "$1" | grep -q "^Headline"' _ "$TMP/csv dir"
check "the headline's CSV rows name their platform and host" \
	test "$(grep -c "^tiny,$(hostname),\"Headline: what to use" "$TMP/r.csv")-$(grep -c '^Headline,' "$TMP/r.csv")" = "$(q "$db" "SELECT count(*) FROM optima JOIN current_fingerprints USING (platform, host, fingerprint) WHERE platform = 'tiny'")-0"
check "the headline's JSON section is a heading, with no platform or host" \
	test "$(q "$db" "SELECT json_extract(readfile('$TMP/r.json'), '\$.sections[0].heading') || ',' || json_type(readfile('$TMP/r.json'), '\$.sections[0].platform')")" = "Headline,null"
check "-o DIR: as many rows as the table" test "$(($(wc -l < "$TMP/csv dir/tiny-$(hostname)-summary.csv") - 1))" = "$(q "$db" "SELECT json_array_length(readfile('$TMP/s.json'), '\$.sections[0].tables[0].rows')")"
out=$("$tune" results --platform tiny --db "$db" -o "$TMP/csv2" 2>&1)
check "-o DIR without --format csv: exit 2, says to add it" bash -c "[ $? = 2 ] && grep -q 'give --format csv' <<< \"\$1\"" _ "$out"
# Two platforms side by side.
"$tune" results --platform tiny --platform tiny-o3 --db "$db" > "$TMP/two.txt"
check "comparison table" grep -q "tiny scalar  *tiny interleaved+prefetch" "$TMP/two.txt"
# A kernel's own tables across platforms that do not say whose rows they
# are: tune says it (a column Platform; a pivoted column named by its
# platform), so two platforms' rows never merge into one.
cp "$db" "$TMP/over.db"
q "$TMP/over.db" "CREATE VIEW chase_overview_rows AS SELECT platform, 'Scalar rows' AS title, size_mb AS \"MB\",
	MIN(median_ns_per_lookup) AS \"Best\" FROM chase_current WHERE variant = 'scalar' GROUP BY platform, size_mb;
	CREATE VIEW chase_overview_cells AS SELECT platform, 'Scalar cells' AS title, size_mb AS \"MB\", 'best' AS _column,
	MIN(median_ns_per_lookup) AS _cell FROM chase_current WHERE variant = 'scalar' GROUP BY platform, size_mb;
	INSERT INTO kernel_views VALUES ('chase', 'chase_overview_rows', 'x'), ('chase', 'chase_overview_cells', 'x')"
"$tune" results --platform tiny --platform tiny-o3 --db "$TMP/over.db" --table scalar > "$TMP/over.txt" 2>&1
check "across platforms, a table's rows say their platform, a pivot's columns theirs" \
	sh -c 'grep -qE "^Platform +MB +Best$" "$1" && [ "$(grep -cE "^tiny(-o3)? +[14] +[0-9.]+$" "$1")" = 4 ] &&
	       grep -qE "^MB +tiny best +tiny-o3 best$" "$1"' _ "$TMP/over.txt"
"$tune" results --platform tiny-o3 --platform tiny --db "$db" > "$TMP/two-r.txt"
check "its platforms in the order given, a row per working set in order" \
	sh -c 'grep -qE "^Working set +tiny-o3 scalar .* tiny-o3 speedup +tiny scalar " "$1" &&
	       [ "$(sed -n "/per platform (median ns\/lookup)$/,/^Platform/p" "$1" | grep -oE "^[0-9]+ [MG]B" | tr "\n" " ")" = "1 MB 4 MB " ]' _ "$TMP/two-r.txt"
check "two-platform HTML" "$tune" report --platform tiny --platform tiny-o3 --db "$db" -o "$TMP/report2"
check "two-platform HTML has six charts" test "$(grep -c '<svg' "$TMP/report2/report.html")" -ge 6

# Clear messages.
out=$(PATH=/nonexistent "$tune" report --platform tiny --db "$db" -o "$TMP/r3" 2>&1)
rc=$?
check "missing gnuplot exits 5" test $rc = 5
check "missing gnuplot says what to do" grep -q "gnuplot is not installed (apt-get install gnuplot-nox)" <<< "$out"
sqlite3 "$TMP/empty.db" "PRAGMA user_version = 0"
"$tune" run tests/data/bad/over-memory.yaml --platform $plat --db "$TMP/empty.db" > /dev/null 2>&1
out=$("$tune" report --platform tiny --db "$TMP/empty.db" -o "$TMP/r4" 2>&1)
rc=$?
check "empty database: exit 10" test $rc = 10
check "empty database: says to run tune first" grep -q "no results for platform 'tiny' (run 'tune --platform tiny' first)" <<< "$out"
out=$("$tune" results --db "$TMP/empty.db" 2>&1)
rc=$?
check "empty results say so, exit 10 ($rc)" sh -c '[ "$1" = 10 ] && echo "$2" | grep -q "results: no results in"' _ "$rc" "$out"
# Every command that reads results says the same of a platform with none: exit 10, naming it.
for cmd in "results" "export csv" "export header" "export json" "report"; do
	out_opt="-o $TMP/r5"
	[ "$cmd" = results ] && out_opt=""
	# shellcheck disable=SC2086
	out=$("$tune" $cmd --platform tiny --db "$TMP/empty.db" $out_opt 2>&1)
	rc=$?
	check "$cmd of a platform with no results: exit 10 ($rc), naming it ($out)" \
		sh -c '[ "$1" = 10 ] && echo "$2" | grep -q "for platform '"'"'tiny'"'"'.*(run '"'"'tune --platform tiny'"'"' first)"' _ "$rc" "$out"
done
e2e_done report
