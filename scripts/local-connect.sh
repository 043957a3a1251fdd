#!/usr/bin/env bash
# One-command, single Kafka Connect worker (distributed mode) with the dfe-fetcher plugin installed,
# for trying the connector locally against scripts/local-kafka.sh.
#
# NOT for production: one worker, internal topics with replication factor 1, REST on 127.0.0.1
# without authentication.
#
#   scripts/local-connect.sh                        # run in the foreground (Ctrl-C stops it)
#   scripts/local-connect.sh --background           # start detached, wait until ready, print the REST address
#   scripts/local-connect.sh --stop                 # stop the background worker
#   scripts/local-connect.sh --bootstrap-server HOST:PORT [--background]   # another broker (default 127.0.0.1:9092)
#
# Environment (all optional):
#   DFE_CONNECT_PORT           REST port                                   default 8083
#   DFE_CONNECT_BOOTSTRAP      the broker (--bootstrap-server wins)        default 127.0.0.1:9092
#   DFE_CONNECT_GROUP          group.id; also names the internal topics    default dfe-local-connect
#   DFE_CONNECT_DIR            data dir (config, log, pid)                 default /tmp/dfe-local-connect
#   DFE_CONNECT_CACHE          where the worker jars are cached            default ${XDG_CACHE_HOME:-$HOME/.cache}/dfe-fetcher/connect-4.3.1
#   DFE_CONNECT_PLUGIN_PATH    the worker's plugin.path                    default <repo>/connect/target/plugin
#   DFE_CONNECT_START_TIMEOUT  seconds --background waits for readiness    default 120
#   KAFKA_HEAP_OPTS            JVM heap flags                              default -Xmx512m
#   KAFKA_OPTS                 extra JVM flags (appended)
#   JAVA_HOME / JAVA           Java 17+ to run the worker with
set -euo pipefail

readonly KAFKA_VERSION=4.3.1
readonly HOST=127.0.0.1

SCRIPT_DIR=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)
readonly SCRIPT_DIR
REPO_DIR=$(cd -- "$SCRIPT_DIR/.." && pwd)
readonly REPO_DIR
readonly POM="$SCRIPT_DIR/local-connect/pom.xml"

PORT=${DFE_CONNECT_PORT:-8083}
BOOTSTRAP=${DFE_CONNECT_BOOTSTRAP:-$HOST:9092}
GROUP=${DFE_CONNECT_GROUP:-dfe-local-connect}
DATA_DIR=${DFE_CONNECT_DIR:-/tmp/dfe-local-connect}
[[ $DATA_DIR == /* ]] || DATA_DIR="$PWD/$DATA_DIR" # absolute, so --stop works from any directory
CACHE_DIR=${DFE_CONNECT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/dfe-fetcher/connect-$KAFKA_VERSION}
PLUGIN_PATH=${DFE_CONNECT_PLUGIN_PATH:-$REPO_DIR/connect/target/plugin}
[[ $PLUGIN_PATH == /* ]] || PLUGIN_PATH="$PWD/$PLUGIN_PATH"
START_TIMEOUT=${DFE_CONNECT_START_TIMEOUT:-120}
KAFKA_HEAP_OPTS=${KAFKA_HEAP_OPTS:--Xmx512m}
KAFKA_OPTS=${KAFKA_OPTS:-}

# The plugin directory `mvn -pl connect -am package` leaves under the default plugin.path.
readonly BUILT_PLUGIN="$REPO_DIR/connect/target/plugin/dfe-fetcher-connect"
LIB_DIR="$CACHE_DIR/lib"
LIB_STAMP="$CACHE_DIR/.complete"
CONFIG="$DATA_DIR/connect-distributed.properties"
LOG4J_CONFIG="$DATA_DIR/log4j2.properties"
PID_FILE="$DATA_DIR/connect.pid"
WORKER_LOG="$DATA_DIR/connect.log"
readonly NAME=local-connect WHAT="Kafka Connect" MAIN_CLASS=org.apache.kafka.connect.cli.ConnectDistributed
# shellcheck source=local-jvm.sh
source "$SCRIPT_DIR/local-jvm.sh"

usage() {
  cat <<EOF
Usage: ${0##*/} [--bootstrap-server HOST:PORT] [--background | --stop | --help]

One Kafka Connect $KAFKA_VERSION worker (distributed mode) on $HOST with the dfe-fetcher plugin
on its plugin.path, for trying the connector. Not for production.

  (no option)                     start in the foreground; Ctrl-C stops it
  --background                    start detached, wait until it answers, print the REST address
  --stop                          stop a worker started with --background
  --bootstrap-server HOST:PORT    the broker to use (default $HOST:9092, scripts/local-kafka.sh)
  --help                          this text

Environment: DFE_CONNECT_PORT (8083), DFE_CONNECT_BOOTSTRAP ($HOST:9092),
DFE_CONNECT_GROUP (dfe-local-connect), DFE_CONNECT_DIR (/tmp/dfe-local-connect),
DFE_CONNECT_CACHE, DFE_CONNECT_PLUGIN_PATH (<repo>/connect/target/plugin),
DFE_CONNECT_START_TIMEOUT (120), KAFKA_HEAP_OPTS (-Xmx512m), KAFKA_OPTS, JAVA_HOME / JAVA.
See scripts/README.md.
EOF
}

# Builds the plugin directory when the default plugin.path is used and it is not there yet.
build_plugin() {
  if [[ -n ${DFE_CONNECT_PLUGIN_PATH:-} ]]; then
    [[ -d $PLUGIN_PATH ]] || die "DFE_CONNECT_PLUGIN_PATH $PLUGIN_PATH is not a directory"
    return 0
  fi
  if compgen -G "$BUILT_PLUGIN/connect-*-plugin.jar" >/dev/null; then
    return 0
  fi
  command -v mvn >/dev/null || die "mvn not found; Maven is needed to build the plugin ($BUILT_PLUGIN)"
  log "building the plugin directory $BUILT_PLUGIN (mvn -B -q -pl connect -am package -DskipTests)..."
  if ! (cd "$REPO_DIR" && mvn -B -q -pl connect -am package -DskipTests) 2>&1 |
      sed $'s/\e\\[0m//g' >&2; then
    die "building the plugin failed; run: mvn -B -pl connect -am package -DskipTests"
  fi
  compgen -G "$BUILT_PLUGIN/connect-*-plugin.jar" >/dev/null ||
    die "the build left no plugin jar in $BUILT_PLUGIN"
}

write_config() {
  mkdir -p "$DATA_DIR"
  # Regenerated on every start so port and broker changes take effect; edits here are overwritten.
  cat >"$CONFIG" <<EOF
# Generated by scripts/local-connect.sh -- local development only, NOT a production config.
# One distributed worker; start more with the same group.id and they share the connectors.
bootstrap.servers=$BOOTSTRAP
group.id=$GROUP
config.storage.topic=$GROUP-configs
offset.storage.topic=$GROUP-offsets
status.storage.topic=$GROUP-status
# One broker (scripts/local-kafka.sh): the internal topics get one replica. Production leaves
# these at their default, 3, on a cluster of at least three brokers.
config.storage.replication.factor=1
offset.storage.replication.factor=1
status.storage.replication.factor=1

# The fetcher's records are bytes with string keys: pass them through unchanged.
key.converter=org.apache.kafka.connect.storage.StringConverter
value.converter=org.apache.kafka.connect.converters.ByteArrayConverter
header.converter=org.apache.kafka.connect.storage.SimpleHeaderConverter

# A snapshot per transaction for connectors that ask for it (docs/kafka-connect.md).
exactly.once.source.support=enabled
# Lets connectors set producer.override.* (this is the default; named so it is explicit).
connector.client.config.override.policy=All

listeners=http://$HOST:$PORT
rest.advertised.host.name=$HOST
rest.advertised.port=$PORT

plugin.path=$PLUGIN_PATH
# The fetcher's plugin lists its connector in META-INF/services: no class-path scan needed.
plugin.discovery=service_load

# \${file:/path:key} and \${env:NAME} in connector configurations (Connect's config providers).
config.providers=file,env
config.providers.file.class=org.apache.kafka.common.config.provider.FileConfigProvider
config.providers.env.class=org.apache.kafka.common.config.provider.EnvVarConfigProvider

# Source offsets are committed every 10 s instead of every 60 s (without exactly once).
offset.flush.interval.ms=10000
EOF

  cat >"$LOG4J_CONFIG" <<'EOF'
# Generated by scripts/local-connect.sh (Log4j 2): worker logs go to stdout
# (in --background mode stdout is redirected to connect.log in the data dir).
status = warn
# The worker logs its own shutdown from a JVM shutdown hook; Log4j's hook would cut that off.
shutdownHook = disable
appender.stdout.type = Console
appender.stdout.name = STDOUT
appender.stdout.layout.type = PatternLayout
appender.stdout.layout.pattern = [%d] %p %m (%c)%n
rootLogger.level = info
rootLogger.appenderRef.stdout.ref = STDOUT
logger.clients.name = org.apache.kafka.clients
logger.clients.level = warn
logger.config.name = org.apache.kafka.common.config
logger.config.level = warn
logger.appinfo.name = org.apache.kafka.common.utils.AppInfoParser
logger.appinfo.level = warn
logger.reflections.name = org.reflections
logger.reflections.level = error
logger.jetty.name = org.eclipse.jetty
logger.jetty.level = warn
EOF
}

prepare() {
  is_port "$PORT" || die "DFE_CONNECT_PORT must be a port number, got '$PORT'"
  [[ $START_TIMEOUT =~ ^[0-9]+$ ]] || die "DFE_CONNECT_START_TIMEOUT must be a number of seconds"
  [[ $GROUP =~ ^[A-Za-z0-9._-]+$ ]] || die "DFE_CONNECT_GROUP may hold letters, digits, '.', '_' and '-', got '$GROUP'"
  local pid
  if pid=$(running_pid "$MAIN_CLASS"); then
    die "a local worker is already running (pid $pid, REST http://$HOST:$PORT); use --stop first"
  fi
  rm -f "$PID_FILE"
  port_open "$HOST" "$PORT" && die "port $PORT on $HOST is already in use; pick another with DFE_CONNECT_PORT"
  # Without a broker the worker starts, but its herder gives up after a minute: say so now.
  local first=${BOOTSTRAP%%,*}
  [[ $first == *:* ]] && is_port "${first##*:}" || die "--bootstrap-server must be HOST:PORT[,HOST:PORT...], got '$BOOTSTRAP'"
  port_open "${first%:*}" "${first##*:}" ||
    die "no broker answers on $first; start one with scripts/local-kafka.sh --background (or pass --bootstrap-server)"
  resolve_java
  fetch_jars '~36 MB'
  build_plugin
  write_config
  java_opts
}

start_foreground() {
  prepare
  log "starting Kafka Connect $KAFKA_VERSION in the foreground; REST: http://$HOST:$PORT, broker: $BOOTSTRAP (Ctrl-C to stop)"
  # The worker's working directory is the repository: relative paths in a connector's dfe.config
  # (examples/data/..., examples/db/...) resolve against it.
  cd "$REPO_DIR"
  exec "$JAVA" "${JAVA_OPTS[@]}" -cp "$LIB_DIR/*" "$MAIN_CLASS" "$CONFIG"
}

# The worker's GET /health answer: "200" once it has joined its group and read its config topic.
health() {
  curl -s -o /dev/null -w '%{http_code}' --max-time 5 "http://$HOST:$PORT/health" 2>/dev/null || true
}

start_background() {
  command -v curl >/dev/null || die "curl not found; --background asks the worker's REST API whether it is ready"
  prepare
  log "starting Kafka Connect $KAFKA_VERSION in the background (log: $WORKER_LOG)"
  (cd "$REPO_DIR" && exec nohup "$JAVA" "${JAVA_OPTS[@]}" -cp "$LIB_DIR/*" "$MAIN_CLASS" "$CONFIG") \
    >"$WORKER_LOG" 2>&1 </dev/null &
  local pid=$!
  disown "$pid" # no "Killed" job report from bash if the failure path below has to SIGKILL it
  printf '%s\n' "$pid" >"$PID_FILE"

  # Ready = GET /health answers 200: the herder has joined the group and read the config topic,
  # so the REST API takes connectors. A herder that failed (no broker, internal topics it cannot
  # create) leaves the JVM running; its log line ends the wait.
  local deadline=$((SECONDS + START_TIMEOUT)) failed=''
  until [[ $(health) == 200 ]]; do
    if ! kill -0 "$pid" 2>/dev/null; then
      rm -f "$PID_FILE"
      tail -n 30 "$WORKER_LOG" >&2 || true
      die "the worker exited during startup (full log: $WORKER_LOG)"
    fi
    if grep -q 'Uncaught exception in herder work thread' "$WORKER_LOG" 2>/dev/null; then
      failed="its herder failed"
    elif ((SECONDS >= deadline)); then
      failed="it was not ready after ${START_TIMEOUT}s (raise DFE_CONNECT_START_TIMEOUT)"
    fi
    if [[ -n $failed ]]; then
      # A failed herder calls System.exit from its own thread, and the shutdown hook then waits
      # for that thread: the JVM can take minutes to go. Give it 10 s, then SIGKILL.
      terminate "$pid" 10
      rm -f "$PID_FILE"
      grep -n -A 8 'Uncaught exception in herder work thread' "$WORKER_LOG" >&2 || tail -n 30 "$WORKER_LOG" >&2 || true
      die "the worker did not start: $failed; stopped it (log: $WORKER_LOG)"
    fi
    sleep 1
  done
  log "Kafka Connect is up (pid $pid, broker $BOOTSTRAP, plugin.path $PLUGIN_PATH); stop it with: $0 --stop"
  # The only line on stdout, so CONNECT=$(scripts/local-connect.sh --background) works.
  printf 'http://%s:%s\n' "$HOST" "$PORT"
}

main() {
  local mode=foreground
  while (($#)); do
    case $1 in
      --background) mode=background ;;
      --stop) mode=stop ;;
      --bootstrap-server)
        (($# >= 2)) || { usage >&2; exit 2; }
        BOOTSTRAP=$2
        shift
        ;;
      --bootstrap-server=*) BOOTSTRAP=${1#*=} ;;
      -h | --help) usage; exit 0 ;;
      *) usage >&2; exit 2 ;;
    esac
    shift
  done
  case $mode in
    foreground) start_foreground ;;
    background) start_background ;;
    stop) stop_background "$MAIN_CLASS" worker 30 ;; # stopping tasks and leaving the group takes seconds
  esac
}

main "$@"
