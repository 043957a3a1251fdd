# shellcheck shell=bash
# shellcheck disable=SC2154 # work, local_kafka, fetcher_jar... are fault-campaign.sh's
# The broker-faults family of the fault campaign (sourced by benchmarks/scripts/fault-campaign.sh).
#
# One service (`run`, never killed) dumps files dropped into data/ and tails logs/app.log to a
# broker of the family's own: scripts/local-kafka.sh on BROKER_FAULTS_PORT (39092) and
# BROKER_FAULTS_CONTROLLER_PORT (39093), with topic auto-creation off as on a real cluster (the
# service creates its topics, output.kafka.create_topics), its data on a tmpfs of
# BROKER_DISK_MB (192) MiB. A second broker (node 2, broker only, BROKER_FAULTS_PORT + 2) joins
# for the first fault. A consumer (FaultCampaignCheck follow) reads both topics throughout: what
# it kept is what a consumer saw, and what the checks read. The faults, in order, each while a
# dump of a FAULT_FILE_ROWS-row file is landing:
#
#   leader-gone    the topics' partitions led by node 2 (replicas 2,1), then node 2 killed with
#                  kill -9; node 1 takes over; node 2 started again, then the replicas moved
#                  back to node 1 and node 2 stopped
#   broker-bounce  the broker killed with kill -9 and started again at once (down for its start,
#                  less than the producer's delivery timeout)
#   broker-down    the broker stopped (SIGTERM) for FAULT_SECS, longer than the delivery timeout
#   topic-deleted  both topics deleted while the units write to them; the service is frozen
#                  (SIGSTOP) while the consumer reads to the end and the topics are deleted, so
#                  that what the deletion took is known to have landed, then goes on (SIGCONT)
#   broker-disk-full the broker's volume filled; freed after FAULT_SECS and the broker started
#                  again if it stopped
#
# The service's producer runs with delivery.timeout.ms 20000, request.timeout.ms 5000 and
# max.block.ms 10000, so that a fault of FAULT_SECS outlasts them.
#
# Its Kafka output holds the campaign's output secret (a sasl.jaas.config password, unused on the
# plaintext listener): after the checks, no file of the family but its configuration, and no
# config-check output, may hold it (check_secrets), whatever the broker's faults made the
# service print.

broker_faults_port="${BROKER_FAULTS_PORT:-39092}"
broker_faults_controller_port="${BROKER_FAULTS_CONTROLLER_PORT:-39093}"
broker_disk_mb="${BROKER_DISK_MB:-192}"

# broker_faults_kafka ARG...: local-kafka.sh on the family's broker.
broker_faults_kafka() {
  DFE_KAFKA_PORT="$broker_faults_port" DFE_KAFKA_CONTROLLER_PORT="$broker_faults_controller_port" \
    DFE_KAFKA_DIR="$broker_dir/kafka" DFE_KAFKA_AUTO_CREATE_TOPICS=false KAFKA_HEAP_OPTS=-Xmx384m \
    "$local_kafka" "$@"
}

broker_faults_start_broker() {
  broker_faults_kafka --background >/dev/null 2>>"$broker_dir/broker.log" ||
    die "broker-faults: the broker did not start (log: $broker_dir/kafka/server.log)"
}

broker_faults_tool() { "$java_bin" -cp "$work/classes:$fetcher_jar" CampaignBroker "$@"; }

# The second broker: node 2, broker only, in the cluster of node 1 (its cluster id), its own
# port and log directory; started in the background, its pid in broker2_pid.
broker2_start() {
  local dir="$broker_dir/broker2" cluster_id lib
  lib="${DFE_KAFKA_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/dfe-fetcher/kafka-4.3.1}/lib"
  mkdir -p "$dir"
  if [[ ! -f $dir/logs/meta.properties ]]; then
    cluster_id=$(sed -n 's/^cluster.id=//p' "$broker_dir/kafka/kraft-combined-logs/meta.properties")
    cat >"$dir/server.properties" <<EOF
process.roles=broker
node.id=2
listeners=PLAINTEXT://127.0.0.1:$((broker_faults_port + 2))
advertised.listeners=PLAINTEXT://127.0.0.1:$((broker_faults_port + 2))
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT
inter.broker.listener.name=PLAINTEXT
controller.listener.names=CONTROLLER
controller.quorum.bootstrap.servers=127.0.0.1:$broker_faults_controller_port
log.dirs=$dir/logs
auto.create.topics.enable=false
offsets.topic.replication.factor=1
EOF
    "$java_bin" -cp "$lib/*" kafka.tools.StorageTool format -t "$cluster_id" \
      -c "$dir/server.properties" >"$dir/format.log" 2>&1 ||
      die "broker-faults: formatting node 2 failed (log: $dir/format.log)"
  fi
  broker2_starts=$((${broker2_starts:-0} + 1))
  local log_file="$dir/server-$broker2_starts.log"
  "$java_bin" -Xmx256m "-Dlog4j2.configurationFile=$broker_dir/kafka/log4j2.properties" \
    -cp "$lib/*" kafka.Kafka "$dir/server.properties" >"$log_file" 2>&1 &
  broker2_pid=$!
  remember "$broker2_pid"
  wait_for "node 2 to start" 90 grep -q 'Kafka Server started' "$log_file" ||
    die "broker-faults: node 2 did not start (log: $log_file)"
}

broker_faults_setup() {
  broker_dir=$1
  [[ $(id -u) == 0 ]] || die "broker-faults: mounting the broker's volume needs root"
  mount_tmpfs "$1/kafka/kraft-combined-logs" "$broker_disk_mb"
  on_exit broker_faults_kafka --stop
  broker_faults_start_broker
  javac -d "$work/classes" -cp "$fetcher_jar" "$root/benchmarks/tools/CampaignBroker.java"
  mkdir -p "$1/data" "$1/logs"
  {
    cat <<YAML
instance_id: campaign
output:
  type: kafka
  kafka:
    bootstrap_servers: "127.0.0.1:$broker_faults_port"
    create_topics: true
    properties:
      delivery.timeout.ms: "20000"
      request.timeout.ms: "5000"
      max.block.ms: "10000"
      # Unused on the plaintext listener, but a secret the service holds: never to be printed,
      # however the broker fails.
      sasl.jaas.config: 'org.apache.kafka.common.security.plain.PlainLoginModule required username="campaign" password="$output_secret";'
  batch: {max_rows: 200}
YAML
    live_sources_yaml
  } >"$1/config.yaml"
  live_start "$1"
  broker_faults_follow "$1"
}

# The consumer: FaultCampaignCheck follow, appending to DIR/seen/TOPIC.ndjson.
broker_faults_follow() {
  rm -f "$1/stop-following"
  "$java_bin" -cp "$work/classes:$fetcher_jar" FaultCampaignCheck follow \
    "127.0.0.1:$broker_faults_port" "$1/seen" "$1/stop-following" files-data_land logs_land \
    >>"$1/follow.log" 2>&1 &
  follower_pid=$!
  remember "$follower_pid"
}

# Reads on to the end offsets of now and stops.
broker_faults_unfollow() {
  : >"$1/stop-following"
  wait "$follower_pid" || failure broker-faults "the consumer failed (log: $1/follow.log)"
}

broker_faults_faults() {
  faults_done=0
  leader_gone_prepare "$1"
  live_fault broker-faults "$1" leader-gone files.data logs.app leader_gone_inject leader_gone_clear
  live_fault broker-faults "$1" broker-bounce files.data logs.app broker_bounce_inject broker_bounce_clear 0
  live_fault broker-faults "$1" broker-down files.data logs.app broker_down_inject broker_down_clear
  live_fault broker-faults "$1" topic-deleted files.data logs.app topic_deleted_inject topic_deleted_clear 0
  live_fault broker-faults "$1" broker-disk-full files.data logs.app disk_full_inject disk_full_clear
}

# leader-gone: node 2 joins and leads both topics (replicas 2,1) before the fault's file is
# dropped; the fault is node 2 killed.
leader_gone_prepare() {
  wait_for "the service's topics" 60 both_seen "$1" ||
    die "broker-faults: nothing landed on the topics"
  broker2_start
  broker_faults_tool lead "127.0.0.1:$broker_faults_port" 2,1 files-data_land logs_land \
    >>"$1/broker-tool.log" 2>&1 || failure broker-faults "leader-gone: node 2 did not take the lead"
}

both_seen() { [[ -s $1/seen/logs_land.ndjson && -s $1/seen/files-data_land.ndjson ]]; }

leader_gone_inject() {
  kill -KILL "$broker2_pid"
  wait "$broker2_pid" 2>/dev/null || true
}

leader_gone_clear() {
  broker_faults_tool leaders "127.0.0.1:$broker_faults_port" files-data_land logs_land \
    >>"$1/broker-tool.log" 2>&1
  broker2_start
  broker_faults_tool lead "127.0.0.1:$broker_faults_port" 1 files-data_land logs_land \
    >>"$1/broker-tool.log" 2>&1 || failure broker-faults "leader-gone: node 1 did not take the lead back"
  kill -TERM "$broker2_pid"
  wait "$broker2_pid" 2>/dev/null || true
}

broker_bounce_inject() {
  local pid
  pid=$(<"$1/kafka/kafka.pid")
  kill -KILL "$pid"
  wait_for "the killed broker to be gone" 30 gone "$pid"
  broker_faults_start_broker
}

gone() { ! kill -0 "$1" 2>/dev/null; }

broker_bounce_clear() { :; }

broker_down_inject() { broker_faults_kafka --stop 2>>"$1/broker.log"; }

broker_down_clear() { broker_faults_start_broker; }

topic_deleted_inject() {
  kill -STOP "$service_pid"
  sleep 1
  broker_faults_unfollow "$1"
  broker_faults_tool delete "127.0.0.1:$broker_faults_port" files-data_land logs_land \
    >>"$1/broker-tool.log" 2>&1 || failure broker-faults "topic-deleted: the topics were not deleted"
  broker_faults_follow "$1"
  kill -CONT "$service_pid"
}

topic_deleted_clear() { :; }

disk_full_inject() { fill "$1/kafka/kraft-combined-logs"; }

# Frees the volume; starts the broker again if the full disk stopped it.
disk_full_clear() {
  rm -f "$1/kafka/kraft-combined-logs/filler"
  if kill -0 "$(<"$1/kafka/kafka.pid")" 2>/dev/null; then
    log "broker-faults: the broker outlived its full disk"
  else
    log "broker-faults: the full disk stopped the broker; starting it again"
    cp "$1/kafka/server.log" "$1/disk-full-server.log" # the start writes a new one
    broker_faults_kafka --stop 2>>"$1/broker.log" || true
    broker_faults_start_broker
  fi
}

broker_faults_round() { :; }

broker_faults_stop() {
  stop_writer "$1" broker-faults
  local written
  written=$(<"$1/written")
  # Everything written has landed once the tail's records stop moving and the last file's
  # snapshot is complete; then the service is stopped as an operator would.
  wait_for "the service to land the last lines" 120 tail_caught_up "$1" "$written" ||
    failure broker-faults "the service did not land the last lines"
  service_stop broker-faults "$1"
}

tail_caught_up() { grep -q "\"line $(($2 - 1)) " "$1/seen/logs_land.ndjson" 2>/dev/null; }

broker_faults_check() {
  broker_faults_unfollow "$1"
  local seen="$1/seen"
  DFE_FETCHER_JAVA_OPTS="$heap" "$fetcher" snapshots verify --format json \
    "$seen/files-data_land.ndjson" >"$1/verify-files.json" 2>"$1/verify-files.err" || true
  checker broker-faults dump files "$seen/files-data_land.ndjson" "$1/verify-files.json" \
    "$1/runs" "$1"/data/*.ndjson
  awk -v from=0 -v to="$(<"$1/written")" -v pad="$tail_pad" "$tail_line_awk" >"$1/lines.expected"
  checker broker-faults tail files "$seen/logs_land.ndjson" logs.app /message "$1/lines.expected"
  check_secrets broker-faults "$1" "$output_secret"
  cat "$1/faults.log" >&2
}

# It starts its own broker (or needs none): fault-campaign.sh starts no shared one for it.
broker_faults_own_broker() { :; }
