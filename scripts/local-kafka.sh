#!/usr/bin/env bash
# One-command, single-node Apache Kafka (KRaft combined mode) for trying dfe-fetcher locally.
#
# NOT for production: one node, replication factor 1, plaintext on 127.0.0.1, topics auto-created.
#
#   scripts/local-kafka.sh               # run in the foreground (Ctrl-C stops it)
#   scripts/local-kafka.sh --background  # start detached, wait until ready, print bootstrap address
#   scripts/local-kafka.sh --stop        # stop the background broker
#   scripts/local-kafka.sh --reset       # delete the data dir (topics, offsets, cluster id)
#
# Environment (all optional):
#   DFE_KAFKA_PORT             client (PLAINTEXT) port                  default 9092
#   DFE_KAFKA_CONTROLLER_PORT  KRaft controller port                    default 9093
#   DFE_KAFKA_DIR              data dir (config, logs, pid, segments)   default /tmp/dfe-local-kafka
#   DFE_KAFKA_CACHE            where the broker jars are cached         default ${XDG_CACHE_HOME:-$HOME/.cache}/dfe-fetcher/kafka-4.3.1
#   DFE_KAFKA_START_TIMEOUT    seconds --background waits for readiness default 90
#   KAFKA_HEAP_OPTS            JVM heap flags                           default -Xmx512m
#   KAFKA_OPTS                 extra JVM flags (appended)
#   JAVA_HOME / JAVA           Java 17+ to run the broker with
set -euo pipefail

readonly KAFKA_VERSION=4.3.1
readonly HOST=127.0.0.1

SCRIPT_DIR=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)
readonly SCRIPT_DIR
readonly POM="$SCRIPT_DIR/local-kafka/pom.xml"

PORT=${DFE_KAFKA_PORT:-9092}
CONTROLLER_PORT=${DFE_KAFKA_CONTROLLER_PORT:-9093}
DATA_DIR=${DFE_KAFKA_DIR:-/tmp/dfe-local-kafka}
[[ $DATA_DIR == /* ]] || DATA_DIR="$PWD/$DATA_DIR" # absolute, so --stop works from any directory
CACHE_DIR=${DFE_KAFKA_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/dfe-fetcher/kafka-$KAFKA_VERSION}
START_TIMEOUT=${DFE_KAFKA_START_TIMEOUT:-90}
KAFKA_HEAP_OPTS=${KAFKA_HEAP_OPTS:--Xmx512m}
KAFKA_OPTS=${KAFKA_OPTS:-}

LIB_DIR="$CACHE_DIR/lib"
LIB_STAMP="$CACHE_DIR/.complete"
LOG_DIRS="$DATA_DIR/kraft-combined-logs"
CONFIG="$DATA_DIR/server.properties"
LOG4J_CONFIG="$DATA_DIR/log4j2.properties"
PID_FILE="$DATA_DIR/kafka.pid"
SERVER_LOG="$DATA_DIR/server.log"
# Marks a directory as created by this script; --reset refuses to delete anything without it.
MARKER="$DATA_DIR/.dfe-local-kafka"

log() { printf 'local-kafka: %s\n' "$*" >&2; }
die() { printf 'local-kafka: error: %s\n' "$*" >&2; exit 1; }

usage() {
  cat <<EOF
Usage: ${0##*/} [--background | --stop | --reset | --help]

Single-node Kafka $KAFKA_VERSION broker (KRaft, broker+controller) on $HOST for trying dfe-fetcher.
Not for production.

  (no option)    start in the foreground; Ctrl-C stops it
  --background   start detached, wait until it is ready, print the bootstrap address
  --stop         stop a broker started with --background
  --reset        delete the data dir ($DATA_DIR)
  --help         this text

Environment: DFE_KAFKA_PORT (9092), DFE_KAFKA_CONTROLLER_PORT (9093),
DFE_KAFKA_DIR (/tmp/dfe-local-kafka), DFE_KAFKA_CACHE, DFE_KAFKA_START_TIMEOUT (90),
KAFKA_HEAP_OPTS (-Xmx512m), KAFKA_OPTS, JAVA_HOME / JAVA.
See scripts/README.md.
EOF
}

is_port() { [[ $1 =~ ^[0-9]+$ ]] && ((10#$1 >= 1 && 10#$1 <= 65535)); }

# True when something accepts TCP connections on $HOST:$1.
port_open() { (exec 3<>"/dev/tcp/$HOST/$1") 2>/dev/null; }

# Prints the pid from the pid file if that process is alive and is our broker.
running_pid() {
  [[ -f $PID_FILE ]] || return 1
  local pid
  pid=$(<"$PID_FILE")
  [[ $pid =~ ^[0-9]+$ ]] || return 1
  kill -0 "$pid" 2>/dev/null || return 1
  # Guard against pid reuse: the process must be kafka.Kafka running our server.properties.
  if [[ -r /proc/$pid/cmdline ]]; then
    local cmdline
    cmdline=$(tr '\0' ' ' <"/proc/$pid/cmdline")
    [[ $cmdline == *kafka.Kafka*"$CONFIG"* ]] || return 1
  fi
  printf '%s\n' "$pid"
}

resolve_java() {
  if [[ -n ${JAVA:-} ]]; then
    :
  elif [[ -n ${JAVA_HOME:-} && -x $JAVA_HOME/bin/java ]]; then
    JAVA="$JAVA_HOME/bin/java"
  else
    JAVA=$(command -v java) || die "java not found (Kafka $KAFKA_VERSION needs Java 17+); set JAVA_HOME"
  fi
  local spec
  spec=$("$JAVA" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java\.specification\.version = //p')
  [[ $spec =~ ^[0-9]+$ ]] && ((spec >= 17)) ||
    die "Kafka $KAFKA_VERSION needs Java 17+, but $JAVA is version '${spec:-unknown}'"
}

# Downloads the broker jars into $LIB_DIR once (re-done if the pom changes).
fetch_jars() {
  local pom_sum
  pom_sum=$(cksum <"$POM")
  if [[ -f $LIB_STAMP && $(<"$LIB_STAMP") == "$pom_sum" && -d $LIB_DIR ]]; then
    return 0
  fi
  command -v mvn >/dev/null || die "mvn not found; Maven is needed once to download the Kafka jars"
  log "downloading Kafka $KAFKA_VERSION broker jars into $LIB_DIR (first run only, ~45 MB)..."
  mkdir -p "$CACHE_DIR"
  local tmp="$CACHE_DIR/lib.tmp.$$"
  rm -rf "$tmp"
  # Output goes to stderr: stdout stays clean (--background prints only the bootstrap address).
  # Maven 3.8 prints bare colour resets even in batch mode; strip them (as ./dfe-fetcher does).
  if ! mvn -B -q -f "$POM" dependency:copy-dependencies \
      -DoutputDirectory="$tmp" -DincludeScope=runtime 2>&1 | sed $'s/\e\\[0m//g' >&2; then
    rm -rf "$tmp"
    die "Maven could not fetch the Kafka jars (is Maven Central reachable?)"
  fi
  rm -rf "$LIB_DIR"
  mv "$tmp" "$LIB_DIR"
  printf '%s\n' "$pom_sum" >"$LIB_STAMP"
}

write_config() {
  mkdir -p "$DATA_DIR"
  : >"$MARKER"
  # Regenerated on every start so DFE_KAFKA_PORT changes take effect; edits here are overwritten.
  cat >"$CONFIG" <<EOF
# Generated by scripts/local-kafka.sh -- local development only, NOT a production config.
# Single node running both roles (KRaft combined mode).
process.roles=broker,controller
node.id=1

listeners=PLAINTEXT://$HOST:$PORT,CONTROLLER://$HOST:$CONTROLLER_PORT
advertised.listeners=PLAINTEXT://$HOST:$PORT,CONTROLLER://$HOST:$CONTROLLER_PORT
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT
inter.broker.listener.name=PLAINTEXT
controller.listener.names=CONTROLLER
# Dynamic (KIP-853) quorum, formatted with 'kafka-storage format --standalone':
# this node is the only voter. (controller.quorum.voters must NOT be set with --standalone.)
controller.quorum.bootstrap.servers=$HOST:$CONTROLLER_PORT

log.dirs=$LOG_DIRS
num.partitions=1

# Single node: every internal topic gets replication factor 1.
offsets.topic.replication.factor=1
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
share.coordinator.state.topic.replication.factor=1
share.coordinator.state.topic.min.isr=1

# Consumer groups start immediately instead of waiting 3 s for more members.
group.initial.rebalance.delay.ms=0

# Convenient for trying things out (producing to / consuming from a topic creates it);
# real clusters should create topics explicitly.
auto.create.topics.enable=true
EOF

  cat >"$LOG4J_CONFIG" <<'EOF'
# Generated by scripts/local-kafka.sh (Log4j 2): broker logs go to stdout
# (in --background mode stdout is redirected to server.log in the data dir).
status = warn
# Kafka logs its own shutdown from a JVM shutdown hook; Log4j's hook would cut that off.
shutdownHook = disable
appender.stdout.type = Console
appender.stdout.name = STDOUT
appender.stdout.layout.type = PatternLayout
appender.stdout.layout.pattern = [%d] %p %m (%c)%n
rootLogger.level = info
rootLogger.appenderRef.stdout.ref = STDOUT
logger.request.name = kafka.request.logger
logger.request.level = warn
logger.statechange.name = state.change.logger
logger.statechange.level = warn
logger.clients.name = org.apache.kafka.clients
logger.clients.level = warn
logger.config.name = org.apache.kafka.common.config
logger.config.level = warn
logger.appinfo.name = org.apache.kafka.common.utils.AppInfoParser
logger.appinfo.level = warn
EOF
}

java_opts() {
  local -a heap extra
  read -r -a heap <<<"$KAFKA_HEAP_OPTS"
  read -r -a extra <<<"$KAFKA_OPTS"
  JAVA_OPTS=("${heap[@]}" -XX:+UseG1GC -XX:MaxGCPauseMillis=20 -Djava.awt.headless=true
    "-Dlog4j2.configurationFile=$LOG4J_CONFIG" ${extra[@]+"${extra[@]}"})
}

# Formats the storage once (kafka-storage.sh random-uuid + format --standalone).
format_storage() {
  [[ -f $LOG_DIRS/meta.properties ]] && return 0
  local cluster_id
  cluster_id=$("$JAVA" "${JAVA_OPTS[@]}" -cp "$LIB_DIR/*" kafka.tools.StorageTool random-uuid | tail -n 1)
  [[ -n $cluster_id ]] || die "could not generate a cluster id"
  log "formatting $LOG_DIRS (cluster id $cluster_id)"
  "$JAVA" "${JAVA_OPTS[@]}" -cp "$LIB_DIR/*" kafka.tools.StorageTool \
    format --standalone -t "$cluster_id" -c "$CONFIG" >&2 ||
    die "formatting the storage failed"
}

prepare() {
  is_port "$PORT" || die "DFE_KAFKA_PORT must be a port number, got '$PORT'"
  is_port "$CONTROLLER_PORT" || die "DFE_KAFKA_CONTROLLER_PORT must be a port number, got '$CONTROLLER_PORT'"
  [[ $PORT != "$CONTROLLER_PORT" ]] || die "DFE_KAFKA_PORT and DFE_KAFKA_CONTROLLER_PORT must differ"
  [[ $START_TIMEOUT =~ ^[0-9]+$ ]] || die "DFE_KAFKA_START_TIMEOUT must be a number of seconds"
  local pid
  if pid=$(running_pid); then
    die "a local broker is already running (pid $pid, bootstrap $HOST:$PORT); use --stop first"
  fi
  rm -f "$PID_FILE"
  local p
  for p in "$PORT" "$CONTROLLER_PORT"; do
    port_open "$p" && die "port $p on $HOST is already in use; pick others with DFE_KAFKA_PORT / DFE_KAFKA_CONTROLLER_PORT"
  done
  resolve_java
  fetch_jars
  write_config
  java_opts
  format_storage
}

start_foreground() {
  prepare
  log "starting Kafka $KAFKA_VERSION in the foreground; bootstrap servers: $HOST:$PORT (Ctrl-C to stop)"
  exec "$JAVA" "${JAVA_OPTS[@]}" -cp "$LIB_DIR/*" kafka.Kafka "$CONFIG"
}

start_background() {
  prepare
  log "starting Kafka $KAFKA_VERSION in the background (log: $SERVER_LOG)"
  nohup "$JAVA" "${JAVA_OPTS[@]}" -cp "$LIB_DIR/*" kafka.Kafka "$CONFIG" >"$SERVER_LOG" 2>&1 </dev/null &
  local pid=$!
  printf '%s\n' "$pid" >"$PID_FILE"

  # Ready = the client port accepts connections AND the server logged that startup finished
  # (the port is bound slightly before the broker serves requests).
  local deadline=$((SECONDS + START_TIMEOUT))
  until port_open "$PORT" && grep -q 'Kafka Server started' "$SERVER_LOG" 2>/dev/null; do
    if ! kill -0 "$pid" 2>/dev/null; then
      rm -f "$PID_FILE"
      tail -n 30 "$SERVER_LOG" >&2 || true
      die "the broker exited during startup (full log: $SERVER_LOG)"
    fi
    if ((SECONDS >= deadline)); then
      kill "$pid" 2>/dev/null || true
      rm -f "$PID_FILE"
      tail -n 30 "$SERVER_LOG" >&2 || true
      die "the broker was not ready after ${START_TIMEOUT}s; stopped it (raise DFE_KAFKA_START_TIMEOUT; log: $SERVER_LOG)"
    fi
    sleep 0.5
  done
  log "Kafka is up (pid $pid); stop it with: $0 --stop"
  # The only line on stdout, so BOOTSTRAP=$(scripts/local-kafka.sh --background) works.
  printf '%s:%s\n' "$HOST" "$PORT"
}

stop_background() {
  local pid
  if ! pid=$(running_pid); then
    if [[ -f $PID_FILE ]]; then
      rm -f "$PID_FILE"
      log "no broker running (removed stale pid file)"
    else
      log "no background broker running (no pid file in $DATA_DIR)"
    fi
    return 0
  fi
  log "stopping Kafka (pid $pid)..."
  kill -TERM "$pid"
  local i
  for ((i = 0; i < 60; i++)); do # controlled shutdown normally takes a few seconds
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.5
  done
  if kill -0 "$pid" 2>/dev/null; then
    log "still running after 30s; sending SIGKILL"
    kill -KILL "$pid" 2>/dev/null || true
    sleep 1
  fi
  rm -f "$PID_FILE"
  log "stopped"
}

reset_data() {
  local pid
  if pid=$(running_pid); then
    die "the broker is running (pid $pid); run --stop first"
  fi
  if [[ ! -e $DATA_DIR ]]; then
    log "nothing to reset ($DATA_DIR does not exist)"
    return 0
  fi
  local resolved
  resolved=$(cd -- "$DATA_DIR" && pwd -P)
  [[ $resolved != / && $resolved != "$(cd ~ && pwd -P)" ]] || die "refusing to delete $resolved"
  [[ -f $MARKER || -z $(ls -A -- "$DATA_DIR") ]] ||
    die "$DATA_DIR was not created by this script (no .dfe-local-kafka marker); delete it yourself if you mean it"
  rm -rf -- "$DATA_DIR"
  log "deleted $DATA_DIR"
}

main() {
  local mode=foreground
  case $# in
    0) ;;
    1)
      case $1 in
        --background) mode=background ;;
        --stop) mode=stop ;;
        --reset) mode=reset ;;
        -h | --help) usage; exit 0 ;;
        *) usage >&2; exit 2 ;;
      esac
      ;;
    *) usage >&2; exit 2 ;;
  esac
  case $mode in
    foreground) start_foreground ;;
    background) start_background ;;
    stop) stop_background ;;
    reset) reset_data ;;
  esac
}

main "$@"
