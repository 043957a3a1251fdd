# shellcheck shell=bash
# shellcheck disable=SC2154 # work, fetcher, heap, bootstrap, java_bin... are fault-campaign.sh's
# The db-faults family of the fault campaign (sourced by benchmarks/scripts/fault-campaign.sh):
# the database faults of issue 25 against one `dfe-fetcher run` that is never restarted, landing
# on the campaign's broker.
#
# The databases are a PostgreSQL 15 and a MariaDB of the family's own, in its work directory and
# on ports of their own (DB_FAULTS_PG_PORT, 35433; DB_FAULTS_MARIADB_PORT, 35306), so that they
# can be restarted; the machine's servers on 5432 and 3306 are not touched. Each holds `accounts`
# (DB_FAULTS_ROWS rows, unchanged, dumped every DB_FAULTS_DUMP_SECS by connection pgdump or
# mdump, through a query that makes it last about 2 s: dbf_dump_query says why), and `events`
# and `stamped`, which a writer appends to (20 and 5 rows every 0.1 s, ids
# in order, one writer), read by keyset tails every second (connection pgtail or mtail): events
# keyed on its id, stamped on [at, id] with settle_secs DB_FAULTS_SETTLE_SECS. Every database
# connection has query_timeout_secs DB_FAULTS_TIMEOUT_SECS. The faults, in order (DB_FAULTS):
#
#   ENGINE-sever-dump      the dump's session ended by the server while it streams
#                          (pg_terminate_backend, KILL CONNECTION)
#   ENGINE-sever-tail      the same for the tail, while it pages through a burst of
#                          DB_FAULTS_BURST new events
#   ENGINE-restart-dump    the server crashed (pg_ctl stop -m immediate, kill -9 of mariadbd)
#                          while the dump streams, and started again after a seeded 1-3 s
#   ENGINE-restart-tail    the same while the tail pages through a burst
#   ENGINE-lock-dump       another session holds an exclusive lock on accounts (LOCK TABLE ...
#                          ACCESS EXCLUSIVE, LOCK TABLES ... WRITE) past the query timeout
#   ENGINE-lock-tail       the same on events (the writer waits for it too)
#   ENGINE-settle-within   a transaction inserts a stamped row and commits half settle_secs
#                          later, behind rows committed meanwhile: it must land
#   ENGINE-settle-beyond   the same held for twice settle_secs and 2 s: the tail's cursor passes
#                          its stamp before it commits, and docs/sources-db.md says it is never
#                          read; the check holds it to that (the row must be missing, and only it)
#   bad-input              units that fail every tick beside the others: SQL that fails on each
#                          engine, a column type the PostgreSQL mapping does not know, and JDBC
#                          URLs with passwords in them (one that works, three that are refused)
#
# ENGINE is pg or mariadb. After each fault clears: the process still runs; the faulted unit's
# error names connection.unit and the SQL state; every unit of the other connections had a
# successful tick since the fault began; a dump fault's store lands a complete snapshot again,
# and no complete snapshot on its topic differs from the table (an open one must have begun in a
# fault's window, DIR/runs, or be the last before one, or be landing now); a tail fault's every
# row written before it cleared landed once the checkpoint passed them; a settle fault's held row
# landed, or, held beyond settle_secs, did not. bad-input checks each error's words, and that none
# of the passwords appears in the service's log, `config-check`'s output, /metrics or /status.
# After the faults the service is stopped (SIGTERM, exit 0), `run --once` catches up without the
# units that cannot work, and every store is checked whole. One line per fault goes to
# DIR/faults.log: what it did, the error seen, whether a dump or tail was cut, how long the
# service took to land again.
#
# Needs, besides the campaign's tools: psql, mysql, PostgreSQL 15's initdb and pg_ctl
# (DB_FAULTS_PG_BIN, default the newest /usr/lib/postgresql/*/bin; run as user postgres through
# runuser when the campaign runs as root), mariadb-install-db and mariadbd.

# This family lands on the campaign's broker (fault-campaign.sh starts it unless BOOTSTRAP).
db_faults_broker=shared

dbf_faults="${DB_FAULTS:-pg-sever-dump pg-sever-tail pg-restart-dump pg-restart-tail pg-lock-dump pg-lock-tail pg-settle-within pg-settle-beyond mariadb-sever-dump mariadb-sever-tail mariadb-restart-dump mariadb-restart-tail mariadb-lock-dump mariadb-lock-tail mariadb-settle-within mariadb-settle-beyond bad-input}"
dbf_pg_port="${DB_FAULTS_PG_PORT:-35433}"
dbf_mariadb_port="${DB_FAULTS_MARIADB_PORT:-35306}"
dbf_rows="${DB_FAULTS_ROWS:-10000}"
dbf_burst="${DB_FAULTS_BURST:-100000}"
dbf_dump_secs="${DB_FAULTS_DUMP_SECS:-5}"
dbf_timeout_secs="${DB_FAULTS_TIMEOUT_SECS:-10}"
dbf_settle_secs="${DB_FAULTS_SETTLE_SECS:-4}"
dbf_pg_bin="${DB_FAULTS_PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)}"
# How long the service may take to land again once a fault cleared.
dbf_recover_secs=120

# ---------------------------------------------------------------------------------------------
# The servers.

dbf_engines() { # the engines the listed faults use
  local engines=""
  [[ " $dbf_faults " =~ \ (pg-[a-z-]+|bad-input)\  ]] && engines+=" pg"
  [[ " $dbf_faults " =~ \ (mariadb-[a-z-]+|bad-input)\  ]] && engines+=" mariadb"
  echo "$engines"
}

dbf_uses() { [[ " $(dbf_engines) " == *" $1 "* ]]; }

dbf_as_postgres() {
  if ((EUID == 0)); then runuser -u postgres -- "$@"; else "$@"; fi
}

dbf_pg_ctl() {
  dbf_as_postgres "$dbf_pg_bin/pg_ctl" -D "$dbf_pg_dir/data" -w -t 60 "$@" >>"$dbf_pg_dir/pg_ctl.log" 2>&1
}

dbf_pg_start() {
  dbf_pg_ctl -l "$dbf_pg_dir/server.log" -o "-p $dbf_pg_port -c listen_addresses=127.0.0.1 \
-k $dbf_pg_dir -c max_connections=80 -c shared_buffers=32MB" start ||
    die "db-faults: PostgreSQL did not start (log: $dbf_pg_dir/server.log)"
}

# The data directory lives outside the work directory: the server runs as postgres, which may not
# enter a directory mktemp made for root. Its log is copied into the work directory on exit.
dbf_pg_init() {
  local dir=$1
  [[ -x $dbf_pg_bin/initdb ]] || die "db-faults: no initdb in '$dbf_pg_bin' (set DB_FAULTS_PG_BIN)"
  dbf_pg_dir=$(mktemp -d "${TMPDIR:-/tmp}/dfe-db-faults-pg.XXXXXX")
  ((EUID != 0)) || chown postgres "$dbf_pg_dir"
  cleanup_hooks+=("dbf_pg_remove $(printf '%q' "$dir")")
  dbf_as_postgres "$dbf_pg_bin/initdb" -D "$dbf_pg_dir/data" -U postgres -A trust --no-sync \
    >"$dir/initdb.log" 2>&1 || die "db-faults: initdb failed (log: $dir/initdb.log)"
  dbf_pg_start
}

dbf_pg_remove() { # DIR: on exit
  dbf_pg_ctl -m fast stop
  cp "$dbf_pg_dir/server.log" "$1/pg-server.log"
  rm -rf "$dbf_pg_dir"
}

dbf_mariadb_start() {
  local dir=$dbf_mariadb_dir deadline=$((SECONDS + 60)) as_root=()
  ((EUID != 0)) || as_root=(--user=root)
  "$dbf_mariadbd" --no-defaults --datadir="$dir/data" --port="$dbf_mariadb_port" \
    --bind-address=127.0.0.1 --socket="$dir/mariadb.sock" --pid-file="$dir/mariadb.pid" \
    --log-error="$dir/error.log" --innodb-buffer-pool-size=64M --skip-name-resolve \
    --max-connections=100 "${as_root[@]}" >/dev/null 2>&1 &
  dbf_mariadb_pid=$!
  until dbf_mysql_admin -e "SELECT 1" >/dev/null 2>&1; do
    kill -0 "$dbf_mariadb_pid" 2>/dev/null || die "db-faults: mariadbd exited (log: $dir/error.log)"
    ((SECONDS < deadline)) || die "db-faults: MariaDB did not answer in 60 s (log: $dir/error.log)"
    sleep 0.2
  done
}

dbf_mariadb_init() {
  dbf_mariadbd=$(command -v mariadbd || echo /usr/sbin/mariadbd)
  [[ -x $dbf_mariadbd ]] || die "db-faults: mariadbd is missing (mariadb-server)"
  command -v mariadb-install-db >/dev/null || die "db-faults: mariadb-install-db is missing"
  dbf_mariadb_dir="$1/mariadb"
  mkdir -p "$dbf_mariadb_dir"
  mariadb-install-db --no-defaults --datadir="$dbf_mariadb_dir/data" --user="$(id -un)" \
    --auth-root-authentication-method=normal --skip-test-db >"$1/mariadb-install.log" 2>&1 ||
    die "db-faults: mariadb-install-db failed (log: $1/mariadb-install.log)"
  cleanup_hooks+=("dbf_mariadb_stop")
  dbf_mariadb_start
}

dbf_mariadb_stop() {
  kill -TERM "$dbf_mariadb_pid" 2>/dev/null
  wait "$dbf_mariadb_pid" 2>/dev/null
}

dbf_mysql_admin() {
  mysql -h 127.0.0.1 -P "$dbf_mariadb_port" -u root -N -B --connect-timeout=5 "$@"
}

# dbf_sql ENGINE SQL: runs SQL in database dfe, rows on stdout, tab-separated.
dbf_sql() {
  case $1 in
    pg)
      PGCONNECT_TIMEOUT=5 psql -q -X -tA -F $'\t' -h 127.0.0.1 -p "$dbf_pg_port" -U postgres \
        -v ON_ERROR_STOP=1 -d dfe -c "$2"
      ;;
    mariadb) dbf_mysql_admin dfe -e "$2" ;;
  esac
}

dbf_tables() { # ENGINE
  local engine=$1
  if [[ $engine == pg ]]; then
    PGCONNECT_TIMEOUT=5 psql -q -X -h 127.0.0.1 -p "$dbf_pg_port" -U postgres -d postgres \
      -c "CREATE DATABASE dfe"
    dbf_sql pg "
      CREATE TABLE accounts (id bigint PRIMARY KEY, name text NOT NULL, n integer NOT NULL);
      INSERT INTO accounts SELECT i, 'account ' || i, i % 97 FROM generate_series(1, $dbf_rows) i;
      CREATE TABLE events (id bigint PRIMARY KEY, note text NOT NULL);
      CREATE TABLE stamped (id bigint PRIMARY KEY, at timestamptz NOT NULL, note text NOT NULL);
      CREATE TABLE little (id integer PRIMARY KEY, name text NOT NULL);
      INSERT INTO little VALUES (1, 'one'), (2, 'two');
      CREATE TYPE pair AS (a integer, b integer);
      CREATE TABLE pairs (id integer PRIMARY KEY, p pair);
      INSERT INTO pairs VALUES (1, ROW(1, 2))"
  else
    dbf_mysql_admin -e "CREATE DATABASE dfe CHARACTER SET utf8mb4"
    dbf_sql mariadb "
      CREATE TABLE accounts (id bigint PRIMARY KEY, name text NOT NULL, n integer NOT NULL);
      INSERT INTO accounts SELECT seq, CONCAT('account ', seq), seq % 97 FROM seq_1_to_$dbf_rows;
      CREATE TABLE events (id bigint PRIMARY KEY, note text NOT NULL);
      CREATE TABLE stamped (id bigint PRIMARY KEY, at timestamp(6) NOT NULL, note text NOT NULL);
      CREATE TABLE little (id integer PRIMARY KEY, name text NOT NULL);
      INSERT INTO little VALUES (1, 'one'), (2, 'two')"
  fi
}

# The table as JSON values, one a line, as a dump of it lands.
dbf_accounts_json() { # ENGINE
  if [[ $1 == pg ]]; then
    dbf_sql pg "SELECT row_to_json(a) FROM accounts a"
  else
    dbf_sql mariadb "SELECT JSON_OBJECT('id', id, 'name', name, 'n', n) FROM accounts"
  fi
}

# ---------------------------------------------------------------------------------------------
# The writer: 20 events and 5 stamped rows every 0.1 s, in one call, ids in order; a burst
# of DB_FAULTS_BURST events when DIR/burst-ENGINE exists. A statement that fails (the server is
# down) is tried again with the same ids; ON CONFLICT DO NOTHING and INSERT IGNORE keep a retry of
# a commit whose answer was lost from failing on the rows it did write.

dbf_insert() { # ENGINE FIRST_EVENT LAST_EVENT FIRST_STAMPED
  local last_stamped=$(($4 + 4))
  if [[ $1 == pg ]]; then
    dbf_sql pg "INSERT INTO events SELECT g, 'event ' || g FROM generate_series($2, $3) g
        ON CONFLICT DO NOTHING;
      INSERT INTO stamped SELECT g, clock_timestamp(), 'row ' || g FROM generate_series($4, $last_stamped) g
        ON CONFLICT DO NOTHING"
  else
    dbf_sql mariadb "INSERT IGNORE INTO events SELECT seq, CONCAT('event ', seq) FROM seq_$2_to_$3;
      INSERT IGNORE INTO stamped SELECT seq, NOW(6), CONCAT('row ', seq) FROM seq_$4_to_$last_stamped"
  fi
}

dbf_writer() { # DIR ENGINE
  local dir=$1 engine=$2 event=1 stamped=1 size
  while [[ ! -e $dir/stop-writer ]]; do
    size=20
    [[ -e $dir/burst-$engine ]] && size=$dbf_burst
    if dbf_insert "$engine" "$event" "$((event + size - 1))" "$stamped"; then
      event=$((event + size))
      stamped=$((stamped + 5))
      ((size == 20)) || rm -f "$dir/burst-$engine"
    else
      sleep 0.2
    fi
    sleep 0.1
  done
}

# ---------------------------------------------------------------------------------------------
# The configuration: the working connections, and with WITH_BAD 1 the units of bad-input.

dbf_url() { # ENGINE
  if [[ $1 == pg ]]; then
    echo "jdbc:postgresql://127.0.0.1:$dbf_pg_port/dfe"
  else
    echo "jdbc:mariadb://127.0.0.1:$dbf_mariadb_port/dfe"
  fi
}

dbf_user() { if [[ $1 == pg ]]; then echo postgres; else echo root; fi; }

dbf_prefix() { if [[ $1 == pg ]]; then echo pg; else echo m; fi; }

# The dump reads accounts through a query that waits a millisecond on every fifth row, so that
# its 10,000 rows take about 2 s, as a table a hundred times larger would, and a fault finds it
# running. A result that small otherwise leaves a MariaDB server at once, into the socket's
# buffers (megabytes), and a sever or a crash after that changes nothing: the dump lands whole.
dbf_dump_query() { # ENGINE
  if [[ $1 == pg ]]; then
    echo "SELECT a.* FROM accounts a WHERE a.id % 5 <> 0 OR pg_sleep(0.001)::text = ''"
  else
    echo "SELECT a.* FROM accounts a WHERE a.id % 5 <> 0 OR SLEEP(0.001) = 0"
  fi
}

dbf_connections() { # ENGINE
  local url user prefix
  url=$(dbf_url "$1")
  user=$(dbf_user "$1")
  prefix=$(dbf_prefix "$1")
  cat <<YAML
    ${prefix}dump:
      url: "$url"
      user: $user
      topic: ${prefix}dump
      interval_secs: $dbf_dump_secs
      query_timeout_secs: $dbf_timeout_secs
      stores:
        - {unit: accounts, shape: dump, query: "$(dbf_dump_query "$1")", row_key: /id}
    ${prefix}tail:
      url: "$url"
      user: $user
      topic: ${prefix}tail
      interval_secs: 1
      query_timeout_secs: $dbf_timeout_secs
      stores:
        - {unit: events, shape: tail, query: "SELECT * FROM events", key: [id], limit: 1000,
           max_pages_per_tick: 1000}
        - {unit: stamped, shape: tail, query: "SELECT * FROM stamped", key: [at, id],
           limit: 1000, max_pages_per_tick: 1000, settle_secs: $dbf_settle_secs}
YAML
}

dbf_config() { # DIR WITH_BAD
  local dir=$1 with_bad=$2 engine
  {
    output_yaml
    printf 'scheduler: {max_concurrent_fetches: 16}\nsources:\n  db:\n'
    for engine in $(dbf_engines); do
      dbf_connections "$engine"
    done
    if dbf_uses pg && dbf_uses mariadb; then
      # Works (the servers trust the local user): its password must still never be printed.
      cat <<YAML
    pgsecret:
      url: "$(dbf_url pg)?user=postgres&password=$dbf_secret_works"
      topic: pgsecret
      interval_secs: 5
      stores:
        - {unit: little, shape: dump, query: "SELECT * FROM little", row_key: /id}
YAML
      ((with_bad == 1)) && cat <<YAML
    pgbad:
      url: "$(dbf_url pg)"
      user: postgres
      topic: pgbad
      interval_secs: 5
      stores:
        - {unit: missing, shape: dump, query: "SELECT * FROM no_such_table"}
        - {unit: pairs, shape: dump, query: "SELECT * FROM pairs"}
    mbad:
      url: "$(dbf_url mariadb)"
      user: root
      topic: mbad
      interval_secs: 5
      stores:
        - {unit: missing, shape: dump, query: "SELECT * FROM no_such_table"}
        - {unit: column, shape: dump, query: "SELECT id, no_such_column FROM little"}
    pgleak:
      url: "jdbc:postgresql://postgres:$dbf_secret_pg_user_info@127.0.0.1:$dbf_pg_port/dfe"
      topic: pgleak
      interval_secs: 5
      pool: {connection_timeout_secs: 2}
      stores:
        - {unit: little, shape: dump, query: "SELECT * FROM little"}
    mleak:
      url: "jdbc:mariadb://root:$dbf_secret_mariadb_user_info@127.0.0.1:$dbf_mariadb_port/dfe"
      topic: mleak
      interval_secs: 5
      pool: {connection_timeout_secs: 2}
      stores:
        - {unit: little, shape: dump, query: "SELECT * FROM little"}
    msecret:
      url: "$(dbf_url mariadb)?user=root&password=$dbf_secret_refused"
      topic: msecret
      interval_secs: 5
      pool: {connection_timeout_secs: 2}
      stores:
        - {unit: little, shape: dump, query: "SELECT * FROM little"}
YAML
    fi
    true
  } >"$dir/config.yaml"
}

# ---------------------------------------------------------------------------------------------
# What the service says: its log, its /metrics, its checkpoints.

dbf_service_start() { # DIR
  local dir=$1 deadline=$((SECONDS + 90))
  dbf_log="$dir/service.log"
  dbf_began=$(now_ms)
  (cd "$dir" && DFE_FETCHER_JAVA_OPTS="$heap" exec "$fetcher" run --config config.yaml) \
    >"$dbf_log" 2>&1 &
  dbf_pid=$!
  remember "$dbf_pid"
  dbf_port=""
  until [[ -n $dbf_port ]]; do
    kill -0 "$dbf_pid" 2>/dev/null || die "db-faults: the service exited at start (log: $dbf_log)"
    ((SECONDS < deadline)) || die "db-faults: the service served no metrics in 90 s (log: $dbf_log)"
    sleep 0.1
    dbf_port=$(grep -o 'event=metrics_listening address=127.0.0.1:[0-9]*' "$dbf_log" 2>/dev/null |
      cut -d: -f2 || true)
  done
}

# dbf_metric NAME LABEL="VALUE"...: the sum of the service's samples of NAME with those labels.
dbf_metric() {
  local name=$1
  shift
  curl -fsS --max-time 5 "http://127.0.0.1:$dbf_port/metrics" 2>/dev/null |
    awk -v name="$name" -v labels="$*" '
      BEGIN { wanted = split(labels, want, " ") }
      index($0, name "{") != 1 { next }
      { for (i = 1; i <= wanted; i++) if (index($0, want[i]) == 0) next; sum += $NF }
      END { printf "%d\n", sum }'
}

dbf_complete() { dbf_metric dfe_fetcher_snapshots_total "store=\"$1\"" 'status="complete"'; }

dbf_landed_rows() { dbf_metric dfe_fetcher_snapshot_rows_total "store=\"$1\""; }

dbf_last_success() { dbf_metric dfe_fetcher_last_success_timestamp_seconds "source=\"$1\""; }

# dbf_checkpoint STORE: the store's committed key, first column: an integer, or a time as epoch
# milliseconds; 0 before its first commit.
dbf_checkpoint() {
  local file value
  file=$(find "$dbf_dir/state" -name "campaign.$1.json" 2>/dev/null | head -n 1)
  value=$(grep -o '"value":"[^"]*"' "$file" 2>/dev/null | head -n 1 | cut -d'"' -f4 || true)
  if [[ -z $value ]]; then
    echo 0
  elif [[ $value =~ ^[0-9]+$ ]]; then
    echo "$value"
  else
    date -d "$value" +%s%3N
  fi
}

# dbf_wait SECONDS COMMAND...: until COMMAND succeeds; 1 when it never did.
dbf_wait() {
  local deadline=$((SECONDS + $1))
  shift
  until "$@"; do
    ((SECONDS < deadline)) || return 1
    sleep 0.2
  done
}

dbf_more() { (($("$1" "$2") > $3)); } # FUNCTION ARG THAN
dbf_at_least() { (($("$1" "$2") >= $3)); }

# dbf_errors UNIT FROM_LINE: the unit's tick_failed lines of the service's log after line FROM_LINE.
dbf_errors() {
  tail -n "+$(($2 + 1))" "$dbf_log" | grep -F "event=tick_failed unit=$1 " || true
}

dbf_has_errors() { [[ -n $(dbf_errors "$1" "$2") ]]; }

# The SQL state of the first error of UNIT that names the unit and a state, else nothing.
dbf_state_of() { # UNIT FROM_LINE
  dbf_errors "$1" "$2" | grep -oE "error=\"$1: [^\"]*\(SQL state [0-9A-Z]{5}\)" | head -n 1 |
    grep -oE '[0-9A-Z]{5}\)$' | tr -d ')' || true
}

# ---------------------------------------------------------------------------------------------
# Finding the statement a fault aims at, and ending its session.

dbf_session_of() { # ENGINE dump|tail: the server's id of the session running it, or nothing
  local pattern
  if [[ $2 == dump ]]; then pattern='%FROM accounts a WHERE%'; else pattern='%FROM events) dfe_q%ORDER BY%'; fi
  if [[ $1 == pg ]]; then
    dbf_sql pg "SELECT pid FROM pg_stat_activity WHERE datname = 'dfe' AND pid <> pg_backend_pid()
      AND state <> 'idle' AND query LIKE '$pattern' LIMIT 1" 2>/dev/null || true
  else
    dbf_sql mariadb "SELECT id FROM information_schema.processlist WHERE db = 'dfe'
      AND id <> CONNECTION_ID() AND command = 'Query' AND info LIKE '$pattern' LIMIT 1" 2>/dev/null ||
      true
  fi
}

dbf_find_session() { # ENGINE WHAT SECONDS: sets dbf_session
  local deadline=$((SECONDS + $3))
  dbf_session=""
  while [[ -z $dbf_session ]] && ((SECONDS < deadline)); do
    dbf_session=$(dbf_session_of "$1" "$2")
  done
  [[ -n $dbf_session ]]
}

dbf_sever() { # ENGINE SESSION
  if [[ $1 == pg ]]; then
    dbf_sql pg "SELECT pg_terminate_backend($2)" >/dev/null 2>&1 || true
  else
    dbf_sql mariadb "KILL CONNECTION $2" >/dev/null 2>&1 || true
  fi
}

# dbf_crash ENGINE: the server ended without a shutdown (PostgreSQL's immediate stop, which
# recovers from its WAL at the next start as after a crash; mariadbd killed with SIGKILL), then
# started again after dbf_down_ms.
dbf_crash() {
  if [[ $1 == pg ]]; then
    dbf_pg_ctl -m immediate stop
  else
    kill -KILL "$dbf_mariadb_pid"
    wait "$dbf_mariadb_pid" 2>/dev/null || true
  fi
  sleep_ms "$dbf_down_ms"
  if [[ $1 == pg ]]; then dbf_pg_start; else dbf_mariadb_start; fi
}

# dbf_hold ENGINE SECONDS SQL...: in a session of its own, each SQL in turn, then SECONDS of
# sleep, then the session's end (a rollback of whatever it holds, an UNLOCK TABLES).
dbf_hold() {
  local engine=$1 secs=$2
  shift 2
  if [[ $engine == pg ]]; then
    local commands=(-c BEGIN)
    local sql
    for sql in "$@"; do commands+=(-c "$sql"); done
    PGCONNECT_TIMEOUT=5 psql -q -X -tA -h 127.0.0.1 -p "$dbf_pg_port" -U postgres -v ON_ERROR_STOP=1 \
      -d dfe "${commands[@]}" -c "SELECT pg_sleep($secs)" -c COMMIT >/dev/null
  else
    local joined
    joined=$(printf '%s; ' "$@")
    dbf_sql mariadb "BEGIN; $joined SELECT SLEEP($secs); COMMIT; UNLOCK TABLES" >/dev/null
  fi
}

# ---------------------------------------------------------------------------------------------
# The faults.

# dbf_fault DIR FAULT: injects FAULT, waits until it cleared and the service landed again, and
# checks what issue 25 asks of it.
dbf_fault() {
  local dir=$1 fault=$2 engine=${2%%-*} kind=${2#*-} prefix connection unit start cleared
  local from attempts=0 cut="" state="" landed_again="" note="" complete mark expected=""
  prefix=$(dbf_prefix "$engine")
  case $kind in
    *-dump) connection=${prefix}dump unit=${prefix}dump.accounts ;;
    *-tail) connection=${prefix}tail unit=${prefix}tail.events ;;
    settle-*) connection=${prefix}tail unit=${prefix}tail.stamped ;;
  esac
  log "db-faults: $fault"
  start=$(now_ms)
  from=$(wc -l <"$dbf_log")
  dbf_down_ms=$((1000 + RANDOM % 2000))
  case $kind in
    sever-* | restart-*)
      # A read that ends between being found and being hit is not cut: hit the next one.
      local attempt_from rows
      while ((attempts < 4)) && [[ -z $cut ]]; do
        attempts=$((attempts + 1))
        attempt_from=$(wc -l <"$dbf_log")
        rows=$(dbf_landed_rows "${prefix}dump.accounts")
        [[ $kind == *-tail ]] && : >"$dir/burst-$engine"
        if ! dbf_find_session "$engine" "${kind#*-}" 60; then
          note="never found the ${kind#*-} running"
          break
        fi
        if [[ $kind == *-dump ]]; then
          # Mid-dump: its begin and first rows landed, and it still runs.
          dbf_wait 30 dbf_more dbf_landed_rows "${prefix}dump.accounts" "$rows" || continue
          dbf_session=$(dbf_session_of "$engine" dump)
          [[ -n $dbf_session ]] || continue
        fi
        sleep_ms "$((RANDOM % 300))"
        if [[ $kind == sever-* ]]; then
          dbf_sever "$engine" "$dbf_session"
        else
          dbf_crash "$engine"
        fi
        # The failed read is reported once the unit's tick ends; a crash also fails the
        # connection attempts while the server is down ("cannot connect"): only a failed query
        # says the read was cut.
        if dbf_wait 20 dbf_cut "$unit" "$attempt_from"; then
          cut=yes
          from=$attempt_from
        fi
      done
      ;;
    lock-*)
      local table=accounts hold=$((dbf_dump_secs + dbf_timeout_secs + 2))
      [[ $kind == lock-tail ]] && table=events hold=$((dbf_timeout_secs + 3))
      if [[ $engine == pg ]]; then
        dbf_hold pg "$hold" "LOCK TABLE $table IN ACCESS EXCLUSIVE MODE"
      else
        dbf_hold mariadb "$hold" "LOCK TABLES $table WRITE"
      fi
      attempts=1
      ;;
    settle-*)
      local id=$((1000000000 + faults_done)) hold=$((dbf_settle_secs / 2))
      [[ $kind == settle-beyond ]] && hold=$((dbf_settle_secs * 2 + 2))
      local stamp_now="clock_timestamp()"
      [[ $engine == mariadb ]] && stamp_now="NOW(6)"
      dbf_hold "$engine" "$hold" "INSERT INTO stamped VALUES ($id, $stamp_now, 'held ${kind#settle-} settle')"
      attempts=1
      ;;
  esac
  cleared=$(now_ms)
  complete=$(dbf_complete "${prefix}dump.accounts")
  printf '%s %s fault\n' "$start" "$cleared" >>"$dir/runs"

  # The error: a SQL state in the unit's own words (a settled transaction is no error).
  if [[ $kind != settle-* ]]; then
    dbf_wait 30 dbf_has_errors "$unit" "$from" || true
    state=$(dbf_state_of "$unit" "$from")
    [[ -n $state ]] || failure db-faults "$fault: no error of $unit names it and a SQL state (log: $dbf_log)"
    if [[ $kind == lock-* ]]; then
      local timed_out=57014
      [[ $engine == mariadb ]] && timed_out=70100
      [[ $state == "$timed_out" ]] ||
        failure db-faults "$fault: $unit failed with SQL state '$state', not the timeout's $timed_out"
    fi
  fi
  [[ $kind != sever-* && $kind != restart-* || $cut == yes ]] ||
    failure db-faults "$fault: no attempt of $attempts cut the ${kind#*-} ${note:+($note)}"

  # Landing again, and the data.
  case $kind in
    *-dump | restart-*)
      dbf_wait "$dbf_recover_secs" dbf_more dbf_complete "${prefix}dump.accounts" "$complete" ||
        failure db-faults "$fault: ${prefix}dump.accounts landed no complete snapshot within $dbf_recover_secs s"
      ;;
  esac
  case $kind in
    *-tail | restart-*)
      mark=$(dbf_sql "$engine" "SELECT max(id) FROM events")
      dbf_wait "$dbf_recover_secs" dbf_at_least dbf_checkpoint "${prefix}tail.events" "${mark:-0}" ||
        failure db-faults "$fault: ${prefix}tail.events did not pass event $mark within $dbf_recover_secs s"
      dbf_sql "$engine" "SELECT id FROM events WHERE id <= ${mark:-0} ORDER BY id" >"$dir/events-$fault.expected"
      expected="$dir/events-$fault.expected"
      ;;
    settle-*)
      # Once the cursor's stamp passed the commit, the held row was read if it ever will be.
      dbf_wait "$dbf_recover_secs" dbf_at_least dbf_checkpoint "$unit" "$cleared" ||
        failure db-faults "$fault: $unit did not pass the commit within $dbf_recover_secs s"
      ;;
  esac
  landed_again=$(($(now_ms) - cleared))
  dbf_others_went_on "$fault" "$start" "$engine" "$connection" "$kind"
  dbf_alive "during $fault"
  case $kind in
    *-dump | restart-*) dbf_check_dump "$dir" "$engine" ;;
  esac
  [[ -z $expected ]] || check_tail db-faults "${prefix}tail_land" "${prefix}tail.events" /id "$expected"
  [[ $kind != settle-* ]] || dbf_check_held "$dir" "$engine" "$fault"

  faults_done=$((faults_done + 1))
  printf 'fault=%s unit=%s attempts=%d cut=%s state=%s lasted_ms=%d landed_again_ms=%d down_ms=%s\n' \
    "$fault" "$unit" "$attempts" "${cut:-no}" "${state:-none}" "$((cleared - start))" \
    "$landed_again" "$([[ $kind == restart-* ]] && echo "$dbf_down_ms" || echo -)" >>"$dir/faults.log"
  printf 'fault=%s error: %s\n' "$fault" "$(dbf_errors "$unit" "$from" | head -n 1 |
    sed 's/.*error="//; s/"$//')" >>"$dir/faults.log"
}

# A failed query of UNIT after line FROM: the read was cut, not only the connection refused; for
# a dump, after its begin (the snapshot is left open).
dbf_cut() {
  dbf_errors "$1" "$2" |
    grep -qE "error=\"$1: (the tail query failed|the dump query failed.*snapshot left open)"
}

dbf_alive() {
  kill -0 "$dbf_pid" 2>/dev/null || failure db-faults "the service exited $1 (log: $dbf_log)"
}

# Every unit of the connections the fault did not touch (a restart touches the engine's) had a
# successful tick since the fault began.
dbf_others_went_on() { # FAULT START ENGINE CONNECTION KIND
  local unit
  for unit in $(dbf_good_units); do
    [[ $unit == "$4".* ]] && continue
    [[ $5 == restart-* && $unit == "$(dbf_prefix "$3")"* ]] && continue
    dbf_wait 60 dbf_at_least dbf_last_success "$unit" "$(($2 / 1000))" ||
      failure db-faults "$1: $unit had no successful tick while the fault lasted or since"
  done
}

# The dump's topic while the service runs: a dump landing as the checker reads is open, which the
# run's line explains (written for the check, then taken back; it ends an hour ahead, as the run
# goes on while the topic is read). The check at the end counts the cut dumps.
dbf_check_dump() { # DIR ENGINE
  local count_cuts=0
  printf '%s %s stopped\n' "$dbf_began" "$(($(now_ms) + 3600000))" >>"$1/runs"
  check_dump db-faults "$1" "$(dbf_prefix "$2")dump-accounts_land" "$1/$2-accounts.ndjson"
  sed -i '$d' "$1/runs"
}

dbf_good_units() {
  local engine prefix
  for engine in $(dbf_engines); do
    prefix=$(dbf_prefix "$engine")
    echo "${prefix}dump.accounts ${prefix}tail.events ${prefix}tail.stamped"
  done
  if dbf_uses pg && dbf_uses mariadb; then echo pgsecret.little; fi
}

# The rows of stamped the tail has passed (with ALL, every row) landed, but for those held beyond
# settle_secs: the row held within it landed, and those held beyond did not, and never will
# (docs/sources-db.md, "The trap").
dbf_check_held() { # DIR ENGINE NAME [ALL]
  local prefix passed="" out held
  prefix=$(dbf_prefix "$2")
  if [[ -z ${4:-} ]]; then
    passed=$(dbf_checkpoint "${prefix}tail.stamped")
    if [[ $2 == pg ]]; then
      passed="at < to_timestamp($passed / 1000.0) AND"
    else
      passed="at < FROM_UNIXTIME($passed / 1000) AND"
    fi
  fi
  dbf_sql "$2" "SELECT id FROM stamped WHERE $passed note <> 'held beyond settle' ORDER BY id" \
    >"$1/$2-stamped-$3.expected"
  dbf_sql "$2" "SELECT id FROM stamped WHERE note = 'held beyond settle' ORDER BY id" \
    >"$1/$2-stamped-beyond.expected"
  check_tail db-faults "${prefix}tail_land" "${prefix}tail.stamped" /id "$1/$2-stamped-$3.expected"
  [[ -s $1/$2-stamped-beyond.expected ]] || return 0
  out=$("$java_bin" -cp "$work/classes:$fetcher_jar" FaultCampaignCheck tail "$bootstrap" \
    "${prefix}tail_land" "${prefix}tail.stamped" /id "$1/$2-stamped-beyond.expected" 2>&1 || true)
  printf 'db-faults: held beyond settle_secs, to be missing: %s\n' "$out" >>"$work/checks.log"
  held=$(wc -l <"$1/$2-stamped-beyond.expected")
  grep -qE " missing=$held( |\$)" <<<"$(head -n 1 <<<"$out")" ||
    failure db-faults "$3: a row held beyond settle_secs landed; docs/sources-db.md says it never does ($out)"
}

# bad-input: each bad unit's error in its own words, and no password anywhere it could be printed.
dbf_bad_input() { # DIR
  local dir=$1 unit expected
  log "db-faults: bad-input"
  local -A words=(
    [pgbad.missing]='pgbad.missing: the dump query failed (SQL state 42P01): ERROR: relation \"no_such_table\" does not exist'
    [pgbad.pairs]='pgbad.pairs: column \"p\" has type \"pair\"'
    [mbad.missing]='mbad.missing: the dump query failed (SQL state 42S02)'
    [mbad.column]='mbad.column: the dump query failed (SQL state 42S22)'
    [pgleak.little]='pgleak.little: cannot connect to jdbc:postgresql://postgres:***@127.0.0.1'
    [mleak.little]='mleak.little: cannot connect to jdbc:mariadb://root:***@127.0.0.1'
    [msecret.little]='msecret.little: cannot connect to jdbc:mariadb://127.0.0.1:'"$dbf_mariadb_port"'/dfe?user=root&password=*** (SQL state 28000)'
  )
  for unit in "${!words[@]}"; do
    expected=${words[$unit]}
    dbf_wait 60 dbf_has_errors "$unit" 0 ||
      { failure db-faults "bad-input: $unit never failed"; continue; }
    dbf_errors "$unit" 0 | grep -qF "error=\"$expected" ||
      failure db-faults "bad-input: $unit's error is not '$expected...': $(dbf_errors "$unit" 0 | head -n 1)"
    printf 'bad-input unit=%s error: %s\n' "$unit" "$(dbf_errors "$unit" 0 | head -n 1 |
      sed 's/.*error="//; s/"$//')" >>"$dir/faults.log"
  done
  dbf_wait 60 grep -q 'event=tick_done unit=pgsecret.little parts=1' "$dbf_log" ||
    failure db-faults "bad-input: pgsecret.little, whose URL holds a password, never landed"
  dbf_others_went_on bad-input "$dbf_began" none none bad-input
  DFE_FETCHER_JAVA_OPTS="$heap" "$fetcher" config-check --config "$dir/config.yaml" \
    >"$dir/config-check.out" 2>&1 || failure db-faults "bad-input: config-check failed (see $dir/config-check.out)"
  curl -fsS --max-time 5 "http://127.0.0.1:$dbf_port/metrics" >"$dir/metrics.txt" || true
  curl -fsS --max-time 5 "http://127.0.0.1:$dbf_port/status" >"$dir/status.json" || true
  dbf_no_secrets "$dir"
  dbf_alive "during bad-input"
  faults_done=$((faults_done + 1))
}

# No password of the configuration in any file of the work directory but the configurations.
dbf_no_secrets() { # DIR
  local secret found
  for secret in "$dbf_secret_works" "$dbf_secret_pg_user_info" "$dbf_secret_mariadb_user_info" \
    "$dbf_secret_refused"; do
    found=$(grep -rlF --exclude='config*.yaml' --exclude-dir=mariadb -e "$secret" "$1" || true)
    [[ -z $found ]] || failure db-faults "a password of the configuration is printed in: $(echo $found)"
  done
}

# ---------------------------------------------------------------------------------------------
# The family's functions for fault-campaign.sh.

db_faults_setup() {
  local dir=$1 engine tool
  dbf_dir=$dir
  for tool in psql mysql; do
    command -v "$tool" >/dev/null || die "db-faults: $tool is missing"
  done
  # Seeded, so that a run can be replayed; none of them is a password anywhere else.
  dbf_secret_works="dbfWorks$RANDOM$RANDOM"
  dbf_secret_pg_user_info="dbfPgInfo$RANDOM$RANDOM"
  dbf_secret_mariadb_user_info="dbfMariaInfo$RANDOM$RANDOM"
  dbf_secret_refused="dbfRefused$RANDOM$RANDOM"
  : >"$dir/faults.log"
  dbf_uses pg && dbf_pg_init "$dir"
  dbf_uses mariadb && dbf_mariadb_init "$dir"
  for engine in $(dbf_engines); do
    dbf_tables "$engine"
    dbf_accounts_json "$engine" >"$dir/$engine-accounts.ndjson"
  done
  dbf_config "$dir" 1
  dbf_writer_pids=()
  for engine in $(dbf_engines); do
    dbf_writer "$dir" "$engine" >"$dir/writer-$engine.log" 2>&1 &
    dbf_writer_pids+=("$!")
    remember "$!"
  done
  dbf_service_start "$dir"
}

db_faults_faults() {
  local dir=$1 fault
  faults_done=0
  # The first tick of every unit, before any fault.
  dbf_wait 60 grep -q 'event=tick_done unit=.*dump.accounts parts=1' "$dbf_log" ||
    die "db-faults: no dump landed within 60 s of the start (log: $dbf_log)"
  for fault in $dbf_faults; do
    case $fault in
      pg-* | mariadb-*) dbf_fault "$dir" "$fault" ;;
      bad-input) dbf_bad_input "$dir" ;;
      *) die "db-faults: no fault named $fault" ;;
    esac
  done
}

db_faults_stop() {
  local dir=$1 status=0 pid
  : >"$dir/stop-writer"
  for pid in "${dbf_writer_pids[@]}"; do
    wait "$pid" || failure db-faults "a writer failed (logs: $dir/writer-*.log)"
  done
  dbf_alive "before it was stopped"
  kill -TERM "$dbf_pid" 2>/dev/null || true
  wait "$dbf_pid" || status=$?
  printf '%s %s stopped\n' "$dbf_began" "$(now_ms)" >>"$dir/runs"
  ((status == 0)) || failure db-faults "the service exited $status when stopped (log: $dbf_log)"
  # The catch-up reads the connections that can work: a unit that fails makes run --once exit 1.
  cp "$dir/config.yaml" "$dir/config-service.yaml"
  dbf_config "$dir" 0
  # Rows stamped in the last settle_secs are read only once they settled.
  sleep $((dbf_settle_secs + 1))
}

db_faults_check() {
  local dir=$1 engine prefix
  for engine in $(dbf_engines); do
    prefix=$(dbf_prefix "$engine")
    check_dump db-faults "$dir" "${prefix}dump-accounts_land" "$dir/$engine-accounts.ndjson"
    dbf_sql "$engine" "SELECT id FROM events ORDER BY id" >"$dir/$engine-events.expected"
    check_tail db-faults "${prefix}tail_land" "${prefix}tail.events" /id "$dir/$engine-events.expected"
    dbf_check_held "$dir" "$engine" final all
  done
  dbf_no_secrets "$dir"
}
