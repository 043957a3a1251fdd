#!/bin/bash
# The image's HEALTHCHECK: GET /livez on the port of DFE_FETCHER_METRICS__ADDRESS (the image
# sets 0.0.0.0:9090), through bash's /dev/tcp, so the image needs no curl. Exit 0 on 200.
set -u
address="${DFE_FETCHER_METRICS__ADDRESS:-0.0.0.0:9090}"
port="${address##*:}"
exec 3<>"/dev/tcp/127.0.0.1/${port}" || exit 1
printf 'GET /livez HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n' >&3
read -r -t 4 status_line <&3 || exit 1
case "$status_line" in
  "HTTP/1."?" 200"*) exit 0 ;;
  *) exit 1 ;;
esac
