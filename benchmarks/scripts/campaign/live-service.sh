# shellcheck shell=bash
# shellcheck disable=SC2154 # work, fetcher, kill_window_ms... are fault-campaign.sh's
# What the fault families that keep one service running through their faults share (sourced by
# benchmarks/scripts/fault-campaign.sh): the service started once and watched, small volumes
# mounted for a fault and unmounted on exit, /readyz and /metrics sampled while a fault lasts,
# and the wait for the service to land again once it cleared.
#
# A family FAMILY with such faults defines FAMILY_faults DIR (run instead of the kill rounds; it
# sets faults_done to the number of faults it injected) besides FAMILY_setup, _stop and _check.
# Each fault is run by live_fault DIR NAME INJECT CLEAR: INJECT and CLEAR are commands, the time
# between them the fault's window, written to DIR/runs as "START_MS END_MS fault" so that the
# checker explains the dumps it cut; what the service said meanwhile goes to DIR/faults.log.

# Seconds a fault lasts unless the family says otherwise, and how long the service may take to
# land again once it cleared.
fault_secs="${FAULT_SECS:-20}"
recover_secs="${RECOVER_SECS:-180}"
# Rows of each file the live families drop in before a fault: enough for a dump to last a while.
fault_file_rows="${FAULT_FILE_ROWS:-100000}"
# A fault comes a seeded delay in [0, FAULT_WINDOW_MS) after its file's dump began landing.
fault_window_ms="${FAULT_WINDOW_MS:-300}"

# Runs "$@" when the campaign exits, the last registered first (a broker before its volume).
on_exit() { cleanup_hooks+=("$(printf '%q ' "$@")"); }

# What follows the output in the live families' configurations: the checkpoints in state/,
# metrics on a free port, a file dump of data/*.ndjson (files dropped in) and a tail of
# logs/app.log (tail_writer's).
live_sources_yaml() {
  cat <<YAML
cursor: {directory: ./state}
metrics: {address: "127.0.0.1:0"}
sources:
  file:
    files:
      topic: files
      interval_secs: 1
      units:
        - unit: data
          row_key: /n
          dump: {paths: ["data/*.ndjson"]}
    logs:
      topic: logs
      interval_secs: 1
      units:
        - unit: app
          tail: {paths: ["logs/app.log*"], decoder: lines, glob_interval_secs: 0,
                 rotate_wait_secs: 2}
YAML
}

# live_start DIR: a first file for the dump, the tail's writer, and the service.
live_start() {
  drop_file "$1" first
  start_writer "$1" tail_writer "$1"
  service_start "$1"
}

# mount_tmpfs DIR SIZE_MB: a tmpfs of SIZE_MB at DIR (made empty), unmounted on exit.
mount_tmpfs() {
  mkdir -p "$1"
  mount -t tmpfs -o "size=${2}m" tmpfs "$1" || die "cannot mount a tmpfs on $1 (the disk faults need root)"
  on_exit unmount_quietly "$1"
}

unmount_quietly() { # DIR: every mount stacked on it
  local layer
  for layer in 1 2 3; do
    mountpoint -q "$1" || return 0
    umount "$1" 2>/dev/null || umount -l "$1"
  done
}

# read_only DIR: the volume at DIR remounted read-only; when that is refused because a file is
# open for writing there ("mount point is busy"), a read-only bind mount of DIR over itself,
# which refuses every new file, rename and open for writing but not the writes to a file
# opened before. Which one was done goes to stderr and to read_only_how.
read_only() {
  if mount -o remount,ro "$1" 2>/dev/null; then
    read_only_how=remount
  else
    mount --bind "$1" "$1" && mount -o remount,bind,ro "$1"
    read_only_how=bind
  fi
  log "$1 read-only ($read_only_how)"
}

read_write() {
  if [[ $read_only_how == remount ]]; then
    mount -o remount,rw "$1"
  else
    umount "$1"
  fi
}

# fill DIR: writes DIR/filler until the volume has no byte left.
fill() { dd if=/dev/zero of="$1/filler" bs=64k status=none 2>/dev/null || true; }

# service_start DIR [ENV=VALUE...]: `run` in DIR, kept running; its pid in service_pid, its
# metrics port in service_port. Each start's log is DIR/service-N.log.
service_start() {
  local dir=$1 deadline
  shift
  [[ ${service_dir:-} == "$dir" ]] || service_runs=0 # counted per family
  service_dir=$dir
  service_runs=$((service_runs + 1))
  service_log="$dir/service-$service_runs.log"
  service_began=$(now_ms)
  (cd "$dir" && env "$@" DFE_FETCHER_JAVA_OPTS="$heap" "$fetcher" run --config config.yaml) \
    >"$service_log" 2>&1 &
  service_pid=$!
  remember "$service_pid"
  service_port=""
  rm -f "$dir/service.port"
  deadline=$((SECONDS + 90))
  until [[ -n $service_port ]]; do
    kill -0 "$service_pid" 2>/dev/null || die "the service exited at start (log: $service_log)"
    ((SECONDS < deadline)) || die "the service served no metrics within 90 s (log: $service_log)"
    sleep 0.1
    service_port=$(grep -o 'event=metrics_listening address=127.0.0.1:[0-9]*' "$service_log" \
      2>/dev/null | cut -d: -f2 || true)
  done
  echo "$service_port" >"$dir/service.port"
}

# service_alive FAMILY WHEN: a failure when the service is not running.
service_alive() {
  kill -0 "$service_pid" 2>/dev/null && return 0
  failure "$1" "the service exited $2 (log: $service_log)"
  return 1
}

# service_stop FAMILY DIR: SIGTERM; it must exit 0. Appends the run to DIR/runs.
service_stop() {
  local status=0
  service_alive "$1" "before it was stopped" || true
  kill -TERM "$service_pid" 2>/dev/null || true
  wait "$service_pid" || status=$?
  printf '%s %s stopped\n' "$service_began" "$(now_ms)" >>"$2/runs"
  ((status == 0)) || failure "$1" "the service exited $status when stopped (log: $service_log)"
}

# metric NAME [LABEL="VALUE"...]: the sum of the service's samples of NAME with those labels.
metric() {
  local name=$1
  shift
  curl -fsS --max-time 5 "http://127.0.0.1:$service_port/metrics" 2>/dev/null |
    awk -v name="$name" -v labels="$*" '
      BEGIN { wanted = split(labels, want, " ") }
      index($0, name "{") != 1 && index($0, name " ") != 1 { next }
      { for (i = 1; i <= wanted; i++) if (index($0, want[i]) == 0) next; sum += $NF }
      END { printf "%d\n", sum }'
}

# The series live_fault follows, for a dump store and a tail source.
complete_of() { metric dfe_fetcher_snapshots_total "store=\"$1\"" 'status="complete"'; }
landed_of() { metric dfe_fetcher_records_total "source=\"$1\""; }
rows_of() { metric dfe_fetcher_snapshot_rows_total "store=\"$1\""; }

# wait_for WHAT SECONDS COMMAND...: until COMMAND succeeds; 1 (and a log line) when it never did.
wait_for() {
  local what=$1 deadline=$((SECONDS + $2))
  shift 2
  until "$@"; do
    if ((SECONDS >= deadline)); then
      log "gave up waiting for $what"
      return 1
    fi
    sleep 0.2
  done
}

above() { (($("$1" "$2") > $3)); }

# sampler DIR NAME: every half second, the time, /readyz's status and what /metrics says of
# readiness, failed ticks, aborted dumps and landed records, to DIR/samples-NAME until killed.
sampler() {
  local out="$1/samples-$2" code body port
  printf 'ms readyz ready tick_failures aborted landed\n' >"$out"
  while :; do
    port=$(cat "$1/service.port" 2>/dev/null || true) # a fault may start the service again
    code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 5 \
      "http://127.0.0.1:$port/readyz" 2>/dev/null || true)
    body=$(curl -fsS --max-time 5 "http://127.0.0.1:$port/metrics" 2>/dev/null || true)
    awk -v ms="$(now_ms)" -v code="${code:-none}" '
      /^dfe_fetcher_ready / { ready = $NF }
      /^dfe_fetcher_tick_failures_total[{]/ { failures += $NF }
      /^dfe_fetcher_snapshots_total[{]/ && /status="aborted"/ { aborted += $NF }
      /^dfe_fetcher_records_total[{]/ { landed += $NF }
      END { printf "%s %s %s %d %d %d\n", ms, code, (ready == "" ? "none" : ready), failures, aborted, landed }
    ' <<<"$body" >>"$out"
    sleep 0.5
  done
}

# live_fault FAMILY DIR NAME DUMP_STORE TAIL_SOURCE INJECT CLEAR [HOLD]: drops a file of
# FAULT_FILE_ROWS rows for the dump, waits until the dump is landing it and a seeded delay in
# [0, FAULT_WINDOW_MS), runs INJECT, waits HOLD seconds (FAULT_SECS), runs CLEAR, and waits until
# the service is ready and has landed a complete snapshot and tail records since; /readyz and
# /metrics are sampled throughout. INJECT and CLEAR are functions of the family, called with DIR.
live_fault() {
  local family=$1 dir=$2 name=$3 store=$4 source=$5 inject=$6 clear=$7 hold=${8:-$fault_secs}
  local start end cleared recovered complete landed rows delay sampler_pid runs_before
  file_rows=$fault_file_rows drop_file "$dir" "$(printf '%s-%02d' "$name" "$((faults_done + 1))")"
  complete=$(complete_of "$store")
  rows=$(rows_of "$store")
  wait_for "the dump of $name's file" 60 above rows_of "$store" "$rows" ||
    failure "$family" "$name: the dump did not start"
  delay=$((RANDOM % fault_window_ms))
  sleep_ms "$delay"
  sampler "$dir" "$name" &
  sampler_pid=$!
  remember "$sampler_pid"
  start=$(now_ms)
  runs_before=$service_runs
  log "$family: $name (after ${delay} ms of the dump)"
  "$inject" "$dir"
  sleep "$hold"
  "$clear" "$dir"
  cleared=$(now_ms)
  ((service_runs == runs_before)) || complete=0 # a new process counts from 0
  landed=$(landed_of "$source")
  if wait_for "$name to clear" "$recover_secs" recovered_since "$store" "$complete" "$source" "$landed"; then
    recovered=$(now_ms)
  else
    recovered=""
    failure "$family" "$name: the service did not land again within $recover_secs s of the fault's end"
    # What it was doing: its units' status, and a thread dump (SIGQUIT) at the end of its log.
    curl -fsS --max-time 5 "http://127.0.0.1:$service_port/status" >"$dir/status-$name.json" 2>&1
    kill -QUIT "$service_pid" 2>/dev/null || true
  fi
  end=$(now_ms)
  kill "$sampler_pid" 2>/dev/null
  wait "$sampler_pid" 2>/dev/null || true
  printf '%s %s fault\n' "$start" "$end" >>"$dir/runs"
  faults_done=$((faults_done + 1))
  service_alive "$family" "during $name" || true
  fault_report "$dir" "$name" "$start" "$cleared" "${recovered:-$end}" "$delay" >>"$dir/faults.log"
}

recovered_since() { # STORE COMPLETE SOURCE LANDED
  [[ $(curl -s -o /dev/null -w '%{http_code}' --max-time 5 "http://127.0.0.1:$service_port/readyz") == 200 ]] &&
    above complete_of "$1" "$2" && above landed_of "$3" "$4"
}

# fault_report DIR NAME START CLEARED RECOVERED DELAY: one line of what the samples show, while
# the fault lasted (readyz, ready_gauge) and from its end until the service landed again
# (readyz_after).
fault_report() {
  awk -v name="$2" -v start="$3" -v cleared="$4" -v recovered="$5" -v delay="$6" '
    function counts(seen, text, key) {
      text = ""
      for (key in seen) text = text (text == "" ? "" : ",") key "x" seen[key]
      return text == "" ? "none" : text
    }
    NR == 1 { next }
    NR == 2 { failures0 = $4; aborted0 = $5 }
    $1 <= cleared { codes[$2]++; readies[$3]++ }
    $1 > cleared { after[$2]++ }
    { failures = $4; aborted = $5 }
    END {
      printf "fault=%s after_ms=%d lasted_s=%.1f readyz=%s ready_gauge=%s readyz_after=%s tick_failures=+%d aborted=+%d recovered_s=%.1f\n",
        name, delay, (cleared - start) / 1000, counts(codes), counts(readies), counts(after),
        failures - failures0, aborted - aborted0, (recovered - cleared) / 1000
    }' "$1/samples-$2"
}
