#!/usr/bin/env bash
# IPA's hybrid in one fresh database: sweeps/ipa-threshold (IPA's own T),
# sweeps/ipa-hybrid (the hybrid's T and f tuned together, one process per
# (T, f)), then sweeps/ipa-hybrid-check (the tuned hybrid beside always
# block, always poll, IPA at its own T, Linux's f = 1/2 on every call and
# f = 1/2 at the tuned T, in one process, interleaved run by run), and
# prints the tables of tune results: the grid of T and f tuned together and
# the hybrid over each other policy, run by run, with intervals.
# usage: bench/ipa-hybrid.sh [path/to/tune]   (default build/tune)
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
tune=${1:-$src/build/tune}
db=$(mktemp -d)/bench.db
"$tune" run ipa-threshold --platform local --db "$db" > /dev/null
"$tune" run ipa-hybrid --platform local --db "$db" > /dev/null
"$tune" run ipa-hybrid-check --platform local --db "$db" > /dev/null
"$tune" results --platform local --db "$db" | sed -n '/^IPA hybrid: wall/,/^Outliers/p' | sed '$d'
sqlite3 -header -column "$db" "
SELECT json_extract(params, '$.threshold_ns') AS ipa_T_ns FROM optima WHERE kernel = 'ipa';
SELECT variant, json_extract(params, '$.threshold_ns') AS hybrid_T_ns, json_extract(params, '$.hybrid_pct') AS f_pct,
       printf('%.1f', median) AS median_ns_per_call FROM optima WHERE kernel = 'ipa_hybrid';"
echo "database: $db"
