# shellcheck shell=bash
# shellcheck disable=SC2034 # the paths and settings here are for the scripts that source this
# Shared by the benchmark scripts beside it; each one starts with
#
#   set -euo pipefail
#   source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
#
# and finds here where the checkout and its jars are, how to build them outside a measurement,
# how to time a command (wall clock and peak RSS), and the PostgreSQL client the database
# benchmarks use. Not meant to be run by itself; it changes no shell option of the caller.

# The checkout this file belongs to (two levels up), and what the scripts run from it.
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
fetcher="$root/dfe-fetcher"                              # the launcher: builds the jar when stale
fetcher_jar="$root/app/target/dfe-fetcher.jar"           # the runnable jar, for plain `java -jar`
benchmarks_jar="$root/benchmarks/target/benchmarks.jar"  # JMH and the measuring tools
local_kafka="$root/scripts/local-kafka.sh"               # the single-node broker
bench_out="$root/target/bench"                           # results the scripts keep (git ignores target/)

# The PostgreSQL the database benchmarks use: 127.0.0.1:5432, trust auth for user postgres, as
# the tests expect. Each benchmark works in a database or schema of its own and drops it.
psql=(psql -q -h 127.0.0.1 -U postgres -v ON_ERROR_STOP=1)

# Messages on stderr, prefixed with bench_name (the script's name unless the script sets it).
bench_name="$(basename "$0" .sh)"
log() { printf '%s: %s\n' "$bench_name" "$*" >&2; }
die() { printf '%s: error: %s\n' "$bench_name" "$*" >&2; exit 1; }

# Prints the comment block at the top of the running script, which is its usage.
usage() { awk 'NR == 1 { next } /^#/ { sub(/^# ?/, ""); print; next } { exit }' "$0"; }

help_requested() { [[ ${1:-} == -h || ${1:-} == --help ]]; }

# no_arguments "$@": for a script whose settings all come from the environment. -h or --help
# prints the usage and exits 0; any other argument is refused with status 2.
no_arguments() {
  if help_requested "$@"; then
    usage
    exit 0
  fi
  if (($# > 0)); then
    usage >&2
    printf '%s: error: no arguments expected (settings come from the environment): %s\n' \
      "$bench_name" "$*" >&2
    exit 2
  fi
}

# Builds app/target/dfe-fetcher.jar through the launcher if it is missing or older than the
# sources, so that no measurement includes a build.
build_fetcher() { "$fetcher" --version >/dev/null; }

# Builds benchmarks/target/benchmarks.jar (and the modules it needs).
build_benchmarks() { (cd "$root" && mvn -B -q -pl benchmarks -am package -DskipTests); }

# require_file PATH HINT: stops with HINT unless PATH exists.
require_file() { [[ -f $1 ]] || die "$1 is missing: $2"; }

# make_work_dir NAME: a new directory under $TMPDIR (or /tmp), printed.
make_work_dir() { mktemp -d "${TMPDIR:-/tmp}/$1.XXXXXX"; }

now() { date +%s.%N; }

# The 1-, 5- and 15-minute load averages, as "0.52 0.61 0.70".
loadavg() { cut -d' ' -f1-3 /proc/loadavg; }

# timed_run DIR COMMAND...: runs COMMAND under /usr/bin/time and returns its exit status. Sets
# TIMED_SECONDS (wall clock from just before to just after, JVM start included) and TIMED_RSS_KB
# (peak resident set in KiB), and writes them to DIR/seconds and DIR/rss as well, so a caller
# that runs it in a pipeline (a subshell) reads them back with timed_result DIR. On failure DIR/rss
# also holds /usr/bin/time's "Command exited with non-zero status N" line.
timed_run() {
  local dir=$1 start end status=0
  shift
  start=$(now)
  /usr/bin/time -f "%M" -o "$dir/rss" "$@" || status=$?
  end=$(now)
  echo "$end - $start" | bc >"$dir/seconds"
  timed_result "$dir"
  return "$status"
}

# timed_result DIR: sets TIMED_SECONDS and TIMED_RSS_KB from the last timed_run in DIR.
timed_result() {
  TIMED_SECONDS=$(<"$1/seconds")
  TIMED_RSS_KB=$(tail -n 1 "$1/rss")
}

# measure LABEL COMMAND...: timed_run in $work, then prints
# "LABEL: 23.5 s, peak RSS 148 MiB". A failing COMMAND stops the script (set -e).
measure() {
  local label=$1
  shift
  # shellcheck disable=SC2154 # work is the calling script's work directory
  timed_run "$work" "$@"
  printf '%s: %.1f s, peak RSS %d MiB\n' "$label" "$TIMED_SECONDS" "$((TIMED_RSS_KB / 1024))"
}

# create_database NAME / drop_database NAME, on the PostgreSQL above (from database test).
create_database() { "${psql[@]}" -d test -c "CREATE DATABASE $1"; }
drop_database() { "${psql[@]}" -d test -c "DROP DATABASE IF EXISTS $1 WITH (FORCE)" >/dev/null; }
pg_available() { "${psql[@]}" -d test -tAc "SELECT 1" >/dev/null 2>&1; }

# Stops a process the script started: TERM, then KILL after 40 s.
stop_pid() {
  local pid=$1 i
  kill "$pid" 2>/dev/null || return 0
  for ((i = 0; i < 80; i++)); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.5
  done
  kill -KILL "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
}

# proc_sample PID: "THREADS RSS_MIB FDS" of a running process, from /proc.
proc_sample() {
  local threads rss fds
  threads=$(awk '/^Threads:/ { print $2 }' "/proc/$1/status")
  rss=$(awk '/^VmRSS:/ { printf "%d", $2 / 1024 }' "/proc/$1/status")
  fds=$(find "/proc/$1/fd" -mindepth 1 -maxdepth 1 2>/dev/null | wc -l)
  echo "$threads $rss $fds"
}

# wait_metrics_port PID LOG: the port of the metrics endpoint a `run` with metrics address
# 127.0.0.1:0 logged, printed once its /livez answers; fails when PID stops or after 60 s.
wait_metrics_port() {
  local i port=""
  for ((i = 0; i < 600; i++)); do
    port=$(grep -o 'event=metrics_listening address=127.0.0.1:[0-9]*' "$2" 2>/dev/null | sed 's/.*://' || true)
    if [[ -n $port ]] && curl -sf "http://127.0.0.1:$port/livez" >/dev/null; then
      echo "$port"
      return 0
    fi
    kill -0 "$1" 2>/dev/null || return 1
    sleep 0.1
  done
  return 1
}
