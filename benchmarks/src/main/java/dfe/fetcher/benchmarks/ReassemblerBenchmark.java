package dfe.fetcher.benchmarks;

import dfe.fetcher.core.envelope.Frame;
import dfe.fetcher.core.envelope.FrameCodec;
import dfe.fetcher.core.envelope.InvalidFrameException;
import dfe.fetcher.core.envelope.Reassembler;
import dfe.fetcher.core.envelope.SnapshotStatus;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
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
 * Verify-only reassembly of one shuffled snapshot of {@value #ROWS} rows ({@value #FRAMES} frames
 * with begin and end), in frames per second on one thread.
 *
 * <p>{@link #acceptParsedFrames} feeds frames parsed once in setup, so it measures the
 * Reassembler's own bookkeeping: the frames were parsed with {@link FrameCodec#parse}, which
 * computes each record's digest while parsing, as the CLI path does; frames built with {@code
 * RawRecord.of} would instead compute and cache the digest on the first invocation and flatter
 * every later one. {@link #parseAndAccept} feeds the encoded lines, so it measures what {@code
 * snapshots verify} does per line once the line is in memory: parse, digest and accept.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Threads(1)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
@Warmup(iterations = 3, time = 5)
@Measurement(iterations = 5, time = 5)
public class ReassemblerBenchmark {

  static final int ROWS = 1_000_000;
  static final int FRAMES = ROWS + 2;

  private String snapshotId;
  private byte[][] lines;
  private Frame[] frames;

  @Setup(Level.Trial)
  public void generate() throws InvalidFrameException {
    ShuffledSnapshot snapshot = ShuffledSnapshot.generate(ROWS);
    snapshotId = snapshot.snapshotId();
    lines = snapshot.lines();
    frames = new Frame[lines.length];
    for (int i = 0; i < lines.length; i++) {
      frames[i] = FrameCodec.parse(lines[i]);
    }
    if (frames.length != FRAMES) {
      throw new IllegalStateException("expected " + FRAMES + " frames, got " + frames.length);
    }
  }

  @Benchmark
  @OperationsPerInvocation(FRAMES)
  public void acceptParsedFrames(Blackhole blackhole) {
    Reassembler reassembler = Reassembler.verifyOnly();
    for (Frame frame : frames) {
      reassembler.accept(frame);
    }
    blackhole.consume(complete(reassembler));
  }

  @Benchmark
  @OperationsPerInvocation(FRAMES)
  public void parseAndAccept(Blackhole blackhole) throws InvalidFrameException {
    Reassembler reassembler = Reassembler.verifyOnly();
    for (byte[] line : lines) {
      reassembler.accept(line);
    }
    blackhole.consume(complete(reassembler));
  }

  // A figure for a run that did not end COMPLETE would measure a broken Reassembler, not a slow
  // one.
  private SnapshotStatus complete(Reassembler reassembler) {
    SnapshotStatus status = reassembler.status(snapshotId).orElseThrow();
    if (status != SnapshotStatus.COMPLETE) {
      throw new IllegalStateException("snapshot " + snapshotId + " ended " + status);
    }
    return status;
  }
}
