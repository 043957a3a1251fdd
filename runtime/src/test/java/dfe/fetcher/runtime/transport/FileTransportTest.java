package dfe.fetcher.runtime.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileTransportTest {

  @TempDir Path directory;

  private static OutboundRecord record(String topic, String value) {
    return new OutboundRecord(
        topic, Optional.empty(), value.getBytes(StandardCharsets.UTF_8), List.of());
  }

  @Test
  void eachTopicLandsInItsOwnFileOneValuePerLineAppended() throws Exception {
    FileTransport transport = new FileTransport(directory.resolve("landing"));
    transport.send(List.of(record("a_land", "{\"n\":1}"), record("b_land", "[2]"))).get();
    transport.send(List.of(record("a_land", "{\"n\":3}"))).get();
    transport.close();

    assertThat(Files.readAllLines(directory.resolve("landing/a_land.ndjson")))
        .containsExactly("{\"n\":1}", "{\"n\":3}");
    assertThat(Files.readAllLines(directory.resolve("landing/b_land.ndjson")))
        .containsExactly("[2]");
  }

  @Test
  void aBatchIsAcknowledgedOnlyOnceWritten() throws Exception {
    FileTransport transport = new FileTransport(directory);
    CompletableFuture<SendResult> sent = transport.send(List.of(record("t", "1")));
    assertThat(sent).succeedsWithin(Duration.ofSeconds(10)).isEqualTo(SendResult.ALL_ACKNOWLEDGED);
    assertThat(Files.readString(directory.resolve("t.ndjson"))).isEqualTo("1\n");
  }

  @Test
  void aBatchThatCannotBeWrittenFailsNamingTheTopicAndFile() throws IOException {
    Path blocked = directory.resolve("blocked");
    Files.writeString(blocked, "a file where the landing directory should be");
    FileTransport transport = new FileTransport(blocked);

    CompletableFuture<SendResult> sent = transport.send(List.of(record("t", "1")));

    assertThat(sent)
        .failsWithin(Duration.ZERO)
        .withThrowableOfType(ExecutionException.class)
        .havingCause()
        .isInstanceOf(TransportException.class)
        .withMessageContaining("writing topic t to " + blocked.resolve("t.ndjson"))
        .withMessageEndingWith(blocked + ": exists and is not a directory");
    assertThat(transport.isReady()).isFalse();
  }

  @Test
  void isReadyWhenTheDirectoryIsWritableOrCanBeCreated() {
    assertThat(new FileTransport(directory.resolve("not/yet/there")).isReady()).isTrue();
  }

  @Test
  void isNotReadyAfterABatchFailedForWantOfSpaceUntilABatchLands() throws Exception {
    Path full = Path.of("/dev/full"); // every write to it fails with ENOSPC, as on a full disk
    assumeTrue(Files.isWritable(full), "needs /dev/full");
    Path file = directory.resolve("t.ndjson");
    Files.createSymbolicLink(file, full);
    FileTransport transport = new FileTransport(directory);

    assertThat(transport.send(List.of(record("t", "{\"n\":1}"))))
        .failsWithin(Duration.ofSeconds(10))
        .withThrowableOfType(ExecutionException.class)
        .withMessageContaining("No space left on device");
    assertThat(transport.isReady()).as("ready after a batch did not fit").isFalse();

    Files.delete(file);
    transport.send(List.of(record("t", "{\"n\":2}"))).get();
    assertThat(transport.isReady()).as("ready once a batch landed").isTrue();
    transport.close();
    assertThat(Files.readAllLines(file)).containsExactly("{\"n\":2}");
  }

  @Test
  void aPartialLastLineLeftByACrashIsCutOffBeforeTheNextAppend() throws Exception {
    Files.writeString(directory.resolve("t.ndjson"), "{\"n\":1}\n{\"n\":2}\n{\"n\":");
    FileTransport transport = new FileTransport(directory);

    transport.send(List.of(record("t", "{\"n\":3}"))).get();
    transport.close();

    assertThat(Files.readAllLines(directory.resolve("t.ndjson")))
        .containsExactly("{\"n\":1}", "{\"n\":2}", "{\"n\":3}");
  }

  @Test
  void aTopicWhoseFileIsStuckDoesNotHoldUpAnotherTopic() throws Exception {
    // A FIFO nobody reads stands for a hung disk: opening it for writing blocks until a reader
    // comes.
    Path stuck = directory.resolve("stuck.ndjson");
    Process mkfifo = new ProcessBuilder("mkfifo", stuck.toString()).start();
    assumeTrue(mkfifo.waitFor(10, TimeUnit.SECONDS) && mkfifo.exitValue() == 0, "needs mkfifo");
    FileTransport transport = new FileTransport(directory);
    AtomicReference<CompletableFuture<SendResult>> stuckSend = new AtomicReference<>();
    Thread stuckUnit =
        new Thread(() -> stuckSend.set(transport.send(List.of(record("stuck", "1")))), "unit 1");
    stuckUnit.start();
    try {
      await()
          .atMost(Duration.ofSeconds(10))
          .until(
              () -> {
                StackTraceElement[] stack = stuckUnit.getStackTrace();
                return stack.length > 0 && stack[0].isNativeMethod();
              });

      CompletableFuture<SendResult> other =
          assertTimeoutPreemptively(
              Duration.ofSeconds(2), () -> transport.send(List.of(record("other", "2"))));

      assertThat(other)
          .succeedsWithin(Duration.ofSeconds(2))
          .isEqualTo(SendResult.ALL_ACKNOWLEDGED);
      assertThat(stuckUnit.isAlive()).isTrue();
      assertThat(Files.readAllLines(directory.resolve("other.ndjson"))).containsExactly("2");
    } finally {
      Thread reader = new Thread(() -> drain(stuck), "fifo reader");
      reader.setDaemon(true);
      reader.start();
      stuckUnit.join(Duration.ofSeconds(10).toMillis());
      transport.close();
    }
    assertThat(stuckUnit.isAlive()).isFalse();
  }

  private static void drain(Path fifo) {
    try (InputStream in = new FileInputStream(fifo.toFile())) {
      in.transferTo(OutputStream.nullOutputStream());
    } catch (IOException ignored) {
      // The test only needs the writer unblocked.
    }
  }

  @Test
  void aSenderInterruptedMidBatchLeavesTheBatchWholeOrAbsentAndLaterSendsWork() throws Exception {
    FileTransport transport = new FileTransport(directory);
    Path file = directory.resolve("t.ndjson");
    transport.send(List.of(record("t", "earlier"))).get();
    long sizeBefore = Files.size(file);
    String padding = "x".repeat(100);
    List<OutboundRecord> large =
        IntStream.range(0, 100_000)
            .mapToObj(i -> record("t", "row " + i + " " + padding))
            .collect(Collectors.toList());
    AtomicReference<CompletableFuture<SendResult>> interrupted = new AtomicReference<>();
    Thread sender = new Thread(() -> interrupted.set(transport.send(large)), "interrupted unit");

    sender.start();
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (Files.size(file) == sizeBefore && sender.isAlive() && System.nanoTime() < deadline) {
      Thread.onSpinWait();
    }
    sender.interrupt();
    sender.join(Duration.ofSeconds(30).toMillis());
    assertThat(sender.isAlive()).isFalse();
    CompletableFuture<SendResult> later = transport.send(List.of(record("t", "later")));
    transport.close();

    assertThat(later).isCompletedWithValue(SendResult.ALL_ACKNOWLEDGED);
    List<String> expected = new ArrayList<>(List.of("earlier"));
    if (!interrupted.get().isCompletedExceptionally()) {
      large.forEach(r -> expected.add(new String(r.value(), StandardCharsets.UTF_8)));
    }
    expected.add("later");
    List<String> lines = Files.readAllLines(file);
    assertThat(lines.size()).isEqualTo(expected.size());
    assertThat(lines).isEqualTo(expected);
  }
}
