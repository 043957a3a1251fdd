package dfe.fetcher.rest;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A {@code json_at} page ({@code {"data":[...],"next":...}}) far larger than the heap streams in a
 * child JVM with {@code -Xmx128m}, and its cursor, after the rows, still leads to the next page.
 * The size is {@code dfe.rest.hugeBytes} (default 500 MB).
 */
class HugeJsonAtTest {

  @Test
  void aJsonAtPageFourTimesTheHeapStreamsAndItsCursorAfterTheRowsIsFollowed() throws Exception {
    long bytes = Long.getLong("dfe.rest.hugeBytes", 500L * 1000 * 1000);
    Path javaBinary = Path.of(System.getProperty("java.home"), "bin", "java");
    Process child =
        new ProcessBuilder(
                List.of(
                    javaBinary.toString(),
                    "-Xmx128m",
                    "-XX:+UseSerialGC",
                    "-cp",
                    System.getProperty("java.class.path"),
                    HugeJsonAtMain.class.getName(),
                    Long.toString(bytes)))
            .redirectErrorStream(true)
            .redirectOutput(new File("target/huge-json-at.log"))
            .start();
    assertThat(child.waitFor(10, TimeUnit.MINUTES)).as("finished in 10 minutes").isTrue();
    String output = Files.readString(Path.of("target/huge-json-at.log"), StandardCharsets.UTF_8);

    assertThat(child.exitValue()).as(output).isZero();
    assertThat(output)
        .contains("ended=true")
        .contains("requests=2")
        .contains("max_heap_mb=12")
        .doesNotContain("aborted");
    String rows = output.replaceAll("(?s).*(?<!served_)rows=(\\d+) .*", "$1");
    String served = output.replaceAll("(?s).*served_rows=(\\d+) .*", "$1");
    assertThat(Long.parseLong(rows)).isGreaterThan(1).isEqualTo(Long.parseLong(served));
    String landed = output.replaceAll("(?s).*bytes=(\\d+) .*", "$1");
    assertThat(Long.parseLong(landed)).isGreaterThanOrEqualTo(bytes);
  }
}
