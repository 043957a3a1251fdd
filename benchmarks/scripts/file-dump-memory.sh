#!/usr/bin/env bash
# Dumps one file of ROWS rows (default 2,000,000) through `dfe-fetcher run --once`
# with a 128 MiB heap, then verifies the landed snapshot with the same heap.
# Prints wall time, rows/s and peak RSS of each step. See docs/benchmarks.md.
#
# Usage: benchmarks/scripts/file-dump-memory.sh      ROWS=... and HEAP=... override the defaults
# Needs only the JDK and Maven (the launcher builds the jar first, outside the measurement).
set -euo pipefail
# shellcheck source=benchmarks/scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
no_arguments "$@"

rows="${ROWS:-2000000}"
heap="${HEAP:--Xmx128m}"
work="$(make_work_dir dfe-dump-memory)"
trap 'rm -rf "$work"' EXIT

mkdir -p "$work/data"
echo "generating $rows rows into $work/data/hosts.ndjson" >&2
awk -v n="$rows" 'BEGIN {
  for (i = 0; i < n; i++)
    printf "{\"id\":\"host-%d\",\"alive\":%s,\"n\":%d,\"rack\":\"r%d\",\"tags\":[\"a\",\"b\"],\"note\":\"generated row for the memory benchmark\"}\n", i, (i % 10 ? "true" : "false"), i, i % 64
}' > "$work/data/hosts.ndjson"
ls -l "$work/data/hosts.ndjson" >&2

cat > "$work/config.yaml" <<YAML
instance_id: bench
output:
  type: file
  file: {directory: ./landing, rotate_bytes: 0}
cursor: {directory: ./state}
metrics: {address: "127.0.0.1:0"}
sources:
  file:
    inventory:
      topic: inventory
      filter: "record.alive == true"
      units:
        - unit: hosts
          row_key: /id
          dump: {paths: ["data/*.ndjson"]}
YAML

build_fetcher  # outside the measurement

export DFE_FETCHER_JAVA_OPTS="$heap"
export DFE_FETCHER_LOG_LEVEL=WARN
measure "run --once ($rows rows, $heap)" "$fetcher" run --config "$work/config.yaml" --once
printf 'dump throughput: %.0f rows/s read\n' "$(echo "$rows / $TIMED_SECONDS" | bc -l)"
frames=$(wc -l < "$work/landing/inventory-hosts_land.ndjson")
echo "landed frames: $frames"
measure "snapshots verify ($frames frames, $heap)" \
  "$fetcher" snapshots verify "$work/landing/inventory-hosts_land.ndjson"
