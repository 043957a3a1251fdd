#!/usr/bin/env bash
# Measures the figures in docs/benchmarks.md: builds the benchmarks jar, runs the Reassembler JMH
# benchmark on one thread, checks the verify-only retained heap, and writes the 1,000,000-frame
# file that `dfe-fetcher snapshots verify` will be timed on.
#
# Usage: benchmarks/scripts/reassembly.sh [extra JMH options, e.g. -prof gc]
# (--help prints this; JMH's own options: java -jar benchmarks/target/benchmarks.jar -h)
# Needs only the JDK and Maven. Output goes to target/bench/ at the worktree root (ignored by git).
set -euo pipefail
# shellcheck source=benchmarks/scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
if [[ ${1:-} == --help ]]; then
  usage
  exit 0
fi

cd "$root"
out="$bench_out"
jar="$benchmarks_jar"
mkdir -p "$out"

echo "== machine"
echo "cores: $(nproc)"
java -version 2>&1

echo "== build"
build_benchmarks

echo "== JMH: ReassemblerBenchmark, one thread (scores are frames/s)"
# Forks, warmup, measurement and -Xmx come from the annotations on the benchmark class.
java -jar "$jar" ReassemblerBenchmark -t 1 \
  -rf json -rff "$out/jmh-result.json" "$@" | tee "$out/jmh-result.txt"

echo "== retained heap of a verify-only Reassembler after 1,000,000 rows"
# allowAttachSelf lets JOL load its agent and take sizes from Instrumentation instead of its
# layout model; the figure is the same either way on this JDK, but it silences JOL's warning.
java -Xmx2g -Djdk.attach.allowAttachSelf=true \
  -cp "$jar" dfe.fetcher.benchmarks.RetainedHeap | tee "$out/retained-heap.txt"

echo "== 1,000,000-frame snapshot file for timing snapshots verify"
java -cp "$jar" dfe.fetcher.benchmarks.GenerateSnapshotFile "$out/snapshot-1m.ndjson"
wc -l "$out/snapshot-1m.ndjson"
