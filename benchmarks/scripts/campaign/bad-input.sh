# shellcheck shell=bash
# shellcheck disable=SC2154 # work, fetcher, heap, bootstrap, java_bin... are fault-campaign.sh's
# The bad-input family of the fault campaign (sourced by benchmarks/scripts/fault-campaign.sh):
# the bad input of issue 25 for the file and REST families, fed to units of one `dfe-fetcher run`
# beside good units that must keep landing, on the campaign's shared broker.
#
# The good units: files.data (a dump of data/*.ndjson, a new file dropped in after the bad units
# failed, on topic bifiles-data_land), logs.app (a tail of logs/app.log, tail_writer's, on
# bilogs_land) and goodrest.assets (a dump of the local server's /assets, BAD_INPUT_ITEMS items
# in pages of 50). The bad units, each a dump of two files, a.* good and b.* bad, b written
# after a (a file dump reads in change-time order):
#
#   badfiles.utf8        b.ndjson line 3 is not UTF-8 (a lone 0xff byte in a string)
#   badfiles.notjson     b.ndjson line 2 is not JSON
#   badfiles.truncated   b.ndjson ends in the middle of its last record, without a newline
#   badfiles.csv         b.csv line 3 has one field more than the header
#   badfiles.unreadable  b.ndjson is chmod 000 (the service runs without CAP_DAC_OVERRIDE and
#                        CAP_DAC_READ_SEARCH, so root's reads are checked as anyone's)
#   badfiles.skipped     b.ndjson line 2 is not JSON, with on_bad_file: skip, and c.ndjson after
#   vanish.big           a file of BAD_INPUT_BIG_ROWS rows removed while it is being dumped, then
#                        a small file dropped beside it
#   badlogs.app          a tail with max_line_bytes 1024 over a file holding a good line, a line
#                        of 5,000 bytes, a line that is not JSON, a line that is not UTF-8, a good
#                        line, and a last line cut short (no newline)
#   badrest.notjson      /bad/not-json: page 0 good, page 1 "this is not JSON" with status 200
#   badrest.shape        /bad/shape: page 1 a JSON object where the array belongs
#   badrest.status500    /bad/500: page 1 answered 500 (retried, then the tick fails)
#   badrest.ctype        /bad/content-type: page 1 a good JSON array sent as text/html
#   badrest.gzipcut      /bad/gzip-cut: page 1 a gzip body (Content-Encoding: gzip) cut in the
#                        middle of its deflate stream
#   badrest.gziptrailer  /bad/gzip-trailer: page 1 a gzip body whose trailer lies about its length
#   badrest.huge         /bad/huge: page 1 a 1 GiB page, one element holding a 1 GiB string
#
# The REST units authenticate with an api key in the query (env:BAD_INPUT_API_KEY) that the
# server echoes in the Link to page 1, so each error about page 1 has a key to mask.
#
# What must hold:
#   - each stop-mode bad unit's tick fails, again on every tick, with an error that names the
#     unit and the place: FILE:LINE for a line that cannot be decoded, FILE for a file that
#     cannot be opened, the URL's path (its api_key as ***) and what was wrong for REST;
#   - the bad dump lands no `end`: no complete snapshot on the bad topics but those of the good
#     files;
#   - the good file before each bad one has exactly one complete snapshot equal to it, after at
#     least BAD_INPUT_TICKS failed ticks, and the unit's checkpoint holds it and not the bad one:
#     it was committed, and not read again;
#   - badfiles.skipped: a DLQ entry naming skipped/b.ndjson:2, and c.ndjson complete;
#   - badlogs.app: three DLQ entries, each naming app.log and the offset of its line, for the
#     long, the non-JSON and the non-UTF-8 lines; the two good lines landed, the cut line did not;
#   - vanish.big: the tick fails naming the file ("changed while it was read (removed)"), its
#     snapshot has no end, and the small file dropped after it lands complete;
#   - badrest.huge fails naming max_page_bytes, the server sent at most 64 MiB of the 1 GiB
#     page in any request (the service gave the page up rather than read it), and the service's
#     peak RSS stayed under 1 GiB;
#   - badrest.ctype lands its two pages whole: the decoder is the configured one, whatever the
#     Content-Type says;
#   - the good units landed after every bad unit had failed (a new data file complete, new
#     lines, a goodrest snapshot complete) and the process still runs;
#   - the DLQ holds only the four entries above (stop-mode files and REST pages go to no DLQ);
#   - the api key appears in no output: the log (DEBUG), /metrics, /status, config-check's
#     output, the verify reports.
#
# With SELF_TEST=1, badfiles.utf8's b.ndjson is written good: the unit never fails, its good
# file lands, and the checks must say so (no error, a complete snapshot of b).
#
# Settings: BAD_INPUT_TICKS (3), BAD_INPUT_BIG_ROWS (300000), BAD_INPUT_ITEMS (200).

bad_input_broker=shared

bi_ticks="${BAD_INPUT_TICKS:-3}"
bi_big_rows="${BAD_INPUT_BIG_ROWS:-300000}"
bi_items="${BAD_INPUT_ITEMS:-200}"
bi_file_units="utf8 notjson truncated csv unreadable"
bi_rest_units="notjson shape status500 gzipcut gziptrailer huge"

# ---------------------------------------------------------------------------------------------
# The input.

# bi_rows NAME FROM TO: good NDJSON rows.
bi_rows() {
  awk -v name="$1" -v from="$2" -v to="$3" \
    'BEGIN { for (i = from; i < to; i++) printf "{\"file\":\"%s\",\"n\":%d}\n", name, i }'
}

# The bad files, each b after its a, so the good one is read (and committed) first.
bi_bad_files() {
  local dir=$1 unit
  for unit in $bi_file_units skipped; do
    mkdir -p "$dir/bad/$unit"
  done
  for unit in utf8 notjson truncated unreadable skipped; do
    bi_rows "$unit-a" 0 3 >"$dir/bad/$unit/a.ndjson"
  done
  printf 'a,b\n1,2\n3,4\n' >"$dir/bad/csv/a.csv"
  sleep 0.05 # later change times for the b files
  if [[ $self_test == 1 ]]; then
    bi_rows utf8-b 0 3 >"$dir/bad/utf8/b.ndjson" # good: the checks must notice
  else
    { bi_rows utf8-b 0 2; printf '{"file":"utf8-b","n":"\xff"}\n'; } >"$dir/bad/utf8/b.ndjson"
  fi
  { bi_rows notjson-b 0 1; echo 'this line is not JSON'; bi_rows notjson-b 2 3; } \
    >"$dir/bad/notjson/b.ndjson"
  { bi_rows truncated-b 0 2; printf '{"file":"truncated-b","n":2,"no'; } >"$dir/bad/truncated/b.ndjson"
  printf 'a,b\n5,6\n7,8,9\n' >"$dir/bad/csv/b.csv"
  bi_rows unreadable-b 0 3 >"$dir/bad/unreadable/b.ndjson"
  chmod 000 "$dir/bad/unreadable/b.ndjson"
  { bi_rows skipped-b 0 1; echo 'this line is not JSON'; } >"$dir/bad/skipped/b.ndjson"
  sleep 0.05
  bi_rows skipped-c 0 3 >"$dir/bad/skipped/c.ndjson"
  mkdir -p "$dir/badlogs" "$dir/bad/vanish"
  {
    echo '{"line":0}'
    printf '{"line":1,"pad":"%s"}\n' "$(printf 'x%.0s' {1..5000})"
    echo 'line 2 is not JSON'
    printf '{"line":3,"s":"\xff"}\n'
    echo '{"line":4}'
    printf '{"line":5,"cut'
  } >"$dir/badlogs/app.log"
}

bi_config() { # DIR WITH_BAD
  local unit
  {
    output_yaml
    printf 'scheduler: {max_concurrent_fetches: 8}\n'
    # Topics of their own: the kill families land files.data and logs.app on the same broker.
    live_sources_yaml | sed '/^cursor:/d; /^metrics:/d; s/topic: files$/topic: bifiles/;
      s/topic: logs$/topic: bilogs/'
    if (($2 == 1)); then
      printf '    badfiles:\n      topic: badfiles\n      interval_secs: 1\n      units:\n'
      for unit in utf8 notjson truncated unreadable; do
        printf '        - {unit: %s, dump: {paths: ["bad/%s/*.ndjson"]}}\n' "$unit" "$unit"
      done
      printf '        - {unit: csv, dump: {paths: ["bad/csv/*.csv"]}}\n'
      printf '        - {unit: skipped, dump: {paths: ["bad/skipped/*.ndjson"], on_bad_file: skip}}\n'
      cat <<YAML
    vanish:
      topic: vanish
      interval_secs: 1
      units:
        - {unit: big, dump: {paths: ["bad/vanish/*.ndjson"]}}
    badlogs:
      topic: badlogs
      interval_secs: 1
      units:
        - unit: app
          tail: {paths: ["badlogs/app.log"], decoder: ndjson, max_line_bytes: 1024}
YAML
    fi
    cat <<YAML
  rest:
    goodrest:
      topic: goodrest
      interval_secs: 1
      vars: {host: "$bi_url"}
      profile:
        base_url: "{{ vars.host }}"
        endpoints:
          - {unit: assets, shape: dump, path: /assets, row_key: /id, max_pages: 100,
             rows: {decoder: json_array}, paginate: {type: link_header}}
YAML
    if (($2 == 1)); then
      cat <<YAML
    badrest:
      topic: badrest
      interval_secs: 1
      vars: {host: "$bi_url"}
      auth: {mode: api_key, key: env:BAD_INPUT_API_KEY, query_param: api_key}
      profile:
        base_url: "{{ vars.host }}"
        retry: {max_retries: 1, initial_backoff_ms: 100, max_backoff_ms: 200}
        endpoints:
          - {unit: notjson, shape: dump, path: /bad/not-json, max_pages: 5,
             rows: {decoder: json_array}, paginate: {type: link_header}}
          - {unit: shape, shape: dump, path: /bad/shape, max_pages: 5,
             rows: {decoder: json_array}, paginate: {type: link_header}}
          - {unit: status500, shape: dump, path: /bad/500, max_pages: 5,
             rows: {decoder: json_array}, paginate: {type: link_header}}
          - {unit: ctype, shape: dump, path: /bad/content-type, max_pages: 5,
             rows: {decoder: json_array}, paginate: {type: link_header}}
          - {unit: gzipcut, shape: dump, path: /bad/gzip-cut, max_pages: 5,
             rows: {decoder: json_array}, paginate: {type: link_header}}
          - {unit: gziptrailer, shape: dump, path: /bad/gzip-trailer, max_pages: 5,
             rows: {decoder: json_array}, paginate: {type: link_header}}
          - {unit: huge, shape: dump, path: /bad/huge, max_pages: 5,
             rows: {decoder: json_array}, paginate: {type: link_header}}
YAML
    fi
  } >"$1/config.yaml"
}

# ---------------------------------------------------------------------------------------------
# The service, without the capabilities that let root read a chmod 000 file.

bi_service_start() { # DIR
  local dir=$1 deadline=$((SECONDS + 90))
  bi_log="$dir/service.log"
  bi_began=$(now_ms)
  (cd "$dir" && DFE_FETCHER_LOG_LEVEL=DEBUG BAD_INPUT_API_KEY="$bi_key" \
    DFE_FETCHER_JAVA_OPTS="$heap" exec setpriv --bounding-set -dac_override,-dac_read_search \
    "$fetcher" run --config config.yaml) >"$bi_log" 2>&1 &
  bi_pid=$!
  remember "$bi_pid"
  bi_port=""
  until [[ -n $bi_port ]]; do
    kill -0 "$bi_pid" 2>/dev/null || die "bad-input: the service exited at start (log: $bi_log)"
    ((SECONDS < deadline)) || die "bad-input: the service served no metrics in 90 s (log: $bi_log)"
    sleep 0.1
    bi_port=$(grep -o 'event=metrics_listening address=127.0.0.1:[0-9]*' "$bi_log" 2>/dev/null |
      cut -d: -f2 || true)
  done
  service_port=$bi_port # for live-service.sh's metric()
}

bi_wait() { # SECONDS COMMAND...
  local deadline=$((SECONDS + $1))
  shift
  until "$@"; do
    ((SECONDS < deadline)) || return 1
    sleep 0.2
  done
}

bi_failures() { grep -cF "event=tick_failed unit=$1 " "$bi_log" || true; } # UNIT
bi_failed_enough() { (($(bi_failures "$1") >= bi_ticks)); }
bi_error() { grep -m 1 -F "event=tick_failed unit=$1 " "$bi_log" | sed 's/.*error="//; s/"$//'; }
bi_more() { (($("$1" "$2") > $3)); } # FUNCTION ARG THAN

# bi_expect UNIT WORDS...: the unit's first error holds each of WORDS.
bi_expect() {
  local unit=$1 error word
  shift
  if ! bi_wait 60 bi_failed_enough "$unit"; then
    failure bad-input "$unit failed $(bi_failures "$unit") ticks, not $bi_ticks"
    return 0
  fi
  error=$(bi_error "$unit")
  printf 'bad-input unit=%s failed_ticks=%s error: %s\n' "$unit" "$(bi_failures "$unit")" "$error" \
    >>"$bi_dir/faults.log"
  for word in "$@"; do
    grep -qF -- "$word" <<<"$error" || failure bad-input "$unit's error does not name '$word': $error"
  done
}

# bi_check_huge DIR: the 1 GiB page was given up, not read: no request of it took more than
# 64 MiB from the server, and the service's peak RSS stayed under 1 GiB.
bi_check_huge() {
  local dir=$1 most hwm
  most=$(sort -n "$dir/rest/huge.sent" 2>/dev/null | tail -n 1)
  if [[ -z $most ]]; then
    failure bad-input "badrest.huge: the server never sent its 1 GiB page ($dir/rest/huge.sent)"
  elif ((most > 64 * 1024 * 1024)); then
    failure bad-input "badrest.huge: the service read $most bytes of the 1 GiB page"
  fi
  hwm=$(awk '/^VmHWM:/ { print $2 }' "/proc/$bi_pid/status" 2>/dev/null)
  printf 'bad-input badrest.huge: requests=%s most_sent_bytes=%s service_peak_rss_kib=%s\n' \
    "$(wc -l <"$dir/rest/huge.sent" 2>/dev/null || echo 0)" "${most:-0}" "${hwm:-?}" >>"$dir/faults.log"
  [[ -z $hwm ]] || ((hwm < 1024 * 1024)) ||
    failure bad-input "badrest.huge: the service's peak RSS was $hwm KiB, not under 1 GiB"
}

# bi_expect_once UNIT WORDS...: the unit failed once at least, its first error holding WORDS.
bi_expect_once() {
  local unit=$1 error word
  shift
  error=$(bi_error "$unit")
  printf 'bad-input unit=%s failed_ticks=%s error: %s\n' "$unit" "$(bi_failures "$unit")" "$error" \
    >>"$bi_dir/faults.log"
  for word in "$@"; do
    grep -qF -- "$word" <<<"$error" || failure bad-input "$unit's error does not name '$word': $error"
  done
}

# ---------------------------------------------------------------------------------------------
# The checks of what landed.

# bi_topic DIR TOPIC...: every message of each TOPIC so far, to DIR/topics/TOPIC.ndjson.
bi_topic() {
  local dir=$1
  shift
  mkdir -p "$dir/topics"
  : >"$dir/topics/stop"
  "$java_bin" -cp "$work/classes:$fetcher_jar" FaultCampaignCheck follow "$bootstrap" \
    "$dir/topics" "$dir/topics/stop" "$@" >"$dir/topics/follow.log" 2>&1 ||
    failure bad-input "reading $* failed (log: $dir/topics/follow.log)"
}

bi_check_landed() {
  local dir=$1 unit expected
  count_cuts=0
  # The bad units' topics: only the good files' snapshots complete, each once, though the unit
  # failed tick after tick. The whole run is a fault window, so open snapshots are explained.
  printf '%s %s fault\n' "$bi_began" "$(($(now_ms) + 3600000))" >>"$dir/runs"
  for unit in $bi_file_units; do
    expected=("$dir"/bad/"$unit"/a.*)
    [[ $unit != csv ]] || expected=("$dir/csv-a.expected")
    check_dump bad-input "$dir" "badfiles-${unit}_land" "${expected[@]}"
    if [[ $(jq -r '.. | objects | select(.status? == "complete") | .snapshot_id' \
      "$dir/verify-badfiles-${unit}_land.json" 2>/dev/null | wc -l) != 1 ]]; then
      failure bad-input "badfiles.$unit: not exactly one complete snapshot (the good file's)"
    fi
    # Committed: the unit's checkpoint holds the good file, and not the bad one.
    jq -r '.mark.committed[].path' "$dir/state/campaign.badfiles.$unit.json" >"$dir/committed-$unit" 2>&1
    if ! grep -q "/bad/$unit/a\.[a-z]*\$" "$dir/committed-$unit" ||
      grep -q "/bad/$unit/b\." "$dir/committed-$unit"; then
      failure bad-input "badfiles.$unit: its checkpoint does not hold a.* alone (see $dir/committed-$unit)"
    fi
  done
  check_dump bad-input "$dir" badfiles-skipped_land "$dir/bad/skipped/a.ndjson" "$dir/bad/skipped/c.ndjson"
  for unit in $bi_rest_units; do
    check_dump bad-input "$dir" "badrest-${unit}_land"
  done
  check_dump bad-input "$dir" badrest-ctype_land "$dir/ctype.expected"
  # The removed file's snapshot has no end; the one after it is complete.
  check_dump bad-input "$dir" vanish-big_land "$dir/bad/vanish/small.ndjson"
  sed -i '$d' "$dir/runs"
  count_cuts=1
  # The tail of bad lines: the two good ones landed, the cut last line did not (yet).
  printf '0\n4\n' >"$dir/badlogs.expected"
  check_tail bad-input badlogs_land badlogs.app /line "$dir/badlogs.expected"
  bi_topic "$dir" badlogs_land dfe_fetcher_dlq
  local landed
  landed=$(jq -r '.line // empty' "$dir/topics/badlogs_land.ndjson" 2>/dev/null | sort -u | tr '\n' ' ')
  [[ $landed == "0 4 " ]] || failure bad-input "badlogs.app landed lines '$landed', not '0 4 '"
}

# The DLQ: the skipped file and the three bad lines, each naming its place; nothing else of this
# family's stores (the topic is the campaign's, shared with the other families).
bi_check_dlq() {
  local dir=$1 dlq="$1/topics/dfe_fetcher_dlq.ndjson" entries offset reason
  jq -r 'select(.store | test("^(badfiles|badrest|badlogs|vanish|files|logs|goodrest)[.]")) | .reason' \
    "$dlq" >"$dir/dlq-reasons.txt" 2>/dev/null || true
  entries=$(wc -l <"$dir/dlq-reasons.txt")
  sed 's/^/dlq: /' "$dir/dlq-reasons.txt" >>"$dir/faults.log"
  ((entries == 4)) || failure bad-input "the DLQ holds $entries entries, not 4 (see $dir/dlq-reasons.txt)"
  grep -q 'skipped/b\.ndjson:2' "$dir/dlq-reasons.txt" ||
    failure bad-input "no DLQ entry names bad/skipped/b.ndjson:2"
  # The offsets of lines 1, 2 and 3 of badlogs/app.log.
  for offset in $(LC_ALL=C awk 'NR >= 2 && NR <= 4 { print total } { total += length($0) + 1 }' \
    "$dir/badlogs/app.log"); do
    grep -q "badlogs/app\.log:$offset:" "$dir/dlq-reasons.txt" ||
      failure bad-input "no DLQ entry names badlogs/app.log:$offset"
  done
  reason=$(grep -c 'this line is not JSON\|line 2 is not JSON' "$dir/dlq-reasons.txt" || true)
  ((reason == 0)) || failure bad-input "a DLQ reason quotes the line's content"
}

# No api key nor the output's password in any output of the family but its configuration and the
# server's files.
bi_no_secrets() {
  local found secret
  for secret in "$bi_key" ${output_secret:-}; do
    found=$(grep -rlaF --exclude='config*.yaml' --exclude-dir=rest -e "$secret" "$1" || true)
    [[ -z $found ]] || failure bad-input "a secret (${secret:0:4}...) is printed in: $(echo $found)"
  done
  grep -ohaE 'api_key=[^&" ]*' "$bi_log" | sort -u | grep -v '^api_key=\*\*\*' >"$1/unmasked-keys" &&
    failure bad-input "an api_key= in the log is not ***: $(head -n 1 "$1/unmasked-keys")"
  return 0
}

# ---------------------------------------------------------------------------------------------
# The family's functions for fault-campaign.sh.

bad_input_setup() {
  local dir=$1
  bi_dir=$dir
  bi_key="biKey$RANDOM$RANDOM$RANDOM"
  : >"$dir/faults.log"
  mkdir -p "$dir/rest" "$dir/data" "$dir/logs"
  "$java_bin" -cp "$work/classes" CampaignRestServer "$dir/rest" "$bi_items" 50 0 50 \
    >"$dir/rest/server.log" 2>&1 &
  remember $!
  bi_wait 30 test -s "$dir/rest/port" || die "bad-input: the local server did not start"
  bi_url="http://127.0.0.1:$(<"$dir/rest/port")"
  printf '{"id":0,"name":"asset-0"}\n{"id":1,"name":"asset-1"}\n{"id":2,"name":"asset-2"}\n' \
    >"$dir/ctype.expected"
  printf '{"a":"1","b":"2"}\n{"a":"3","b":"4"}\n' >"$dir/csv-a.expected" # bad/csv/a.csv as rows
  bi_bad_files "$dir"
  file_rows=2000 drop_file "$dir" first
  bi_config "$dir" 1
  start_writer "$dir" tail_writer "$dir"
  bi_service_start "$dir"
}

bad_input_faults() {
  local dir=$1 complete landed rest_complete rows
  faults_done=0
  log "bad-input: waiting for every bad unit to fail $bi_ticks ticks"
  bi_expect badfiles.utf8 "bad/utf8/b.ndjson:3" "UTF-8"
  bi_expect badfiles.notjson "bad/notjson/b.ndjson:2" "not valid JSON"
  bi_expect badfiles.truncated "bad/truncated/b.ndjson:3"
  bi_expect badfiles.csv "bad/csv/b.csv:3"
  bi_expect badfiles.unreadable "bad/unreadable/b.ndjson"
  bi_expect badrest.notjson "/bad/not-json" "api_key=***"
  bi_expect badrest.shape "/bad/shape" "api_key=***"
  bi_expect badrest.status500 "/bad/500" "500" "api_key=***"
  bi_expect badrest.gzipcut "/bad/gzip-cut" "api_key=***"
  bi_expect badrest.gziptrailer "/bad/gzip-trailer" "api_key=***"
  bi_expect badrest.huge "/bad/huge" "longer than max_page_bytes" "api_key=***"
  bi_check_huge "$dir"
  faults_done=$((faults_done + 12))
  grep -qF 'event=tick_failed unit=badrest.ctype ' "$bi_log" &&
    failure bad-input "badrest.ctype failed: $(bi_error badrest.ctype)"
  grep -qF 'event=tick_failed unit=badfiles.skipped ' "$bi_log" &&
    failure bad-input "badfiles.skipped failed, on_bad_file: skip: $(bi_error badfiles.skipped)"
  faults_done=$((faults_done + 3)) # ctype, skipped, the bad lines (checked on the topics)

  # A file removed while it is dumped, then a small one beside it.
  log "bad-input: a file vanishing mid-read"
  bi_rows big 0 "$bi_big_rows" >"$dir/vanish-big.copy"
  rows=$(rows_of vanish.big)
  cp "$dir/vanish-big.copy" "$dir/bad/vanish/.big.tmp"
  mv "$dir/bad/vanish/.big.tmp" "$dir/bad/vanish/big.ndjson"
  bi_wait 60 bi_more rows_of vanish.big "$rows" || failure bad-input "vanish.big never began its dump"
  rm "$dir/bad/vanish/big.ndjson"
  log "bad-input: removed bad/vanish/big.ndjson after $(($(rows_of vanish.big) - rows)) rows"
  printf 'bad-input vanish: removed after %d of %d rows\n' "$(($(rows_of vanish.big) - rows))" \
    "$bi_big_rows" >>"$dir/faults.log"
  bi_wait 30 grep -qF 'event=tick_failed unit=vanish.big ' "$bi_log" || true
  bi_expect_once vanish.big "bad/vanish/big.ndjson" "changed while it was read (removed)"
  bi_rows small 0 5 >"$dir/bad/vanish/.small.tmp"
  mv "$dir/bad/vanish/.small.tmp" "$dir/bad/vanish/small.ndjson"
  faults_done=$((faults_done + 1))

  # The good units go on: a new file, new lines, a new REST snapshot, all after the failures.
  complete=$(complete_of files.data)
  landed=$(landed_of logs.app)
  rest_complete=$(complete_of goodrest.assets)
  file_rows=2000 drop_file "$dir" second
  bi_wait 60 bi_more complete_of files.data "$complete" ||
    failure bad-input "files.data completed no snapshot of a file dropped after the bad units failed"
  bi_wait 60 bi_more landed_of logs.app "$landed" || failure bad-input "logs.app landed nothing more"
  bi_wait 60 bi_more complete_of goodrest.assets "$rest_complete" ||
    failure bad-input "goodrest.assets completed no snapshot after the bad units failed"
  bi_wait 60 bi_more complete_of vanish.big 0 || true # judged on the topic below
  curl -fsS --max-time 5 "http://127.0.0.1:$bi_port/metrics" >"$dir/metrics.txt" || true
  curl -fsS --max-time 5 "http://127.0.0.1:$bi_port/status" >"$dir/status.json" || true
  (cd "$dir" && BAD_INPUT_API_KEY="$bi_key" DFE_FETCHER_JAVA_OPTS="$heap" "$fetcher" config-check \
    --config config.yaml) >"$dir/config-check.out" 2>&1 ||
    failure bad-input "config-check failed (see $dir/config-check.out)"
  kill -0 "$bi_pid" 2>/dev/null || failure bad-input "the service exited (log: $bi_log)"
}

bad_input_stop() {
  local dir=$1 status=0
  stop_writer "$dir" bad-input
  kill -TERM "$bi_pid" 2>/dev/null || true
  wait "$bi_pid" || status=$?
  printf '%s %s stopped\n' "$bi_began" "$(now_ms)" >>"$dir/runs"
  ((status == 0)) || failure bad-input "the service exited $status when stopped (log: $bi_log)"
  # The catch-up reads the good units: a unit that fails makes run --once exit 1.
  cp "$dir/config.yaml" "$dir/config-service.yaml"
  bi_config "$dir" 0
}

bad_input_check() {
  local dir=$1
  bi_check_landed "$dir"
  bi_check_dlq "$dir"
  check_dump bad-input "$dir" bifiles-data_land "$dir"/data/*.ndjson
  awk -v from=0 -v to="$(<"$dir/written")" -v pad="$tail_pad" "$tail_line_awk" >"$dir/lines.expected"
  check_tail bad-input bilogs_land logs.app /message "$dir/lines.expected"
  check_dump bad-input "$dir" goodrest-assets_land "$dir/rest/assets.ndjson"
  bi_no_secrets "$dir"
}
