package dfe.fetcher.rest;

import static org.assertj.core.api.Assertions.assertThat;

import dfe.fetcher.core.row.Cancellation;
import dfe.fetcher.core.row.Mark;
import dfe.fetcher.core.row.Row;
import dfe.fetcher.core.row.RowSink;
import dfe.fetcher.source.OpenConnection;
import dfe.fetcher.source.SourceMetrics;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;

/**
 * The two halves of a memory test that reads a response far larger than the heap: the test starts a
 * child JVM with {@code -Xmx128m} ({@link #inChild}), whose main serves the response and reads it
 * through a REST dump keeping nothing but counters ({@link #count}), so whatever the source holds
 * shows as heap.
 */
final class SmallHeapRead {

  private SmallHeapRead() {}

  /**
   * Runs {@code main} with {@code bytes} as its argument in a child JVM with a 128 MiB heap, its
   * output in {@code target/<log>}; the output, once the child exited 0.
   */
  static String inChild(Class<?> main, long bytes, String log) throws Exception {
    Path javaBinary = Path.of(System.getProperty("java.home"), "bin", "java");
    Path output = Path.of("target", log);
    Process child =
        new ProcessBuilder(
                List.of(
                    javaBinary.toString(),
                    "-Xmx128m",
                    "-XX:+UseSerialGC",
                    "-cp",
                    System.getProperty("java.class.path"),
                    main.getName(),
                    Long.toString(bytes)))
            .redirectErrorStream(true)
            .redirectOutput(new File(output.toString()))
            .start();
    assertThat(child.waitFor(10, TimeUnit.MINUTES)).as("finished in 10 minutes").isTrue();
    String text = Files.readString(output, StandardCharsets.UTF_8);
    assertThat(child.exitValue()).as(text).isZero();
    return text;
  }

  /**
   * Reads unit {@code assets} of {@code connection} to its end, counting rows and bytes; {@code
   * rows=N bytes=M ended=B seconds=S max_heap_mb=H}, and a line {@code aborted: <reason>} before it
   * when the dump aborted.
   */
  static String count(RestConnection connection) throws Exception {
    long[] rows = {0, 0};
    boolean[] ended = {false};
    RowSink counting =
        new RowSink() {
          @Override
          public void beginPart(OptionalLong total) {}

          @Override
          public void row(Row row) {
            rows[0]++;
            rows[1] += row.record().length() + 1;
          }

          @Override
          public void endPart(Optional<Mark> position) {
            ended[0] = true;
          }

          @Override
          public void abortPart(String reason) {
            System.out.println("aborted: " + reason);
          }

          @Override
          public void advance(Mark mark) {}
        };
    long started = System.nanoTime();
    try (OpenConnection open =
        RestFixture.open(connection, Clock.systemUTC(), SourceMetrics.NONE)) {
      open.source("assets").read(Optional.empty(), counting, new Cancellation());
    }
    return "rows="
        + rows[0]
        + " bytes="
        + rows[1]
        + " ended="
        + ended[0]
        + " seconds="
        + (System.nanoTime() - started) / 1_000_000_000L
        + " max_heap_mb="
        + Runtime.getRuntime().maxMemory() / (1024 * 1024);
  }
}
