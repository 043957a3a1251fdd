#!/usr/bin/env bash
# Measures a resumable database dump (resume: by_key) under SIGKILL: a PostgreSQL table of ROWS
# rows dumped to a real in-JVM KRaft broker by `dfe-fetcher run` as a child process, killed with
# kill -9 and run again until it finishes (app's DumpResumeKillTest, sized up).
#
#   1. by_key, one kill at KILL_AT of the rows, and the same for a plain dump (resume: none),
#      which re-reads everything: the rows re-read after a kill, the two compared;
#   2. by_key, KILLS kills at seeded points (SEED): one complete snapshot, every seq once.
#
# Each case prints one line, "dump-resume: mode=... rows=... re_read_at_most=..." (by_key: an
# upper bound, the chunks each run logged as read plus one chunk a kill) or "re_read_at_least"
# (plain: the frames the killed snapshot landed, all read again).
#
# Settings (environment): ROWS (1000000), CHUNK_ROWS (ROWS / 20), KILL_AT (0.5), KILLS (3),
# SEED (20261202).
# Needs: JDK, Maven (runs `mvn test` of the app module and what it depends on, never install),
# PostgreSQL on 127.0.0.1:5432 with trust auth for user postgres and database test (the table
# dump_resume_kill is made and dropped).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
no_arguments "$@"

rows="${ROWS:-1000000}"
chunk_rows="${CHUNK_ROWS:-$((rows / 20))}"
kill_at="${KILL_AT:-0.5}"
kills="${KILLS:-3}"
seed="${SEED:-20261202}"

log "load average: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)"

campaign() {
  (cd "$root" && mvn -B -q test -pl app -am -Dtest=DumpResumeKillTest \
    -Dsurefire.failIfNoSpecifiedTests=false -Ddfe.resume.rows="$rows" \
    -Ddfe.resume.chunk_rows="$chunk_rows" -Ddfe.resume.seed="$seed" "$@") |
    grep '^dump-resume:' || die "the campaign failed; see app/target/surefire-reports"
}

log "one kill at $kill_at, resume: by_key and resume: none"
campaign -Ddfe.resume.kill_at="$kill_at" -Ddfe.resume.plain=true
log "$kills kills at seeded points, resume: by_key"
campaign -Ddfe.resume.kills="$kills"
