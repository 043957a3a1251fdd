#!/usr/bin/env bash
# Issue 22's side-by-side benchmark: lines per second from a growing file to Kafka, and CPU per
# line, for a dfe-fetcher tail unit and for rsyslog (imfile + omkafka, Debian's rsyslog-kafka), in
# the same run against the same local single-node broker. Each shipper follows an empty file; a
# writer then appends LINES lines of about 200 bytes in chunks of CHUNK lines as fast as it can,
# and the clock runs from the first append until the topic holds every line. CPU is the shipper's
# own utime + stime from /proc/<pid>/stat over the same stretch (JVM start left out: WARMUP
# lines, one by default, are shipped and landed before the clock starts; WARMUP=200000 leaves the
# JIT's warm-up out as well, for the steady state of a long-running service). Everything it started (broker,
# rsyslogd, the fetcher) is stopped on exit. Not part of `mvn verify`.
#
# Each shipper is measured twice per run: to Kafka (the fetcher's Kafka output, rsyslog's omkafka;
# the clock stops when the topic holds every line) and to a file (the fetcher's file output,
# rsyslog's omfile; the clock stops when the landing file holds every line, counted with wc -l).
#
#   benchmarks/scripts/tail-vs-rsyslog.sh                       # 1,000,000 lines, 3 runs each
#   LINES=20000 RUNS=1 benchmarks/scripts/tail-vs-rsyslog.sh    # a smoke check
#   CASES=fetcher benchmarks/scripts/tail-vs-rsyslog.sh
#   SINKS=file benchmarks/scripts/tail-vs-rsyslog.sh            # the file side only
#
# Needs rsyslogd with omkafka (`apt-get install -y rsyslog-kafka`) and kcat (`apt-get install -y
# kcat`, to read the topic's end offset). Figures are only worth writing down from a quiet
# machine: the shipper, the writer and the broker share its cores.
#
# Environment: LINES (1000000), CHUNK (10000), WARMUP (1, lines landed before the clock starts,
# taken from the head of the same data), RUNS (3), CASES ("fetcher rsyslog"), SINKS
# ("kafka file"), HEAP
# (-Xmx256m, the fetcher's heap), BENCH_DIR (a new directory under /tmp; kept with KEEP=1),
# TIMEOUT (600, seconds one run may take), DFE_KAFKA_PORT (19092) and DFE_KAFKA_CONTROLLER_PORT
# (19093) for the broker.
set -euo pipefail
# shellcheck source=benchmarks/scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
bench_name=tail-vs-rsyslog
no_arguments "$@"

lines="${LINES:-1000000}"
chunk="${CHUNK:-10000}"
warmup="${WARMUP:-1}"
((warmup >= 1 && warmup <= lines)) || die "WARMUP ($warmup) must be from 1 to LINES ($lines)"
runs="${RUNS:-3}"
cases="${CASES:-fetcher rsyslog}"
sinks="${SINKS:-kafka file}"
heap="${HEAP:--Xmx256m}"
timeout="${TIMEOUT:-600}"
export DFE_KAFKA_PORT="${DFE_KAFKA_PORT:-19092}"
export DFE_KAFKA_CONTROLLER_PORT="${DFE_KAFKA_CONTROLLER_PORT:-19093}"
bootstrap="127.0.0.1:$DFE_KAFKA_PORT"
work="${BENCH_DIR:-$(make_work_dir dfe-tail-bench)}"
mkdir -p "$work/results"
export DFE_KAFKA_DIR="$work/kafka"
clock_ticks=$(getconf CLK_TCK)
shipper_pid=""

command -v rsyslogd >/dev/null || die "rsyslogd is missing: apt-get install -y rsyslog-kafka"
command -v kcat >/dev/null || die "kcat is missing: apt-get install -y kcat"

cleanup() {
  set +e
  [[ -n $shipper_pid ]] && stop_pid "$shipper_pid"
  "$local_kafka" --stop 2>/dev/null
  if [[ ${KEEP:-0} == 1 ]]; then
    log "kept $work"
  else
    rm -rf "$work/kafka" "$work/runs" "$work/data"
    log "results kept in $work/results"
  fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# The CPU seconds (user + system) a process has used so far. The fields after the command name,
# which may hold spaces, start at state: utime and stime are the 12th and 13th of them.
cpu_seconds() {
  local stat
  stat=$(<"/proc/$1/stat")
  stat=${stat##*) }
  awk -v ticks="$clock_ticks" '{ printf "%.3f", ($12 + $13) / ticks }' <<<"$stat"
}

# The number of records on partition 0 of a topic; 0 while the topic does not exist.
end_offset() {
  kcat -b "$bootstrap" -Q -t "$1:0:-1" 2>/dev/null | awk '{ print $NF }' | grep -E '^[0-9]+$' ||
    echo 0
}

# wait_for_offset TOPIC N PID: polls until TOPIC holds N records, or fails when PID is gone or
# TIMEOUT passes.
wait_for_offset() {
  local topic=$1 n=$2 pid=$3 deadline=$((SECONDS + timeout))
  while (($(end_offset "$topic") < n)); do
    kill -0 "$pid" 2>/dev/null || die "the shipper (pid $pid) stopped before $n lines landed on $topic"
    ((SECONDS < deadline)) || die "$topic did not reach $n records in $timeout s"
    sleep 0.2
  done
}

# The number of lines in a file; 0 while it does not exist.
file_lines() {
  if [[ -f $1 ]]; then wc -l <"$1"; else echo 0; fi
}

# wait_for_lines FILE N PID: as wait_for_offset, for a landing file.
wait_for_lines() {
  local file=$1 n=$2 pid=$3 deadline=$((SECONDS + timeout))
  while (($(file_lines "$file") < n)); do
    kill -0 "$pid" 2>/dev/null || die "the shipper (pid $pid) stopped before $n lines landed in $file"
    ((SECONDS < deadline)) || die "$file did not reach $n lines in $timeout s"
    sleep 0.2
  done
}

# wait_for SINK TOPIC DIR N PID: waits until the sink holds N lines.
wait_for() {
  case $1 in
    kafka) wait_for_offset "$2" "$4" "$5" ;;
    file) wait_for_lines "$3/landing/$2.ndjson" "$4" "$5" ;;
  esac
}

# Lines of about 200 bytes, each one JSON object (the fetcher's ndjson decoder lands them as
# written, with _file_path and _file_offset added; rsyslog ships the line as it is).
generate_lines() {
  awk -v n="$1" 'BEGIN {
    for (i = 0; i < n; i++)
      printf "{\"ts\":\"2026-05-01T12:00:%02d.%03dZ\",\"level\":\"%s\",\"host\":\"web-%03d\",\"request_id\":\"req-%012d\",\"path\":\"/api/v1/items/%d\",\"status\":%d,\"ms\":%d,\"msg\":\"served the request\"}\n", i % 60, i % 1000, (i % 10 ? "info" : "warn"), i % 200, i, i % 5000, (i % 20 ? 200 : 503), i % 900
  }' >"$2"
  split -l "$chunk" -d -a 6 "$2" "$work/data/chunk."
}

fetcher_config() { # DIR FILE TOPIC SINK (the topic the unit lands on: <topic>_land)
  local output
  case $4 in
    kafka) output="{type: kafka, kafka: {bootstrap_servers: \"$bootstrap\", create_topics: true}}" ;;
    file) output="{type: file, file: {directory: ./landing, rotate_bytes: 0}}" ;;
  esac
  cat >"$1/config.yaml" <<YAML
instance_id: bench
output: $output
cursor: {directory: ./state}
metrics: {address: "127.0.0.1:0"}
sources:
  file:
    tail:
      topic: ${3%_land}
      interval_secs: 1
      units:
        - unit: app
          tail: {paths: ["$2"], decoder: ndjson, glob_interval_secs: 60}
YAML
}

rsyslog_config() { # DIR FILE TOPIC SINK
  local action
  mkdir -p "$1/spool" "$1/landing"
  case $4 in
    kafka)
      action="action(type=\"omkafka\" broker=[\"$bootstrap\"] topic=\"$3\" template=\"line\"
         confParam=[\"compression.codec=lz4\", \"queue.buffering.max.ms=5\"]
         topicConfParam=[\"request.required.acks=-1\"])"
      ;;
    file) action="action(type=\"omfile\" file=\"$1/landing/$3.ndjson\" template=\"file_line\")" ;;
  esac
  cat >"$1/rsyslog.conf" <<CONF
global(workDirectory="$1/spool")
module(load="imfile" mode="inotify")
module(load="omkafka")
template(name="line" type="string" string="%msg%")
template(name="file_line" type="string" string="%msg%\\n")
input(type="imfile" file="$2" tag="bench" ruleset="ship")
ruleset(name="ship") {
  $action
}
CONF
}

# run_case CASE SINK RUN: one shipper on one growing file, landing on SINK (kafka or file);
# appends "SECONDS CPU_SECONDS LOAD" to the results of CASE-SINK.
run_case() {
  local name=$1 sink=$2 i=$3 dir="$work/runs/$1-$2-$3" topic="tail${1}${2}${3}_land" file
  mkdir -p "$dir"
  file="$dir/app.log"
  : >"$file"
  case $name in
    fetcher)
      fetcher_config "$dir" "$file" "$topic" "$sink"
      (cd "$dir" && DFE_FETCHER_JAVA_OPTS="$heap" DFE_FETCHER_LOG_LEVEL=WARN \
        exec "$fetcher" run --config "$dir/config.yaml") >"$dir/shipper.log" 2>&1 &
      shipper_pid=$!
      ;;
    rsyslog)
      rsyslog_config "$dir" "$file" "$topic" "$sink"
      rsyslogd -n -f "$dir/rsyslog.conf" -i "$dir/rsyslogd.pid" >"$dir/shipper.log" 2>&1 &
      shipper_pid=$!
      ;;
    *) die "unknown case $name (CASES: fetcher rsyslog)" ;;
  esac
  # WARMUP lines first (at least one), so start-up, the first connection to the sink and, with
  # enough of them, the JIT's compiling of the hot path are not measured: a tail is a service
  # that runs for days, and rsyslog, native code, has no warm-up of its own to leave out.
  head -n "$warmup" "$work/data/lines" >>"$file"
  wait_for "$sink" "$topic" "$dir" "$warmup" "$shipper_pid"
  local cpu_before start end cpu_after part
  cpu_before=$(cpu_seconds "$shipper_pid")
  start=$(now)
  for part in "$work/data"/chunk.*; do
    cat "$part" >>"$file"
  done
  wait_for "$sink" "$topic" "$dir" "$((lines + warmup))" "$shipper_pid"
  end=$(now)
  cpu_after=$(cpu_seconds "$shipper_pid")
  # The last record as it landed, to see what each shipper sends (the fetcher adds its fields).
  if [[ $sink == kafka ]]; then
    kcat -b "$bootstrap" -C -t "$topic" -o -1 -c 1 -e >"$dir/last-record" 2>/dev/null || true
  else
    tail -n 1 "$dir/landing/$topic.ndjson" >"$dir/last-record"
  fi
  stop_pid "$shipper_pid"
  shipper_pid=""
  printf '%s %s %s\n' "$(echo "$end - $start" | bc)" "$(echo "$cpu_after - $cpu_before" | bc)" \
    "$(cut -d' ' -f1 /proc/loadavg)" >>"$work/results/$name-$sink.runs"
  log "$name to $sink, run $i: $(tail -n 1 "$work/results/$name-$sink.runs") (seconds, cpu seconds, load)"
}

build_fetcher
mkdir -p "$work/data" "$work/runs"
log "generating $lines lines in $work/data"
generate_lines "$lines" "$work/data/lines"
log "starting the broker on $bootstrap"
"$local_kafka" --background >/dev/null

for ((i = 1; i <= runs; i++)); do
  for sink in $sinks; do
    for name in $cases; do
      run_case "$name" "$sink" "$i"
    done
  done
done

# The table: medians over the runs.
printf '\n%-16s %5s %14s %16s %10s %6s\n' case runs lines/s "CPU µs/line" "CPU cores" load
for sink in $sinks; do
  for name in $cases; do
    sort -n "$work/results/$name-$sink.runs" | awk -v n="$lines" -v name="$name to $sink" '
    { s[NR] = $1; c[NR] = $2; l[NR] = $3 }
    END {
      m = int((NR + 1) / 2)
      printf "%-16s %5d %14.0f %16.2f %10.2f %6s\n", name, NR, n / s[m], c[m] / n * 1e6, c[m] / s[m], l[m]
    }'
  done
done
