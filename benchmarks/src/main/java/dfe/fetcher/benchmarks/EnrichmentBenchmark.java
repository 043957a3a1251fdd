package dfe.fetcher.benchmarks;

import dfe.fetcher.core.enrich.Enrichment;
import dfe.fetcher.core.enrich.EnrichmentFields;
import dfe.fetcher.core.envelope.Frame;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Enriching one tail record ({@link Enrichment#enrichRecord}: a validating pass over the record for
 * its top-level keys, then the splice), in nanoseconds per record; {@code -prof gc} for the bytes
 * allocated.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Threads(1)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 3, time = 3)
@Measurement(iterations = 5, time = 3)
public class EnrichmentBenchmark {

  static final int ROWS = 1_000;

  private Frame.Row[] frames;
  private EnrichmentFields fields;

  @Setup
  public void rows() {
    frames = HotPathRows.frames(ROWS);
    fields =
        new EnrichmentFields(
            1_777_000_000_000L, 1_777_000_000_001L, HotPathRows.SOURCE, HotPathRows.STORE);
  }

  @Benchmark
  @OperationsPerInvocation(ROWS)
  public void enrichRecord(Blackhole blackhole) {
    for (Frame.Row frame : frames) {
      blackhole.consume(Enrichment.enrichRecord(frame.record(), fields));
    }
  }
}
