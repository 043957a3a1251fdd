#!/usr/bin/env bash
# Dumps one file of ROWS rows (default 2,000,000) through `dfe-fetcher run --once`
# with a 128 MiB heap, then verifies the landed snapshot with the same heap.
# Prints wall time, rows/s and peak RSS of each step. See docs/benchmarks.md.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
rows="${ROWS:-2000000}"
heap="${HEAP:--Xmx128m}"
work="$(mktemp -d "${TMPDIR:-/tmp}/dfe-dump-memory.XXXXXX")"
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
  file: {directory: ./landing}
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

"$root/dfe-fetcher" --version >/dev/null  # builds the jar first, outside the measurement

measure() {
  local label="$1"
  shift
  local start end
  start=$(date +%s.%N)
  /usr/bin/time -f "%M" -o "$work/rss" "$@"
  end=$(date +%s.%N)
  printf '%s: %.1f s, peak RSS %d MiB\n' "$label" "$(echo "$end - $start" | bc)" \
    "$(( $(cat "$work/rss") / 1024 ))"
  echo "$end - $start" | bc > "$work/seconds"
}

export DFE_FETCHER_JAVA_OPTS="$heap"
export DFE_FETCHER_LOG_LEVEL=WARN
measure "run --once ($rows rows, $heap)" "$root/dfe-fetcher" run --config "$work/config.yaml" --once
printf 'dump throughput: %.0f rows/s read\n' "$(echo "$rows / $(cat "$work/seconds")" | bc -l)"
frames=$(wc -l < "$work/landing/inventory-hosts_land.ndjson")
echo "landed frames: $frames"
measure "snapshots verify ($frames frames, $heap)" \
  "$root/dfe-fetcher" snapshots verify "$work/landing/inventory-hosts_land.ndjson"
