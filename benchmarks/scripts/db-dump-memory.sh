#!/usr/bin/env bash
# Dumps a PostgreSQL table of ROWS rows (default 5,000,000) through `dfe-fetcher run --once`
# with a 128 MiB heap onto the file output, then verifies the landed snapshot with the same
# heap. Prints wall time, rows/s and peak RSS of each step. See docs/benchmarks.md.
# Needs PostgreSQL on 127.0.0.1:5432 with trust auth for user postgres (as the tests do);
# creates and drops a database of its own.
#
# Usage: benchmarks/scripts/db-dump-memory.sh        ROWS=... and HEAP=... override the defaults
set -euo pipefail
# shellcheck source=benchmarks/scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
no_arguments "$@"

rows="${ROWS:-5000000}"
heap="${HEAP:--Xmx128m}"
database="dfe_bench_$$_$RANDOM"
work="$(make_work_dir dfe-db-dump-memory)"
trap 'drop_database "$database"; rm -rf "$work"' EXIT

create_database "$database"
echo "generating $rows rows into $database.accounts" >&2
"${psql[@]}" -d "$database" <<SQL
CREATE TABLE accounts (
  id bigint PRIMARY KEY,
  name text NOT NULL,
  balance numeric(14, 2) NOT NULL,
  opened timestamptz(6) NOT NULL,
  active boolean NOT NULL,
  tags text[] NOT NULL,
  note text
);
INSERT INTO accounts
SELECT i, 'account-' || i, (i % 100000) / 100.0,
       timestamptz '2026-01-01 00:00:00Z' + i * interval '1 second' + (i % 1000) * interval '1 microsecond',
       i % 10 <> 0, ARRAY['a', 'b'], 'generated row for the memory benchmark'
FROM generate_series(1, $rows) AS s(i);
ANALYZE accounts;
SQL
"${psql[@]}" -d "$database" -tAc "SELECT pg_size_pretty(pg_total_relation_size('accounts'))" \
  | sed 's/^/table size: /' >&2

cat > "$work/config.yaml" <<YAML
instance_id: bench
output:
  type: file
  file: {directory: ./landing, rotate_bytes: 0}
cursor: {directory: ./state}
metrics: {address: "127.0.0.1:0"}
sources:
  db:
    crm:
      url: "jdbc:postgresql://127.0.0.1:5432/$database"
      user: postgres
      topic: crm
      stores:
        - {unit: accounts, shape: dump, query: "SELECT * FROM accounts", row_key: /id}
YAML

build_fetcher  # outside the measurement

echo "load before: $(loadavg)" >&2
export DFE_FETCHER_JAVA_OPTS="$heap"
export DFE_FETCHER_LOG_LEVEL=WARN
measure "run --once ($rows rows, $heap)" "$fetcher" run --config "$work/config.yaml" --once
printf 'dump throughput: %.0f rows/s read\n' "$(echo "$rows / $TIMED_SECONDS" | bc -l)"
echo "load after: $(loadavg)" >&2
frames=$(wc -l < "$work/landing/crm-accounts_land.ndjson")
echo "landed frames: $frames ($(du -h "$work/landing/crm-accounts_land.ndjson" | cut -f1))"
head -c 400 <(sed -n 2p "$work/landing/crm-accounts_land.ndjson"); echo
measure "snapshots verify ($frames frames, $heap)" \
  "$fetcher" snapshots verify "$work/landing/crm-accounts_land.ndjson"
