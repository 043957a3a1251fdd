# shellcheck shell=bash
# What scripts/local-kafka.sh and scripts/local-connect.sh share: sourced, not run.
#
# The sourcing script sets, before calling these:
#   NAME          its name in log lines (local-kafka, local-connect)
#   WHAT          what it runs, in messages (Kafka, Kafka Connect)
#   KAFKA_VERSION, POM, CACHE_DIR, LIB_DIR, LIB_STAMP, PID_FILE, CONFIG, LOG4J_CONFIG,
#   KAFKA_HEAP_OPTS, KAFKA_OPTS

log() { printf '%s: %s\n' "$NAME" "$*" >&2; }
die() { printf '%s: error: %s\n' "$NAME" "$*" >&2; exit 1; }

is_port() { [[ $1 =~ ^[0-9]+$ ]] && ((10#$1 >= 1 && 10#$1 <= 65535)); }

# True when something accepts TCP connections on $1:$2.
port_open() { (exec 3<>"/dev/tcp/$1/$2") 2>/dev/null; }

# Prints the pid from $PID_FILE if that process is alive and runs main class $1 on $CONFIG: a
# guard against a pid the system gave to another process since.
running_pid() {
  local main_class=$1
  [[ -f $PID_FILE ]] || return 1
  local pid
  pid=$(<"$PID_FILE")
  [[ $pid =~ ^[0-9]+$ ]] || return 1
  kill -0 "$pid" 2>/dev/null || return 1
  if [[ -r /proc/$pid/cmdline ]]; then
    local cmdline
    cmdline=$(tr '\0' ' ' <"/proc/$pid/cmdline")
    [[ $cmdline == *"$main_class"*"$CONFIG"* ]] || return 1
  fi
  printf '%s\n' "$pid"
}

# Sets JAVA to a Java 17+ (JAVA, then JAVA_HOME, then the PATH's).
resolve_java() {
  if [[ -n ${JAVA:-} ]]; then
    :
  elif [[ -n ${JAVA_HOME:-} && -x $JAVA_HOME/bin/java ]]; then
    JAVA="$JAVA_HOME/bin/java"
  else
    JAVA=$(command -v java) || die "java not found ($WHAT $KAFKA_VERSION needs Java 17+); set JAVA_HOME"
  fi
  local spec
  spec=$("$JAVA" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java\.specification\.version = //p')
  [[ $spec =~ ^[0-9]+$ ]] && ((spec >= 17)) ||
    die "$WHAT $KAFKA_VERSION needs Java 17+, but $JAVA is version '${spec:-unknown}'"
}

# Downloads the jars $POM lists into $LIB_DIR once (again when the pom changes); $1 says how
# much that is, for the log line.
fetch_jars() {
  local size=$1 pom_sum
  pom_sum=$(cksum <"$POM")
  if [[ -f $LIB_STAMP && $(<"$LIB_STAMP") == "$pom_sum" && -d $LIB_DIR ]]; then
    return 0
  fi
  command -v mvn >/dev/null || die "mvn not found; Maven is needed once to download the $WHAT jars"
  log "downloading $WHAT $KAFKA_VERSION jars into $LIB_DIR (first run only, $size)..."
  mkdir -p "$CACHE_DIR"
  local tmp="$CACHE_DIR/lib.tmp.$$"
  rm -rf "$tmp"
  # Output goes to stderr: stdout stays clean (--background prints only the address).
  # Maven 3.8 prints bare colour resets even in batch mode; strip them (as ./dfe-fetcher does).
  if ! mvn -B -q -f "$POM" dependency:copy-dependencies \
      -DoutputDirectory="$tmp" -DincludeScope=runtime 2>&1 | sed $'s/\e\\[0m//g' >&2; then
    rm -rf "$tmp"
    die "Maven could not fetch the $WHAT jars (is Maven Central reachable?)"
  fi
  rm -rf "$LIB_DIR"
  mv "$tmp" "$LIB_DIR"
  printf '%s\n' "$pom_sum" >"$LIB_STAMP"
}

# Sets JAVA_OPTS: the heap, G1, the generated Log4j configuration, then KAFKA_OPTS.
java_opts() {
  local -a heap extra
  read -r -a heap <<<"$KAFKA_HEAP_OPTS"
  read -r -a extra <<<"$KAFKA_OPTS"
  JAVA_OPTS=("${heap[@]}" -XX:+UseG1GC -XX:MaxGCPauseMillis=20 -Djava.awt.headless=true
    "-Dlog4j2.configurationFile=$LOG4J_CONFIG" ${extra[@]+"${extra[@]}"})
}

# SIGTERM to $1, then SIGKILL if it is still running after $2 seconds.
terminate() {
  local pid=$1 grace=$2 i
  kill -TERM "$pid" 2>/dev/null || return 0
  for ((i = 0; i < grace * 2; i++)); do
    kill -0 "$pid" 2>/dev/null || return 0
    sleep 0.5
  done
  log "still running after ${grace}s; sending SIGKILL"
  kill -KILL "$pid" 2>/dev/null || true
  sleep 1
}

# Stops the process $PID_FILE names (main class $1, called $2 in messages) within $3 seconds.
stop_background() {
  local main_class=$1 called=$2 grace=$3 pid
  if ! pid=$(running_pid "$main_class"); then
    if [[ -f $PID_FILE ]]; then
      rm -f "$PID_FILE"
      log "no $called running (removed stale pid file)"
    else
      log "no background $called running (no pid file in $(dirname -- "$PID_FILE"))"
    fi
    return 0
  fi
  log "stopping $WHAT (pid $pid)..."
  terminate "$pid" "$grace"
  rm -f "$PID_FILE"
  log "stopped"
}
