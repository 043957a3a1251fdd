#!/bin/sh
# The image's entry point: `dfe-fetcher ARGS...` on the image's JRE, with the JVM options of
# DFE_FETCHER_JAVA_OPTS (as ./dfe-fetcher takes them) and extra jars (a JDBC driver the build
# does not ship) from DFE_FETCHER_CLASSPATH.
set -eu
jar=/opt/dfe-fetcher/dfe-fetcher.jar
# shellcheck disable=SC2086 # the options are meant to split into words
if [ -n "${DFE_FETCHER_CLASSPATH:-}" ]; then
  exec java ${DFE_FETCHER_JAVA_OPTS:-} -cp "$jar:$DFE_FETCHER_CLASSPATH" dfe.fetcher.app.cli.DfeFetcher "$@"
fi
exec java ${DFE_FETCHER_JAVA_OPTS:-} -jar "$jar" "$@"
