#!/usr/bin/env bash
# The throughput harness of docs/benchmarks.md: starts a local single-node KRaft broker, generates
# the data, runs each case RUNS times and prints a table of medians (rows/s, MB/s of input, the
# ratio to the baseline measured in the same run, the peak RSS of the process under test), then
# the summary of issue 24: every path against the fastest tool that does its part, measured in
# the same run (results/summary.md). Everything it started (broker, Connect worker, HTTP server,
# PostgreSQL database) is stopped on exit. Not part of `mvn verify`.
#
#   benchmarks/scripts/throughput.sh                      # every case, 3 runs each, 1,000,000 rows
#   CASES="baseline kafka file" benchmarks/scripts/throughput.sh
#   ROWS=200000 RUNS=1 benchmarks/scripts/throughput.sh   # a quick try
#
# Cases (CASES, in this order):
#   baseline        ProducerPerformance (kafka-tools), ROWS records sampled from the input rows,
#                   acks=all, lz4: the physical limit the others are compared to
#   baseline-tuned  the baseline with the producer batching the fetcher uses by default
#                   (batch.size=262144, linger.ms=5), so the producer settings are not the difference
#   baseline-frames-tuned  the same with the records the fetcher sends (its frames, about 620 bytes
#                   with the envelope and enrichment, sampled by an untimed fetcher run over
#                   10,000 input rows): issue 24's limit, "the fetcher's batch settings, same
#                   record sizes"
#   limit-records   benchmarks/tools/FetcherRecordsProducer.java: one loop sending the fetcher's
#                   frames (the same sample) as the fetcher sends them, with its key and its three
#                   headers, and the fetcher's producer settings: what Kafka's producer costs for
#                   exactly the fetcher's records, none of the fetcher's own work done
#   limit-records-bare  the same loop sending the frames without key or headers, as
#                   ProducerPerformance does (the loop checked against it)
#   peer            Kafka Connect standalone, FileStreamSourceConnector reading the input file
#   kafka           dfe-fetcher run --once, the file dump to Kafka; every run's topic verified
#   kafka-filter    the same with a CEL filter keeping 90% of rows
#   file            the same to the file output
#   baseline-frames the baseline with the frames the fetcher sends, at the producer's default
#                   batching, so the envelope's own cost is visible
#   limit-cat       `cat` of the input file into a landing directory, then `sync` of the copy (an
#                   fsync): the limit of `file`, in bytes/s
#   file-big        the file output with BIG_ROWS rows (peak RSS compared with `file`)
#   pg              a PostgreSQL dump store of ROWS rows to Kafka (needs PostgreSQL on
#                   127.0.0.1:5432, trust auth for user postgres, as the tests use)
#   limit-psql      `COPY (SELECT * FROM accounts) TO STDOUT`, the pg case's query, read by psql
#                   into /dev/null
#   verify-topic    dfe-fetcher snapshots verify of the first `kafka` run's topic, and of a topic
#                   holding one one-row snapshot (verify-one: its fixed cost)
#   limit-consumer  ConsumerPerformance (kafka-consumer-perf-test) reading that same topic, JVM
#                   start included as for verify
#   apply           snapshots apply of the first `file` run's landing (ROWS rows; landed here
#                   when `file` did not run) into an empty PostgreSQL table
#   limit-copy      psql's \copy of the rows apply wrote into an unlogged table of the same
#                   columns and primary key (needs `apply` first)
#   rest            a REST dump to Kafka from a local HTTP server (python3 http.server) serving
#                   the input rows as NDJSON pages of 1,000 records linked by `Link: rel="next"`
#   limit-curl      curl reading the same pages into /dev/null over one connection
#   limit-httpclient  benchmarks/tools/HttpClientPages.java: the JDK's HttpClient reading the same
#                   pages as the REST source reads them (sendAsync), throwing the bytes away: the
#                   limit the client sets before any decoding; reported, no goal
#   fixed-cost      run --once of a one-row file to the file output, beside `java -version`
#                   (limit-java) on the same JVM, taking turns, after one warm-up of each
#   verify-small    snapshots verify of 100,000 snapshots of 10 rows each with -Xmx256m
#   tail            benchmarks/scripts/tail-vs-rsyslog.sh, its Kafka side (a tail unit and
#                   rsyslog imfile + omkafka, TAIL_LINES lines after TAIL_WARMUP lines of
#                   warm-up: a tail's steady state), after this script's broker is stopped;
#                   needs rsyslogd with omkafka and kcat, skipped without them
#
# Environment: ROWS (1000000), BIG_ROWS (5000000), RUNS (3), BIG_RUNS (RUNS), CASES (all),
# TAIL_LINES (1000000), TAIL_WARMUP (100000), HEAP (-Xmx256m, the fetcher's heap), BENCH_DIR (a new directory under
# /tmp; kept with KEEP=1), DFE_KAFKA_PORT (19092) and DFE_KAFKA_CONTROLLER_PORT (19093) for the
# broker.
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
tail_lines="${TAIL_LINES:-1000000}"
tail_warmup="${TAIL_WARMUP:-100000}"
cases="${CASES:-baseline baseline-tuned baseline-frames-tuned limit-records limit-records-bare peer kafka kafka-filter file baseline-frames limit-cat file-big pg limit-psql verify-topic limit-consumer apply limit-copy rest limit-curl limit-httpclient fixed-cost verify-small tail}"
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
server_pid=""
database_made=""
timed_failed=0
rest_port=""

cleanup() {
  set +e
  [[ -n $connect_pid ]] && stop_pid "$connect_pid"
  [[ -n $server_pid ]] && stop_pid "$server_pid"
  "$local_kafka" --stop 2>/dev/null
  [[ -n $database_made ]] && drop_database "$database" 2>/dev/null
  if [[ ${KEEP:-0} == 1 ]]; then
    log "kept $work"
  else
    rm -rf "$work/kafka" "$work/runs" "$work/data" "$work/pg" "$work/tail/kafka" "$work/tail/runs" \
      "$work/tail/data"
    log "results kept in $work/results"
  fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

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
  timed_failed=0
  if ! timed_run "$work" "$@" >"$work/last.out" 2>"$work/last.err"; then
    timed_failed=1
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
  file: {directory: ./landing, rotate_bytes: 0}
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

# The row frames the fetcher sends for the sample rows (envelope and enrichment as on Kafka), for
# the producer cases that send what the fetcher sends: one untimed run to the file output.
sample_frames() {
  [[ -s $work/data/frames-sample.ndjson ]] && return 0
  local dir="$work/runs/frames-sample"
  fetcher_config "$dir" file framesample "$work/data/rows-sample.ndjson" ""
  DFE_FETCHER_JAVA_OPTS="$heap" DFE_FETCHER_LOG_LEVEL=WARN \
    "$fetcher" run --config "$dir/config.yaml" --once >/dev/null 2>"$dir/err" ||
    { cat "$dir/err" >&2; die "the run sampling the fetcher's frames failed"; }
  grep '"kind":"row"' "$dir/landing/framesample-hosts_land.ndjson" >"$work/data/frames-sample.ndjson"
  rm -rf "$dir/landing"
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

# Compiles benchmarks/tools/FetcherRecordsProducer.java once, outside the measurement.
records_producer_build() {
  mkdir -p "$work/classes"
  javac -d "$work/classes" -cp "$tools_lib/*" "$root/benchmarks/tools/FetcherRecordsProducer.java"
}

# records_producer CASE N TOPIC [bare]: the fetcher's frames sent as the fetcher sends them (its key,
# the store, and its three headers), or bare, from one loop with the fetcher's producer settings.
records_producer() {
  local name=$1 n=$2 topic=$3 size store
  shift 3
  size=$(awk '{ s += length($0) + 0 } END { printf "%d", s / NR }' "$work/data/frames-sample.ndjson")
  store=$(head -n 1 "$work/data/frames-sample.ndjson" | grep -o '"store":"[^"]*"' | cut -d'"' -f4)
  [[ -n $store ]] || die "no store in the first sampled frame"
  timed "$name" "$n" "$((size * n))" java -Xmx512m -cp "$tools_lib/*:$work/classes" \
    FetcherRecordsProducer "$bootstrap" "$topic" "$n" "$work/data/frames-sample.ndjson" "$store" "$@"
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

# The database the pg, limit-psql, apply and limit-copy cases work in, made once.
ensure_database() {
  [[ -n $database_made ]] && return 0
  create_database "$database" >/dev/null
  database_made=1
}

pg_prepare() {
  ensure_database
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

# The pg case's query as COPY sends it, read by psql into /dev/null: how fast PostgreSQL and
# its wire protocol hand the rows over, with nothing made of them.
run_limit_psql() {
  local bytes
  bytes=$("${psql[@]}" -d "$database" -tAc "SELECT sum(length(row_to_json(a)::text) + 1) FROM accounts a")
  timed limit-psql "$rows" "$bytes" \
    "${psql[@]}" -d "$database" -o /dev/null -c "COPY (SELECT * FROM accounts) TO STDOUT"
}

# consumer_perf RUN TOPIC FRAMES: ConsumerPerformance reading every record of TOPIC in a fresh
# group from the earliest offset, as verify reads it; its own report (without JVM start) kept.
consumer_perf() {
  local i=$1 topic=$2 n=$3
  timed limit-consumer "$n" 0 java -Xmx512m -cp "$tools_lib/*" \
    org.apache.kafka.tools.ConsumerPerformance --bootstrap-server "$bootstrap" --topic "$topic" \
    --num-records "$n" --group "bench-consumer-$$-$i" --timeout 60000
  # Its CSV: a header line (start.time, end.time, ..., fetch.nMsg.sec), then the figures.
  grep -m 1 '^start.time' "$work/last.out" >"$work/results/limit-consumer.header" || true
  grep -A 1 '^start.time' "$work/last.out" | tail -n 1 >>"$work/results/limit-consumer.tool"
}

# A topic holding one snapshot of one row, for the fixed cost of `snapshots verify`; prints it.
one_row_topic() {
  local dir="$work/runs/verify-one"
  fetcher_config "$dir" kafka bone "$work/data/one.ndjson" ""
  DFE_FETCHER_JAVA_OPTS="$heap" DFE_FETCHER_LOG_LEVEL=WARN \
    "$fetcher" run --config "$dir/config.yaml" --once >"$dir/run.log" 2>&1 ||
    die "landing the one-row snapshot failed (log: $dir/run.log)"
  echo bone-hosts_land
}

# The frames `apply` reads: the first `file` run's landing, or (without that case) a landing
# made here outside the timing.
apply_input() {
  local landed="$work/runs/file-1/landing/bfile1-hosts_land.ndjson" dir="$work/runs/apply-input"
  if [[ ! -f $landed ]]; then
    landed="$dir/landing/bapply-hosts_land.ndjson"
    if [[ ! -f $landed ]]; then
      fetcher_config "$dir" file bapply "$work/data/hosts.ndjson" ""
      DFE_FETCHER_JAVA_OPTS="$heap" DFE_FETCHER_LOG_LEVEL=WARN \
        "$fetcher" run --config "$dir/config.yaml" --once >"$dir/run.log" 2>&1 ||
        die "landing the snapshot for apply failed (log: $dir/run.log)"
    fi
  fi
  echo "$landed"
}

run_apply() { # RUN FRAMES_FILE
  local i=$1 frames=$2
  DFE_FETCHER_JAVA_OPTS="$heap" DFE_FETCHER_LOG_LEVEL=WARN \
    timed apply "$rows" "$(stat -c %s "$frames")" "$fetcher" snapshots apply \
    --to "jdbc:postgresql://127.0.0.1:5432/$database" --db-property user=postgres \
    --table "apply_hosts_$i" --key /id "$frames"
  ((timed_failed)) && return 0
  local held
  held=$("${psql[@]}" -d "$database" -tAc "SELECT count(*) FROM apply_hosts_$i")
  ((held == rows)) || die "apply run $i left $held rows in apply_hosts_$i, not $rows: $(<"$work/last.out")"
  # The first run's table is what limit-copy copies; the others only take disk and cache.
  ((i == 1)) || "${psql[@]}" -d "$database" -c "DROP TABLE apply_hosts_$i"
}

# The rows the first apply wrote, copied into an unlogged table of the same columns, primary key
# included (LIKE ... INCLUDING ALL), by psql's \copy from a file written outside the timing.
run_limit_copy() { # RUN
  local i=$1 rows_file="$work/data/applied.tsv"
  if [[ ! -f $rows_file ]]; then
    "${psql[@]}" -d "$database" -c "\\copy apply_hosts_1 TO '$rows_file'"
  fi
  "${psql[@]}" -d "$database" -c "CREATE UNLOGGED TABLE copy_hosts_$i (LIKE apply_hosts_1 INCLUDING ALL)"
  timed limit-copy "$rows" "$(stat -c %s "$rows_file")" \
    "${psql[@]}" -d "$database" -c "\\copy copy_hosts_$i FROM '$rows_file'"
  if ((!timed_failed)); then
    local held
    held=$("${psql[@]}" -d "$database" -tAc "SELECT count(*) FROM copy_hosts_$i")
    ((held == rows)) || die "limit-copy run $i left $held rows in copy_hosts_$i, not $rows"
  fi
  "${psql[@]}" -d "$database" -c "DROP TABLE copy_hosts_$i"
}

# The input rows as NDJSON pages of 1,000 records, $work/data/pages/1 to N; prints N.
generate_pages() {
  mkdir -p "$work/data/pages"
  split -l 1000 -d -a 7 "$work/data/hosts.ndjson" "$work/data/pages/part."
  local n=0 part
  for part in "$work/data/pages"/part.*; do
    n=$((n + 1))
    mv "$part" "$work/data/pages/$n"
  done
  echo "$n"
}

# Serves $work/data/pages/N as application/x-ndjson over HTTP/1.1 (kept-alive connections, no
# Nagle delay), each page but the last with `Link: </pages/N+1>; rel="next"`; sets server_pid and rest_port.
start_page_server() { # PAGES
  cat >"$work/page-server.py" <<'PY'
import functools, http.server, os, sys

pages, directory, port_file = int(sys.argv[1]), sys.argv[2], sys.argv[3]


class Pages(http.server.SimpleHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # Without it a page's last short segment waits for the client's delayed ACK (about 40 ms a
    # page on Linux), on both the fetcher's side and curl's.
    disable_nagle_algorithm = True

    def end_headers(self):
        name = self.path.split("?", 1)[0].rsplit("/", 1)[-1]
        if name.isdigit() and int(name) < pages:
            self.send_header("Link", '</pages/%d>; rel="next"' % (int(name) + 1))
        super().end_headers()

    def guess_type(self, path):
        return "application/x-ndjson"

    def log_message(self, *args):
        pass


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Pages, directory=directory))
with open(port_file + ".tmp", "w") as out:
    out.write(str(server.server_address[1]))
os.rename(port_file + ".tmp", port_file)
server.serve_forever()
PY
  rm -f "$work/page-server.port"
  python3 "$work/page-server.py" "$1" "$work/data" "$work/page-server.port" >"$work/page-server.log" 2>&1 &
  server_pid=$!
  local i
  for ((i = 0; i < 100; i++)); do
    [[ -f $work/page-server.port ]] && break
    kill -0 "$server_pid" 2>/dev/null || die "the page server stopped (log: $work/page-server.log)"
    sleep 0.1
  done
  [[ -f $work/page-server.port ]] || die "the page server did not start in 10 s"
  rest_port=$(<"$work/page-server.port")
}

run_rest() { # RUN PAGES
  local i=$1 pages=$2
  local dir="$work/runs/rest-$i" topic="brest$i"
  mkdir -p "$dir"
  cat >"$dir/config.yaml" <<YAML
instance_id: bench
output:
  type: kafka
  kafka: {bootstrap_servers: "$bootstrap", create_topics: true}
cursor: {directory: ./state}
metrics: {address: "127.0.0.1:0"}
sources:
  rest:
    $topic:
      topic: $topic
      vars: {host: "http://127.0.0.1:$rest_port"}
      profile:
        base_url: "{{ vars.host }}"
        endpoints:
          - {unit: hosts, shape: dump, path: /pages/1, row_key: /id, max_pages: $((pages + 1)),
             rows: {decoder: ndjson}, paginate: {type: link_header}}
YAML
  DFE_FETCHER_JAVA_OPTS="$heap" DFE_FETCHER_LOG_LEVEL=WARN \
    timed rest "$rows" "$(stat -c %s "$work/data/hosts.ndjson")" "$fetcher" run --config "$dir/config.yaml" --once
  [[ $i == 1 ]] && verify_complete --bootstrap-server "$bootstrap" --topic "$topic-hosts_land"
  return 0
}

# curl reading the same pages, in order, over one kept-alive connection, into /dev/null; the
# bytes it counted (one line per page) must add up to the input's.
run_limit_curl() { # PAGES
  local bytes counted
  bytes=$(stat -c %s "$work/data/hosts.ndjson")
  timed limit-curl "$rows" "$bytes" \
    curl -sSf -o /dev/null -w '%{size_download}\n' "http://127.0.0.1:$rest_port/pages/[1-$1]"
  ((timed_failed)) && return 0
  counted=$(awk '{ s += $1 } END { printf "%d", s }' "$work/last.out")
  ((counted == bytes)) || die "curl read $counted bytes of the pages, not the $bytes of the input"
}

# The JDK's HttpClient reading the same pages as the REST source does; the bytes it read must be
# the input's.
run_limit_httpclient() { # PAGES
  local bytes
  bytes=$(stat -c %s "$work/data/hosts.ndjson")
  timed limit-httpclient "$rows" "$bytes" \
    java -cp "$work/classes" HttpClientPages "http://127.0.0.1:$rest_port" "$1"
  ((timed_failed)) && return 0
  (($(<"$work/last.out") == bytes)) || die "HttpClient read $(<"$work/last.out") bytes of the pages, not the $bytes of the input"
}

# fixed_cost RUN: `java -version`, then run --once of the one-row file to the file output, each
# in a fresh directory; run 0 is the warm-up (it also makes the launcher's class-data archive).
fixed_cost() {
  local i=$1 dir="$work/runs/fixed-cost-$1"
  fetcher_config "$dir" file bfixed "$work/data/one.ndjson" ""
  if ((i == 0)); then
    java -version >/dev/null 2>&1
    DFE_FETCHER_LOG_LEVEL=WARN "$fetcher" run --config "$dir/config.yaml" --once >/dev/null 2>&1 ||
      die "run --once of the one-row file failed"
    return 0
  fi
  timed limit-java 1 0 java -version
  DFE_FETCHER_LOG_LEVEL=WARN timed fixed-cost 1 "$(stat -c %s "$work/data/one.ndjson")" \
    "$fetcher" run --config "$dir/config.yaml" --once
}

# The tail case: tail-vs-rsyslog.sh's Kafka side in a work directory of its own, on this
# script's ports once its broker is stopped; its medians become the tail and limit-rsyslog rows.
run_tail() {
  if ! command -v rsyslogd >/dev/null || ! command -v kcat >/dev/null; then
    log "skipping tail: rsyslogd (rsyslog-kafka) or kcat is missing"
    return 0
  fi
  "$local_kafka" --stop >/dev/null 2>&1 || true
  CASES="fetcher rsyslog" SINKS=kafka LINES="$tail_lines" WARMUP="$tail_warmup" RUNS="$runs" \
    HEAP="$heap" \
    BENCH_DIR="$work/tail" "$root/benchmarks/scripts/tail-vs-rsyslog.sh" \
    >"$work/results/tail-vs-rsyslog.txt" 2>"$work/results/tail-vs-rsyslog.log" || {
    tail -n 20 "$work/results/tail-vs-rsyslog.log" >&2
    log "tail failed (its log: $work/results/tail-vs-rsyslog.log)"
    return 0
  }
  # Its runs are "SECONDS CPU_SECONDS LOAD"; kept here as "SECONDS RSS_KB LINES BYTES LOAD",
  # without the RSS and bytes it does not measure.
  local name ours
  for name in fetcher rsyslog; do
    ours="tail"
    [[ $name == rsyslog ]] && ours="limit-rsyslog"
    awk -v n="$tail_lines" '{ print $1, 0, n, 0, $3 }' "$work/tail/results/$name-kafka.runs" \
      >"$work/results/$ours.runs"
  done
}

# The median of numbers, one a line; printed in full (awk's print would cut a rate above a million
# to six digits, in exponent form).
median() { sort -g | awk '{ v[NR] = $1 } END { printf "%.6f\n", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# The cases in the order of the table of medians; the tail's figures are in its own table.
readonly TABLE_CASES="baseline baseline-tuned baseline-frames-tuned limit-records limit-records-bare baseline-frames peer kafka kafka-filter file limit-cat
  file-big pg limit-psql verify-topic verify-one limit-consumer apply limit-copy rest limit-curl limit-httpclient
  fixed-cost limit-java verify-small"
# The cases that land the input rows, whose rows/s compare with the producer's.
readonly LANDING_CASES="baseline baseline-tuned baseline-frames-tuned limit-records limit-records-bare baseline-frames peer kafka kafka-filter file file-big pg rest"

# Prints the table of medians over each case's runs.
report() {
  local base_rate="" name
  if [[ -f $work/results/baseline.runs ]]; then
    base_rate=$(awk '{ printf "%.6f\n", $3 / $1 }' "$work/results/baseline.runs" | median)
  fi
  printf '\n| case | rows | runs | median s | rows/s | MB/s | × baseline | peak RSS MiB | load (1 min) |\n'
  printf '|---|---:|---:|---:|---:|---:|---:|---:|---:|\n'
  for name in $TABLE_CASES; do
    local f="$work/results/$name.runs"
    [[ -f $f ]] || continue
    local secs rate mbs rss n load ratio
    secs=$(awk '{ print $1 }' "$f" | median)
    rate=$(awk '{ printf "%.6f\n", $3 / $1 }' "$f" | median)
    mbs=$(awk '{ printf "%.6f\n", $4 / $1 / 1000000 }' "$f" | median)
    rss=$(awk '{ printf "%.6f\n", $2 / 1024 }' "$f" | median)
    n=$(awk 'NR == 1 { print $3 }' "$f")
    load=$(awk '{ print $5 }' "$f" | tr '\n' ' ')
    ratio="—"
    # Only a case that lands the input rows compares with the producer; the others read frames,
    # copy bytes or start a JVM.
    [[ -n $base_rate && " $LANDING_CASES " == *" $name "* ]] && ratio=$(echo "$rate / $base_rate" | bc -l)
    printf '| %s | %d | %d | %.2f | %.0f | %.1f | %s | %.0f | %s |\n' "$name" "$n" "$(wc -l <"$f")" \
      "$secs" "$rate" "$mbs" "$( [[ $ratio == — ]] && echo — || printf '%.2f' "$ratio")" "$rss" "$load"
  done
  for f in "$work"/results/*.failed; do
    [[ -f $f ]] || continue
    printf '\n%s: %d failed run(s): %s\n' "$(basename "$f" .failed)" "$(wc -l <"$f")" "$(sort -u "$f" | tr '\n' ' ')"
  done
  for name in baseline baseline-tuned baseline-frames-tuned baseline-frames; do
    [[ -f $work/results/$name.tool ]] || continue
    printf '\n%s, as ProducerPerformance reports itself (no JVM start):\n' "$name"
    sed 's/^/  /' "$work/results/$name.tool"
  done
  if [[ -f $work/results/limit-consumer.tool ]]; then
    printf '\nlimit-consumer, as ConsumerPerformance reports itself (no JVM start; the last column, the\nfetch rate, also leaves the group join out):\n'
    sed 's/^/  /' "$work/results/limit-consumer.header" "$work/results/limit-consumer.tool"
  fi
  if [[ -f $work/results/tail-vs-rsyslog.txt ]]; then
    printf '\ntail-vs-rsyslog.sh, its own table (SINKS=kafka, %s lines):\n' "$tail_lines"
    sed -n '/^case /,$p' "$work/results/tail-vs-rsyslog.txt" | sed 's/^/  /'
  fi
}

# median_of CASE EXPRESSION: the median over CASE's runs of an awk expression of a run's fields
# ($1 seconds, $2 peak RSS KiB, $3 rows, $4 bytes); nothing when the case has no run.
median_of() {
  local f="$work/results/$1.runs"
  [[ -s $f ]] || return 0
  awk "{ printf \"%.6f\\n\", $2 }" "$f" | median
}
# shellcheck disable=SC2016 # awk's fields, not the shell's
rows_per_second() { median_of "$1" '$3 / $1'; }
# shellcheck disable=SC2016
mb_per_second() { median_of "$1" '$4 / $1 / 1000000'; }
# shellcheck disable=SC2016
seconds() { median_of "$1" '$1'; }

# figure VALUE UNIT: "148,912 rows/s", "291.3 MB/s", "0.56 s"; "not measured" when empty.
figure() {
  [[ -n $1 ]] || { echo "not measured"; return 0; }
  awk -v v="$1" -v unit="$2" 'function grouped(x,   s, out) {
      s = sprintf("%.0f", x); out = ""
      while (length(s) > 3) { out = "," substr(s, length(s) - 2) out; s = substr(s, 1, length(s) - 3) }
      return s out
    }
    BEGIN {
      if (unit == "MB/s") printf "%.1f MB/s", v
      else if (unit == "s") printf "%.2f s", v
      else printf "%s %s", grouped(v), unit
    }'
}

# ratio_row PATH LIMIT FETCHER LIMIT_VALUE UNIT GOAL: one row of the summary, the ratio
# FETCHER / LIMIT_VALUE against a goal of at least GOAL × ("" as GOAL: reported, no goal).
ratio_row() {
  local path=$1 limit=$2 ours=$3 theirs=$4 unit=$5 goal=$6 ratio="—" met="—" goal_text="reported"
  [[ -n $goal ]] && goal_text="≥ $goal ×"
  if [[ -n $ours && -n $theirs ]]; then
    ratio=$(awk -v a="$ours" -v b="$theirs" 'BEGIN { printf "%.2f ×", a / b }')
    [[ -n $goal ]] && met=$(awk -v a="$ours" -v b="$theirs" -v g="$goal" 'BEGIN { print (a / b >= g ? "yes" : "no") }')
  fi
  printf '| %s | %s | %s | %s | %s | %s | %s |\n' "$path" "$limit" "$(figure "$ours" "$unit")" \
    "$(figure "$theirs" "$unit")" "$ratio" "$goal_text" "$met"
}

# Issue 24's table: every path against the fastest tool doing its part, measured in this run.
# Each figure is a median over the case's runs, seconds of wall clock with JVM start included.
summary() {
  local tuned frames_tuned psql_rate pg_limit pg_limit_name consumer verify one apart tool_rate
  tuned=$(rows_per_second baseline-tuned)
  frames_tuned=$(rows_per_second baseline-frames-tuned)
  printf '\n| path | limit measured in the same run | fetcher figure | limit figure | ratio | goal | met? |\n'
  printf '|---|---|---:|---:|---:|---|---|\n'
  ratio_row "file dump → Kafka (\`kafka\`)" "ProducerPerformance with the fetcher's batching, sending the fetcher's frames (\`baseline-frames-tuned\`)" \
    "$(rows_per_second kafka)" "$frames_tuned" rows/s 0.9
  ratio_row "file dump → Kafka, 90 %-keep filter (\`kafka-filter\`)" "the same (\`baseline-frames-tuned\`)" \
    "$(rows_per_second kafka-filter)" "$frames_tuned" rows/s 0.8
  ratio_row "file dump → Kafka (\`kafka\`), against the producer sending the input rows instead" "ProducerPerformance with the fetcher's batching, sending the input rows (\`baseline-tuned\`)" \
    "$(rows_per_second kafka)" "$tuned" rows/s ""
  ratio_row "file dump → Kafka (\`kafka\`), against the producer sending exactly the fetcher's records" "one loop sending the frames with the fetcher's key and three headers (\`limit-records\`)" \
    "$(rows_per_second kafka)" "$(rows_per_second limit-records)" rows/s ""
  ratio_row "the producer alone: the fetcher's key and headers (\`limit-records\`)" "the same loop sending the frames bare (\`limit-records-bare\`)" \
    "$(rows_per_second limit-records)" "$(rows_per_second limit-records-bare)" rows/s ""
  ratio_row "file dump → file output (\`file\`)" "\`cat\` of the input into a landing directory, then \`sync\` of the copy (\`limit-cat\`)" \
    "$(mb_per_second file)" "$(mb_per_second limit-cat)" MB/s 0.5
  psql_rate=$(rows_per_second limit-psql)
  pg_limit=$psql_rate
  pg_limit_name="limit-psql"
  if [[ -n $tuned ]] && { [[ -z $pg_limit ]] || awk -v a="$tuned" -v b="$pg_limit" 'BEGIN { exit !(a < b) }'; }; then
    pg_limit=$tuned
    pg_limit_name="baseline-tuned"
  fi
  if [[ -z $psql_rate || -z $tuned ]]; then
    pg_limit=""
    pg_limit_name="not measured"
  fi
  ratio_row "PostgreSQL dump → Kafka (\`pg\`)" "the slower of \`COPY (SELECT * FROM accounts) TO STDOUT\` read by psql (\`limit-psql\`: $(figure "$psql_rate" rows/s)) and \`baseline-tuned\`; the slower: \`$pg_limit_name\`" \
    "$(rows_per_second pg)" "$pg_limit" rows/s 0.6
  consumer=$(rows_per_second limit-consumer)
  verify=$(rows_per_second verify-topic)
  ratio_row "\`snapshots verify\` from a topic (\`verify-topic\`)" "ConsumerPerformance reading the same topic, JVM start included (\`limit-consumer\`)" \
    "$verify" "$consumer" frames/s 0.8
  one=$(seconds verify-one)
  apart=""
  if [[ -n $one && -n $verify ]]; then
    apart=$(median_of verify-topic "\$3 / (\$1 - $one)")
  fi
  tool_rate=""
  if [[ -s $work/results/limit-consumer.tool ]]; then
    tool_rate=$(awk -F', *' '{ print $NF }' "$work/results/limit-consumer.tool" | median)
  fi
  ratio_row "\`snapshots verify\` from a topic, its fixed cost apart (verify of a one-row topic, \`verify-one\`: $(figure "$one" s))" \
    "ConsumerPerformance's own fetch rate, JVM start and group join left out (fetch.nMsg.sec)" \
    "$apart" "$tool_rate" frames/s ""
  ratio_row "\`snapshots apply\` of $(figure "$rows" rows) into an empty table (\`apply\`)" "psql's \`\\copy\` of the same rows into an unlogged table of the same columns and key (\`limit-copy\`)" \
    "$(rows_per_second apply)" "$(rows_per_second limit-copy)" rows/s 0.5
  ratio_row "REST dump → Kafka, NDJSON pages of 1,000 records from a local server (\`rest\`)" "curl reading the same pages into /dev/null (\`limit-curl\`)" \
    "$(rows_per_second rest)" "$(rows_per_second limit-curl)" rows/s 0.5
  ratio_row "REST dump → Kafka (\`rest\`), against the JDK's HTTP client alone" "HttpClient reading the same pages as the source reads them, bytes thrown away (\`limit-httpclient\`)" \
    "$(rows_per_second rest)" "$(rows_per_second limit-httpclient)" rows/s ""
  ratio_row "file tail → Kafka (\`tail\`, $(figure "$tail_lines" lines))" "rsyslog imfile + omkafka (\`tail-vs-rsyslog.sh\`, \`limit-rsyslog\`)" \
    "$(rows_per_second tail)" "$(rows_per_second limit-rsyslog)" lines/s 1
  local ours theirs above="—" met="—"
  ours=$(seconds fixed-cost)
  theirs=$(seconds limit-java)
  if [[ -n $ours && -n $theirs ]]; then
    above=$(awk -v a="$ours" -v b="$theirs" 'BEGIN { printf "%+.2f s", a - b }')
    met=$(awk -v a="$ours" -v b="$theirs" 'BEGIN { print (a - b <= 0.4 ? "yes" : "no") }')
  fi
  printf '| %s | %s | %s | %s | %s | %s | %s |\n' "fixed cost: \`run --once\` on a one-row file (\`fixed-cost\`)" \
    "\`java -version\` on this JVM (\`limit-java\`)" "$(figure "$ours" s)" "$(figure "$theirs" s)" "$above" "≤ 0.4 s above" "$met"
  printf '\n%s rows, %s runs a case (medians), %s, load at the end %s.\n' "$rows" "$runs" \
    "$(nproc) cores" "$(loadavg)"
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
  head -n 1 "$work/data/hosts.ndjson" >"$work/data/one.ndjson"
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
  if wanted baseline-frames-tuned; then
    sample_frames
    for ((i = 1; i <= runs; i++)); do
      producer_perf baseline-frames-tuned "$work/data/frames-sample.ndjson" "$rows" "bftuned$i" \
        batch.size=262144 linger.ms=5
    done
  fi
  if wanted limit-records || wanted limit-records-bare; then
    sample_frames
    records_producer_build
    for ((i = 1; i <= runs; i++)); do
      wanted limit-records && records_producer limit-records "$rows" "brecords$i"
      wanted limit-records-bare && records_producer limit-records-bare "$rows" "brecbare$i" bare
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
      ((i == 1)) || rm -rf "$work/runs/file-$i/landing"
    done
  fi
  if wanted baseline-frames; then
    sample_frames
    for ((i = 1; i <= runs; i++)); do producer_perf baseline-frames "$work/data/frames-sample.ndjson" "$rows" "bframes$i"; done
  fi
  if wanted limit-cat; then
    for ((i = 1; i <= runs; i++)); do
      local landing="$work/runs/limit-cat-$i/landing"
      mkdir -p "$landing"
      # shellcheck disable=SC2016 # the inner shell's arguments
      timed limit-cat "$rows" "$(stat -c %s "$work/data/hosts.ndjson")" \
        sh -c 'cat "$1" >"$2" && sync "$2"' sh "$work/data/hosts.ndjson" "$landing/hosts.ndjson"
      rm -rf "$landing"
    done
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
  if wanted limit-psql; then
    if [[ -n $database_made ]]; then
      for ((i = 1; i <= runs; i++)); do run_limit_psql; done
    else
      log "skipping limit-psql: it reads the table the pg case made"
    fi
  fi
  if wanted verify-topic && [[ -n $first_kafka_topic ]]; then
    local one_topic
    one_topic=$(one_row_topic)
    for ((i = 1; i <= runs; i++)); do
      DFE_FETCHER_JAVA_OPTS="-XX:+UseSerialGC $heap" timed verify-topic "$((rows + 2))" 0 \
        "$fetcher" snapshots verify --bootstrap-server "$bootstrap" --topic "$first_kafka_topic"
      DFE_FETCHER_JAVA_OPTS="-XX:+UseSerialGC $heap" timed verify-one 3 0 \
        "$fetcher" snapshots verify --bootstrap-server "$bootstrap" --topic "$one_topic"
    done
  fi
  if wanted limit-consumer && [[ -n $first_kafka_topic ]]; then
    for ((i = 1; i <= runs; i++)); do consumer_perf "$i" "$first_kafka_topic" "$((rows + 2))"; done
  fi
  if wanted apply || wanted limit-copy; then
    if pg_available; then
      ensure_database
      if wanted apply; then
        local frames
        frames=$(apply_input)
        for ((i = 1; i <= runs; i++)); do run_apply "$i" "$frames"; done
      fi
      if wanted limit-copy && [[ -f $work/results/apply.runs ]]; then
        for ((i = 1; i <= runs; i++)); do run_limit_copy "$i"; done
      elif wanted limit-copy; then
        log "skipping limit-copy: it copies the rows the apply case wrote"
      fi
    else
      log "skipping apply and limit-copy: no PostgreSQL on 127.0.0.1:5432"
    fi
  fi
  if wanted limit-httpclient; then
    mkdir -p "$work/classes"
    javac -d "$work/classes" "$root/benchmarks/tools/HttpClientPages.java"
  fi
  if wanted rest || wanted limit-curl || wanted limit-httpclient; then
    local pages
    pages=$(generate_pages)
    start_page_server "$pages"
    log "serving $pages pages of 1,000 rows on 127.0.0.1:$rest_port"
    for ((i = 1; i <= runs; i++)); do
      wanted rest && run_rest "$i" "$pages"
      wanted limit-curl && run_limit_curl "$pages"
      wanted limit-httpclient && run_limit_httpclient "$pages"
    done
    stop_pid "$server_pid"
    server_pid=""
    rm -rf "$work/data/pages"
  fi
  if wanted fixed-cost; then
    for ((i = 0; i <= runs; i++)); do fixed_cost "$i"; done
  fi
  if wanted verify-small; then
    generate_small_snapshots "$work/data/small.ndjson"
    for ((i = 1; i <= runs; i++)); do
      DFE_FETCHER_JAVA_OPTS="-XX:+UseSerialGC -Xmx256m" timed verify-small 1200000 \
        "$(stat -c %s "$work/data/small.ndjson")" "$fetcher" snapshots verify "$work/data/small.ndjson"
    done
  fi
  wanted tail && run_tail
  report | tee "$work/results/table.md"
  summary | tee "$work/results/summary.md"
  log "load at the end: $(loadavg)"
}

main "$@"
