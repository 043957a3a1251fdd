#!/usr/bin/env bash
# The soak of issue 25: one `dfe-fetcher run` (the shipped jar, through ./dfe-fetcher) over every
# family at once, each unit on `interval_secs: 1`, landing on a real Kafka broker of its own
# (scripts/local-kafka.sh) for SOAK_SECS, while writers feed its sources:
#
#   file dump     data/hosts.ndjson (200 rows), rewritten whole every 60 s
#   file tail     logs/app.log, 5 numbered lines appended every 0.2 s
#   pg            a 200-row table dumped, and a table a writer inserts 5 rows into every 0.2 s,
#                 read by a keyset tail (a database soak_<pid> of its own on 127.0.0.1:5432)
#   mariadb       the same on MariaDB (127.0.0.1:3306)
#   rest          a REST dump of 500 records in pages of 100 (benchmarks/tools/NdjsonPageServer.java)
#
# Every SAMPLE_SECS it samples the fetcher's RSS (/proc), heap used (jvm_memory_used_bytes on
# /metrics), threads, open file descriptors, the connections to each database (pg_stat_activity,
# information_schema.processlist), its TCP connections to the broker (ss -tnp) and each unit's
# ticks and failed ticks (/metrics). At the end the writers stop, the fetcher gets 15 s to take
# the last rows, then SIGTERM; then the checks:
#
#   - the fetcher exits 0 on SIGTERM;
#   - every tail row and line written landed (benchmarks/tools/FaultCampaignCheck.java's tail
#     check against the topic);
#   - every snapshot on each dump topic is complete (`snapshots verify`), but for at most one open
#     one per store, the dump the SIGTERM cut;
#   - every unit ticked in the last third of the run, and its last success is under 30 s old;
#   - growth: of the samples after the first (taken before the first ticks), the last third's
#     highest RSS is at most 10 % over the first third's highest, and its threads, fds, database
#     and broker connections at most GROWTH_SLACK (2) over the first third's highest.
#
# Prints the sample table and one line on stdout,
#   soak: secs=1800 samples=31 units=7 ticks=N failed_ticks=N written=N snapshots=N lost=0 growth=none errors=N
# (errors: ERROR lines in the fetcher's log), exit 1 when a check fails (problems=... names
# them). Results (samples.tsv, the table, logs, checks) stay in the work directory.
#
#   benchmarks/scripts/soak.sh                              # 30 minutes, a sample a minute
#   SOAK_SECS=180 SAMPLE_SECS=20 benchmarks/scripts/soak.sh
#
# Settings (environment): SOAK_SECS (1800), SAMPLE_SECS (60), GROWTH_SLACK (2), HEAP
# (-Xmx256m), SOAK_DIR (a new or empty directory; default a new one under /tmp),
# DFE_KAFKA_PORT (37392) and DFE_KAFKA_CONTROLLER_PORT (37393) for the broker.
# Needs: JDK 17, Maven (to build the jar once), curl, psql, mysql, ss, PostgreSQL on
# 127.0.0.1:5432 (trust, user postgres, database test) and MariaDB on 127.0.0.1:3306 (root, no
# password); the databases soak_<pid> it makes are dropped at the end.
set -euo pipefail
# shellcheck source=benchmarks/scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
no_arguments "$@"

soak_secs="${SOAK_SECS:-1800}"
sample_secs="${SAMPLE_SECS:-60}"
slack="${GROWTH_SLACK:-2}"
heap="${HEAP:--Xmx256m}"
work="${SOAK_DIR:-$(make_work_dir dfe-soak)}"
mkdir -p "$work"
[[ -z $(ls -A "$work") ]] || die "$work is not empty: give SOAK_DIR a new directory"
export DFE_KAFKA_PORT="${DFE_KAFKA_PORT:-37392}"
export DFE_KAFKA_CONTROLLER_PORT="${DFE_KAFKA_CONTROLLER_PORT:-37393}"
export DFE_KAFKA_DIR="$work/kafka"
database="soak_$$"
mysql=(mysql -h 127.0.0.1 -P 3306 -u root -N -B)
broker_started=""
pg_made=""
mariadb_made=""
fetcher_pid=""
background_pids=()

cleanup() {
  set +e
  trap - EXIT
  local pid
  [[ -n $fetcher_pid ]] && stop_pid "$fetcher_pid"
  for pid in "${background_pids[@]}"; do
    kill -KILL "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
  done
  [[ -n $broker_started ]] && "$local_kafka" --stop >/dev/null 2>&1
  [[ -n $pg_made ]] && drop_database "$database"
  [[ -n $mariadb_made ]] && "${mysql[@]}" -e "DROP DATABASE IF EXISTS $database"
  rm -rf "$work/kafka"
  log "kept $work (samples, logs, checks)"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Started in the background and killed on exit.
remember() { background_pids+=("$1"); }

problems=()
problem() {
  problems+=("$1")
  log "problem: $1"
}

# ---------------------------------------------------------------------------------------------
# The sources and their writers. Each writer runs until $work/stop-writers exists.

pg_sql() { "${psql[@]}" -d "$database" "$@"; }
mariadb_sql() { "${mysql[@]}" "$database" "$@"; }

hosts_file() { # GENERATION
  awk -v g="$1" 'BEGIN { for (i = 0; i < 200; i++)
    printf "{\"id\":\"host-%d\",\"generation\":%d,\"note\":\"a host of the soak, rewritten every minute\"}\n", i, g }' \
    >"$work/data/.hosts.tmp"
  mv -f "$work/data/.hosts.tmp" "$work/data/hosts.ndjson"
}

# The file dump's file, rewritten every 60 s.
file_writer() {
  local g=1 next=$((SECONDS + 60))
  while [[ ! -e $work/stop-writers ]]; do
    if ((SECONDS >= next)); then
      hosts_file "$g"
      g=$((g + 1))
      next=$((SECONDS + 60))
    fi
    sleep 1
  done
}

# 5 numbered lines every 0.2 s; how many in logs/written at the end.
tail_writer() {
  local n=0
  while [[ ! -e $work/stop-writers ]]; do
    awk -v from="$n" -v to="$((n + 5))" 'BEGIN { for (i = from; i < to; i++) printf "line %d of the soak\n", i }' \
      >>"$work/logs/app.log"
    n=$((n + 5))
    sleep 0.2
  done
  printf '%d\n' "$n" >"$work/logs/written"
}

# db_writer INSERT_COMMAND...: 5 rows (ids FROM to TO) every 0.2 s.
db_writer() {
  local n=0
  while [[ ! -e $work/stop-writers ]]; do
    "$@" "$n" "$((n + 4))"
    n=$((n + 5))
    sleep 0.2
  done
}
pg_insert() { pg_sql -c "INSERT INTO events SELECT g, 'event ' || g FROM generate_series($1, $2) g"; }
mariadb_insert() { mariadb_sql -e "INSERT INTO events SELECT seq, CONCAT('event ', seq) FROM seq_$1_to_$2"; }

setup_sources() {
  mkdir -p "$work/data" "$work/logs" "$work/rest" "$work/classes"
  hosts_file 0
  : >"$work/logs/app.log"
  pg_available || die "no PostgreSQL on 127.0.0.1:5432 (trust, user postgres, database test)"
  create_database "$database" >/dev/null
  pg_made=1
  pg_sql <<SQL
CREATE TABLE accounts (id bigint PRIMARY KEY, name text NOT NULL, n integer NOT NULL);
INSERT INTO accounts SELECT i, 'account ' || i, i % 97 FROM generate_series(1, 200) AS s(i);
CREATE TABLE events (id bigint PRIMARY KEY, note text NOT NULL);
SQL
  "${mysql[@]}" -e "CREATE DATABASE $database" || die "no MariaDB on 127.0.0.1:3306 (root, no password)"
  mariadb_made=1
  mariadb_sql <<SQL
CREATE TABLE accounts (id bigint PRIMARY KEY, name text NOT NULL, n integer NOT NULL);
INSERT INTO accounts SELECT seq, CONCAT('account ', seq), seq % 97 FROM seq_1_to_200;
CREATE TABLE events (id bigint PRIMARY KEY, note text NOT NULL);
SQL
  javac -d "$work/classes" -cp "$fetcher_jar" "$root/benchmarks/tools/FaultCampaignCheck.java" \
    "$root/benchmarks/tools/NdjsonPageServer.java"
  java -cp "$work/classes" NdjsonPageServer "$work/rest" 500 100 >"$work/rest/server.log" 2>&1 &
  remember $!
  local deadline=$((SECONDS + 30))
  until [[ -s $work/rest/port ]]; do
    ((SECONDS < deadline)) || die "the REST server did not start (log: $work/rest/server.log)"
    sleep 0.1
  done
}

start_writers() {
  file_writer >"$work/file-writer.log" 2>&1 &
  remember $!
  tail_writer >"$work/tail-writer.log" 2>&1 &
  remember $!
  db_writer pg_insert >"$work/pg-writer.log" 2>&1 &
  remember $!
  db_writer mariadb_insert >"$work/mariadb-writer.log" 2>&1 &
  remember $!
}

# Every family on one fetcher, every unit on interval_secs: 1.
write_config() {
  cat >"$work/config.yaml" <<YAML
instance_id: soak
output:
  type: kafka
  kafka: {bootstrap_servers: "$bootstrap", create_topics: true}
cursor: {directory: ./state}
metrics: {address: "127.0.0.1:0"}
sources:
  file:
    files:
      topic: files
      interval_secs: 1
      units:
        - {unit: hosts, row_key: /id, dump: {paths: ["data/hosts.ndjson"]}}
    logs:
      topic: logs
      interval_secs: 1
      units:
        - unit: app
          tail: {paths: ["logs/app.log"], decoder: lines}
  db:
    pg:
      url: "jdbc:postgresql://127.0.0.1:5432/$database"
      user: postgres
      topic: pg
      interval_secs: 1
      stores:
        - {unit: accounts, shape: dump, query: "SELECT * FROM accounts", row_key: /id}
        - {unit: events, shape: tail, query: "SELECT * FROM events", key: [id], limit: 1000}
    mariadb:
      url: "jdbc:mariadb://127.0.0.1:3306/$database"
      user: root
      topic: mariadb
      interval_secs: 1
      stores:
        - {unit: accounts, shape: dump, query: "SELECT * FROM accounts", row_key: /id}
        - {unit: events, shape: tail, query: "SELECT * FROM events", key: [id], limit: 1000}
  rest:
    api:
      topic: api
      interval_secs: 1
      vars: {host: "http://127.0.0.1:$(<"$work/rest/port")"}
      profile:
        base_url: "{{ vars.host }}"
        endpoints:
          - {unit: hosts, shape: dump, path: /pages/1, row_key: /id, max_pages: 10,
             rows: {decoder: ndjson}, paginate: {type: link_header}}
YAML
}

# ---------------------------------------------------------------------------------------------
# Sampling.

scrape() { curl -fsS --max-time 5 "http://127.0.0.1:$metrics_port/metrics"; }

# metric_sum METRIC FILE [FILTER]: the sum of a metric's series (those matching FILTER).
metric_sum() {
  awk -v m="$1" -v f="${3:-}" '(index($0, m "{") == 1 || index($0, m " ") == 1) && index($0, f) { s += $NF }
    END { printf "%.0f\n", s }' "$2"
}

# unit_series METRIC FILE: "source value" for each unit.
unit_series() {
  awk -v m="$1" 'index($0, m "{") == 1 && match($0, /source="[^"]*"/) {
    printf "%s %.0f\n", substr($0, RSTART + 8, RLENGTH - 9), $NF }' "$2" | sort
}

# One line of samples.tsv; the unit's ticks and failures into samples/ticks-N.
sample() { # N ELAPSED
  local n=$1 m="$work/samples/metrics-$1.txt" threads rss fds heap_mib pgc mdbc kafkac
  read -r threads rss fds < <(proc_sample "$fetcher_pid")
  scrape >"$m" 2>/dev/null || : >"$m"
  heap_mib=$(($(metric_sum jvm_memory_used_bytes "$m" 'area="heap"') / 1048576))
  pgc=$("${psql[@]}" -d test -tAc "SELECT count(*) FROM pg_stat_activity WHERE datname = '$database'")
  mdbc=$("${mysql[@]}" -e "SELECT count(*) FROM information_schema.processlist WHERE db = '$database'")
  kafkac=$(ss -Htnp state established "( dport = :$DFE_KAFKA_PORT )" 2>/dev/null |
    grep -c "pid=$fetcher_pid," || true)
  unit_series dfe_fetcher_tick_duration_seconds_count "$m" >"$work/samples/ticks-$n"
  unit_series dfe_fetcher_tick_failures_total "$m" >"$work/samples/failures-$n"
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$n" "$2" "$rss" "$heap_mib" "$threads" "$fds" \
    "$pgc" "$mdbc" "$kafkac" "$(awk '{ s += $2 } END { print s + 0 }' "$work/samples/ticks-$n")" \
    "$(awk '{ s += $2 } END { print s + 0 }' "$work/samples/failures-$n")" >>"$work/samples.tsv"
}

sample_table() {
  echo "| min | RSS MiB | heap used MiB | threads | fds | pg conns | mariadb conns | broker conns | ticks | failed ticks | load (1, 5, 15 min) |"
  echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"
  paste "$work/samples.tsv" "$work/load.tsv" | awk -F'\t' 'NR > 1 {
    printf "| %.1f | %d | %d | %d | %d | %d | %d | %d | %d | %d | %s |\n", $2 / 60, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12 }'
}

# ---------------------------------------------------------------------------------------------
# The checks at the end.

check_tails() {
  local out missing
  awk -v n="$(<"$work/logs/written")" 'BEGIN { for (i = 0; i < n; i++) printf "line %d of the soak\n", i }' \
    >"$work/lines.expected"
  pg_sql -tAc "SELECT id FROM events ORDER BY id" >"$work/pg-events.expected"
  mariadb_sql -e "SELECT id FROM events ORDER BY id" >"$work/mariadb-events.expected"
  written=$(($(wc -l <"$work/lines.expected") + $(wc -l <"$work/pg-events.expected") +
    $(wc -l <"$work/mariadb-events.expected")))
  lost=0
  local check
  for check in "logs_land logs.app /message lines.expected" "pg_land pg.events /id pg-events.expected" \
    "mariadb_land mariadb.events /id mariadb-events.expected"; do
    set -- $check
    out=$(java -cp "$work/classes:$fetcher_jar" FaultCampaignCheck tail "$bootstrap" "$1" "$2" "$3" \
      "$work/$4" 2>&1) || true
    printf '%s: %s\n' "$2" "$out" >>"$work/checks.log"
    if ! grep -q '^check: ok' <<<"$out"; then
      missing=$(grep -o 'problems=[0-9]*' <<<"$out" | head -n 1 | cut -d= -f2 || true)
      lost=$((lost + ${missing:-1}))
      problem "$2: not every row written landed: $(head -n 2 <<<"$out" | tr '\n' ' ')"
    fi
  done
}

check_dumps() {
  local topic status
  snapshots=0
  for topic in files-hosts_land pg-accounts_land mariadb-accounts_land api-hosts_land; do
    status=0
    DFE_FETCHER_JAVA_OPTS="-Xmx512m" "$fetcher" snapshots verify --format json \
      --bootstrap-server "$bootstrap" --topic "$topic" >"$work/verify-$topic.json" \
      2>"$work/verify-$topic.err" || status=$?
    if ((status != 0 && status != 3)); then
      problem "snapshots verify of $topic exited $status (see $work/verify-$topic.err)"
      continue
    fi
    snapshots=$((snapshots + $(jq -s 'map(select(.status == "complete")) | length' "$work/verify-$topic.json")))
    # Complete, but for one open snapshot a store may end with: the dump SIGTERM cut.
    jq -e -s 'length > 0 and (group_by(.store) | all(
        (map(select(.status != "complete")) | length) as $bad
        | $bad == 0 or ($bad == 1 and .[-1].status == "open")))' \
      "$work/verify-$topic.json" >/dev/null ||
      problem "$topic: a snapshot not complete, or none (see $work/verify-$topic.json)"
  done
}

# Every unit ticked in the last third, and succeeded within 30 s of the end.
check_ticking() {
  local samples=$1 from=$((2 * $1 / 3)) stalled
  stalled=$(join -a 1 "$work/samples/ticks-$samples" "$work/samples/ticks-$from" |
    awk '$2 <= $3 + 0 { printf "%s ", $1 }')
  [[ -z $stalled ]] || problem "units that did not tick in the last third: $stalled"
  units=$(wc -l <"$work/samples/ticks-$samples")
  ((units == 7)) || problem "$units units on /metrics, 7 configured"
  local end old
  end=$(date +%s)
  old=$(unit_series dfe_fetcher_last_success_timestamp_seconds "$work/metrics-end.txt" |
    awk -v end="$end" 'end - $2 > 30 { printf "%s ", $1 }')
  [[ -z $old ]] || problem "units whose last success is over 30 s old at the end: $old"
}

# growth=none, or the columns that grew from the first third to the last.
check_growth() {
  # Sample 0 is taken before the first ticks (no connection open yet): not part of a third.
  growth=$(awk -F'\t' -v slack="$slack" 'NR > 2 { n++; for (c = 3; c <= 9; c++) v[n, c] = $c }
    END {
      split("rss heap threads fds pg_conns mariadb_conns broker_conns", name, " ")
      third = int(n / 3); out = ""
      for (c = 3; c <= 9; c++) {
        if (c == 4) continue # heap used is a sawtooth of the collector: shown, not judged
        first = 0; last = 0
        for (i = 1; i <= third; i++) if (v[i, c] > first) first = v[i, c]
        for (i = n - third + 1; i <= n; i++) if (v[i, c] > last) last = v[i, c]
        if ((c == 3 && last > first * 1.10) || (c > 3 && last > first + slack))
          out = out (out ? "," : "") name[c - 2] ":" first "->" last
      }
      print (out ? out : "none")
    }' "$work/samples.tsv")
  [[ $growth == none ]] || problem "grew from the first third to the last: $growth"
}

# ---------------------------------------------------------------------------------------------

main() {
  local tool
  for tool in curl javac jq psql mysql ss join; do
    command -v "$tool" >/dev/null || die "$tool is missing"
  done
  build_fetcher
  bootstrap=$("$local_kafka" --background) || die "the broker did not start (log: $work/kafka/server.log)"
  broker_started=1
  setup_sources
  write_config
  log "work dir $work, $soak_secs s, a sample every $sample_secs s, load $(loadavg)"
  (cd "$work" && DFE_FETCHER_JAVA_OPTS="$heap" exec "$fetcher" run --config config.yaml) \
    >"$work/run.log" 2>&1 &
  fetcher_pid=$!
  metrics_port=$(wait_metrics_port "$fetcher_pid" "$work/run.log") ||
    die "the fetcher did not serve /metrics (log: $work/run.log)"
  start_writers
  mkdir -p "$work/samples"
  printf 'sample\tsecs\trss_mib\theap_mib\tthreads\tfds\tpg_conns\tmariadb_conns\tbroker_conns\tticks\tfailed_ticks\n' \
    >"$work/samples.tsv"
  printf 'load\n' >"$work/load.tsv"
  local started=$SECONDS n=0 next
  while :; do
    kill -0 "$fetcher_pid" 2>/dev/null || die "the fetcher stopped by itself (log: $work/run.log)"
    sample "$n" $((SECONDS - started))
    loadavg >>"$work/load.tsv"
    log "sample $n: $(tail -n 1 "$work/samples.tsv" | tr '\t' ' ')"
    ((SECONDS - started >= soak_secs)) && break
    n=$((n + 1))
    next=$((started + n * sample_secs))
    while ((SECONDS < next)); do sleep 1; done
  done
  : >"$work/stop-writers"
  wait "${background_pids[@]:1}" 2>/dev/null || true
  sleep 15 # two more ticks of every unit on a loaded machine: the last rows landed
  scrape >"$work/metrics-end.txt" || : >"$work/metrics-end.txt"
  check_ticking "$n"
  local status=0
  kill -TERM "$fetcher_pid"
  wait "$fetcher_pid" || status=$?
  fetcher_pid=""
  ((status == 0)) || problem "the fetcher exited $status on SIGTERM, not 0 (log: $work/run.log)"
  errors=$(grep -c '"log.level":"ERROR"\|level=ERROR\| ERROR ' "$work/run.log" || true)
  check_tails
  check_dumps
  check_growth
  sample_table | tee "$work/samples.md"
  local ticks failed verdict
  ticks=$(tail -n 1 "$work/samples.tsv" | cut -f10)
  failed=$(tail -n 1 "$work/samples.tsv" | cut -f11)
  verdict=$(printf 'soak: secs=%d samples=%d units=%d ticks=%d failed_ticks=%d written=%d snapshots=%d lost=%d growth=%s errors=%d' \
    "$soak_secs" $((n + 1)) "$units" "$ticks" "$failed" "$written" "$snapshots" "$lost" "$growth" "$errors")
  if ((${#problems[@]} > 0)); then
    verdict+=" problems=\"$(IFS=';'; echo "${problems[*]}")\""
  fi
  echo "$verdict" | tee "$work/verdict"
  ((${#problems[@]} == 0))
}

# One line, read whole before it runs: an edit to this file during a run cannot change the run.
main; exit
