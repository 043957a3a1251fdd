package dfe.fetcher.benchmarks;

import dfe.fetcher.core.enrich.EnrichedRowFrames;
import dfe.fetcher.core.enrich.Enrichment;
import dfe.fetcher.core.enrich.EnrichmentFields;
import dfe.fetcher.core.envelope.Frame;
import dfe.fetcher.core.envelope.FrameCodec;
import dfe.fetcher.core.envelope.RowFrameEncoder;
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
 * Writing one enriched row frame (the message value the tick sends), in nanoseconds per row; run
 * with {@code -prof gc} for the bytes allocated per row ({@code gc.alloc.rate.norm} divided by
 * {@value #ROWS}).
 *
 * <p>{@link #encodeThenEnrich} is the general path ({@link FrameCodec#encode}, then {@link
 * Enrichment#enrichFrame}: the head escaped and the frame copied per row); {@link #onePass} is the
 * tick's row path ({@link RowFrameEncoder} per snapshot, {@link EnrichedRowFrames} per unit, one
 * copy of the record). Both give the same bytes.
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
public class FrameWritingBenchmark {

  static final int ROWS = 1_000;

  private Frame.Row[] frames;
  private RowFrameEncoder encoder;
  private EnrichedRowFrames enriched;

  @Setup
  public void rows() {
    frames = HotPathRows.frames(ROWS);
    encoder = new RowFrameEncoder(HotPathRows.HEAD);
    enriched = new EnrichedRowFrames(HotPathRows.SOURCE, HotPathRows.STORE);
  }

  @Benchmark
  @OperationsPerInvocation(ROWS)
  public void encodeThenEnrich(Blackhole blackhole) {
    for (Frame.Row frame : frames) {
      EnrichmentFields fields =
          new EnrichmentFields(
              1_777_000_000_000L, 1_777_000_000_001L, HotPathRows.SOURCE, HotPathRows.STORE);
      blackhole.consume(Enrichment.enrichFrame(FrameCodec.encode(frame), fields));
    }
  }

  @Benchmark
  @OperationsPerInvocation(ROWS)
  public void onePass(Blackhole blackhole) {
    for (Frame.Row frame : frames) {
      blackhole.consume(enriched.enrich(encoder, frame, 1_777_000_000_000L, 1_777_000_000_001L));
    }
  }
}
