#!/usr/bin/env bash
# Memory and scale (issue 24), in two parts. See docs/benchmarks.md, "Memory from 1M to 10M rows"
# and "1,000 units on one fetcher".
#
# Part `rows`: every dump path's `dfe-fetcher run --once` at each of SIZES rows with a 128 MiB
# heap: wall time (with the load average), peak RSS (/usr/bin/time), and a table of the RSS ratio
# of the largest size to the smallest, "flat" when within 10 %. Every landed snapshot is verified
# complete with `snapshots verify`, with exactly the rows the source holds. Paths (PATHS):
#   file     an NDJSON file -> the file output
#   kafka    the same file -> Kafka (a broker of its own, scripts/local-kafka.sh)
#   pg       a PostgreSQL table (dump store) -> the file output
#   mariadb  a MariaDB table (dump store) -> the file output
#   rest     a REST dump -> the file output, from benchmarks/tools/NdjsonPageServer.java: NDJSON
#            pages of 1,000 records made on the fly, linked by `Link: rel="next"`
#
# Part `units`: UNITS units on one fetcher, `run` (not --once) for UNIT_SECS seconds, one
# connection ticking every UNIT_INTERVAL seconds, for each shape (SHAPES):
#   files    small NDJSON files, one dump unit each; a tenth of them rewritten every sample
#   tails    keyset tail stores on one PostgreSQL database, one table each; a row inserted into
#            every table every sample
# Every SAMPLE_SECS it samples the process's threads, RSS and open file descriptors
# (/proc/PID) and the database's connections (pg_stat_activity), and at the end reads each
# unit's ticks and last success from the metrics endpoint, and checks what landed: every
# rewrite of a file as a complete snapshot, every inserted row once. Files are rewritten only
# once every unit has ticked.
#
# Usage: benchmarks/scripts/memory-scale.sh
#   PARTS="rows units" PATHS="file kafka pg mariadb rest" SIZES="1000000 10000000" RUNS=1
#   SHAPES="files tails" UNITS="10 1000" UNIT_SECS=240 UNIT_INTERVAL=10 SAMPLE_SECS=10
#   HEAP=-Xmx128m (the fetcher's heap) VERIFY_HEAP=-Xmx256m BENCH_DIR (a new directory
#   under /tmp; results/ is kept, the data deleted) DFE_KAFKA_PORT=39192
#   DFE_KAFKA_CONTROLLER_PORT=39193
# Needs the JDK, Maven, jq, curl; PostgreSQL on 127.0.0.1:5432 (trust, user postgres) for pg
# and tails; MariaDB on 127.0.0.1:3306 (root, no password) for mariadb. Makes and drops
# databases of its own.
set -euo pipefail
# shellcheck source=benchmarks/scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
no_arguments "$@"

parts="${PARTS:-rows units}"
paths="${PATHS:-file kafka pg mariadb rest}"
sizes="${SIZES:-1000000 10000000}"
runs="${RUNS:-1}"
shapes="${SHAPES:-files tails}"
unit_counts="${UNITS:-10 1000}"
unit_secs="${UNIT_SECS:-240}"
unit_interval="${UNIT_INTERVAL:-10}"
sample_secs="${SAMPLE_SECS:-10}"
heap="${HEAP:--Xmx128m}"
verify_heap="${VERIFY_HEAP:--Xmx256m}"
metrics_port="" # the units part's fetcher's, from its log (it binds any free port)
export DFE_KAFKA_PORT="${DFE_KAFKA_PORT:-39192}"
export DFE_KAFKA_CONTROLLER_PORT="${DFE_KAFKA_CONTROLLER_PORT:-39193}"
bootstrap="127.0.0.1:$DFE_KAFKA_PORT"
work="${BENCH_DIR:-$(make_work_dir dfe-memory-scale)}"
results="$work/results"
mkdir -p "$results" "$work/data" "$work/runs"
export DFE_KAFKA_DIR="$work/kafka"
export DFE_FETCHER_LOG_LEVEL=WARN
database="dfe_scale_$$"
mariadb=(mariadb -h 127.0.0.1 -P 3306 -u root)
kafka_started=""
pg_made=""
mariadb_made=""
server_pid=""
fetcher_pid=""

cleanup() {
  set +e
  trap - EXIT
  [[ -n $fetcher_pid ]] && stop_pid "$fetcher_pid"
  [[ -n $server_pid ]] && stop_pid "$server_pid"
  [[ -n $kafka_started ]] && "$local_kafka" --stop >/dev/null 2>&1
  [[ -n $pg_made ]] && drop_database "$database"
  [[ -n $mariadb_made ]] && "${mariadb[@]}" -e "DROP DATABASE IF EXISTS $database"
  rm -rf "$work/data" "$work/runs" "$work/kafka" "$work/units"
  log "results kept in $results"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

wanted() { [[ " $2 " == *" $1 "* ]]; }

# ---------------------------------------------------------------------------------------------
# Part one: every dump path from the smallest size to the largest.

# The rows of file-dump-memory.sh (and of NdjsonPageServer): about 125 bytes, one in ten
# alive:false.
generate_rows() { # ROWS FILE
  awk -v n="$1" 'BEGIN {
    for (i = 0; i < n; i++)
      printf "{\"id\":\"host-%d\",\"alive\":%s,\"n\":%d,\"rack\":\"r%d\",\"tags\":[\"a\",\"b\"],\"note\":\"generated row for the memory benchmark\"}\n", i, (i % 10 ? "true" : "false"), i, i % 64
  }' >"$2"
}

output_yaml() { # file|kafka
  case $1 in
    file) echo '{type: file, file: {directory: ./landing, rotate_bytes: 0}}' ;;
    kafka) echo "{type: kafka, kafka: {bootstrap_servers: \"$bootstrap\", create_topics: true}}" ;;
  esac
}

# The configuration of one run of PATH at ROWS rows into DIR/config.yaml; the store lands on
# topic "scale-<unit>_land".
dump_config() { # PATH ROWS DIR
  local path=$1 rows=$2 dir=$3 output=file source
  case $path in
    file | kafka)
      [[ $path == kafka ]] && output=kafka
      source="  file:
    scale:
      topic: scale
      units:
        - {unit: hosts, row_key: /id, dump: {paths: [\"$work/data/rows-$rows.ndjson\"]}}" ;;
    pg)
      source="  db:
    scale:
      url: \"jdbc:postgresql://127.0.0.1:5432/$database\"
      user: postgres
      topic: scale
      stores:
        - {unit: accounts, shape: dump, query: \"SELECT * FROM accounts\", row_key: /id}" ;;
    mariadb)
      source="  db:
    scale:
      url: \"jdbc:mariadb://127.0.0.1:3306/$database\"
      user: root
      topic: scale
      stores:
        - {unit: accounts, shape: dump, query: \"SELECT * FROM accounts\", row_key: /id}" ;;
    rest)
      source="  rest:
    scale:
      topic: scale
      vars: {host: \"http://127.0.0.1:$(<"$work/runs/rest-server/port")\"}
      profile:
        base_url: \"{{ vars.host }}\"
        endpoints:
          - {unit: hosts, shape: dump, path: /pages/1, row_key: /id,
             max_pages: $((rows / 1000 + 1)), rows: {decoder: ndjson},
             paginate: {type: link_header}}" ;;
  esac
  cat >"$dir/config.yaml" <<YAML
instance_id: scale
output: $(output_yaml "$output")
cursor: {directory: ./state}
metrics: {address: "127.0.0.1:0"}
sources:
$source
YAML
}

# snapshots verify of what a run landed: one snapshot, complete, with ROWS rows.
verify_landed() { # DIR ROWS FRAME-SOURCE...
  local dir=$1 rows=$2
  shift 2
  if ! DFE_FETCHER_JAVA_OPTS="-XX:+UseSerialGC $verify_heap" "$fetcher" snapshots verify \
    --format json "$@" >"$dir/verify.json" 2>"$dir/verify.log"; then
    tail -n 20 "$dir/verify.log" >&2
    die "snapshots verify $* did not report every snapshot complete"
  fi
  jq -e -s --argjson rows "$rows" \
    'length == 1 and .[0].status == "complete" and .[0].rows == $rows' "$dir/verify.json" \
    >/dev/null || die "$* holds not one complete snapshot of $rows rows: $(cat "$dir/verify.json")"
}

# One `run --once` of PATH at ROWS rows; appends "path rows run seconds rss_kb load" to
# results/rows.tsv once what landed is verified.
dump_once() { # PATH ROWS RUN
  local path=$1 rows=$2 run=$3 dir="$work/runs/$1-$2-$3" load
  mkdir -p "$dir"
  dump_config "$path" "$rows" "$dir"
  if ! DFE_FETCHER_JAVA_OPTS="$heap" timed_run "$dir" \
    "$fetcher" run --config "$dir/config.yaml" --once >"$dir/run.log" 2>&1; then
    tail -n 20 "$dir/run.log" >&2
    die "$path at $rows rows: run --once failed"
  fi
  load=$(loadavg)
  log "$path $rows rows run $run: $TIMED_SECONDS s, peak RSS $((TIMED_RSS_KB / 1024)) MiB, load $load"
  if [[ $path == kafka ]]; then
    verify_landed "$dir" "$rows" --bootstrap-server "$bootstrap" --topic scale-hosts_land
    "$local_kafka" --stop >/dev/null 2>&1 # a fresh broker for the next run: no topic to delete
    rm -rf "$work/kafka"
    "$local_kafka" --background >/dev/null 2>&1 || die "the broker did not start (log: $work/kafka/server.log)"
  else
    verify_landed "$dir" "$rows" "$dir"/landing/scale-*_land.ndjson
  fi
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$path" "$rows" "$run" "$TIMED_SECONDS" "$TIMED_RSS_KB" \
    "$load" >>"$results/rows.tsv"
  rm -rf "$dir"
}

# The PostgreSQL table of db-dump-memory.sh, grown to ROWS rows.
pg_grow() { # FROM TO
  "${psql[@]}" -d "$database" <<SQL
SET client_min_messages = warning;
CREATE TABLE IF NOT EXISTS accounts (
  id bigint PRIMARY KEY, name text NOT NULL, balance numeric(14, 2) NOT NULL,
  opened timestamptz(6) NOT NULL, active boolean NOT NULL, tags text[] NOT NULL, note text);
INSERT INTO accounts
SELECT i, 'account-' || i, (i % 100000) / 100.0,
       timestamptz '2026-01-01 00:00:00Z' + i * interval '1 second' + (i % 1000) * interval '1 microsecond',
       i % 10 <> 0, ARRAY['a', 'b'], 'generated row for the memory benchmark'
FROM generate_series($(($1 + 1)), $2) AS s(i);
ANALYZE accounts;
SQL
}

# The same shape on MariaDB (no arrays: tags as text), from its SEQUENCE engine.
mariadb_grow() { # FROM TO
  "${mariadb[@]}" "$database" >/dev/null <<SQL
CREATE TABLE IF NOT EXISTS accounts (
  id BIGINT PRIMARY KEY, name VARCHAR(64) NOT NULL, balance DECIMAL(14, 2) NOT NULL,
  opened DATETIME(6) NOT NULL, active BOOLEAN NOT NULL, tags VARCHAR(64) NOT NULL, note TEXT
) ENGINE = InnoDB;
INSERT INTO accounts
SELECT seq, CONCAT('account-', seq), (seq % 100000) / 100.0,
       TIMESTAMP '2026-01-01 00:00:00' + INTERVAL seq SECOND + INTERVAL (seq % 1000) MICROSECOND,
       seq % 10 <> 0, 'a,b', 'generated row for the memory benchmark'
FROM seq_$(($1 + 1))_to_$2;
ANALYZE TABLE accounts;
SQL
}

start_page_server() { # RECORDS
  local dir="$work/runs/rest-server" i
  mkdir -p "$dir"
  java "$root/benchmarks/tools/NdjsonPageServer.java" "$dir" "$1" 1000 >"$dir/log" 2>&1 &
  server_pid=$!
  for ((i = 0; i < 300; i++)); do
    [[ -f $dir/port ]] && break
    kill -0 "$server_pid" 2>/dev/null || die "the page server stopped: $(cat "$dir/log")"
    sleep 0.1
  done
  [[ -f $dir/port ]] || die "the page server did not start in 30 s"
}

stop_page_server() {
  stop_pid "$server_pid"
  server_pid=""
  rm -rf "$work/runs/rest-server"
}

# Every size of one path, smallest first; each source is made (or grown) outside the timing.
dump_path() { # PATH
  local path=$1 rows before=0 run
  for rows in $sizes; do
    case $path in
      file | kafka) [[ -f $work/data/rows-$rows.ndjson ]] || generate_rows "$rows" "$work/data/rows-$rows.ndjson" ;;
      pg) pg_grow "$before" "$rows" ;;
      mariadb) mariadb_grow "$before" "$rows" ;;
      rest) start_page_server "$rows" ;;
    esac
    for ((run = 1; run <= runs; run++)); do dump_once "$path" "$rows" "$run"; done
    [[ $path == rest ]] && stop_page_server
    [[ $path == kafka ]] && rm -f "$work/data/rows-$rows.ndjson" # file runs first: done with it
    before=$rows
  done
}

median() { sort -n | awk '{ v[NR] = $1 } END { if (NR) print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }

# The table of every run, then RSS of the largest size over the smallest, per path.
rows_report() {
  local smallest largest path rows small big
  smallest=$(tr ' ' '\n' <<<"$sizes" | grep . | sort -n | head -n 1)
  largest=$(tr ' ' '\n' <<<"$sizes" | grep . | sort -n | tail -n 1)
  {
    echo "| path | rows | run | seconds | rows/s | peak RSS MiB | load (1, 5, 15 min) |"
    echo "|---|---:|---:|---:|---:|---:|---|"
    awk -F'\t' '{ printf "| %s | %d | %d | %.1f | %.0f | %d | %s |\n", $1, $2, $3, $4, $2 / $4, $5 / 1024, $6 }' \
      "$results/rows.tsv"
    echo
    echo "| path | peak RSS MiB at $smallest | at $largest | ratio | within 10 %? |"
    echo "|---|---:|---:|---:|---|"
    for path in $paths; do
      small=$(awk -F'\t' -v p="$path" -v r="$smallest" '$1 == p && $2 == r { print $5 }' "$results/rows.tsv" | median)
      big=$(awk -F'\t' -v p="$path" -v r="$largest" '$1 == p && $2 == r { print $5 }' "$results/rows.tsv" | median)
      [[ -n $small && -n $big ]] || continue
      awk -v p="$path" -v s="$small" -v b="$big" 'BEGIN {
        r = b / s; printf "| %s | %d | %d | %.2f | %s |\n", p, s / 1024, b / 1024, r, (r <= 1.10 && r >= 0.90 ? "flat" : "**not flat**") }'
    done
  } | tee "$results/rows.md"
}

# ---------------------------------------------------------------------------------------------
# Part two: many units on one fetcher.

unit_name() { printf 'u%04d' "$1"; }

# A small file of 10 rows for unit N, generation G, replaced whole (renamed over the old one).
write_unit_file() { # DIR N G
  local file="$1/$(unit_name "$2").ndjson"
  awk -v u="$2" -v g="$3" 'BEGIN { for (i = 0; i < 10; i++)
    printf "{\"id\":\"u%d-%d\",\"unit\":%d,\"generation\":%d,\"note\":\"a small file of the scale benchmark\"}\n", u, i, u, g }' \
    >"$file.tmp"
  mv -f "$file.tmp" "$file"
}

units_config() { # SHAPE UNITS DIR
  local shape=$1 units=$2 dir=$3 n
  {
    cat <<YAML
instance_id: scale
output: {type: file, file: {directory: ./landing}}
cursor: {directory: ./state}
metrics: {address: "127.0.0.1:0"}
sources:
YAML
    if [[ $shape == files ]]; then
      printf '  file:\n    many:\n      topic: many\n      interval_secs: %d\n      units:\n' "$unit_interval"
      for ((n = 1; n <= units; n++)); do
        printf '        - {unit: %s, row_key: /id, dump: {paths: [data/%s.ndjson]}}\n' \
          "$(unit_name "$n")" "$(unit_name "$n")"
      done
    else
      printf '  db:\n    many:\n      url: "jdbc:postgresql://127.0.0.1:5432/%s"\n      user: postgres\n' "$database"
      printf '      topic: many\n      interval_secs: %d\n      stores:\n' "$unit_interval"
      for ((n = 1; n <= units; n++)); do
        printf '        - {unit: %s, shape: tail, query: "SELECT id, at, note FROM %s", key: [id], row_key: /id, limit: 1000}\n' \
          "$(unit_name "$n")" "$(unit_name "$n")"
      done
    fi
  } >"$dir/config.yaml"
}

# UNITS tables of 10 rows each, u0001 to uNNNN.
tails_tables() { # UNITS
  "${psql[@]}" -d "$database" -c "DO \$\$ BEGIN FOR n IN 1..$1 LOOP
    EXECUTE format('CREATE TABLE u%s (id bigserial PRIMARY KEY, at timestamptz NOT NULL DEFAULT now(), note text NOT NULL)', lpad(n::text, 4, '0'));
    EXECUTE format('INSERT INTO u%s (note) SELECT ''row '' || i FROM generate_series(1, 10) AS s(i)', lpad(n::text, 4, '0'));
  END LOOP; END \$\$"
}

tails_drop() { # UNITS
  "${psql[@]}" -d "$database" -c "DO \$\$ BEGIN FOR n IN 1..$1 LOOP
    EXECUTE format('DROP TABLE u%s', lpad(n::text, 4, '0')); END LOOP; END \$\$"
}

# One row into every table.
tails_insert() { # UNITS
  "${psql[@]}" -d "$database" -c "DO \$\$ BEGIN FOR n IN 1..$1 LOOP
    EXECUTE format('INSERT INTO u%s (note) VALUES (''inserted'')', lpad(n::text, 4, '0')); END LOOP; END \$\$"
}

scrape() { curl -sf "http://127.0.0.1:$metrics_port/metrics"; }

# "store value" for each unit of connection many, from one metric's series.
series() { # METRIC FILE
  awk -v m="$1" 'index($0, m "{") == 1 && /source="many\./ {
    match($0, /source="many\.[^"]*"/); s = substr($0, RSTART + 13, RLENGTH - 14); printf "%s %.3f\n", s, $NF }' "$2"
}

# One run of SHAPE with UNITS units for unit_secs seconds; the series into
# results/units-SHAPE-UNITS.tsv, the verdict into results/units.tsv.
units_run() { # SHAPE UNITS
  local shape=$1 units=$2 dir="$work/units/$1-$2" n started at elapsed next_file=1 rewrites=0
  local inserted=0 conns threads rss hwm fds ticks ticked i
  mkdir -p "$dir/data"
  if [[ $shape == files ]]; then
    for ((n = 1; n <= units; n++)); do write_unit_file "$dir/data" "$n" 0; done
  else
    tails_tables "$units"
  fi
  units_config "$shape" "$units" "$dir"
  DFE_FETCHER_JAVA_OPTS="$heap" DFE_FETCHER_LOG_LEVEL=INFO \
    "$fetcher" run --config "$dir/config.yaml" >"$dir/run.log" 2>&1 &
  fetcher_pid=$!
  metrics_port=""
  for ((i = 0; i < 600; i++)); do
    metrics_port=$(grep -o 'event=metrics_listening address=127.0.0.1:[0-9]*' "$dir/run.log" | sed 's/.*://' || true)
    [[ -n $metrics_port ]] && curl -sf "http://127.0.0.1:$metrics_port/livez" >/dev/null && break
    kill -0 "$fetcher_pid" 2>/dev/null || { tail -n 20 "$dir/run.log" >&2; die "the fetcher stopped"; }
    sleep 0.1
  done
  started=$(now)
  local out="$results/units-$shape-$units.tsv"
  printf 'secs\tthreads\trss_mib\thwm_mib\tfds\tdb_conns\tticks\tunits_ticked\tload\n' >"$out"
  while :; do
    at=$(now)
    elapsed=$(echo "$at - $started" | bc)
    read -r threads rss fds < <(proc_sample "$fetcher_pid")
    hwm=$(awk '/^VmHWM:/ { printf "%d", $2 / 1024 }' "/proc/$fetcher_pid/status")
    conns=-
    [[ $shape == tails ]] &&
      conns=$("${psql[@]}" -d test -tAc "SELECT count(*) FROM pg_stat_activity WHERE datname = '$database'")
    scrape >"$dir/metrics.txt" || : >"$dir/metrics.txt"
    ticks=$(series dfe_fetcher_tick_duration_seconds_count "$dir/metrics.txt" | awk '{ s += $2 } END { print s + 0 }')
    ticked=$(series dfe_fetcher_tick_duration_seconds_count "$dir/metrics.txt" | awk '$2 > 0' | wc -l)
    printf '%.0f\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$elapsed" "$threads" "$rss" "$hwm" "$fds" \
      "$conns" "$ticks" "$ticked" "$(loadavg)" >>"$out"
    (($(echo "$elapsed >= $unit_secs" | bc))) && break
    # What changes between samples: a tenth of the files rewritten, a row in every table. Files
    # only once every unit has read its first: a rewrite before that would land as the first.
    if [[ $shape == files ]]; then
      for ((i = 0; ticked == units && i < (units + 9) / 10; i++)); do
        write_unit_file "$dir/data" "$next_file" $((rewrites / units + 1))
        rewrites=$((rewrites + 1))
        next_file=$((next_file % units + 1))
      done
    else
      tails_insert "$units"
      inserted=$((inserted + units))
    fi
    sleep "$(echo "$sample_secs - ($(now) - $at)" | bc | awk '{ print ($1 > 0 ? $1 : 0) }')"
  done
  # Per unit: ticks and seconds since its last success, at the end.
  series dfe_fetcher_tick_duration_seconds_count "$dir/metrics.txt" | sort >"$dir/ticks"
  series dfe_fetcher_tick_duration_seconds_sum "$dir/metrics.txt" | sort >"$dir/tick-seconds"
  series dfe_fetcher_last_success_timestamp_seconds "$dir/metrics.txt" | sort >"$dir/last-success"
  local end_epoch verdict landed expected
  end_epoch=$(date +%s)
  # What landed, once the writer stopped and the fetcher had two more rounds to take it.
  if [[ $shape == files ]]; then
    expected=$((units + rewrites))
  else
    expected=$((units * 10 + inserted))
  fi
  for ((i = 0; i < 120; i++)); do
    landed=$(landed_count "$shape" "$dir")
    ((landed >= expected)) && break
    sleep 1
  done
  hwm=$(awk '/^VmHWM:/ { printf "%d", $2 / 1024 }' "/proc/$fetcher_pid/status")
  # The threads by name (numbers dropped), to tell which pool a count comes from.
  cat "/proc/$fetcher_pid"/task/*/comm | sed 's/[0-9]*$//' | sort | uniq -c | sort -rn \
    >"$results/threads-$shape-$units.txt"
  stop_pid "$fetcher_pid"
  fetcher_pid=""
  # Seconds between two ticks of a unit: from the first sample at which every unit had ticked to
  # the last, units times the time over the ticks in between.
  local spacing
  spacing=$(awk -F'\t' -v units="$units" 'NR > 1 && $8 == units && !a { a = 1; t0 = $1; k0 = $7 }
    NR > 1 { t1 = $1; k1 = $7 } END { printf "%.1f", (k1 > k0 ? (t1 - t0) * units / (k1 - k0) : 0) }' "$out")
  verdict=$(awk -v units="$units" -v end="$end_epoch" -v spacing="$spacing" \
    -v landed="$landed" -v expected="$expected" -v hwm="$hwm" '
    FILENAME ~ /\/ticks$/ { t[$1] = $2; n++ }
    FILENAME ~ /tick-seconds$/ { busy += $2 }
    FILENAME ~ /last-success$/ { age = end - $2; if (age > maxage) maxage = age; ok++ }
    END {
      min = -1; for (u in t) { if (min < 0 || t[u] < min) min = t[u]; if (t[u] > max) max = t[u]; total += t[u] }
      printf "%d\t%d\t%d\t%d\t%d\t%s\t%.1f\t%d\t%d\t%d\t%d", units, n, ok, min, max, spacing,
        (total ? 1000 * busy / total : 0), maxage, landed, expected, hwm
    }' "$dir/ticks" "$dir/tick-seconds" "$dir/last-success")
  printf '%s\t%s\n' "$shape" "$verdict" >>"$results/units.tsv"
  log "$shape $units units: $verdict"
  if [[ $shape == tails ]]; then tails_drop "$units"; fi
  rm -rf "$dir"
}

# Complete snapshots of connection many (files), or tail records landed (tails).
landed_count() { # SHAPE DIR
  if [[ $1 == files ]]; then
    scrape >"$2/metrics.end" 2>/dev/null || { echo 0; return; }
    awk 'index($0, "dfe_fetcher_snapshots_total{") == 1 && /store="many\./ && /status="complete"/ { s += $NF } END { printf "%d\n", s }' "$2/metrics.end"
  else
    cat "$2"/landing/many_land*.ndjson 2>/dev/null | wc -l
  fi
}

units_report() {
  {
    echo "| shape | units | units seen | with a success | ticks per unit (min–max) | s between ticks | ms a tick | oldest last success s | landed | expected | peak RSS MiB |"
    echo "|---|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|"
    awk -F'\t' '{ printf "| %s | %d | %d | %d | %d–%d | %.1f | %.1f | %d | %d | %d | %d |\n", $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12 }' "$results/units.tsv"
  } | tee "$results/units.md"
}

# ---------------------------------------------------------------------------------------------

need_pg=""
need_mariadb=""
{ wanted rows "$parts" && wanted pg "$paths"; } && need_pg=1
{ wanted units "$parts" && wanted tails "$shapes"; } && need_pg=1
{ wanted rows "$parts" && wanted mariadb "$paths"; } && need_mariadb=1
command -v jq >/dev/null || die "jq is missing (apt-get install -y jq)"
if [[ -n $need_pg ]]; then
  pg_available || die "PostgreSQL on 127.0.0.1:5432 is not reachable as postgres"
  create_database "$database"
  pg_made=1
fi
if [[ -n $need_mariadb ]]; then
  "${mariadb[@]}" -e "CREATE DATABASE $database" || die "MariaDB on 127.0.0.1:3306 is not reachable as root"
  mariadb_made=1
fi
build_fetcher # outside the measurement
log "work directory $work, load $(loadavg)"

if wanted rows "$parts"; then
  : >"$results/rows.tsv"
  for path in $paths; do
    if [[ $path == kafka ]]; then
      "$local_kafka" --background >/dev/null 2>&1 || die "the broker did not start (log: $work/kafka/server.log)"
      kafka_started=1
    fi
    dump_path "$path"
    if [[ $path == kafka ]]; then
      "$local_kafka" --stop >/dev/null 2>&1
      kafka_started=""
      rm -rf "$work/kafka"
    fi
    if [[ $path == pg ]]; then "${psql[@]}" -d "$database" -c "DROP TABLE accounts"; fi
    if [[ $path == mariadb ]]; then "${mariadb[@]}" "$database" -e "DROP TABLE accounts"; fi
  done
  rows_report
fi

if wanted units "$parts"; then
  : >"$results/units.tsv"
  for shape in $shapes; do
    for units in $unit_counts; do units_run "$shape" "$units"; done
  done
  units_report
  for f in "$results"/units-*.tsv; do
    echo
    echo "$(basename "$f" .tsv):"
    column -t "$f"
  done
fi
