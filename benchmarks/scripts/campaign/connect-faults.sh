# shellcheck shell=bash
# shellcheck disable=SC2154 # work, local_kafka, fetcher_jar, self_test... are fault-campaign.sh's
# The connect-faults family of the fault campaign (sourced by benchmarks/scripts/fault-campaign.sh).
#
# The fetcher's Kafka Connect plugin (connect/target/plugin/dfe-fetcher-connect, built with
# `mvn -pl connect -am package` when missing) runs in a distributed worker group of
# CONNECT_WORKERS (2) ConnectDistributed 4.3.1 JVMs (the jars benchmarks/tools/pom.xml lists,
# cached as throughput.sh caches them), on a broker of the family's own: scripts/local-kafka.sh
# on CONNECT_FAULTS_PORT (37092) and CONNECT_FAULTS_CONTROLLER_PORT (37093); the workers' REST
# ports are CONNECT_FAULTS_REST_PORT (37083) and the ports after it. Twice, in two worker groups
# of their own: at least once (exactly.once.source.support=disabled) and exactly once
# (exactly.once.source.support=enabled, the connector with exactly.once.support=required and
# transaction.boundary=connector). One connector, one task, three units:
#
#   files.data   a file dump of data/*.ndjson; a file of CONNECT_FILE_ROWS (50000) rows is dropped
#                in before each fault
#   logs.app     a tail of logs/app.log* (fault-campaign.sh's tail_writer, renamed every 3rd fault)
#   secret.probe a PostgreSQL dump store (SELECT 1) whose password is file:pg.password, a random
#                secret: resolved on the worker at every tick, never to be seen in an answer or log
#
# The fault, CONNECT_KILLS (5) times per mode: once the dump of the dropped file is landing (its
# rows seen by a consumer) and a seeded delay in [0, FAULT_WINDOW_MS), the worker that runs the
# task (GET /connectors/NAME/status) is killed with kill -9; the task must then run on a surviving
# worker (status RUNNING there), the killed worker is started again, and the file must land as a
# complete snapshot. The window, from the kill to that snapshot, is a `fault` line of the mode's
# runs file. After the faults the writer stops, the last line must land, and the REST answers are
# kept. The checks, per mode:
#
#   - snapshots verify (read_committed) and the checker's dump check: every file has a complete
#     snapshot equal to it, every complete snapshot equals a file (at least once may land one
#     twice), no snapshot truncated or in conflict, an open one only where a kill cut a dump;
#   - exactly once, no open snapshot at all for a read_committed consumer (verify's default), and
#     the checker reading read_committed too; the cut dumps are counted read_uncommitted, where the
#     aborted transactions show as snapshots without an end;
#   - every tailed line landed at least once (exactly once: once, read_committed), and
#     secret.probe landed (the secret was used);
#   - the secret in no REST answer (connector, config, status, tasks, offsets) nor worker log, and
#     no record content in a worker log;
#   - no event=tick_failed in a worker log (a kill leaves no line; a task moved is stopped).
#
# SELF_TEST=1 also breaks each check: a dumped file changed after it landed, a tailed line never
# written, the read_committed check fed the read_uncommitted view, and the secret written as a
# comment into dfe.config (which Connect returns as written).

connect_faults_port="${CONNECT_FAULTS_PORT:-37092}"
connect_faults_controller_port="${CONNECT_FAULTS_CONTROLLER_PORT:-37093}"
connect_faults_rest_port="${CONNECT_FAULTS_REST_PORT:-37083}"
connect_workers="${CONNECT_WORKERS:-2}"
connect_kills="${CONNECT_KILLS:-5}"
connect_file_rows="${CONNECT_FILE_ROWS:-50000}"
connect_modes="${CONNECT_MODES:-alos eos}"
connect_tools_pom="$root/benchmarks/tools/pom.xml"
connect_tools_cache="${DFE_BENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/dfe-fetcher/benchmark-tools-4.3.1}"
connect_plugin="$root/connect/target/plugin/dfe-fetcher-connect"

# connect_faults_kafka ARG...: local-kafka.sh on the family's broker.
connect_faults_kafka() {
  DFE_KAFKA_PORT="$connect_faults_port" DFE_KAFKA_CONTROLLER_PORT="$connect_faults_controller_port" \
    DFE_KAFKA_DIR="$connect_dir/kafka" KAFKA_HEAP_OPTS=-Xmx384m "$local_kafka" "$@"
}

# The worker's jars: what throughput.sh's peer runs on (connect-runtime 4.3.1 and a Log4j 2
# binding), downloaded once into the same cache with the same stamp.
connect_faults_jars() {
  local sum
  sum=$(cksum <"$connect_tools_pom")
  if [[ -f $connect_tools_cache/.complete && $(<"$connect_tools_cache/.complete") == "$sum" ]]; then
    return 0
  fi
  log "connect-faults: downloading connect-runtime 4.3.1 into $connect_tools_cache/lib (first run only)"
  mkdir -p "$connect_tools_cache"
  rm -rf "$connect_tools_cache/lib.tmp"
  mvn -B -q -f "$connect_tools_pom" dependency:copy-dependencies \
    -DoutputDirectory="$connect_tools_cache/lib.tmp" -DincludeScope=runtime 2>&1 |
    sed $'s/\e\\[0m//g' >&2
  rm -rf "$connect_tools_cache/lib"
  mv "$connect_tools_cache/lib.tmp" "$connect_tools_cache/lib"
  printf '%s\n' "$sum" >"$connect_tools_cache/.complete"
}

# The plugin directory the connect module builds, built when missing.
connect_faults_plugin() {
  compgen -G "$connect_plugin/connect-*-plugin.jar" >/dev/null && return 0
  log "connect-faults: building the plugin (mvn -B -q -pl connect -am package -DskipTests)"
  (cd "$root" && mvn -B -q -pl connect -am package -DskipTests) 2>&1 | sed $'s/\e\\[0m//g' >&2
  compgen -G "$connect_plugin/connect-*-plugin.jar" >/dev/null ||
    die "connect-faults: the build left no plugin jar in $connect_plugin"
}

connect_faults_setup() {
  connect_dir=$1
  command -v jq >/dev/null || die "connect-faults: jq is missing (it reads the workers' REST answers)"
  pg_available || die "connect-faults: no PostgreSQL on 127.0.0.1:5432 (the secret.probe store)"
  connect_faults_jars
  connect_faults_plugin
  on_exit connect_faults_kafka --stop
  connect_faults_kafka --background >/dev/null 2>>"$1/broker.log" ||
    die "connect-faults: the broker did not start (log: $1/kafka/server.log)"
  cat >"$1/log4j2.properties" <<'EOF'
status = warn
appender.stdout.type = Console
appender.stdout.name = STDOUT
appender.stdout.layout.type = PatternLayout
appender.stdout.layout.pattern = [%d] %p %m (%c)%n
rootLogger.level = info
rootLogger.appenderRef.stdout.ref = STDOUT
logger.clients.name = org.apache.kafka.clients
logger.clients.level = warn
logger.jetty.name = org.eclipse.jetty
logger.jetty.level = warn
logger.reflections.name = org.reflections
logger.reflections.level = error
EOF
  # Random, and long enough that it cannot turn up by chance in a log.
  connect_secret="campaign-secret-$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')"
}

# connect_worker_props MODE DIR INDEX: the properties of worker INDEX of MODE's group.
connect_worker_props() {
  local mode=$1 dir=$2 port=$((connect_faults_rest_port + $3)) eos=disabled
  [[ $mode == eos ]] && eos=enabled
  cat <<EOF
bootstrap.servers=127.0.0.1:$connect_faults_port
group.id=campaign-$mode
config.storage.topic=campaign-$mode-configs
offset.storage.topic=campaign-$mode-offsets
status.storage.topic=campaign-$mode-status
config.storage.replication.factor=1
offset.storage.replication.factor=1
status.storage.replication.factor=1
key.converter=org.apache.kafka.connect.storage.StringConverter
value.converter=org.apache.kafka.connect.converters.ByteArrayConverter
header.converter=org.apache.kafka.connect.storage.SimpleHeaderConverter
exactly.once.source.support=$eos
connector.client.config.override.policy=All
listeners=http://127.0.0.1:$port
rest.advertised.host.name=127.0.0.1
rest.advertised.port=$port
plugin.path=$(dirname "$connect_plugin")
plugin.discovery=service_load
offset.flush.interval.ms=2000
# A worker killed is noticed after the session timeout, and its task dealt out again after the
# scheduled rebalance delay (5 minutes by default: a worker is given that long to come back).
session.timeout.ms=6000
heartbeat.interval.ms=2000
scheduled.rebalance.max.delay.ms=3000
task.shutdown.graceful.timeout.ms=5000
EOF
}

# connect_worker_start MODE DIR INDEX: worker INDEX in the background until its /health says
# 200; its pid in connect_pids[INDEX]. Each start's log is DIR/worker-INDEX-N.log.
connect_worker_start() {
  local mode=$1 dir=$2 index=$3 port=$((connect_faults_rest_port + $3)) log_file n=1
  connect_worker_props "$mode" "$dir" "$index" >"$dir/worker-$index.properties"
  while [[ -e $dir/worker-$index-$n.log ]]; do n=$((n + 1)); done
  log_file="$dir/worker-$index-$n.log"
  "$java_bin" -Xmx384m -XX:+UseSerialGC "-Dlog4j2.configurationFile=$connect_dir/log4j2.properties" \
    -cp "$connect_tools_cache/lib/*" org.apache.kafka.connect.cli.ConnectDistributed \
    "$dir/worker-$index.properties" >"$log_file" 2>&1 &
  connect_pids[index]=$!
  remember "${connect_pids[index]}"
  wait_for "worker $index of $mode" 180 connect_healthy "$port" ||
    die "connect-faults: worker $index did not start (log: $log_file)"
}

connect_healthy() {
  [[ $(curl -s -o /dev/null -w '%{http_code}' --max-time 5 "http://127.0.0.1:$1/health") == 200 ]]
}

# connect_rest PATH [CURL_ARG...]: a REST call to the first worker that answers.
connect_rest() {
  local path=$1 index
  shift
  for ((index = 0; index < connect_workers; index++)); do
    kill -0 "${connect_pids[index]}" 2>/dev/null || continue
    curl -fsS --max-time 10 "$@" "http://127.0.0.1:$((connect_faults_rest_port + index))$path" &&
      return 0
  done
  return 1
}

# connect_dfe_config MODE DIR: the fetcher's YAML of MODE's connector.
connect_dfe_config() {
  cat <<YAML
instance_id: campaign-$1
sources:
  file:
    files:
      topic: $1-files
      interval_secs: 1
      units:
        - unit: data
          row_key: /n
          dump: {paths: ["$2/data/*.ndjson"]}
    logs:
      topic: $1-logs
      interval_secs: 1
      units:
        - unit: app
          tail: {paths: ["$2/logs/app.log*"], decoder: lines, glob_interval_secs: 0,
                 rotate_wait_secs: 2}
  db:
    secret:
      url: "jdbc:postgresql://127.0.0.1:5432/test"
      user: postgres
      password: "file:$2/pg.password"
      topic: $1-secret
      interval_secs: 5
      stores:
        - {unit: probe, shape: dump, query: "SELECT 1 AS id", row_key: /id}
YAML
  # Connect returns dfe.config as written: the self-test's secret must show in the answers.
  [[ $self_test != 1 ]] || printf '# self-test: %s\n' "$connect_secret"
}

# connect_connector MODE DIR: the connector's JSON configuration.
connect_connector() {
  local eos='{}'
  if [[ $1 == eos ]]; then
    eos='{"exactly.once.support": "required", "transaction.boundary": "connector",
          "producer.override.transaction.timeout.ms": "120000"}'
  fi
  jq -n --arg yaml "$(connect_dfe_config "$1" "$2")" --argjson eos "$eos" '{
    "connector.class": "dfe.fetcher.connect.DfeSourceConnector",
    "tasks.max": "1",
    "key.converter": "org.apache.kafka.connect.storage.StringConverter",
    "value.converter": "org.apache.kafka.connect.converters.ByteArrayConverter",
    "header.converter": "org.apache.kafka.connect.storage.SimpleHeaderConverter",
    "dfe.config": $yaml
  } + $eos'
}

# connect_task_worker: the REST port of the worker whose task 0 is RUNNING, else nothing.
connect_task_worker() {
  connect_rest "/connectors/$connect_name/status" 2>/dev/null |
    jq -r '.tasks[] | select(.id == 0 and .state == "RUNNING") | .worker_id' 2>/dev/null |
    cut -d: -f2 || true
}

# connect_moved KILLED_PORT: the task RUNNING on a worker other than the one killed.
connect_moved() {
  local port
  port=$(connect_task_worker)
  [[ -n $port && $port != "$1" ]]
}

connect_running() { [[ -n $(connect_task_worker) ]]; }

# connect_landing NAME: a row of file NAME seen on the dump's topic.
connect_landing() { grep -qF "\"file\":\"$1\"" "$connect_seen/$connect_mode-files-data_land.ndjson" 2>/dev/null; }

# connect_complete NAME ROWS: a snapshot holding NAME's last row that has its end frame.
connect_complete() {
  local file="$connect_seen/$connect_mode-files-data_land.ndjson" id
  [[ -s $file ]] || return 1
  for id in $(grep -F "\"file\":\"$1\",\"n\":$(($2 - 1))," "$file" |
    grep -o '"snapshot_id":"[^"]*"' | sort -u); do
    grep -F "$id" "$file" | grep -q '"kind":"end"' && return 0
  done
  return 1
}

# connect_follow DIR: FaultCampaignCheck follow of MODE's topics (every record, committed or not).
connect_follow() {
  rm -f "$1/stop-following"
  "$java_bin" -cp "$work/classes:$fetcher_jar" FaultCampaignCheck follow \
    "127.0.0.1:$connect_faults_port" "$1/seen" "$1/stop-following" \
    "$connect_mode-files-data_land" "$connect_mode-logs_land" >>"$1/follow.log" 2>&1 &
  connect_follower=$!
  remember "$connect_follower"
}

# connect_kill DIR ROUND: one fault, as the file's head says; its line in DIR/runs and
# DIR/faults.log.
connect_kill() {
  local dir=$1 round=$2 name start delay port pid moved="" moved_ms landed=""
  name=$(printf 'kill-%02d' "$round")
  ((round % 3 != 0)) || : >"$dir/rotate" # the tail's log renamed meanwhile
  file_rows=$connect_file_rows drop_file "$dir" "$name"
  wait_for "the dump of $name" 120 connect_landing "$name" ||
    failure connect-faults "$connect_mode $name: the dump did not start"
  delay=$((RANDOM % fault_window_ms))
  sleep_ms "$delay"
  port=$(connect_task_worker)
  start=$(now_ms)
  if [[ -z $port ]]; then
    failure connect-faults "$connect_mode $name: no worker runs the task"
    return 0
  fi
  local index=$((port - connect_faults_rest_port))
  pid=${connect_pids[index]}
  log "connect-faults: $connect_mode $name: kill -9 of worker $index (pid $pid) ${delay} ms into the dump"
  kill -KILL "$pid"
  wait "$pid" 2>/dev/null || true
  if wait_for "the task to move off worker $index" 120 connect_moved "$port"; then
    moved="worker-$(($(connect_task_worker) - connect_faults_rest_port))"
    moved_ms=$(($(now_ms) - start))
  else
    failure connect-faults "$connect_mode $name: the task did not move to a surviving worker"
  fi
  connect_worker_start "$connect_mode" "$dir" "$index"
  if wait_for "$name to land whole" "$recover_secs" connect_complete "$name" "$connect_file_rows"; then
    landed=$(($(now_ms) - start))
  else
    failure connect-faults "$connect_mode $name: no complete snapshot of it within $recover_secs s"
  fi
  wait_for "the task to run again" 60 connect_running || true
  printf '%s %s fault\n' "$start" "$(now_ms)" >>"$dir/runs"
  faults_done=$((faults_done + 1))
  printf 'mode=%s fault=%s after_ms=%d killed=worker-%d moved_to=%s moved_s=%s landed_s=%s\n' \
    "$connect_mode" "$name" "$delay" "$index" "${moved:-none}" \
    "$(connect_secs "${moved_ms:-}")" "$(connect_secs "${landed:-}")" >>"$dir/faults.log"
}

connect_secs() { if [[ -n $1 ]]; then printf '%d.%d' $(($1 / 1000)) $((($1 % 1000) / 100)); else echo none; fi; }

# connect_phase MODE: a worker group of MODE, the connector, the kills, the catch-up, the
# answers kept, the group stopped.
connect_phase() {
  connect_mode=$1
  local dir="$connect_dir/$1" index round began written
  connect_name="campaign-$1"
  connect_seen="$dir/seen"
  mkdir -p "$dir/data" "$dir/logs" "$dir/seen"
  : >"$dir/runs"
  printf '%s\n' "$connect_secret" >"$dir/pg.password"
  chmod 600 "$dir/pg.password"
  began=$(now_ms)
  connect_pids=()
  for ((index = 0; index < connect_workers; index++)); do
    connect_worker_start "$1" "$dir" "$index"
  done
  file_rows=$connect_file_rows drop_file "$dir" first
  start_writer "$dir" tail_writer "$dir"
  connect_follow "$dir"
  connect_connector "$1" "$dir" >"$dir/connector.json"
  connect_rest "/connectors/$connect_name/config" -X PUT -H 'Content-Type: application/json' \
    --data-binary "@$dir/connector.json" >"$dir/rest-create.json" ||
    die "connect-faults: the worker refused the connector (see $dir/worker-*-1.log)"
  wait_for "the task to run" 120 connect_running || die "connect-faults: the task never ran"
  wait_for "the first file" 180 connect_complete first "$connect_file_rows" ||
    failure connect-faults "$1: the first file never landed whole"
  for ((round = 1; round <= connect_kills; round++)); do
    connect_kill "$dir" "$round"
  done
  stop_writer "$dir" connect-faults
  written=$(<"$dir/written")
  wait_for "the last tailed line" 120 grep -q "\"line $((written - 1)) " \
    "$dir/seen/$1-logs_land.ndjson" || failure connect-faults "$1: the last tailed line never landed"
  local answer
  for answer in "" /config /status /tasks /offsets; do
    connect_rest "/connectors/$connect_name$answer" >"$dir/rest-${answer#/}.json" 2>&1 || true
  done
  mv "$dir/rest-.json" "$dir/rest-connector.json"
  : >"$dir/stop-following"
  wait "$connect_follower" || failure connect-faults "$1: the consumer failed (log: $dir/follow.log)"
  for ((index = 0; index < connect_workers; index++)); do
    kill -TERM "${connect_pids[index]}" 2>/dev/null || true
  done
  for ((index = 0; index < connect_workers; index++)); do
    wait "${connect_pids[index]}" 2>/dev/null || true
  done
  printf '%s %s stopped\n' "$began" "$(now_ms)" >>"$dir/runs"
}

connect_faults_faults() {
  faults_done=0
  local mode
  for mode in $connect_modes; do
    connect_phase "$mode"
  done
}

connect_faults_round() { :; }
connect_faults_stop() { :; }

# The workers caught up before they were stopped (connect_phase): no `run --once` here.
connect_faults_catch_up() { :; }

# connect_verify DIR NAME TOPIC [ARG...]: snapshots verify --format json of TOPIC to DIR/NAME.json.
connect_verify() {
  local dir=$1 name=$2 topic=$3 status=0
  shift 3
  DFE_FETCHER_JAVA_OPTS="$heap" "$fetcher" snapshots verify --format json \
    --bootstrap-server "127.0.0.1:$connect_faults_port" --topic "$topic" "$@" \
    >"$dir/$name.json" 2>"$dir/$name.err" || status=$?
  ((status == 0 || status == 3)) ||
    failure connect-faults "snapshots verify of $topic exited $status (see $dir/$name.err)"
}

connect_statuses() { grep -c "\"status\":\"$2\"" "$1" || true; }

connect_faults_check() {
  local mode dir files bootstrap="127.0.0.1:$connect_faults_port" open cut
  for mode in $connect_modes; do
    dir="$connect_dir/$mode"
    files="$mode-files-data_land"
    [[ $self_test != 1 ]] || sed -i '1s/padded/changed/' "$dir/data/first.ndjson"
    connect_verify "$dir" verify-files "$files"
    if [[ $mode == eos ]]; then
      connect_verify "$dir" verify-files-uncommitted "$files" \
        --consumer-property=isolation.level=read_uncommitted
      # What a read_committed consumer saw: no cut snapshot at all.
      local seen="$dir/verify-files.json"
      [[ $self_test != 1 ]] || seen="$dir/verify-files-uncommitted.json"
      open=$(connect_statuses "$seen" open)
      ((open == 0)) ||
        failure connect-faults "eos: a read_committed consumer saw $open cut snapshots ($seen)"
      cut=$(connect_statuses "$dir/verify-files-uncommitted.json" open)
      cut_dumps=$((cut_dumps + cut))
      CHECK_ISOLATION_LEVEL=read_committed checker connect-faults dump "$bootstrap" "$files" \
        "$dir/verify-files.json" "$dir/runs" "$dir"/data/*.ndjson
    else
      checker connect-faults dump "$bootstrap" "$files" "$dir/verify-files.json" "$dir/runs" \
        "$dir"/data/*.ndjson
    fi
    awk -v from=0 -v to="$(<"$dir/written")" -v pad="$tail_pad" "$tail_line_awk" >"$dir/lines.expected"
    [[ $self_test != 1 ]] || echo "line -1 never written" >>"$dir/lines.expected"
    # Exactly once, a read_committed consumer sees every line once: each transaction ends at the
    # record its mark covers last (ConnectTransport).
    CHECK_TAIL_ONCE=$([[ $mode == eos ]] && echo 1 || echo 0) CHECK_ISOLATION_LEVEL=read_committed checker connect-faults tail \
      "$bootstrap" "$mode-logs_land" logs.app /message "$dir/lines.expected"
    connect_verify "$dir" verify-secret "$mode-secret-probe_land"
    (($(connect_statuses "$dir/verify-secret.json" complete) > 0)) ||
      failure connect-faults "$mode: secret.probe landed no complete snapshot: its secret was never used"
    connect_secrets "$mode" "$dir"
    connect_tick_failures "$mode" "$dir"
    cat "$dir/faults.log" >&2
  done
}

# connect_secrets MODE DIR: the secret in no REST answer and no worker log; no row's text in a
# log.
connect_secrets() {
  local hits
  hits=$(grep -lF "$connect_secret" "$2"/rest-*.json "$2"/worker-*.log 2>/dev/null | xargs || true)
  [[ -z $hits ]] || failure connect-faults "$1: the secret is in $hits"
  hits=$(grep -lF 'padded to about a hundred bytes' "$2"/worker-*.log 2>/dev/null | xargs || true)
  [[ -z $hits ]] || failure connect-faults "$1: a record's content is in $hits"
}

# connect_tick_failures MODE DIR: no tick failed on any worker. A kill ends a worker without a
# word, and a task the rebalance moves is stopped, not failed: nothing here fails a tick.
connect_tick_failures() {
  local count first
  count=$(cat "$2"/worker-*.log | grep -c 'event=tick_failed' || true)
  ((count > 0)) || return 0
  first=$(grep -h 'event=tick_failed' "$2"/worker-*.log | head -n 1 | grep -o 'error=.*' | cut -c1-160)
  failure connect-faults "$1: $count ticks failed on the workers, the first with $first"
}

# It starts its own broker: fault-campaign.sh starts no shared one for it.
connect_faults_own_broker() { :; }
