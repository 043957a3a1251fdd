package dfe.fetcher.benchmarks;

import dfe.fetcher.core.envelope.Frame;
import dfe.fetcher.core.envelope.FrameCodec;
import dfe.fetcher.core.filter.FilterCompileException;
import dfe.fetcher.core.filter.RowFilter;
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
 * The dump filter {@code record.alive == true} (keeps nine rows in ten) on one row frame, in
 * nanoseconds per row; {@code -prof gc} for the bytes allocated.
 *
 * <p>{@link #encodedFrame} encodes the frame and judges its JSON, as the tick did before; {@link
 * #frameParts} judges the frame from its head and record ({@link RowFilter#evaluateRowFrame}), as
 * it does now, so a dropped row is never encoded.
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
public class RowFilterBenchmark {

  static final int ROWS = 1_000;

  private Frame.Row[] frames;
  private RowFilter filter;

  @Setup
  public void rows() throws FilterCompileException {
    frames = HotPathRows.frames(ROWS);
    filter = RowFilter.compile("record.alive == true");
  }

  @Benchmark
  @OperationsPerInvocation(ROWS)
  public void encodedFrame(Blackhole blackhole) {
    for (Frame.Row frame : frames) {
      blackhole.consume(filter.evaluate(FrameCodec.encode(frame)));
    }
  }

  @Benchmark
  @OperationsPerInvocation(ROWS)
  public void frameParts(Blackhole blackhole) {
    for (Frame.Row frame : frames) {
      blackhole.consume(filter.evaluateRowFrame(frame));
    }
  }
}
