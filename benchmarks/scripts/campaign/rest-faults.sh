# shellcheck shell=bash
# shellcheck disable=SC2154 # work, bootstrap, fetcher, heap and the helpers come from fault-campaign.sh
# The rest-faults family of benchmarks/scripts/fault-campaign.sh, which sources this file: the
# REST faults of issue 25, injected into one running `dfe-fetcher run` by the local server
# (benchmarks/tools/CampaignRestServer.java) and switched on and off at run time through its
# POST /fault. Instead of kills, rest_faults_faults runs one phase per fault and target:
#
#   1. every unit finishes a tick (the service is healthy), then a seeded delay in [0, 1 s);
#   2. the fault is switched on for at least REST_FAULT_SECS, and until a tick of a unit it
#      targets failed (at most REST_FAULT_MAX_SECS);
#   3. it is switched off, and each targeted unit must finish two ticks (so one that began after
#      the fault) within 60 s.
#
# `hang` is the exception: the server holds a request, the service gets SIGTERM while the request
# waits, must exit 0 within scheduler.stop_grace_secs (plus REST_STOP_SLACK_MS for the JVM to end)
# and is started again.
#
# The service reads three units on two connections (units of one connection run one after the
# other, so the unit that must keep serving during a fault is on the other connection):
#   api.assets  dump, /assets: a JSON array, pages behind Link headers, OAuth2 client credentials
#               from the server's token port (a token good for 2 s, so it is fetched often);
#   api.events  tail, /events?since&until&limit=10: windows paged behind Link headers, same auth;
#   keyed.items dump, /items: the same listing as NDJSON, an api_key query parameter, its Link
#               echoing the key.
# The faults and their targets: timeout (assets, events: answers after timeout_secs + 1), stall
# (assets, events, items: half a page, then nothing), reset (half a page, then a TCP reset),
# truncate (a chunked body cut at a row boundary without its last chunk), html (200 with an HTML
# page), link-loop (the Link points back a page), link-endless (the same page under a new URL
# each time), 429 and 429-retry-after (assets, events: every request), down (the token port
# closed), hang (assets, events: no answer, then SIGTERM).
#
# The checks afterwards: every complete snapshot equals the listing and the listing has one; an
# open snapshot began while a fault was in force or was cut by a stop; every event the server made
# landed; FaultCampaignCheck's serving check (the other connection's unit landed during each
# fault, the targeted unit recovered after it, a dump cut by a stop has no end); and no credential
# (client secret, token, api key) appears in any run log, the checks' reports, /metrics or
# config-check's output, while errors of keyed.items name /items with the key as ***.
#
# With SELF_TEST=1 the html fault is replaced by cut-short (half a page, well formed, no Link): a
# listing that ends early and looks whole, so complete snapshots differ from the listing and the
# checks must report loss.
#
# Settings: REST_FAULTS (the faults, in order; all above by default), REST_FAULT_SECS (4),
# REST_FAULT_MAX_SECS (40), REST_FAULT_ITEMS (500, the listing, in pages of 50),
# REST_STOP_SLACK_MS (1500).

rest_faults="${REST_FAULTS:-timeout stall reset truncate html link-loop link-endless 429 429-retry-after down hang}"
rest_fault_secs="${REST_FAULT_SECS:-4}"
rest_fault_max_secs="${REST_FAULT_MAX_SECS:-40}"
rest_fault_items="${REST_FAULT_ITEMS:-500}"
rest_stop_slack_ms="${REST_STOP_SLACK_MS:-1500}"
rest_timeout_secs=5
rest_grace_secs=2

# The targets each fault is applied to, in turn.
rest_fault_targets() {
  case $1 in
    timeout | 429 | 429-retry-after | hang) echo "assets events" ;;
    stall | reset | truncate | html | link-loop | link-endless) echo "assets events items" ;;
    down) echo "token" ;;
    *) die "rest-faults: no fault named $1 (timeout stall reset truncate html link-loop link-endless 429 429-retry-after down hang)" ;;
  esac
}

# The stores a target's fault breaks, and the stores that must keep landing meanwhile.
rest_target_stores() {
  case $1 in
    assets) echo "api.assets" ;;
    events) echo "api.events" ;;
    items) echo "keyed.items" ;;
    token) echo "api.assets api.events" ;;
  esac
}

rest_served_stores() {
  case $1 in
    items) echo "api.assets api.events" ;;
    *) echo "keyed.items" ;;
  esac
}

# TOPIC/STORE/SHAPE of each store named, comma-separated, for the checker; "-" for none.
rest_specs() {
  local store specs=()
  for store in "$@"; do
    case $store in
      api.assets) specs+=("api-assets_land/api.assets/dump") ;;
      api.events) specs+=("api_land/api.events/tail") ;;
      keyed.items) specs+=("keyed-items_land/keyed.items/dump") ;;
    esac
  done
  if ((${#specs[@]} == 0)); then echo "-"; else (IFS=,; echo "${specs[*]}"); fi
}

rest_faults_setup() {
  local dir=$1 deadline=$((SECONDS + 30))
  # A token is kept until 30 s before its expires_in: 32 makes it good for 2 s at the client.
  "$java_bin" -cp "$work/classes" CampaignRestServer "$dir" "$rest_fault_items" 50 \
    "$rest_page_ms" 50 32 >"$dir/server.log" 2>&1 &
  remember $!
  until [[ -s $dir/port ]]; do
    ((SECONDS < deadline)) || die "rest-faults: the local server did not start (log: $dir/server.log)"
    sleep 0.1
  done
  rest_url="http://127.0.0.1:$(<"$dir/port")"
  CAMPAIGN_CLIENT_SECRET=$(<"$dir/client-secret")
  CAMPAIGN_API_KEY=$(<"$dir/api-key")
  export CAMPAIGN_CLIENT_SECRET CAMPAIGN_API_KEY
  : >"$dir/phases"
  : >"$dir/faults.log"
  {
    output_yaml
    cat <<YAML
scheduler: {stop_grace_secs: $rest_grace_secs}
sources:
  rest:
    api:
      topic: api
      interval_secs: 1
      vars: {host: "$rest_url"}
      auth:
        mode: oauth2_client_credentials
        token_url: "http://127.0.0.1:$(<"$dir/token-port")/token"
        client_id: campaign-client
        client_secret: env:CAMPAIGN_CLIENT_SECRET
      profile:
        base_url: "{{ vars.host }}"
        retry: {max_retries: 2, initial_backoff_ms: 200, max_backoff_ms: 1000}
        endpoints:
          - {unit: assets, shape: dump, path: /assets, row_key: /id, max_pages: 50,
             timeout_secs: $rest_timeout_secs, rows: {decoder: json_array},
             paginate: {type: link_header}}
          - unit: events
            shape: tail
            path: /events
            query: {since: "{{ window.start }}", until: "{{ window.end }}", limit: "10"}
            rows: {decoder: json_array}
            paginate: {type: link_header}
            timeout_secs: $rest_timeout_secs
            window: {format: rfc3339_millis, lookback: 1h}
    keyed:
      topic: keyed
      interval_secs: 1
      vars: {host: "$rest_url"}
      auth: {mode: api_key, key: env:CAMPAIGN_API_KEY, query_param: api_key}
      profile:
        base_url: "{{ vars.host }}"
        retry: {max_retries: 2, initial_backoff_ms: 200, max_backoff_ms: 1000}
        endpoints:
          - {unit: items, shape: dump, path: /items, row_key: /id, max_pages: 50,
             timeout_secs: $rest_timeout_secs, rows: {decoder: ndjson},
             paginate: {type: link_header}}
YAML
  } >"$dir/config.yaml"
}

rest_faults_round() { :; }

# The lines of the running service's log so far.
rest_lines() { wc -l <"$rest_log"; }

# rest_count LINE PATTERN: lines after line LINE of the log holding PATTERN.
rest_count() { tail -n "+$(($1 + 1))" "$rest_log" | grep -cF -- "$2" || true; }

# rest_wait SECS COMMAND...: runs COMMAND every 0.1 s until it succeeds (0) or SECS pass (1).
rest_wait() {
  local deadline=$((SECONDS + $1))
  shift
  until "$@"; do
    ((SECONDS < deadline)) || return 1
    sleep 0.1
  done
}

# rest_ticked LINE TIMES STORE...: each STORE finished TIMES ticks after line LINE.
rest_ticked() {
  local line=$1 times=$2 store
  shift 2
  for store in "$@"; do
    (($(rest_count "$line" "event=tick_done unit=$store ") >= times)) || return 1
  done
}

# rest_failed LINE STORE...: a tick of one of the STOREs failed after line LINE.
rest_failed() {
  local line=$1 store
  shift
  for store in "$@"; do
    (($(rest_count "$line" "event=tick_failed unit=$store ") > 0)) && return 0
  done
  return 1
}

rest_held() { curl -fsS "$rest_url/fault" | grep -q '"held":[1-9]'; }

# rest_start DIR: the service, its pid in rest_pid, its log in rest_log; waits for a first tick
# of every unit.
rest_start() {
  local dir=$1
  rest_runs=$((rest_runs + 1))
  rest_log="$dir/run-$rest_runs.log"
  rest_run_start=$(now_ms)
  # DEBUG: more of what the service says (each aborted dump's reason, traces) to look for secrets in.
  DFE_FETCHER_LOG_LEVEL=DEBUG start_fetcher "$dir" "$rest_log"
  rest_pid=$fetcher_pid
  remember "$rest_pid"
  rest_wait 90 rest_ticked 0 1 api.assets api.events keyed.items ||
    die "rest-faults: the service did not tick every unit within 90 s (log: $rest_log)"
}

# rest_terminate DIR: SIGTERM, waits for the exit; rest_stop_ms, rest_stop_end and
# rest_stop_status say how it went. The run is recorded as stopped.
rest_terminate() {
  local term
  term=$(now_ms)
  kill -TERM "$rest_pid"
  rest_stop_status=0
  wait "$rest_pid" || rest_stop_status=$?
  rest_stop_end=$(now_ms)
  rest_stop_ms=$((rest_stop_end - term))
  printf '%s %s stopped\n' "$rest_run_start" "$rest_stop_end" >>"$1/runs"
}

rest_scrape() {
  local port
  port=$(grep -o 'event=metrics_listening address=127.0.0.1:[0-9]*' "$rest_log" | cut -d: -f2)
  curl -fsS --max-time 2 "http://127.0.0.1:$port/metrics" >"$1" 2>/dev/null || true
}

# The error of the first tick of STORE that failed after line LINE, as logged.
rest_first_error() {
  tail -n "+$(($1 + 1))" "$rest_log" | grep -F "event=tick_failed unit=$2 " | head -n 1 |
    sed 's/.* error=//'
}

# rest_figures LINE_ON LINE_OFF STORE...: what the targeted units did while the fault lasted.
rest_figures() {
  local on=$1 off=$2 store retries=0 failed=0 error="" token
  shift 2
  for store in "$@"; do
    retries=$((retries + $(sed -n "$((on + 1)),${off}p" "$rest_log" |
      grep -cF "event=rest_request_retried unit=$store " || true)))
    failed=$((failed + $(sed -n "$((on + 1)),${off}p" "$rest_log" |
      grep -cF "event=tick_failed unit=$store " || true)))
    [[ -n $error ]] || error=$(sed -n "$((on + 1)),${off}p" "$rest_log" |
      grep -F "event=tick_failed unit=$store " | head -n 1 | sed 's/.* error=//')
  done
  token=$(sed -n "$((on + 1)),${off}p" "$rest_log" | grep -cF "event=rest_token_retried" || true)
  printf 'retries=%d token_retries=%d failed_ticks=%d first_error=%s' \
    "$retries" "$token" "$failed" "${error:-none}"
}

# rest_phase DIR KIND TARGET: one fault, on and off, and the service's recovery.
rest_phase() {
  local dir=$1 kind=$2 target=$3 begin on off line_begin line_on line_off answer ms=0 fired=1
  local stores served
  read -r -a stores <<<"$(rest_target_stores "$target")"
  read -r -a served <<<"$(rest_served_stores "$target")"
  begin=$(now_ms)
  line_begin=$(rest_lines)
  if ! rest_wait 60 rest_ticked "$line_begin" 1 api.assets api.events keyed.items; then
    failure rest-faults "$kind/$target: the units did not all tick before the fault (log: $rest_log)"
    return 0
  fi
  sleep_ms $((RANDOM % 1000))
  [[ $kind != timeout ]] || ms=$(((rest_timeout_secs + 1) * 1000))
  # The self-test: pages that end the listing early and look whole, so a dump completes short
  # and the checks must report it.
  [[ $self_test != 1 || $kind != html ]] || kind=cut-short
  on=$(now_ms)
  line_on=$(rest_lines)
  curl -fsS -X POST "$rest_url/fault?kind=$kind&target=$target&ms=$ms" >/dev/null
  sleep "$rest_fault_secs"
  # cut-short fails no tick: nothing to wait for.
  [[ $kind != cut-short ]] || fired=0
  ((fired == 0)) || rest_wait "$rest_fault_max_secs" rest_failed "$line_on" "${stores[@]}" || fired=0
  answer=$(curl -fsS -X POST "$rest_url/fault?kind=none")
  off=$(now_ms)
  line_off=$(rest_lines)
  if ! rest_wait 60 rest_ticked "$line_off" 2 "${stores[@]}"; then
    failure rest-faults "$kind/$target: ${stores[*]} did not recover within 60 s after the fault (log: $rest_log)"
  fi
  printf '%s %s fault\n' "$begin" "$off" >>"$dir/runs"
  printf '%s %s %s - %s %s\n' "$on" "$off" "$kind/$target" "$(rest_specs "${stores[@]}")" \
    "$(rest_specs "${served[@]}")" >>"$dir/phases"
  printf 'fault=%s target=%s ms=%d server_hits=%s recovery_ms=%d a_tick_failed=%d %s\n' \
    "$kind" "$target" "$((off - on))" "$(sed 's/.*"hits":\([0-9]*\).*/\1/' <<<"$answer")" \
    "$(($(now_ms) - off))" "$fired" "$(rest_figures "$line_on" "$line_off" "${stores[@]}")" \
    >>"$dir/faults.log"
  rest_scrape "$dir/metrics-$kind-$target.txt"
}

# rest_hang DIR TARGET: a request the server answers only after the stop grace; SIGTERM while it
# waits, then the service again.
rest_hang() {
  local dir=$1 target=$2 held line_on cut=- stores stop_timeout
  read -r -a stores <<<"$(rest_target_stores "$target")"
  rest_wait 60 rest_ticked "$(rest_lines)" 1 api.assets api.events keyed.items ||
    failure rest-faults "hang/$target: the units did not all tick before the fault"
  line_on=$(rest_lines)
  # A dump is held from its page 5: 250 rows handed on, more than a batch (output.batch.max_rows
  # 200), so the cut dump is on the topic. A window is held from its second page.
  local from=1
  [[ $target != assets ]] || from=5
  curl -fsS -X POST "$rest_url/fault?kind=hang&target=$target&ms=60000&from=$from" >/dev/null
  if ! rest_wait 30 rest_held; then
    failure rest-faults "hang/$target: no request of $target reached the server within 30 s"
  fi
  # From here until the exit the held request's dump is the target's only one in flight.
  held=$(now_ms)
  rest_terminate "$dir"
  curl -fsS -X POST "$rest_url/fault?kind=none" >/dev/null
  [[ $target != assets ]] || cut=cut
  printf '%s %s %s %s %s -\n' "$held" "$rest_stop_end" "hang/$target" "$cut" \
    "$(rest_specs "${stores[@]}")" >>"$dir/phases"
  stop_timeout=$(rest_count "$line_on" "event=stop_timeout")
  printf 'fault=hang target=%s stop_ms=%d grace_ms=%d exit=%d stop_timeout_logged=%d stopped_line=%s\n' \
    "$target" "$rest_stop_ms" "$((rest_grace_secs * 1000))" "$rest_stop_status" "$stop_timeout" \
    "$(tail -n "+$((line_on + 1))" "$rest_log" | grep -F "event=tick_stopped unit=${stores[0]} " |
      head -n 1 | sed 's/.*event=tick_stopped //')" >>"$dir/faults.log"
  if ((rest_stop_status != 0)); then
    failure rest-faults "hang/$target: the service exited $rest_stop_status on SIGTERM (log: $rest_log)"
  fi
  if ((rest_stop_ms > rest_grace_secs * 1000 + rest_stop_slack_ms)); then
    failure rest-faults "hang/$target: the service took $rest_stop_ms ms to exit on SIGTERM, grace ${rest_grace_secs}s (log: $rest_log)"
  fi
  rest_start "$dir"
}

# The faults, in turn, on one running service (started again after each hang).
rest_faults_faults() {
  local dir=$1 kind target
  rest_runs=0
  faults_done=0
  rest_start "$dir"
  for kind in $rest_faults; do
    for target in $(rest_fault_targets "$kind"); do
      log "rest-faults: $kind on $target"
      if [[ $kind == hang ]]; then
        rest_hang "$dir" "$target"
      else
        rest_phase "$dir" "$kind" "$target"
      fi
      faults_done=$((faults_done + 1))
    done
  done
  rest_scrape "$dir/metrics-last.txt"
  rest_terminate "$dir"
}

rest_faults_stop() { curl -fsS -X POST "$rest_url/stop" >"$1/stop.json"; }

rest_faults_check() {
  local dir=$1 cut_before=$cut_dumps
  check_dump rest-faults "$dir" api-assets_land "$dir/assets.ndjson"
  check_dump rest-faults "$dir" keyed-items_land "$dir/assets.ndjson"
  # Open snapshots here are mostly dumps the faults aborted, not cut by kills.
  cut_dumps=$cut_before
  check_tail rest-faults api_land api.events /id "$dir/events.expected"
  checker rest-faults serving "$bootstrap" "$dir/phases"
  rest_secrets_check "$dir"
}

# No credential in what the fetcher printed; errors name the path with the key masked.
rest_secrets_check() {
  local dir=$1 leaks masked bare tokens
  (cd "$dir" && DFE_FETCHER_JAVA_OPTS="$heap" "$fetcher" config-check --config config.yaml) \
    >"$dir/config-check.out" 2>&1 || failure rest-faults "config-check failed (see $dir/config-check.out)"
  cat "$dir/client-secret" "$dir/api-key" "$dir/tokens" >"$dir/secrets.patterns"
  tokens=$(wc -l <"$dir/tokens")
  leaks=$(grep -lFf "$dir/secrets.patterns" "$dir"/run-*.log "$dir"/verify-*.json \
    "$dir"/verify-*.err "$dir"/metrics-*.txt "$dir/config-check.out" "$work/checks.log" || true)
  if [[ -n $leaks ]]; then
    failure rest-faults "a credential appears in $(echo "$leaks" | tr '\n' ' ')"
  fi
  # Each api_key= the logs print, with the three characters after it: *** when masked.
  masked=$(cat "$dir"/run-*.log | grep -o 'api_key=.\{0,3\}' | grep -c '^api_key=\*\*\*$' || true)
  bare=$(cat "$dir"/run-*.log | grep -o 'api_key=.\{0,3\}' | grep -vc '^api_key=\*\*\*$' || true)
  if ((bare > 0)); then
    failure rest-faults "$bare api_key values in the run logs are not masked"
  fi
  if grep -q ' [a-z0-9-]*/items ' "$dir/phases" &&
    ! cat "$dir"/run-*.log | grep -F "event=tick_failed unit=keyed.items " | grep -qF "/items"; then
    failure rest-faults "no error of keyed.items names its path /items"
  fi
  printf '%s: secrets: tokens_issued=%d patterns=%d leaks=%d api_key_masked=%d api_key_bare=%d\n' \
    rest-faults "$tokens" "$(wc -l <"$dir/secrets.patterns")" "$(grep -c . <<<"$leaks" || true)" \
    "$masked" "$bare" | tee -a "$work/checks.log" >&2
}
