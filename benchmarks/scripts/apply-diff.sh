#!/usr/bin/env bash
# Measures `dfe-fetcher snapshots apply` of a 1,000,000-row snapshot into PostgreSQL and
# `snapshots diff` of two such snapshots (docs/benchmarks.md, "Snapshots apply and diff"): lands
# two dumps of the same 1,000,000 hosts with `dfe-fetcher run --once` (file output), then times
# applying the first into an empty table, the second over it (every row replaced, half of them
# changed), and the diff of the two, each in a JVM capped at -Xmx256m, for wall clock and (with
# /usr/bin/time) peak RSS.
#
# Usage: benchmarks/scripts/apply-diff.sh            ROWS=... and PGURL=... override the defaults
# Needs: app/target/dfe-fetcher.jar (mvn -B -pl app -am package -DskipTests), psql, a PostgreSQL
# that trusts user postgres on 127.0.0.1:5432, database test. Works in a schema of its own, dropped
# at the end. Output goes to target/bench/apply/ at the worktree root.
set -euo pipefail
# shellcheck source=benchmarks/scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
no_arguments "$@"
require_file "$fetcher_jar" "build it first: mvn -B -pl app -am package -DskipTests"

jar="$fetcher_jar"
rows="${ROWS:-1000000}"
url="${PGURL:-jdbc:postgresql://127.0.0.1:5432/test}"
out="$bench_out/apply"
schema="bench_apply_$$"
export PGHOST=127.0.0.1 PGUSER=postgres PGDATABASE=test

rm -rf "$out" && mkdir -p "$out"
cd "$out"
trap 'psql -q -c "DROP SCHEMA IF EXISTS $schema CASCADE" >/dev/null' EXIT
psql -q -c "CREATE SCHEMA $schema"

echo "== machine: $(nproc) cores; load: $(loadavg)"

land() { # land VERSION: one dump of $rows hosts, field "v" = VERSION on even ids
  local version="$1"
  mkdir -p "dump-$version/data"
  awk -v n="$rows" -v v="$version" 'BEGIN { for (i = 0; i < n; i++)
      printf "{\"id\":%d,\"name\":\"host-%d\",\"alive\":true,\"cpus\":%d,\"v\":%d}\n",
             i, i, i % 64, (i % 2 == 0 ? v : 1) }' > "dump-$version/data/hosts.ndjson"
  cat > "dump-$version/config.yaml" <<YAML
instance_id: bench
output:
  file: {directory: landing, rotate_bytes: 0}
cursor: {directory: state}
metrics: {address: "127.0.0.1:0"}
sources:
  file:
    inventory:
      topic: inventory
      units:
        - unit: hosts
          dump: {paths: [data/*.ndjson]}
YAML
  (cd "dump-$version" && java -jar "$jar" run --config config.yaml --once > run.log 2>&1)
  wc -l < "dump-$version/landing/inventory-hosts_land.ndjson" | xargs echo "landed frames, dump $version:"
}

apply() { # apply VERSION LABEL
  local version="$1" label="$2"
  echo "== apply dump $version ($label); load before: $(loadavg)"
  # In a pipeline timed_run runs in a subshell: timed_result reads its figures back.
  timed_run "$out" \
    java -Xmx256m -jar "$jar" snapshots apply --to "$url" --db-property user=postgres \
      --table "$schema.hosts" --key /id --columns /id=id:bigint \
      "dump-$version/landing/inventory-hosts_land.ndjson" | tee "apply-$version.txt"
  timed_result "$out"
  awk -v r="$rows" -v w="$TIMED_SECONDS" -v m="$TIMED_RSS_KB" \
    'BEGIN { printf "rows=%d wall_s=%.2f rows_per_s=%.0f peak_rss_mb=%.0f\n", r, w, r / w, m / 1024 }' \
    | tee -a results.txt
}

land 1
land 2
apply 1 "into an empty table"
apply 2 "over the first: every row replaced, half changed"
psql -At -c "SELECT count(*), count(*) FILTER (WHERE record->>'v' = '2') FROM $schema.hosts" \
  | xargs echo "table rows, rows of dump 2's changed half:"

echo "== diff dump 1 -> dump 2; load before: $(loadavg)"
from="$(sed -E 's/.*snapshot=([^ ]+).*/\1/' apply-1.txt)"
to="$(sed -E 's/.*snapshot=([^ ]+).*/\1/' apply-2.txt)"
timed_run "$out" \
  java -Xmx256m -jar "$jar" snapshots diff --key /id --from "$from" --to "$to" --spill-directory "$out" \
    dump-1/landing/inventory-hosts_land.ndjson dump-2/landing/inventory-hosts_land.ndjson \
    > changes.ndjson 2> diff.err
cat diff.err
awk -v r="$rows" -v w="$TIMED_SECONDS" -v m="$TIMED_RSS_KB" -v c="$(wc -l < changes.ndjson)" \
  'BEGIN { printf "diff rows=2x%d changes=%d wall_s=%.2f rows_per_s=%.0f peak_rss_mb=%.0f\n",
           r, c, w, 2 * r / w, m / 1024 }' | tee -a results.txt
