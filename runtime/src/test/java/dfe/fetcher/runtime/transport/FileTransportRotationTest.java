package dfe.fetcher.runtime.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The file output's rotation and retention: {@code output.file.rotate_*} and {@code retain_*}. */
class FileTransportRotationTest {

  private static final Instant START = Instant.parse("2026-12-02T10:41:16.250Z");

  @TempDir Path directory;

  private final SteppedClock clock = new SteppedClock(START);

  private FileTransport transport(FileRotation rotation) {
    return new FileTransport(directory, rotation, clock, FileOutputEvents.NONE);
  }

  private static FileRotation bySize(long bytes) {
    return new FileRotation(bytes, Duration.ZERO, 0, Duration.ZERO);
  }

  private static OutboundRecord record(String topic, String value) {
    return new OutboundRecord(
        topic, Optional.empty(), value.getBytes(StandardCharsets.UTF_8), List.of());
  }

  private static List<OutboundRecord> batch(String topic, String... values) {
    return Arrays.stream(values).map(value -> record(topic, value)).toList();
  }

  private static void sent(CompletableFuture<SendResult> send) {
    assertThat(send).succeedsWithin(Duration.ofSeconds(10)).isEqualTo(SendResult.ALL_ACKNOWLEDGED);
  }

  /** The directory's file names, sorted as {@code ls} in the C locale sorts them. */
  private List<String> names() throws IOException {
    try (Stream<Path> files = Files.list(directory)) {
      return files.map(file -> file.getFileName().toString()).sorted().toList();
    }
  }

  private String content(String name) throws IOException {
    return Files.readString(directory.resolve(name));
  }

  @Test
  void aBatchThatWouldTakeTheFilePastRotateBytesStartsANewFileAndTheFullOneIsRenamed()
      throws IOException {
    FileTransport transport = transport(bySize(10));

    sent(transport.send(batch("t", "aaaa")));
    sent(transport.send(batch("t", "bbbb")));
    sent(transport.send(batch("t", "cc")));
    transport.close();

    assertThat(names()).containsExactly("t+20261202T104116Z-000001.ndjson", "t.ndjson");
    assertThat(content("t+20261202T104116Z-000001.ndjson")).isEqualTo("aaaa\nbbbb\n");
    assertThat(content("t.ndjson")).isEqualTo("cc\n");
  }

  @Test
  void aBatchLargerThanRotateBytesLandsWholeInAFileOfItsOwn() throws IOException {
    FileTransport transport = transport(bySize(4));

    sent(transport.send(batch("t", "1")));
    sent(transport.send(batch("t", "22222", "3", "44")));
    sent(transport.send(batch("t", "5")));
    transport.close();

    assertThat(names())
        .containsExactly(
            "t+20261202T104116Z-000001.ndjson", "t+20261202T104116Z-000002.ndjson", "t.ndjson");
    assertThat(content("t+20261202T104116Z-000001.ndjson")).isEqualTo("1\n");
    assertThat(content("t+20261202T104116Z-000002.ndjson")).isEqualTo("22222\n3\n44\n");
    assertThat(content("t.ndjson")).isEqualTo("5\n");
  }

  @Test
  void whenASendIsAcknowledgedEveryLineBeforeItIsInARotatedFileAndItsOwnInTheLiveOne()
      throws IOException {
    FileTransport transport = transport(bySize(6));
    sent(transport.send(batch("t", "ab", "cd")));

    sent(transport.send(batch("t", "ef")));

    // Read while the transport still holds the live file open: acknowledged means on disk.
    assertThat(content("t+20261202T104116Z-000001.ndjson")).isEqualTo("ab\ncd\n");
    assertThat(content("t.ndjson")).isEqualTo("ef\n");
    transport.close();
  }

  @Test
  void namesSortInTheOrderTheFilesWereWrittenEvenWhenTheClockStepsBack() throws IOException {
    FileTransport transport = transport(bySize(1));
    sent(transport.send(batch("t", "1")));
    sent(transport.send(batch("t", "2")));
    clock.set(START.plusSeconds(61));
    sent(transport.send(batch("t", "3")));
    clock.set(START.minusSeconds(3600)); // NTP stepped the clock back an hour
    sent(transport.send(batch("t", "4")));
    sent(transport.send(batch("t", "5")));
    transport.close();

    List<String> names = names();
    assertThat(names)
        .containsExactly(
            "t+20261202T104116Z-000001.ndjson",
            "t+20261202T104217Z-000001.ndjson",
            "t+20261202T104217Z-000002.ndjson",
            "t+20261202T104217Z-000003.ndjson",
            "t.ndjson");
    List<String> inNameOrder = new ArrayList<>();
    for (String name : names) {
      inNameOrder.add(content(name));
    }
    assertThat(inNameOrder).containsExactly("1\n", "2\n", "3\n", "4\n", "5\n");
  }

  @Test
  void theLiveFileIsRotatedByAgeAtTheFirstSendOnceItsFirstLineIsRotateSecsOld() throws IOException {
    FileTransport transport =
        transport(new FileRotation(0, Duration.ofSeconds(60), 0, Duration.ZERO));
    sent(transport.send(batch("t", "first")));
    clock.advance(Duration.ofSeconds(59));
    sent(transport.send(batch("t", "second")));
    assertThat(names()).containsExactly("t.ndjson");

    clock.advance(Duration.ofSeconds(1));
    sent(transport.send(batch("t", "third")));
    transport.close();

    assertThat(names()).containsExactly("t+20261202T104216Z-000001.ndjson", "t.ndjson");
    assertThat(content("t+20261202T104216Z-000001.ndjson")).isEqualTo("first\nsecond\n");
    assertThat(content("t.ndjson")).isEqualTo("third\n");
  }

  @Test
  void retainFilesKeepsTheNewestRotatedFilesOfTheTopicAndTouchesNothingElse() throws IOException {
    Files.writeString(directory.resolve("t+notes.ndjson"), "an operator's file\n");
    Files.writeString(directory.resolve("u+20200101T000000Z-000001.ndjson"), "another topic\n");
    RecordedEvents events = new RecordedEvents();
    FileTransport transport =
        new FileTransport(
            directory, new FileRotation(1, Duration.ZERO, 2, Duration.ZERO), clock, events);

    for (int i = 1; i <= 5; i++) {
      sent(transport.send(batch("t", "line " + i)));
      clock.advance(Duration.ofSeconds(1));
    }
    transport.close();

    assertThat(names())
        .containsExactly(
            "t+20261202T104119Z-000001.ndjson",
            "t+20261202T104120Z-000001.ndjson",
            "t+notes.ndjson",
            "t.ndjson",
            "u+20200101T000000Z-000001.ndjson");
    assertThat(events.seen)
        .containsExactly(
            "opened t",
            "rotated t",
            "rotated t",
            "rotated t",
            "deleted t",
            "rotated t",
            "deleted t");
    assertThat(content("t+20261202T104119Z-000001.ndjson")).isEqualTo("line 3\n");
    assertThat(content("t+20261202T104120Z-000001.ndjson")).isEqualTo("line 4\n");
    assertThat(content("t.ndjson")).isEqualTo("line 5\n");
  }

  @Test
  void retainSecsDeletesRotatedFilesRotatedThatLongAgo() throws IOException {
    FileTransport transport =
        transport(new FileRotation(1, Duration.ZERO, 0, Duration.ofSeconds(100)));
    sent(transport.send(batch("t", "1")));
    sent(transport.send(batch("t", "2"))); // rotates "1" at 10:41:16
    clock.advance(Duration.ofSeconds(60));
    sent(transport.send(batch("t", "3"))); // rotates "2" at 10:42:16
    clock.advance(Duration.ofSeconds(40));

    sent(transport.send(batch("t", "4"))); // at 10:42:56 "1" is 100 s old
    transport.close();

    assertThat(names())
        .containsExactly(
            "t+20261202T104216Z-000001.ndjson", "t+20261202T104256Z-000001.ndjson", "t.ndjson");
    assertThat(content("t+20261202T104216Z-000001.ndjson")).isEqualTo("2\n");
    assertThat(content("t+20261202T104256Z-000001.ndjson")).isEqualTo("3\n");
  }

  @Test
  void aRestartContinuesAfterTheRotatedFilesItFindsAndAppliesRetentionToThem() throws IOException {
    Files.writeString(directory.resolve("t+20261202T104000Z-000001.ndjson"), "old 1\n");
    Files.writeString(directory.resolve("t+20261202T104116Z-000001.ndjson"), "old 2\n");
    Files.writeString(directory.resolve("t+20261202T104116Z-000002.ndjson"), "old 3\n");
    Files.writeString(directory.resolve("t.ndjson"), "live 1\nlive 2\ntorn");
    FileTransport transport = transport(new FileRotation(20, Duration.ZERO, 3, Duration.ZERO));

    sent(transport.send(batch("t", "new 1")));
    sent(transport.send(batch("t", "new 2")));
    transport.close();

    assertThat(names())
        .containsExactly(
            "t+20261202T104116Z-000001.ndjson",
            "t+20261202T104116Z-000002.ndjson",
            "t+20261202T104116Z-000003.ndjson",
            "t.ndjson");
    assertThat(content("t+20261202T104116Z-000003.ndjson"))
        .as("the torn line is dropped before the file is rotated")
        .isEqualTo("live 1\nlive 2\nnew 1\n");
    assertThat(content("t.ndjson")).isEqualTo("new 2\n");
  }

  @Test
  void aLiveFileFoundAtStartIsAsOldAsItsTopicsNewestRotation() throws IOException {
    Files.writeString(directory.resolve("t+20261202T100000Z-000001.ndjson"), "older\n");
    Files.writeString(directory.resolve("t.ndjson"), "since 10:00\n");
    FileTransport transport = transport(new FileRotation(0, Duration.ofHours(1), 0, Duration.ZERO));
    clock.set(Instant.parse("2026-12-02T10:59:59Z"));
    sent(transport.send(batch("t", "a")));
    assertThat(names()).hasSize(2);

    clock.set(Instant.parse("2026-12-02T11:00:00Z"));
    sent(transport.send(batch("t", "b")));
    transport.close();

    assertThat(names())
        .containsExactly(
            "t+20261202T100000Z-000001.ndjson", "t+20261202T110000Z-000001.ndjson", "t.ndjson");
    assertThat(content("t+20261202T110000Z-000001.ndjson")).isEqualTo("since 10:00\na\n");
  }

  @Test
  void concurrentSendersNeverShareAFileBatchAndTheFilesInNameOrderHoldEveryLineOnce()
      throws Exception {
    FileTransport transport = transport(new FileRotation(300, Duration.ZERO, 0, Duration.ZERO));
    int senders = 4;
    int batches = 50;
    List<Thread> threads = new ArrayList<>();
    List<CompletableFuture<SendResult>> sends =
        java.util.Collections.synchronizedList(new ArrayList<>());
    for (int s = 0; s < senders; s++) {
      int sender = s;
      threads.add(
          new Thread(
              () -> {
                for (int b = 0; b < batches; b++) {
                  String prefix = "s" + sender + "b" + b + "r";
                  sends.add(transport.send(batch("t", prefix + 0, prefix + 1, prefix + 2)));
                }
              }));
    }
    threads.forEach(Thread::start);
    for (Thread thread : threads) {
      thread.join(Duration.ofSeconds(30).toMillis());
    }
    transport.close();
    sends.forEach(FileTransportRotationTest::sent);

    List<String> all = new ArrayList<>();
    for (String name : names()) {
      List<String> lines = Files.readAllLines(directory.resolve(name));
      assertThat(lines.size() % 3).as(name + " holds whole batches").isZero();
      for (int i = 0; i < lines.size(); i += 3) {
        String prefix = lines.get(i).substring(0, lines.get(i).length() - 1);
        assertThat(lines.subList(i, i + 3))
            .as(name)
            .containsExactly(prefix + 0, prefix + 1, prefix + 2);
      }
      assertThat(Files.size(directory.resolve(name))).isLessThanOrEqualTo(300);
      all.addAll(lines);
    }
    assertThat(all).hasSize(senders * batches * 3).doesNotHaveDuplicates();
    for (int s = 0; s < senders; s++) {
      String sender = "s" + s + "b";
      List<Integer> order =
          all.stream()
              .filter(line -> line.startsWith(sender) && line.endsWith("r0"))
              .map(line -> Integer.parseInt(line.substring(sender.length(), line.length() - 2)))
              .toList();
      assertThat(order).as("sender %d's batches in name order", s).isSorted();
    }
  }

  @Test
  void withoutRotationOneFileOnlyGrows() throws IOException {
    FileTransport transport = transport(FileRotation.NEVER);
    for (int i = 0; i < 3; i++) {
      sent(transport.send(batch("t", "x".repeat(1000))));
      clock.advance(Duration.ofDays(400));
    }
    transport.close();

    assertThat(names()).containsExactly("t.ndjson");
    assertThat(Files.size(directory.resolve("t.ndjson"))).isEqualTo(3 * 1001);
  }

  /** The events the transport told, in order. */
  private static final class RecordedEvents implements FileOutputEvents {
    final List<String> seen = java.util.Collections.synchronizedList(new ArrayList<>());

    @Override
    public void topicOpened(String topic) {
      seen.add("opened " + topic);
    }

    @Override
    public void rotated(String topic) {
      seen.add("rotated " + topic);
    }

    @Override
    public void deleted(String topic) {
      seen.add("deleted " + topic);
    }
  }

  /** A clock the test moves. */
  private static final class SteppedClock extends Clock {
    private volatile Instant now;

    SteppedClock(Instant now) {
      this.now = now;
    }

    void set(Instant at) {
      now = at;
    }

    void advance(Duration by) {
      now = now.plus(by);
    }

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return now;
    }
  }
}
