# shellcheck shell=bash
# shellcheck disable=SC2154 # work, fetcher, heap... are fault-campaign.sh's
# The disk-faults family of the fault campaign (sourced by benchmarks/scripts/fault-campaign.sh).
#
# One service (`run`) dumps files dropped into data/ and tails logs/app.log to the file output,
# its landing directory (landing/) and its state directory (state/, the checkpoints) each on a
# tmpfs of their own (DISK_LANDING_MB, 2048; DISK_STATE_MB, 4). The faults, in order, each while a
# dump of a FAULT_FILE_ROWS-row file is landing:
#
#   landing-full       the landing volume filled, freed after FAULT_SECS
#   landing-read-only  the landing volume made read-only (see read_only: the service holds its
#                      files open, so this is a read-only bind mount), then read-write; the
#                      output rotates at 16 MiB, so a dump needs a new file while it lasts
#   state-full         the state volume filled, freed after FAULT_SECS
#   state-read-only    the state volume made read-only, then read-write
#   checkpoint-corrupted  the service stopped (SIGTERM), the dump's checkpoint overwritten in its
#                      middle and the tail's cut to half its length, the service started again:
#                      it must say, naming each file, that it starts those units over
#   clock-back         the service started again under faketime (Debian's package, installed
#                      when missing), its wall clock stepped back an hour while it runs; the
#                      monotonic clock is left alone, as an NTP step leaves it
#
# The first four are lived through by one process, which must not exit; the last two restart it.
# The checks read the landing files as a consumer would.

disk_landing_mb="${DISK_LANDING_MB:-2048}"
disk_state_mb="${DISK_STATE_MB:-4}"
faketime_lib=/usr/lib/x86_64-linux-gnu/faketime/libfaketimeMT.so.1

disk_faults_setup() {
  [[ $(id -u) == 0 ]] || die "disk-faults: mounting its volumes needs root"
  if [[ ! -e $faketime_lib ]]; then
    log "disk-faults: installing faketime (Debian's package) for the clock step"
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq faketime; } \
      >"$1/apt.log" 2>&1 || die "disk-faults: faketime could not be installed (log: $1/apt.log)"
  fi
  mount_tmpfs "$1/landing" "$disk_landing_mb"
  mount_tmpfs "$1/state" "$disk_state_mb"
  mkdir -p "$1/data" "$1/logs"
  {
    cat <<YAML
instance_id: campaign
output:
  type: file
  file: {directory: ./landing, rotate_bytes: 16777216, retain_files: 100000}
  batch: {max_rows: 200}
YAML
    live_sources_yaml
  } >"$1/config.yaml"
  live_start "$1"
}

disk_faults_faults() {
  faults_done=0
  local fault rows
  for fault in landing-full landing-read-only state-full state-read-only checkpoint-corrupted clock-back; do
    # Before a failed commit was retried ahead of the next read, the dump landed its file again
    # every tick while the checkpoints could not be written; a small file keeps a build that
    # still did from filling the landing volume.
    rows=$fault_file_rows
    [[ $fault != state-* ]] || rows=$((rows / 5))
    fault_file_rows=$rows live_fault disk-faults "$1" "$fault" files.data logs.app \
      "disk_${fault//-/_}_inject" "disk_${fault//-/_}_clear"
  done
}

disk_landing_full_inject() { fill "$1/landing"; }
disk_landing_full_clear() { rm -f "$1/landing/filler"; }
disk_landing_read_only_inject() { read_only "$1/landing"; }
disk_landing_read_only_clear() { read_write "$1/landing"; }
disk_state_full_inject() { fill "$1/state"; }
disk_state_full_clear() { rm -f "$1/state/filler"; }
disk_state_read_only_inject() { read_only "$1/state"; }
disk_state_read_only_clear() { read_write "$1/state"; }

disk_checkpoint() { printf '%s/state/file-output/campaign.%s.json' "$1" "$2"; }

# Between two runs: the dump's checkpoint gets bytes that are not JSON in its middle, the tail's
# is cut to half its length (a torn write on a file system that does not rename atomically).
disk_checkpoint_corrupted_inject() {
  local dump tail_file size
  dump=$(disk_checkpoint "$1" files.data)
  tail_file=$(disk_checkpoint "$1" logs.app)
  service_stop disk-faults "$1"
  size=$(stat -c %s "$dump")
  # A control byte first: text alone in the middle of a string value (a path) left valid JSON
  # with another path in it, which the service rightly read without a word.
  printf '\001#not json#' | dd of="$dump" bs=1 seek=$((size / 2)) conv=notrunc status=none
  size=$(stat -c %s "$tail_file")
  truncate -s $((size / 2)) "$tail_file"
  service_start "$1"
}

# The service must have said, naming each file, that it starts the unit over.
disk_checkpoint_corrupted_clear() {
  local key
  for key in files.data logs.app; do
    wait_for "the service to name $key's checkpoint" 30 grep -q \
      "event=cursor_unreadable key=campaign.$key file=$(disk_checkpoint "$1" "$key") .*action=read_as_lost" \
      "$service_log" ||
      failure disk-faults "checkpoint-corrupted: no cursor_unreadable naming $key's file (log: $service_log)"
  done
}

# The service runs under faketime, its wall clock read from DIR/faketime (re-read every second),
# and steps back an hour while it runs; its monotonic clock is the machine's.
disk_clock_back_inject() {
  service_stop disk-faults "$1"
  echo "+0" >"$1/faketime"
  service_start "$1" LD_PRELOAD="$faketime_lib" FAKETIME_TIMESTAMP_FILE="$1/faketime" \
    FAKETIME_CACHE_DURATION=1 FAKETIME_DONT_FAKE_MONOTONIC=1
  wait_for "the service under faketime to land" 60 above landed_of logs.app 0 ||
    failure disk-faults "clock-back: the service under faketime landed nothing (log: $service_log)"
  echo "-1h" >"$1/faketime"
}

disk_clock_back_clear() { :; }

disk_faults_round() { :; }

disk_faults_stop() {
  stop_writer "$1" disk-faults
  wait_for "the service to land the last lines" 120 grep -q "\"line $(($(<"$1/written") - 1)) " \
    "$1/landing/logs_land.ndjson" || failure disk-faults "the service did not land the last lines"
  service_stop disk-faults "$1"
  # The frames of the run under faketime are up to an hour behind the machine's clock: its
  # whole run, in both clocks, counts as the clock fault's window. The run after it is on the
  # machine's clock again, a step forward of an hour.
  printf '%s %s fault\n' "$((service_began - 3600000))" "$(now_ms)" >>"$1/runs"
}

# landed_files DIR TOPIC: the file output's files of TOPIC in the order a consumer reads them.
landed_files() {
  local files=("$1"/landing/"$2"+*.ndjson)
  [[ -e ${files[0]} ]] || files=()
  files+=("$1/landing/$2.ndjson")
  (IFS=,; echo "${files[*]}")
}

disk_faults_check() {
  local files
  files=$(landed_files "$1" files-data_land)
  DFE_FETCHER_JAVA_OPTS="$heap" "$fetcher" snapshots verify --format json ${files//,/ } \
    >"$1/verify-files.json" 2>"$1/verify-files.err" || true
  checker disk-faults dump files "$files" "$1/verify-files.json" "$1/runs" "$1"/data/*.ndjson
  awk -v from=0 -v to="$(<"$1/written")" -v pad="$tail_pad" "$tail_line_awk" >"$1/lines.expected"
  checker disk-faults tail files "$(landed_files "$1" logs_land)" logs.app /message "$1/lines.expected"
  cat "$1/faults.log" >&2
}

# It starts its own broker (or needs none): fault-campaign.sh starts no shared one for it.
disk_faults_own_broker() { :; }
