#!/usr/bin/env bash
# Benchmark: ns/lookup of each chase variant at 512 MB on this machine and the
# speedup of the best interleaved-prefetch over scalar, measured in one run
# (sweeps/bench-chase-512.yaml) into a fresh database.
# usage: bench/chase-512.sh [path/to/tune]   (default build/tune)
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
tune=${1:-$src/build/tune}
db=$(mktemp -d)/bench.db
"$tune" run "$src/sweeps/bench-chase-512.yaml" --platform local --db "$db" > /dev/null
sqlite3 -header -column "$db" "
WITH s AS (SELECT median_ns_per_lookup AS base FROM chase_best_per_size WHERE variant = 'scalar')
SELECT variant, COALESCE(hint, '-') AS hint, group_size AS g,
       printf('%.1f', median_ns_per_lookup) AS ns_per_lookup,
       printf('%.2fx', (SELECT base FROM s) / median_ns_per_lookup) AS vs_scalar
FROM chase_best_per_size ORDER BY median_ns_per_lookup DESC;
SELECT printf('g=8 interleaved-prefetch vs scalar: %.2fx',
              (SELECT median_ns_per_lookup FROM chase_best_per_size WHERE variant = 'scalar') / MIN(median_ns_per_lookup))
       AS g8 FROM chase_latest WHERE variant = 'interleaved-prefetch' AND group_size = 8;"
echo "database: $db"
