package dfe.fetcher.file.dump;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Records far longer than {@code max_record_bytes} are measured, not held: in a JVM with a 128 MiB
 * heap, a 20 MB CSV field, a 20 MB JSON-array element and a {@value #NDJSON_LINE_MB} MB NDJSON line
 * each come out as a stand-in with their exact length, key and DLQ copy, and each file goes on with
 * its next record.
 */
class HugeRecordsTest {

  private static final int FIELD_BYTES = 20 * 1000 * 1000;
  static final int NDJSON_LINE_MB = 300;
  private static final long NDJSON_LINE_BYTES = NDJSON_LINE_MB * 1000L * 1000L;
  private static final byte[] CHUNK = "x".repeat(1 << 16).getBytes(StandardCharsets.US_ASCII);

  @TempDir Path temp;

  @Test
  @Timeout(value = 60, unit = TimeUnit.SECONDS)
  void eachDecoderTurnsAHugeRecordIntoAStandInWithinA128MiBHeap() throws Exception {
    String prefix = "{\"id\":\"k1\",\"blob\":\"";
    String suffix = "\"}";
    long record = prefix.length() + FIELD_BYTES + suffix.length();
    write("a.csv", 1, "id,blob\nk1,", FIELD_BYTES, "\nk2,small\n");
    write("b.json", 2, "[" + prefix, FIELD_BYTES, suffix + ",\n{\"id\":\"k2\"}]");
    write("c.ndjson", 3, prefix, NDJSON_LINE_BYTES, suffix + "\n{\"id\":\"k2\"}\n");

    Process child =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx128m",
                "-cp",
                System.getProperty("java.class.path"),
                HugeRecordsMain.class.getName(),
                temp.toString())
            .redirectErrorStream(true)
            .start();
    String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);

    assertThat(child.waitFor()).as(output).isZero();
    assertThat(output.lines().toList())
        .containsExactly(
            "not-kept a.csv:2 bytes=" + record + " key=k1 dlq=65536",
            "row a.csv:3 bytes=" + "{\"id\":\"k2\",\"blob\":\"small\"}".length(),
            "end",
            "not-kept b.json:1 bytes=" + record + " key=k1 dlq=65536",
            "row b.json:2 bytes=" + "{\"id\":\"k2\"}".length(),
            "end",
            "not-kept c.ndjson:1 bytes="
                + (prefix.length() + NDJSON_LINE_BYTES + suffix.length())
                + " key=k1 dlq=65536",
            "row c.ndjson:2 bytes=" + "{\"id\":\"k2\"}".length(),
            "end");
  }

  /** Writes head, {@code filler} times 'x', tail, without holding the file in memory. */
  private void write(String name, long seconds, String head, long filler, String tail)
      throws IOException {
    Path file = temp.resolve(name);
    try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(file), 1 << 16)) {
      out.write(head.getBytes(StandardCharsets.UTF_8));
      for (long left = filler; left > 0; left -= CHUNK.length) {
        out.write(CHUNK, 0, (int) Math.min(CHUNK.length, left));
      }
      out.write(tail.getBytes(StandardCharsets.UTF_8));
    }
    Files.setLastModifiedTime(file, FileTime.from(Instant.ofEpochSecond(seconds)));
  }
}
