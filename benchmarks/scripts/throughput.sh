#!/usr/bin/env bash
# The throughput harness of docs/benchmarks.md: starts a local single-node KRaft broker, generates
# the data, runs each case RUNS times and prints a table of medians (rows/s, MB/s of input, the
# ratio to the baseline measured in the same run, the peak RSS of the process under test).
# Everything it started (broker, Connect worker, PostgreSQL database) is stopped on exit.
# Not part of `mvn verify`.
#
#   benchmarks/scripts/throughput.sh                      # every case, 3 runs each, 1,000,000 rows
#   CASES="baseline kafka file" benchmarks/scripts/throughput.sh
#   ROWS=200000 RUNS=1 benchmarks/scripts/throughput.sh   # a quick try
#
# Cases (CASES, in this order):
#   baseline        ProducerPerformance (kafka-tools), ROWS records sampled from the input rows,
#                   acks=all, lz4: the physical limit the others are compared to
#   baseline-frames the same with the frames the fetcher sends (needs `file` first), so the
#                   envelope's own cost is visible
#   baseline-tuned  the baseline with the producer batching the fetcher uses by default
#                   (batch.size=262144, linger.ms=5), so the producer settings are not the difference
#   peer            Kafka Connect standalone, FileStreamSourceConnector reading the input file
#   kafka           dfe-fetcher run --once, the file dump to Kafka; every run's topic verified
#   kafka-filter    the same with a CEL filter keeping 90% of rows
#   file            the same to the file output
#   file-big        the file output with BIG_ROWS rows (peak RSS compared with `file`)
#   pg              a PostgreSQL dump store of ROWS rows to Kafka (needs PostgreSQL on
#                   127.0.0.1:5432, trust auth for user postgres, as the tests use)
#   verify-topic    dfe-fetcher snapshots verify of the first `kafka` run's topic
#   verify-small    snapshots verify of 100,000 snapshots of 10 rows each with -Xmx256m
#
# Environment: ROWS (1000000), BIG_ROWS (5000000), RUNS (3), BIG_RUNS (RUNS), CASES (all),
# HEAP (-Xmx256m, the fetcher's heap), BENCH_DIR (a new directory under /tmp; kept with KEEP=1),
# DFE_KAFKA_PORT (19092) and DFE_KAFKA_CONTROLLER_PORT (19093) for the broker.
set -euo pipefail
# shellcheck source=benchmarks/scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
bench_name=bench
no_arguments "$@"

readonly KAFKA_VERSION=4.3.1
rows="${ROWS:-1000000}"
big_rows="${BIG_ROWS:-5000000}"
runs="${RUNS:-3}"
big_runs="${BIG_RUNS:-$runs}"
heap="${HEAP:--Xmx256m}"
cases="${CASES:-baseline baseline-tuned peer kafka kafka-filter file baseline-frames file-big pg verify-topic verify-small}"
export DFE_KAFKA_PORT="${DFE_KAFKA_PORT:-19092}"
export DFE_KAFKA_CONTROLLER_PORT="${DFE_KAFKA_CONTROLLER_PORT:-19093}"
bootstrap="127.0.0.1:$DFE_KAFKA_PORT"
work="${BENCH_DIR:-$(make_work_dir dfe-bench)}"
mkdir -p "$work/results"
export DFE_KAFKA_DIR="$work/kafka"
tools_pom="$root/benchmarks/tools/pom.xml"
tools_cache="${DFE_BENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/dfe-fetcher/benchmark-tools-$KAFKA_VERSION}"
tools_lib="$tools_cache/lib"
database="dfe_bench_$$"
connect_pid=""
database_made=""

cleanup() {
  set +e
  [[ -n $connect_pid ]] && stop_pid "$connect_pid"
  "$local_kafka" --stop 2>/dev/null
  [[ -n $database_made ]] && drop_database "$database" 2>/dev/null
  if [[ ${KEEP:-0} == 1 ]]; then
    log "kept $work"
  else
    rm -rf "$work/kafka" "$work/runs" "$work/data" "$work/pg"
    log "results kept in $work/results"
  fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Stops a process this script started: TERM, then KILL after 20 s (a JVM out of memory may not
# answer TERM).
stop_pid() {
  local pid=$1 i
  kill "$pid" 2>/dev/null || return 0
  for ((i = 0; i < 40; i++)); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.5
  done
  kill -KILL "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
}

wanted() { [[ " $cases " == *" $1 "* ]]; }

# Collects kafka-tools (ProducerPerformance) and connect-runtime + connect-file once.
fetch_tools() {
  local sum
  sum=$(cksum <"$tools_pom")
  if [[ -f $tools_cache/.complete && $(<"$tools_cache/.complete") == "$sum" ]]; then
    return 0
  fi
  log "downloading kafka-tools and connect-file $KAFKA_VERSION into $tools_lib (first run only)"
  mkdir -p "$tools_cache"
  rm -rf "$tools_lib.tmp"
  mvn -B -q -f "$tools_pom" dependency:copy-dependencies -DoutputDirectory="$tools_lib.tmp" \
    -DincludeScope=runtime 2>&1 | sed $'s/\e\\[0m//g' >&2
  rm -rf "$tools_lib"
  mv "$tools_lib.tmp" "$tools_lib"
  printf '%s\n' "$sum" >"$tools_cache/.complete"
}

# Rows of about 300 bytes; one in ten has alive=false (the filter case drops those).
generate_rows() {
  local n=$1 out=$2
  awk -v n="$n" 'BEGIN {
    for (i = 0; i < n; i++)
      printf "{\"id\":\"host-%09d\",\"alive\":%s,\"n\":%d,\"rack\":\"r%02d\",\"zone\":\"eu-west-%d\",\"os\":\"debian-12.%d\",\"cpu\":%d,\"mem_mb\":%d,\"tags\":[\"web\",\"prod\",\"t%d\"],\"owner\":\"team-%03d@example.org\",\"site\":\"dc-%02d-hall-b\",\"note\":\"generated row for the throughput benchmark, padded to about three hundred bytes\"}\n", i, (i % 10 ? "true" : "false"), i, i % 64, i % 3, i % 9, 2 + i % 30, 1024 * (1 + i % 64), i % 100, i % 500, i % 40
  }' >"$out"
}

# 100,000 snapshots of 10 rows each, frames in order, as `snapshots verify` reads them.
generate_small_snapshots() {
  awk 'BEGIN {
    for (s = 0; s < 100000; s++) {
      id = sprintf("0190a1b2-c3d4-7e5f-8a9b-%012d", s)
      h = sprintf("\"snapshot_id\":\"%s\",\"snapshot_at\":\"2026-05-01T12:00:00.123Z\",\"timestamp\":\"2026-05-01T12:00:00.123Z\",\"store\":\"small.s%d\"", id, s)
      printf "{\"kind\":\"begin\",%s,\"seq\":0}\n", h
      for (r = 0; r < 10; r++) printf "{\"kind\":\"row\",%s,\"seq\":%d,\"record\":{\"id\":%d,\"v\":\"x%d\"}}\n", h, r, r, s
      printf "{\"kind\":\"end\",%s,\"seq\":10,\"row_count\":10,\"completed_at\":\"2026-05-01T12:00:01.000Z\"}\n", h
    }
  }' >"$1"
}

# record CASE SECONDS RSS_KB ROWS BYTES: one run's figures, a line "SECONDS RSS_KB ROWS BYTES LOAD".
record() { printf '%s %s %s %s %s\n' "$2" "$3" "$4" "$5" "$(cut -d' ' -f1 /proc/loadavg)" >>"$work/results/$1.runs"; }

# timed CASE ROWS BYTES COMMAND...: runs COMMAND with timed_run and records it.
timed() {
  local name=$1 n=$2 bytes=$3
  shift 3
  if ! timed_run "$work" "$@" >"$work/last.out" 2>"$work/last.err"; then
    # A failed run is reported in the table (e.g. out of memory), not taken as a figure.
    tail -n 5 "$work/last.err" >&2
    log "$name failed: $*"
    grep -m 1 -o 'OutOfMemoryError[^"]*' "$work/last.err" >>"$work/results/$name.failed" ||
      echo "exit status $(grep -o 'exit status [0-9]*' "$work/rss" | head -n 1)" >>"$work/results/$name.failed"
    return 0
  fi
  record "$name" "$TIMED_SECONDS" "$TIMED_RSS_KB" "$n" "$bytes"
}

fetcher_config() { # DIR TYPE TOPIC DATA FILTER
  local dir=$1 type=$2 topic=$3 data=$4 filter=$5
  mkdir -p "$dir"
  cat >"$dir/config.yaml" <<YAML
instance_id: bench
output:
  type: $type
  file: {directory: ./landing}
  kafka: {bootstrap_servers: "$bootstrap", create_topics: true}
cursor: {directory: ./state}
metrics: {address: "127.0.0.1:0"}
sources:
  file:
    $topic:
      topic: $topic
$( [[ -n $filter ]] && echo "      filter: \"$filter\"" )
      units:
        - unit: hosts
          row_key: /id
          dump: {paths: ["$data"]}
YAML
}

run_fetcher() { # CASE RUN TYPE DATA N FILTER
  local name=$1 i=$2 type=$3 data=$4 n=$5 filter=$6
  local dir="$work/runs/$name-$i" topic
  topic="b${name//-/}$i"
  fetcher_config "$dir" "$type" "$topic" "$data" "$filter"
  DFE_FETCHER_JAVA_OPTS="$heap" DFE_FETCHER_LOG_LEVEL=WARN \
    timed "$name" "$n" "$(stat -c %s "$data")" "$fetcher" run --config "$dir/config.yaml" --once
  echo "$topic-hosts_land"
}

# Checks every snapshot in a topic or file verifies complete (exit 0 from snapshots verify).
verify_complete() {
  if ! DFE_FETCHER_JAVA_OPTS="-XX:+UseSerialGC $heap" "$fetcher" snapshots verify "$@" \
    >"$work/verify.out" 2>&1; then
    tail -n 20 "$work/verify.out" >&2
    die "snapshots verify $* did not report every snapshot complete"
  fi
}

producer_perf() { # CASE PAYLOADFILE N TOPIC [PRODUCER PROPERTY...]
  local name=$1 payload=$2 n=$3 topic=$4
  shift 4
  local size
  size=$(awk '{ s += length($0) + 0 } END { printf "%d", s / NR }' "$payload")
  timed "$name" "$n" "$((size * n))" java -Xmx512m -cp "$tools_lib/*" \
    org.apache.kafka.tools.ProducerPerformance --topic "$topic" --num-records "$n" \
    --throughput -1 --payload-file "$payload" \
    --producer-props "bootstrap.servers=$bootstrap" acks=all compression.type=lz4 "$@"
  # ProducerPerformance reports its own rate (from the first send, without JVM start): keep it.
  local line
  line=$(grep 'records sent' "$work/last.out" | tail -n 1)
  echo "$line" >>"$work/results/$name.tool"
}

connect_peer() { # RUN DATA N
  local i=$1 data=$2 n=$3
  local dir="$work/runs/peer-$i" topic="bpeer$i"
  mkdir -p "$dir"
  cat >"$dir/worker.properties" <<EOF
bootstrap.servers=$bootstrap
key.converter=org.apache.kafka.connect.storage.StringConverter
value.converter=org.apache.kafka.connect.storage.StringConverter
offset.storage.file.filename=$dir/offsets
offset.flush.interval.ms=10000
listeners=http://127.0.0.1:0
producer.compression.type=lz4
producer.acks=all
EOF
  cat >"$dir/connector.properties" <<EOF
name=bench-file-source-$i
connector.class=org.apache.kafka.connect.file.FileStreamSourceConnector
tasks.max=1
file=$data
topic=$topic
batch.size=2000
EOF
  cat >"$dir/log4j2.properties" <<'EOF'
status = warn
appender.stdout.type = Console
appender.stdout.name = STDOUT
appender.stdout.layout.type = PatternLayout
appender.stdout.layout.pattern = [%d] %p %m (%c)%n
rootLogger.level = warn
rootLogger.appenderRef.stdout.ref = STDOUT
EOF
  local start end rss
  start=$(now)
  # The heap connect-standalone.sh gives a worker; with -Xmx512m it runs out of memory here.
  java -Xms256m -Xmx2g "-Dlog4j2.configurationFile=$dir/log4j2.properties" -cp "$tools_lib/*" \
    org.apache.kafka.connect.cli.ConnectStandalone "$dir/worker.properties" "$dir/connector.properties" \
    >"$dir/connect.log" 2>&1 &
  connect_pid=$!
  end=$(java -cp "$tools_lib/*" "$root/benchmarks/tools/WaitForOffsets.java" \
    "$bootstrap" "$topic" "$n" 300) || die "the Connect peer did not land $n records (log: $dir/connect.log)"
  rss=$(awk '/VmHWM/ { print $2 }' "/proc/$connect_pid/status")
  stop_pid "$connect_pid"
  connect_pid=""
  record peer "$(echo "$end / 1000 - $start" | bc -l)" "$rss" "$n" "$(stat -c %s "$data")"
}

pg_prepare() {
  create_database "$database" >/dev/null
  database_made=1
  log "generating $rows rows into $database.accounts"
  "${psql[@]}" -d "$database" <<SQL
CREATE TABLE accounts (
  id bigint PRIMARY KEY, name text NOT NULL, balance numeric(14, 2) NOT NULL,
  opened timestamptz(6) NOT NULL, active boolean NOT NULL, tags text[] NOT NULL, note text
);
INSERT INTO accounts
SELECT i, 'account-' || i, (i % 100000) / 100.0,
       timestamptz '2026-01-01 00:00:00Z' + i * interval '1 second',
       i % 10 <> 0, ARRAY['a', 'b'],
       'generated row for the throughput benchmark, padded towards three hundred bytes of JSON per row ......'
FROM generate_series(1, $rows) AS s(i);
ANALYZE accounts;
SQL
}

run_pg() { # RUN
  local i=$1
  local dir="$work/runs/pg-$i" topic="bpg$i"
  mkdir -p "$dir"
  cat >"$dir/config.yaml" <<YAML
instance_id: bench
output:
  type: kafka
  kafka: {bootstrap_servers: "$bootstrap", create_topics: true}
cursor: {directory: ./state}
metrics: {address: "127.0.0.1:0"}
sources:
  db:
    crm:
      url: "jdbc:postgresql://127.0.0.1:5432/$database"
      user: postgres
      topic: $topic
      stores:
        - {unit: accounts, shape: dump, query: "SELECT * FROM accounts", row_key: /id}
YAML
  local bytes
  bytes=$("${psql[@]}" -d "$database" -tAc "SELECT sum(length(row_to_json(a)::text) + 1) FROM accounts a")
  DFE_FETCHER_JAVA_OPTS="$heap" DFE_FETCHER_LOG_LEVEL=WARN \
    timed pg "$rows" "$bytes" "$fetcher" run --config "$dir/config.yaml" --once
  [[ $i == 1 ]] && verify_complete --bootstrap-server "$bootstrap" --topic "$topic-accounts_land"
  return 0
}

median() { sort -n | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# Prints the table of medians over each case's runs.
report() {
  local base_rate="" name
  if [[ -f $work/results/baseline.runs ]]; then
    base_rate=$(awk '{ print $3 / $1 }' "$work/results/baseline.runs" | median)
  fi
  printf '\n| case | rows | runs | median s | rows/s | MB/s | × baseline | peak RSS MiB | load (1 min) |\n'
  printf '|---|---:|---:|---:|---:|---:|---:|---:|---:|\n'
  for name in baseline baseline-tuned baseline-frames peer kafka kafka-filter file file-big pg verify-topic verify-small; do
    local f="$work/results/$name.runs"
    [[ -f $f ]] || continue
    local secs rate mbs rss n load ratio
    secs=$(awk '{ print $1 }' "$f" | median)
    rate=$(awk '{ print $3 / $1 }' "$f" | median)
    mbs=$(awk '{ print $4 / $1 / 1000000 }' "$f" | median)
    rss=$(awk '{ print $2 / 1024 }' "$f" | median)
    n=$(awk 'NR == 1 { print $3 }' "$f")
    load=$(awk '{ print $5 }' "$f" | tr '\n' ' ')
    ratio="—"
    # Only a case that lands rows compares with the producer; verify reads frames.
    [[ -n $base_rate && $name != verify-* ]] && ratio=$(echo "$rate / $base_rate" | bc -l)
    printf '| %s | %d | %d | %.1f | %.0f | %.1f | %s | %.0f | %s |\n' "$name" "$n" "$(wc -l <"$f")" \
      "$secs" "$rate" "$mbs" "$( [[ $ratio == — ]] && echo — || printf '%.2f' "$ratio")" "$rss" "$load"
  done
  for f in "$work"/results/*.failed; do
    [[ -f $f ]] || continue
    printf '\n%s: %d failed run(s): %s\n' "$(basename "$f" .failed)" "$(wc -l <"$f")" "$(sort -u "$f" | tr '\n' ' ')"
  done
  for name in baseline baseline-tuned baseline-frames; do
    [[ -f $work/results/$name.tool ]] || continue
    printf '\n%s, as ProducerPerformance reports itself (no JVM start):\n' "$name"
    sed 's/^/  /' "$work/results/$name.tool"
  done
}

main() {
  log "machine: $(nproc) cores, $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo), load $(loadavg)"
  log "rows $rows, runs $runs, cases: $cases; work dir $work"
  fetch_tools
  build_fetcher # outside the measurement
  mkdir -p "$work/data" "$work/runs"
  generate_rows "$rows" "$work/data/hosts.ndjson"
  log "input: $(wc -l <"$work/data/hosts.ndjson") rows, $(stat -c %s "$work/data/hosts.ndjson") bytes"
  head -n 10000 "$work/data/hosts.ndjson" >"$work/data/rows-sample.ndjson"
  "$local_kafka" --background >/dev/null
  local i topic first_kafka_topic=""

  if wanted baseline; then
    for ((i = 1; i <= runs; i++)); do producer_perf baseline "$work/data/rows-sample.ndjson" "$rows" "bbase$i"; done
  fi
  if wanted baseline-tuned; then
    for ((i = 1; i <= runs; i++)); do
      producer_perf baseline-tuned "$work/data/rows-sample.ndjson" "$rows" "btuned$i" batch.size=262144 linger.ms=5
    done
  fi
  if wanted peer; then
    for ((i = 1; i <= runs; i++)); do connect_peer "$i" "$work/data/hosts.ndjson" "$rows"; done
  fi
  if wanted kafka; then
    for ((i = 1; i <= runs; i++)); do
      topic=$(run_fetcher kafka "$i" kafka "$work/data/hosts.ndjson" "$rows" "")
      [[ -z $first_kafka_topic ]] && first_kafka_topic=$topic
      verify_complete --bootstrap-server "$bootstrap" --topic "$topic"
    done
  fi
  if wanted kafka-filter; then
    for ((i = 1; i <= runs; i++)); do
      topic=$(run_fetcher kafka-filter "$i" kafka "$work/data/hosts.ndjson" "$rows" "record.alive == true")
      verify_complete --bootstrap-server "$bootstrap" --topic "$topic"
    done
  fi
  if wanted file; then
    for ((i = 1; i <= runs; i++)); do
      topic=$(run_fetcher file "$i" file "$work/data/hosts.ndjson" "$rows" "")
      verify_complete "$work/runs/file-$i/landing/$topic.ndjson"
      if ((i == 1)); then
        sed -n '2,10001p' "$work/runs/file-$i/landing/$topic.ndjson" >"$work/data/frames-sample.ndjson"
      else
        rm -rf "$work/runs/file-$i/landing"
      fi
    done
  fi
  if wanted baseline-frames && [[ -f $work/data/frames-sample.ndjson ]]; then
    for ((i = 1; i <= runs; i++)); do producer_perf baseline-frames "$work/data/frames-sample.ndjson" "$rows" "bframes$i"; done
  fi
  if wanted file-big; then
    generate_rows "$big_rows" "$work/data/big.ndjson"
    for ((i = 1; i <= big_runs; i++)); do
      topic=$(run_fetcher file-big "$i" file "$work/data/big.ndjson" "$big_rows" "")
      rm -rf "$work/runs/file-big-$i/landing"
    done
    rm -f "$work/data/big.ndjson"
  fi
  if wanted pg; then
    if pg_available; then
      pg_prepare
      for ((i = 1; i <= runs; i++)); do run_pg "$i"; done
    else
      log "skipping pg: no PostgreSQL on 127.0.0.1:5432"
    fi
  fi
  if wanted verify-topic && [[ -n $first_kafka_topic ]]; then
    for ((i = 1; i <= runs; i++)); do
      DFE_FETCHER_JAVA_OPTS="-XX:+UseSerialGC $heap" timed verify-topic "$((rows + 2))" 0 \
        "$fetcher" snapshots verify --bootstrap-server "$bootstrap" --topic "$first_kafka_topic"
    done
  fi
  if wanted verify-small; then
    generate_small_snapshots "$work/data/small.ndjson"
    for ((i = 1; i <= runs; i++)); do
      DFE_FETCHER_JAVA_OPTS="-XX:+UseSerialGC -Xmx256m" timed verify-small 1200000 \
        "$(stat -c %s "$work/data/small.ndjson")" "$fetcher" snapshots verify "$work/data/small.ndjson"
    done
  fi
  report | tee "$work/results/table.md"
  log "load at the end: $(loadavg)"
}

main "$@"
