#!/usr/bin/env bash
# A ClickHouse server for the source-jdbc ClickHouse tests (Debian's clickhouse-server, 18.16):
# HTTP on 127.0.0.1:18123, HTTPS on 127.0.0.1:18443 and the native protocol on 127.0.0.1:19000
# (not the 8123/8443/9000 defaults, so a ClickHouse already on the machine is left alone), data
# under source-jdbc/target/clickhouse, small caches. Runs as whoever starts it: 18.16 needs no
# setting for that, only write access to its directory.
#
#   scripts/clickhouse-test-server.sh start   # starts it unless something answers on 18123
#   scripts/clickhouse-test-server.sh stop
#
# TLS: each start makes a throwaway CA and a server certificate it signs, for localhost and
# 127.0.0.1 (openssl), under $DIR/tls: the tests trust $DIR/tls/ca.crt (ca_file) to read the
# HTTPS port, and see a wrong name or an untrusted CA refused.
#
# Ports and directory can be moved, to run a second instance beside one already running:
# DFE_CLICKHOUSE_HTTP_PORT, DFE_CLICKHOUSE_HTTPS_PORT, DFE_CLICKHOUSE_TCP_PORT, DFE_CLICKHOUSE_DIR
# (the tests read the same variables).
#
# Users: "default" without a password, and "dfe" with the password "dfe-secret" (the tests
# log in with it through the X-ClickHouse-User / X-ClickHouse-Key headers).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

HTTP_PORT="${DFE_CLICKHOUSE_HTTP_PORT:-18123}"
HTTPS_PORT="${DFE_CLICKHOUSE_HTTPS_PORT:-18443}"
TCP_PORT="${DFE_CLICKHOUSE_TCP_PORT:-19000}"
DIR="${DFE_CLICKHOUSE_DIR:-$PWD/source-jdbc/target/clickhouse}"

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# A CA of its own and a server certificate it signs for localhost and 127.0.0.1, made afresh
# (two days' validity: a test server's, never a real one's). No dhparam file: the ECDHE suites
# need none, and making one takes minutes.
certificates() {
  local tls="$DIR/tls"
  rm -rf "$tls"
  mkdir -p "$tls"
  openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=dfe-fetcher ClickHouse test CA" \
    -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign" \
    -keyout "$tls/ca.key" -out "$tls/ca.crt" 2>/dev/null
  openssl req -newkey rsa:2048 -nodes -subj "/CN=localhost" \
    -keyout "$tls/server.key" -out "$tls/server.csr" 2>/dev/null
  printf '%s\n' "subjectAltName=DNS:localhost,IP:127.0.0.1" "basicConstraints=CA:FALSE" \
    "keyUsage=critical,digitalSignature,keyEncipherment" "extendedKeyUsage=serverAuth" \
    >"$tls/server.ext"
  openssl x509 -req -days 2 -in "$tls/server.csr" -CA "$tls/ca.crt" -CAkey "$tls/ca.key" \
    -CAcreateserial -extfile "$tls/server.ext" -out "$tls/server.crt" 2>/dev/null
  chmod 600 "$tls/ca.key" "$tls/server.key"
}

start() {
  if port_open "$HTTP_PORT"; then
    echo "clickhouse: something already answers on 127.0.0.1:$HTTP_PORT"
    if ! port_open "$HTTPS_PORT"; then
      echo "clickhouse: but nothing on $HTTPS_PORT (https): started by an older version of this" \
        "script? stop and start it for the TLS tests" >&2
    fi
    return 0
  fi
  command -v clickhouse-server >/dev/null || { echo "clickhouse-server is not installed" >&2; exit 1; }
  command -v openssl >/dev/null || { echo "openssl is not installed" >&2; exit 1; }
  mkdir -p "$DIR/data" "$DIR/tmp" "$DIR/user_files" "$DIR/format_schemas" "$DIR/log"
  certificates
  cat >"$DIR/config.xml" <<EOF
<?xml version="1.0"?>
<yandex>
  <logger>
    <level>warning</level>
    <log>$DIR/log/server.log</log>
    <errorlog>$DIR/log/error.log</errorlog>
    <size>10M</size>
    <count>2</count>
  </logger>
  <listen_host>127.0.0.1</listen_host>
  <http_port>$HTTP_PORT</http_port>
  <https_port>$HTTPS_PORT</https_port>
  <openSSL>
    <server>
      <certificateFile>$DIR/tls/server.crt</certificateFile>
      <privateKeyFile>$DIR/tls/server.key</privateKeyFile>
      <verificationMode>none</verificationMode>
      <loadDefaultCAFile>false</loadDefaultCAFile>
      <cacheSessions>true</cacheSessions>
      <disableProtocols>sslv2,sslv3,tlsv1,tlsv1_1</disableProtocols>
      <preferServerCiphers>true</preferServerCiphers>
    </server>
  </openSSL>
  <tcp_port>$TCP_PORT</tcp_port>
  <path>$DIR/data/</path>
  <tmp_path>$DIR/tmp/</tmp_path>
  <user_files_path>$DIR/user_files/</user_files_path>
  <format_schema_path>$DIR/format_schemas/</format_schema_path>
  <users_config>$DIR/users.xml</users_config>
  <default_profile>default</default_profile>
  <default_database>default</default_database>
  <timezone>UTC</timezone>
  <max_concurrent_queries>20</max_concurrent_queries>
  <mark_cache_size>67108864</mark_cache_size>
  <uncompressed_cache_size>67108864</uncompressed_cache_size>
  <mlock_executable>false</mlock_executable>
</yandex>
EOF
  cat >"$DIR/users.xml" <<EOF
<?xml version="1.0"?>
<yandex>
  <profiles>
    <default>
      <max_memory_usage>1000000000</max_memory_usage>
      <max_threads>2</max_threads>
    </default>
  </profiles>
  <users>
    <default>
      <password></password>
      <networks><ip>127.0.0.1</ip><ip>::1</ip></networks>
      <profile>default</profile>
      <quota>default</quota>
    </default>
    <dfe>
      <password>dfe-secret</password>
      <networks><ip>127.0.0.1</ip><ip>::1</ip></networks>
      <profile>default</profile>
      <quota>default</quota>
    </dfe>
  </users>
  <quotas><default></default></quotas>
</yandex>
EOF
  # 18.16 writes no pid file when it runs in the foreground: keep the pid of the process started.
  cd "$DIR"
  nohup clickhouse-server --config-file="$DIR/config.xml" >"$DIR/log/stdout.log" 2>&1 &
  echo $! >"$DIR/server.pid"
  cd - >/dev/null
  for _ in $(seq 1 60); do
    if port_open "$HTTP_PORT" && port_open "$HTTPS_PORT"; then
      echo "clickhouse: up on 127.0.0.1:$HTTP_PORT (https $HTTPS_PORT)"
      return 0
    fi
    sleep 1
  done
  echo "clickhouse: nothing answers on 127.0.0.1:$HTTP_PORT and :$HTTPS_PORT; see $DIR/log" >&2
  exit 1
}

stop() {
  if [[ -f "$DIR/server.pid" ]]; then
    pid="$(cat "$DIR/server.pid")"
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 1 60); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 1
    done
    if kill -0 "$pid" 2>/dev/null; then
      echo "clickhouse: $pid did not stop within 60 s" >&2
      exit 1
    fi
    rm -f "$DIR/server.pid"
    echo "clickhouse: stopped"
  fi
}

case "${1:-start}" in
  start) start ;;
  stop) stop ;;
  *) echo "usage: $0 start|stop" >&2; exit 2 ;;
esac
