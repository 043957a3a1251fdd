#!/usr/bin/env bash
# The fault campaign of issue 25, its kill -9 part: for each source family, `dfe-fetcher run`
# (the shipped jar, through ./dfe-fetcher) lands on a real Kafka broker while writers feed its
# sources, and is killed with SIGKILL at seeded points and started again, KILLS times; then the
# writers stop, one last `run --once` catches up, and the landed data is checked against the
# sources with `snapshots verify` and benchmarks/tools/FaultCampaignCheck.java:
#
#   - every source has a complete snapshot equal to it, and every complete snapshot equals a
#     source (the file dump: one snapshot per file; the database and REST dumps: the table or
#     listing, which does not change);
#   - no snapshot is truncated or in conflict, and an open one is the last its store began in a
#     run that was killed (a kill cut that dump);
#   - every tail row, REST window record and tailed line written landed at least once;
#   - no checkpoint ahead of an acknowledgement: each tail's cursor file, copied right after each
#     kill and after the catch-up, is held against the topic, and every record before its
#     position must have been on the topic before that kill (FaultCampaignCheck checkpoints);
#   - no secret printed: each kill family uses secrets (a password in the Kafka output's
#     sasl.jaas.config; pg a password in its JDBC URL, mariadb a user of its own with a password
#     setting, rest an api key from env:), and none of them may appear in its run logs (at
#     DEBUG), the /metrics and /status of its first run, its verify reports, its checks or
#     config-check's output.
#
# Families (FAMILIES, in this order): file-dump (new files dropped in before each run),
# pg (a dump store and a tail store on PostgreSQL), mariadb (the same on MariaDB), rest (a local
# server, benchmarks/tools/CampaignRestServer.java: a paged dump and an incremental unit),
# file-tail (a log written and rotated by rename while it is followed), and four families whose
# one service lives through its faults instead of being killed, in benchmarks/scripts/campaign/:
# rest-faults (the REST faults of issue 25 switched on and off in the local server; its file says
# which and how they are checked), broker-faults (a leader gone, the broker bounced, down, its
# topics deleted, its disk full) and disk-faults (the landing and state directories full and
# read-only, a corrupted checkpoint, the clock stepped back an hour). The last two mount tmpfs
# volumes, so they need root; db-faults (connections severed, servers restarted, locks past
# query_timeout_secs, a long transaction against settle_secs; campaign/db-faults.sh);
# bad-input (units of the file and REST families fed bad files, lines and pages beside good units;
# campaign/bad-input.sh); and, only when named in FAMILIES, connect-faults (the Kafka Connect
# plugin in a distributed worker group, the worker running its task killed with kill -9 mid-dump,
# at least once and exactly once; campaign/connect-faults.sh). The settings of each are at the top
# of its file. A family whose service is not `run` defines FAMILY_catch_up in place of the last
# `run --once`.
#
# Prints one line on stdout,
#   fault-campaign: seed=S kills=file-dump:20,pg:20,... faults=rest-faults:27,...,bad-input:13 cut_dumps=N lost=0
# or, when a check fails, lost=<problems> failures="..." and exits 1. Everything else goes to
# stderr; every run's log and the checks are kept in the work directory.
#
#   benchmarks/scripts/fault-campaign.sh                     # 20 kills per family, seed 20261202
#   SEED=7 KILLS=2 FAMILIES="file-dump rest" benchmarks/scripts/fault-campaign.sh
#
# Settings (environment): SEED (20261202), KILLS (20, per family), FAMILIES (all ten),
# KILL_WINDOW_MS (1500: a kill falls uniformly in [0, KILL_WINDOW_MS) after the run's first
# acknowledged message), DB_ROWS (10000), REST_ITEMS (2000), REST_PAGE_MS (20, how long
# the REST server takes per page of 100), FILE_ROWS (10000, per dumped file),
# SELF_TEST (1: after the runs, change the first dumped file and expect a tailed line never
# written, so file-dump and file-tail must report loss; move each tail's first copied checkpoint
# past what the topic held, and write each secret into a log of its family: the proof that the
# checks can fail),
# BOOTSTRAP (a broker to use; else scripts/local-kafka.sh starts one on DFE_KAFKA_PORT, default
# 29092, and DFE_KAFKA_CONTROLLER_PORT, 29093), CAMPAIGN_DIR (an empty or new
# directory; default a new one under /tmp).
# Needs: JDK 17, Maven (to build the jar once), PostgreSQL on 127.0.0.1:5432 (trust, user
# postgres, database test) and MariaDB on 127.0.0.1:3306 (root, no password) for those families;
# each works in a database of its own and drops it. The settings of rest-faults are in its file.
set -euo pipefail
# shellcheck source=benchmarks/scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
bench_name=fault-campaign
no_arguments "$@"

seed="${SEED:-20261202}"
kills="${KILLS:-20}"
families="${FAMILIES:-file-dump pg mariadb rest file-tail rest-faults broker-faults disk-faults db-faults bad-input}"
kill_window_ms="${KILL_WINDOW_MS:-1500}"
db_rows="${DB_ROWS:-10000}"
rest_items="${REST_ITEMS:-2000}"
rest_page_ms="${REST_PAGE_MS:-20}"
file_rows="${FILE_ROWS:-10000}"
work="${CAMPAIGN_DIR:-$(make_work_dir dfe-fault-campaign)}"
mkdir -p "$work"
# Topics, checkpoints and files of an earlier run would be read as this run's.
[[ -z $(ls -A "$work") ]] || die "$work is not empty: give CAMPAIGN_DIR a new directory"
database="dfe_fault_campaign_$$"
mysql=(mysql -h 127.0.0.1 -P 3306 -u root -N -B)
java_bin="${JAVA:-java}"
self_test="${SELF_TEST:-0}"
heap="-Xmx256m"

bootstrap="${BOOTSTRAP:-}"
broker_started=""
pg_made=""
mariadb_made=""
background_pids=()
cleanup_hooks=() # commands the families register with on_exit, run last first

cleanup() {
  set +e
  local pid
  for pid in "${background_pids[@]}"; do
    kill -KILL "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
  done
  local hook
  for ((hook = ${#cleanup_hooks[@]} - 1; hook >= 0; hook--)); do
    eval "${cleanup_hooks[hook]}" >/dev/null 2>&1
  done
  [[ -n $broker_started ]] && "$local_kafka" --stop >/dev/null 2>&1
  [[ -n $pg_made ]] && drop_database "$database"
  [[ -n $mariadb_made ]] && "${mysql[@]}" -e "DROP DATABASE IF EXISTS $database"
  log "kept $work (run logs, configurations, checks)"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

now_ms() { date +%s%3N; }

sleep_ms() { sleep "$(printf '%d.%03d' $(($1 / 1000)) $(($1 % 1000)))"; }

# Started in the background and killed on exit.
remember() { background_pids+=("$1"); }

# The family's writer, started in the background: its pid in writer_pid.
start_writer() {
  local dir=$1
  shift
  "$@" >"$dir/writer.log" 2>&1 &
  writer_pid=$!
  remember "$writer_pid"
}

# Tells the writer to stop (it finishes the write it is in) and waits for it.
stop_writer() {
  : >"$1/stop-writer"
  wait "$writer_pid" || failure "$2" "the writer failed (log: $1/writer.log)"
}

# ---------------------------------------------------------------------------------------------
# What every family shares: the output, one run killed at a seeded point, the final catch-up.

output_yaml() {
  cat <<YAML
instance_id: campaign
output:
  type: kafka
  kafka:
    bootstrap_servers: "$bootstrap"
    create_topics: true
    # Unused on the plaintext listener, but a secret the service holds: never to be printed.
    properties:
      sasl.jaas.config: 'org.apache.kafka.common.security.plain.PlainLoginModule required username="campaign" password="$output_secret";'
  batch: {max_rows: 200}
cursor: {directory: ./state}
metrics: {address: "127.0.0.1:0"}
YAML
}

# start_fetcher DIR LOG [ARG...]: `run --config DIR/config.yaml` in DIR, its pid in $fetcher_pid.
start_fetcher() {
  local dir=$1 log_file=$2
  shift 2
  (cd "$dir" && DFE_FETCHER_LOG_LEVEL=DEBUG DFE_FETCHER_JAVA_OPTS="$heap" \
    exec "$fetcher" run --config config.yaml "$@") >"$log_file" 2>&1 &
  fetcher_pid=$!
}

# landed PORT: the messages this run had acknowledged, from its /metrics (0 until it answers).
landed() {
  curl -fsS --max-time 2 "http://127.0.0.1:$1/metrics" 2>/dev/null |
    awk '/^dfe_fetcher_records_total/ { sum += $2 } END { printf "%d\n", sum }'
}

# kill_round FAMILY DIR ROUND: starts the fetcher, waits until it has landed something (its
# records_total on /metrics moved: the run is working, not starting), then a seeded delay in
# [0, KILL_WINDOW_MS), then SIGKILL. Appends "START_MS END_MS killed" to DIR/runs.
kill_round() {
  local family=$1 dir=$2 round=$3 log_file="$2/run-$3.log" start end delay port="" deadline
  start=$(now_ms)
  start_fetcher "$dir" "$log_file"
  remember "$fetcher_pid"
  deadline=$((SECONDS + 90))
  while kill -0 "$fetcher_pid" 2>/dev/null && ((SECONDS < deadline)); do
    if [[ -z $port ]]; then
      port=$(grep -o 'event=metrics_listening address=127.0.0.1:[0-9]*' "$log_file" 2>/dev/null |
        cut -d: -f2 || true)
    elif (($(landed "$port") > 0)); then
      break
    fi
    sleep 0.05
  done
  if ((round == 1)) && [[ -n $port ]]; then # what a scraper sees, searched for secrets
    curl -fsS --max-time 2 "http://127.0.0.1:$port/metrics" >"$dir/metrics.txt" 2>&1 || true
    curl -fsS --max-time 2 "http://127.0.0.1:$port/status" >"$dir/status.json" 2>&1 || true
  fi
  delay=$((RANDOM % kill_window_ms))
  sleep_ms "$delay"
  if ! kill -0 "$fetcher_pid" 2>/dev/null; then
    failure "$family" "run $round exited by itself before it was killed (log: $log_file)"
  fi
  kill -KILL "$fetcher_pid" 2>/dev/null || true
  wait "$fetcher_pid" 2>/dev/null || true
  end=$(now_ms)
  copy_checkpoints "$dir" "$(printf 'round-%03d' "$round")" "$end"
  printf '%s %s killed\n' "$start" "$end" >>"$dir/runs"
  printf 'round %d: killed %d ms after its first acknowledgement\n' "$round" "$delay" >>"$dir/kills"
}

# copy_checkpoints DIR NAME ENDED_MS: each cursor file the run that ended left (killed, or the
# catch-up), as DIR/checkpoints/KEY/NAME.json, and the time it ended as NAME.ms.
copy_checkpoints() {
  local file key
  for file in "$1"/state/*.json; do
    [[ -e $file ]] || continue
    key=$(basename "$file" .json)
    mkdir -p "$1/checkpoints/$key"
    cp "$file" "$1/checkpoints/$key/$2.json"
    echo "$3" >"$1/checkpoints/$key/$2.ms"
  done
}

# check_checkpoints FAMILY DIR TOPIC STORE KIND [ARG]: no copied checkpoint of STORE (cursor
# campaign.STORE) ahead of what the topic held at its kill. SELF_TEST=1 first moves the first
# copy a long way ahead, so the check must fail.
check_checkpoints() {
  local family=$1 dir=$2 topic=$3 store=$4 kind=$5 arg=${6:-} copies="$2/checkpoints/campaign.$4"
  local first moved
  mkdir -p "$copies"
  first=$(find "$copies" -name 'round-*.json' | sort | head -n 1)
  if [[ $self_test == 1 && -n $first ]]; then
    case $kind in
      keyset) moved='.mark.values[0].value |= (tonumber + 1000000 | tostring)' ;;
      window) moved='.mark.end |= (sub("\\.[0-9]+Z$"; "Z") | fromdateiso8601 + 3600 | todateiso8601)' ;;
      file_tail) moved='.mark.files[0].offset |= (tonumber + 1000000 | tostring)' ;;
    esac
    jq -c "$moved" "$first" >"$first.moved" && mv "$first.moved" "$first"
  fi
  # shellcheck disable=SC2086 # ARG is a list of words
  checker "$family" checkpoints "$bootstrap" "$topic" "$store" "$kind" "$copies" $arg
}

# check_secrets FAMILY DIR SECRET...: config-check's output joins what the family printed, then
# no SECRET may appear in any file of DIR but its configuration (nor in checks.log). SELF_TEST=1
# first writes each secret into a log of the family, so the check must fail.
check_secrets() {
  local family=$1 dir=$2 secret found
  shift 2
  (cd "$dir" && DFE_FETCHER_LOG_LEVEL=DEBUG DFE_FETCHER_JAVA_OPTS="$heap" "$fetcher" config-check \
    --config config.yaml) >"$dir/config-check.out" 2>&1 ||
    failure "$family" "config-check failed (see $dir/config-check.out)"
  if [[ $self_test == 1 ]]; then
    for secret in "$@"; do
      echo "self-test: a line that prints $secret" >>"$dir/run-self-test.log"
    done
  fi
  for secret in "$@"; do
    found=$(grep -rlaF --exclude='config*.yaml' --exclude-dir=checkpoints --exclude-dir=kafka \
      -e "$secret" "$dir" "$work/checks.log" || true)
    if [[ -n $found ]]; then
      failure "$family" "a secret (${secret:0:4}...) is printed in: $(echo $found)"
    fi
  done
  printf '%s: secrets searched=%d files=%d\n' "$family" "$#" \
    "$(find "$dir" -type f ! -name 'config*.yaml' ! -path '*/checkpoints/*' | wc -l)" >>"$work/checks.log"
}

# catch_up FAMILY DIR: the last run, `run --once` after the writers stopped; it must succeed.
catch_up() {
  local family=$1 dir=$2 start end status=0
  start=$(now_ms)
  start_fetcher "$dir" "$dir/run-last.log" --once
  wait "$fetcher_pid" || status=$?
  end=$(now_ms)
  # Checked with the kills' copies: a kill before a run's first commit leaves none of its own.
  copy_checkpoints "$dir" round-last "$end"
  printf '%s %s stopped\n' "$start" "$end" >>"$dir/runs"
  ((status == 0)) || failure "$family" "the run after the last kill exited $status (log: $dir/run-last.log)"
}

# check_dump FAMILY DIR TOPIC SOURCE...: snapshots verify, then the checker's dump check.
check_dump() {
  local family=$1 dir=$2 topic=$3 status=0
  shift 3
  DFE_FETCHER_JAVA_OPTS="$heap" "$fetcher" snapshots verify --format json \
    --bootstrap-server "$bootstrap" --topic "$topic" >"$dir/verify-$topic.json" \
    2>"$dir/verify-$topic.err" || status=$?
  # 0: every snapshot complete; 3: some not complete (the checker judges which may be); 2: a
  # message that is not a frame, which nothing explains.
  if ((status != 0 && status != 3)); then
    failure "$family" "snapshots verify of $topic exited $status (see $dir/verify-$topic.err)"
    return 0
  fi
  checker "$family" dump "$bootstrap" "$topic" "$dir/verify-$topic.json" "$dir/runs" "$@"
}

# check_tail FAMILY TOPIC STORE POINTER EXPECTED
check_tail() {
  local family=$1
  shift
  checker "$family" tail "$bootstrap" "$@"
}

checker() {
  local family=$1 out
  shift
  out=$("$java_bin" -cp "$work/classes:$fetcher_jar" FaultCampaignCheck "$@" 2>&1) || true
  printf '%s: %s\n' "$family" "$out" >>"$work/checks.log"
  printf '%s: %s\n' "$family" "$out" >&2
  local cut
  cut=$(grep -o ' open=[0-9]*' <<<"$out" | head -n 1 | cut -d= -f2 || true)
  # A family that checks a topic while its faults go on sets count_cuts=0 for those checks: its
  # check of the whole topic at the end counts the cut dumps once.
  ((${count_cuts:-1} == 0)) || cut_dumps=$((cut_dumps + ${cut:-0}))
  if grep -q '^check: FAIL' <<<"$out"; then
    local problems
    problems=$(grep -o 'problems=[0-9]*' <<<"$out" | head -n 1 | cut -d= -f2 || true)
    lost=$((lost + ${problems:-1}))
    failures+=("$family: $(sed -n 2p <<<"$out" | sed 's/^ *//')")
  fi
}

# failure FAMILY TEXT: a problem outside the checker's (a run that died, a failed catch-up).
failure() {
  lost=$((lost + 1))
  failures+=("$1: $2")
  log "$1: $2"
}

# campaign FAMILY: the rounds, the catch-up and the checks of one family, through its functions
# FAMILY_setup DIR, FAMILY_round DIR ROUND (before each run), FAMILY_stop DIR, FAMILY_check DIR.
# A family with a FAMILY_faults DIR injects faults of its own instead of the kills, and sets
# faults_done to how many.
campaign() {
  local family=$1 dir="$work/$1" round name=${1//-/_}
  mkdir -p "$dir"
  : >"$dir/runs"
  # The kill points depend on the seed and the family only, whichever families run.
  RANDOM=$(((seed + $(cksum <<<"$family" | cut -d' ' -f1)) % 1000000007))
  log "$family: setting up"
  "${name}_setup" "$dir"
  if declare -F "${name}_faults" >/dev/null; then
    "${name}_faults" "$dir" # a family whose service lives through its faults (campaign/*.sh)
  else
    for ((round = 1; round <= kills; round++)); do
      "${name}_round" "$dir" "$round"
      kill_round "$family" "$dir" "$round"
    done
  fi
  "${name}_stop" "$dir"
  if declare -F "${name}_catch_up" >/dev/null; then
    "${name}_catch_up" "$dir" # a family whose service is not `run` (campaign/connect-faults.sh)
  else
    log "$family: faults done; catching up with run --once"
    catch_up "$family" "$dir"
  fi
  "${name}_check" "$dir"
  if declare -F "${name}_faults" >/dev/null; then
    fault_counts+=("$family:$faults_done")
  else
    kill_counts+=("$family:$kills")
  fi
}

# ---------------------------------------------------------------------------------------------
# file-dump: FILE_ROWS-row files dropped into data/ (written aside, renamed in) before each run.

file_dump_setup() {
  mkdir -p "$1/data"
  {
    output_yaml
    cat <<YAML
sources:
  file:
    files:
      topic: files
      interval_secs: 1
      units:
        - unit: data
          row_key: /n
          dump: {paths: ["data/*.ndjson"]}
YAML
  } >"$1/config.yaml"
}

drop_file() { # DIR NAME
  awk -v name="$2" -v n="$file_rows" 'BEGIN {
    for (i = 0; i < n; i++)
      printf "{\"file\":\"%s\",\"n\":%d,\"note\":\"row %d of file %s, padded to about a hundred bytes\"}\n", name, i, i, name
  }' >"$1/data/.$2.tmp"
  mv "$1/data/.$2.tmp" "$1/data/$2.ndjson"
}

file_dump_round() {
  drop_file "$1" "f$(printf '%03d' "$2")a"
  drop_file "$1" "f$(printf '%03d' "$2")b"
}

file_dump_stop() { :; }

file_dump_check() {
  if [[ $self_test == 1 ]]; then
    # The source changes after its snapshots landed: each of them is now wrong, and none equal.
    sed -i '1s/padded/changed/' "$1/data/f001a.ndjson"
  fi
  check_dump file-dump "$1" files-data_land "$1"/data/*.ndjson
  check_secrets file-dump "$1" "$output_secret"
}

# ---------------------------------------------------------------------------------------------
# pg and mariadb: a DB_ROWS-row table dumped every tick, and a table a writer appends to (20 rows
# every 0.1 s, ids in order, one writer) read by a keyset tail.

db_config() { # DIR ID URL USER
  {
    output_yaml
    cat <<YAML
sources:
  db:
    $2:
      url: "$3"
      user: $4
      topic: $2
      interval_secs: 1
      stores:
        - {unit: accounts, shape: dump, query: "SELECT * FROM accounts", row_key: /id}
        - {unit: events, shape: tail, query: "SELECT * FROM events", key: [id], limit: 1000,
           max_pages_per_tick: 1000}
YAML
  } >"$1/config.yaml"
}

# db_writer DIR INSERT_COMMAND...: runs INSERT_COMMAND "FROM TO" until DIR/stop-writer appears.
db_writer() {
  local dir=$1 n=0
  shift
  while [[ ! -e $dir/stop-writer ]]; do
    "$@" "$n" "$((n + 19))"
    n=$((n + 20))
    sleep 0.1
  done
}

pg_sql() { "${psql[@]}" -d "$database" "$@"; }

pg_insert() { pg_sql -c "INSERT INTO events SELECT g, 'event ' || g FROM generate_series($1, $2) g"; }

pg_setup() {
  pg_available || die "pg: no PostgreSQL on 127.0.0.1:5432 (trust, user postgres, database test)"
  create_database "$database" >/dev/null
  pg_made=1
  pg_sql <<SQL
CREATE TABLE accounts (id bigint PRIMARY KEY, name text NOT NULL, n integer NOT NULL);
INSERT INTO accounts SELECT i, 'account ' || i, i % 97 FROM generate_series(1, $db_rows) AS s(i);
CREATE TABLE events (id bigint PRIMARY KEY, note text NOT NULL);
SQL
  pg_secret="pgUrl$RANDOM$RANDOM$RANDOM"
  # The server trusts local users, so the password is not checked: it is there to be hidden.
  db_config "$1" pg "jdbc:postgresql://127.0.0.1:5432/$database?password=$pg_secret" postgres
  start_writer "$1" db_writer "$1" pg_insert
}

pg_round() { :; }

pg_stop() { stop_writer "$1" pg; }

pg_check() {
  pg_sql -tAc "SELECT row_to_json(a) FROM accounts a" >"$1/accounts.ndjson"
  pg_sql -tAc "SELECT id FROM events ORDER BY id" >"$1/events.expected"
  check_dump pg "$1" pg-accounts_land "$1/accounts.ndjson"
  check_tail pg pg_land pg.events /id "$1/events.expected"
  check_checkpoints pg "$1" pg_land pg.events keyset
  check_secrets pg "$1" "$pg_secret" "$output_secret"
}

mariadb_sql() { "${mysql[@]}" "$database" "$@"; }

mariadb_insert() {
  mariadb_sql -e "INSERT INTO events SELECT seq, CONCAT('event ', seq) FROM seq_$1_to_$2"
}

mariadb_setup() {
  "${mysql[@]}" -e "SELECT 1" >/dev/null 2>&1 ||
    die "mariadb: no MariaDB on 127.0.0.1:3306 (root, no password)"
  "${mysql[@]}" -e "CREATE DATABASE $database"
  mariadb_made=1
  mariadb_sql <<SQL
CREATE TABLE accounts (id bigint PRIMARY KEY, name text NOT NULL, n integer NOT NULL);
INSERT INTO accounts SELECT seq, CONCAT('account ', seq), seq % 97 FROM seq_1_to_$db_rows;
CREATE TABLE events (id bigint PRIMARY KEY, note text NOT NULL);
SQL
  # A user of its own with a password (root has none), dropped at the end.
  mariadb_secret="mdbPw$RANDOM$RANDOM$RANDOM"
  mariadb_user="dfe_campaign_$$"
  "${mysql[@]}" -e "CREATE USER '$mariadb_user'@'127.0.0.1' IDENTIFIED BY '$mariadb_secret';
    GRANT ALL ON $database.* TO '$mariadb_user'@'127.0.0.1'"
  cleanup_hooks+=("\"\${mysql[@]}\" -e \"DROP USER IF EXISTS '$mariadb_user'@'127.0.0.1'\"")
  db_config "$1" mariadb "jdbc:mariadb://127.0.0.1:3306/$database" "$mariadb_user"
  printf '      password: "%s"\n' "$mariadb_secret" >>"$1/config.yaml.password"
  awk -v pw="$(<"$1/config.yaml.password")" '{ print } /^      user: / { print pw }' \
    "$1/config.yaml" >"$1/config.yaml.new" && mv "$1/config.yaml.new" "$1/config.yaml"
  rm "$1/config.yaml.password"
  start_writer "$1" db_writer "$1" mariadb_insert
}

mariadb_round() { :; }

mariadb_stop() { stop_writer "$1" mariadb; }

mariadb_check() {
  mariadb_sql -e "SELECT JSON_OBJECT('id', id, 'name', name, 'n', n) FROM accounts" \
    >"$1/accounts.ndjson"
  mariadb_sql -e "SELECT id FROM events ORDER BY id" >"$1/events.expected"
  check_dump mariadb "$1" mariadb-accounts_land "$1/accounts.ndjson"
  check_tail mariadb mariadb_land mariadb.events /id "$1/events.expected"
  check_checkpoints mariadb "$1" mariadb_land mariadb.events keyset
  check_secrets mariadb "$1" "$mariadb_secret" "$output_secret"
}

# ---------------------------------------------------------------------------------------------
# rest: CampaignRestServer's /assets (REST_ITEMS items, pages of 100, REST_PAGE_MS each) as a dump, and
# its /events (one every 50 ms) as an incremental unit over windows [since, until). Two
# connections: the units of one run one after the other, and a kill during the listing (nearly
# every kill) would otherwise come before the events unit ever ran.

rest_setup() {
  "$java_bin" -cp "$work/classes" CampaignRestServer "$1" "$rest_items" 100 "$rest_page_ms" 50 \
    >"$1/server.log" 2>&1 &
  remember $!
  local deadline=$((SECONDS + 30))
  until [[ -s $1/port ]]; do
    ((SECONDS < deadline)) || die "rest: the local server did not start (log: $1/server.log)"
    sleep 0.1
  done
  rest_url="http://127.0.0.1:$(<"$1/port")"
  # The server asks for no key here: the key is sent, and must never be printed.
  export CAMPAIGN_REST_API_KEY="restKey$RANDOM$RANDOM$RANDOM"
  {
    output_yaml
    cat <<YAML
sources:
  rest:
    api:
      topic: api
      interval_secs: 1
      vars: {host: "$rest_url"}
      auth: {mode: api_key, key: env:CAMPAIGN_REST_API_KEY, query_param: api_key}
      profile:
        base_url: "{{ vars.host }}"
        endpoints:
          - {unit: assets, shape: dump, path: /assets, row_key: /id, max_pages: 1000,
             rows: {decoder: json_array}, paginate: {type: link_header}}
    feed:
      topic: api
      interval_secs: 1
      vars: {host: "$rest_url"}
      auth: {mode: api_key, key: env:CAMPAIGN_REST_API_KEY, query_param: api_key}
      profile:
        base_url: "{{ vars.host }}"
        endpoints:
          - unit: events
            shape: tail
            path: /events
            query: {since: "{{ window.start }}", until: "{{ window.end }}"}
            rows: {decoder: json_array}
            window: {format: rfc3339_millis, lookback: 1h}
YAML
  } >"$1/config.yaml"
}

rest_round() { :; }

rest_stop() { curl -fsS -X POST "$rest_url/stop" >"$1/stop.json"; }

rest_check() {
  check_dump rest "$1" api-assets_land "$1/assets.ndjson"
  check_tail rest api_land feed.events /id "$1/events.expected"
  check_checkpoints rest "$1" api_land feed.events window "50 $1/events.expected"
  check_secrets rest "$1" "$CAMPAIGN_REST_API_KEY" "$output_secret"
}

# ---------------------------------------------------------------------------------------------
# file-tail: logs/app.log, 25 numbered lines every 50 ms, renamed to app.log.<k> (a new app.log
# begun) every fourth round, followed by a tail unit over logs/app.log*.

tail_line_awk='BEGIN { for (i = from; i < to; i++) printf "line %d %s\n", i, substr(pad, 1, 10 + (i * 37) % 90) }'
tail_pad=$(printf 'x%.0s' {1..100})

tail_writer() {
  local dir=$1 n=0 k=0
  while [[ ! -e $dir/stop-writer ]]; do
    if [[ -e $dir/rotate ]]; then
      k=$((k + 1))
      mv "$dir/logs/app.log" "$dir/logs/app.log.$k"
      rm -f "$dir/rotate"
    fi
    awk -v from="$n" -v to="$((n + 25))" -v pad="$tail_pad" "$tail_line_awk" >>"$dir/logs/app.log"
    n=$((n + 25))
    sleep 0.05
  done
  printf '%d\n' "$n" >"$dir/written"
}

file_tail_setup() {
  mkdir -p "$1/logs"
  {
    output_yaml
    cat <<YAML
sources:
  file:
    logs:
      topic: logs
      interval_secs: 1
      units:
        - unit: app
          tail: {paths: ["logs/app.log*"], decoder: lines, glob_interval_secs: 0,
                 rotate_wait_secs: 2}
YAML
  } >"$1/config.yaml"
  start_writer "$1" tail_writer "$1"
}

file_tail_round() {
  if (($2 % 4 == 0)); then : >"$1/rotate"; fi
}

file_tail_stop() { stop_writer "$1" file-tail; }

file_tail_check() {
  awk -v from=0 -v to="$(<"$1/written")" -v pad="$tail_pad" "$tail_line_awk" >"$1/lines.expected"
  if [[ $self_test == 1 ]]; then
    echo "line -1 never written" >>"$1/lines.expected" # expected, never landed: a loss
  fi
  check_tail file-tail logs_land logs.app /message "$1/lines.expected"
  check_checkpoints file-tail "$1" logs_land logs.app file_tail "$1/logs"
  check_secrets file-tail "$1" "$output_secret"
}

# ---------------------------------------------------------------------------------------------
# rest-faults, broker-faults, disk-faults, db-faults, bad-input: families whose one service lives
# through its faults.

for campaign_file in "$(dirname "${BASH_SOURCE[0]}")"/campaign/*.sh; do
  [[ -e $campaign_file ]] || continue # none there: only the kill families
  # shellcheck source=/dev/null
  source "$campaign_file"
done

# ---------------------------------------------------------------------------------------------

main() {
  log "seed $seed, $kills kills per family, families: $families; work dir $work"
  log "load average: $(loadavg)"
  local tool
  for tool in curl javac awk cksum; do
    command -v "$tool" >/dev/null || die "$tool is missing (the campaign needs curl, javac, awk, cksum)"
  done
  [[ " $families " != *" pg "* ]] || command -v psql >/dev/null ||
    die "psql is missing: the pg family sets up and reads its tables with it (postgresql-client)"
  [[ " $families " != *" mariadb "* ]] || command -v mysql >/dev/null ||
    die "mysql is missing: the mariadb family sets up and reads its tables with it (mariadb-client)"
  build_fetcher
  mkdir -p "$work/classes"
  javac -d "$work/classes" -cp "$fetcher_jar" "$root/benchmarks/tools/FaultCampaignCheck.java" \
    "$root/benchmarks/tools/CampaignRestServer.java"
  local family shared=""
  for family in $families; do
    # A family that starts a broker of its own, or needs none, says so with FAMILY_own_broker.
    declare -F "${family//-/_}_own_broker" >/dev/null || shared=1
  done
  if [[ -z $bootstrap && -n $shared ]]; then
    export DFE_KAFKA_PORT="${DFE_KAFKA_PORT:-29092}"
    export DFE_KAFKA_CONTROLLER_PORT="${DFE_KAFKA_CONTROLLER_PORT:-29093}"
    export DFE_KAFKA_DIR="$work/kafka"
    bootstrap=$("$local_kafka" --background)
    broker_started=1
  fi
  # The Kafka output's password (output_yaml), the same for every family.
  output_secret="kafkaPw$(cksum <<<"$seed" | cut -d' ' -f1)x$$"
  lost=0
  cut_dumps=0
  failures=()
  kill_counts=()
  fault_counts=()
  : >"$work/checks.log"
  for family in $families; do
    case $family in
      file-dump | pg | mariadb | rest | file-tail | rest-faults | broker-faults | disk-faults | db-faults | bad-input | connect-faults) campaign "$family" ;;
      *) die "no family named $family (file-dump, pg, mariadb, rest, file-tail, rest-faults, broker-faults, disk-faults, db-faults, bad-input, connect-faults)" ;;
    esac
  done
  local counts=""
  ((${#kill_counts[@]} == 0)) || counts+=" kills=$(IFS=,; echo "${kill_counts[*]}")"
  ((${#fault_counts[@]} == 0)) || counts+=" faults=$(IFS=,; echo "${fault_counts[*]}")"
  if ((lost == 0)); then
    printf 'fault-campaign: seed=%s%s cut_dumps=%d lost=0\n' "$seed" "$counts" "$cut_dumps"
    return 0
  fi
  local joined
  joined=$(printf '%s; ' "${failures[@]}")
  printf 'fault-campaign: seed=%s%s cut_dumps=%d lost=%d failures="%s"\n' \
    "$seed" "$counts" "$cut_dumps" "$lost" "${joined%; }"
  return 1
}

# One line, read whole before it runs: an edit to this file during a run cannot change the run.
main; exit
