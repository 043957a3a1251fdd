package dfe.fetcher.jdbc.clickhouse;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A ClickHouse dump far larger than the heap streams in a child JVM with {@code -Xmx128m}:
 * 5,000,000 rows (about 1 GB of records) by default, {@code dfe.clickhouse.hugeRows} to change it.
 * The figure it prints is in docs/benchmarks.md.
 */
class HugeDumpTest {

  @BeforeAll
  static void server() throws Exception {
    ClickHouseFixture.ensureServer();
  }

  @Test
  void fiveMillionRowsStreamThroughASmallFixedHeap() throws Exception {
    long rows = Long.getLong("dfe.clickhouse.hugeRows", 5_000_000L);
    Path javaBinary = Path.of(System.getProperty("java.home"), "bin", "java");
    Path log = Path.of("target/clickhouse-huge-dump.log");
    Process child =
        new ProcessBuilder(
                List.of(
                    javaBinary.toString(),
                    "-Xmx128m",
                    "-XX:+UseSerialGC",
                    "-cp",
                    System.getProperty("java.class.path"),
                    HugeDumpMain.class.getName(),
                    Long.toString(rows)))
            .redirectErrorStream(true)
            .redirectOutput(new File(log.toString()))
            .start();
    assertThat(child.waitFor(10, TimeUnit.MINUTES)).as("finished in 10 minutes").isTrue();
    String output = Files.readString(log, StandardCharsets.UTF_8);

    assertThat(child.exitValue()).as(output).isZero();
    assertThat(output)
        .contains("rows=" + rows + " ")
        .contains("ended=true")
        .contains("max_heap_mb=12");
    long bytes = Long.parseLong(output.replaceAll("(?s).*bytes=(\\d+) .*", "$1"));
    // The records together are several times the heap: nothing held them all.
    assertThat(bytes).isGreaterThan(rows * 150);
  }
}
