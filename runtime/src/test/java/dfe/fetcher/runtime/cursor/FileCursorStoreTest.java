package dfe.fetcher.runtime.cursor;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dfe.fetcher.core.checkpoint.CursorStore.CheckpointException;
import dfe.fetcher.core.row.CursorTokenMark;
import dfe.fetcher.core.row.FileMark;
import dfe.fetcher.core.row.KeysetMark;
import dfe.fetcher.core.row.Mark;
import dfe.fetcher.core.row.WindowMark;
import java.io.RandomAccessFile;
import java.math.BigDecimal;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.slf4j.LoggerFactory;

class FileCursorStoreTest {

  private static final String NOT_JSON = "{\"mark\": {\"type\": \"fi";

  @TempDir Path directory;

  private final ListAppender<ILoggingEvent> log = new ListAppender<>();
  private final Logger logger = (Logger) LoggerFactory.getLogger("dfe.fetcher.checkpoint");

  @BeforeEach
  void captureLog() {
    log.start();
    logger.addAppender(log);
  }

  @AfterEach
  void releaseLog() {
    logger.detachAppender(log);
    log.stop();
  }

  private List<String> unreadableReports() {
    return log.list.stream()
        .filter(event -> event.getLevel() == Level.WARN)
        .map(ILoggingEvent::getFormattedMessage)
        .filter(message -> message.startsWith("event=cursor_unreadable"))
        .toList();
  }

  private FileCursorStore store() {
    return new FileCursorStore(directory, Clock.systemUTC());
  }

  private void writeCursor(String key, String document) throws Exception {
    Files.writeString(directory.resolve(key + ".json"), document);
  }

  @Test
  void aCommittedMarkIsLoadedBackAfterARestart() throws Exception {
    FileMark mark = new FileMark(Instant.parse("2026-05-01T12:00:00.123456789Z"), "/data/a.ndjson");
    new FileCursorStore(directory, Clock.systemUTC()).commit("demo.inventory.hosts", mark);

    FileCursorStore restarted = new FileCursorStore(directory, Clock.systemUTC());
    assertThat(restarted.load("demo.inventory.hosts")).contains(mark);
    assertThat(directory.resolve("demo.inventory.hosts.json")).exists();
    assertThat(directory.resolve("demo.inventory.hosts.json.tmp")).doesNotExist();
  }

  static Stream<Mark> everyKindOfMark() {
    return Stream.of(
        new FileMark(Instant.parse("2026-05-01T12:00:00.123456789Z"), "/data/a.ndjson"),
        KeysetMark.of(
            new KeysetMark.IntegerValue(Long.MIN_VALUE),
            new KeysetMark.DecimalValue(new BigDecimal("1.50")),
            new KeysetMark.StringValue("ключ 🔑"),
            new KeysetMark.TimestampValue(Instant.parse("2026-05-01T12:00:00.123456Z")),
            new KeysetMark.LocalTimestampValue(
                LocalDateTime.parse("2026-05-01T12:00:00.123456789")),
            new KeysetMark.BytesValue(new byte[] {0, 1, (byte) 0xff})),
        new WindowMark(Instant.parse("2026-05-01T12:00:00Z")),
        new CursorTokenMark("eyJvZmZzZXQiOjQyfQ=="));
  }

  @ParameterizedTest
  @MethodSource("everyKindOfMark")
  void aCommittedMarkOfEachKindIsLoadedBackAfterARestart(Mark mark) throws Exception {
    store().commit("demo.inventory.hosts", mark);

    assertThat(store().load("demo.inventory.hosts")).contains(mark);
  }

  @Test
  void aLaterCommitReplacesTheEarlierOne() throws Exception {
    FileCursorStore store = new FileCursorStore(directory, Clock.systemUTC());
    store.commit("k", new FileMark(Instant.ofEpochSecond(1), "a"));
    store.commit("k", new FileMark(Instant.ofEpochSecond(2), "b"));
    assertThat(store.load("k")).contains(new FileMark(Instant.ofEpochSecond(2), "b"));
  }

  @Test
  void aCursorFromTheFirstBuildLoadsAsCoveringNoFile() throws Exception {
    writeCursor(
        "demo.files.dump",
        "{\"mark\":{\"type\":\"file\",\"changed_at\":\"2026-05-01T12:00:00.123456789Z\","
            + "\"path\":\"/d/a.ndjson\"},\"committed_at\":\"2026-05-01T12:00:01Z\"}");

    assertThat(store().load("demo.files.dump"))
        .contains(new FileMark(FileMark.EMPTY_WATERMARK, "/d/a.ndjson", List.of()));
    assertThat(unreadableReports()).isEmpty();
  }

  @Test
  void noCursorMeansStartFromTheBeginning() {
    assertThat(new FileCursorStore(directory, Clock.systemUTC()).load("nothing")).isEmpty();
  }

  @Test
  void anUnreadableCursorIsTreatedAsNone() throws Exception {
    Files.writeString(directory.resolve("broken.json"), NOT_JSON);
    assertThat(new FileCursorStore(directory, Clock.systemUTC()).load("broken")).isEmpty();
  }

  @Test
  void anUnreadableCursorIsReportedOnceHoweverOftenItIsLoaded() throws Exception {
    writeCursor("broken", NOT_JSON);
    FileCursorStore store = store();

    for (int load = 0; load < 3; load++) {
      assertThat(store.load("broken")).isEmpty();
    }

    assertThat(unreadableReports())
        .singleElement()
        .asString()
        .contains("key=broken")
        .contains("not JSON")
        .contains("action=read_as_lost");
  }

  @Test
  void anUnreadableCursorIsReportedAgainWhenItsProblemChanges() throws Exception {
    FileCursorStore store = store();
    writeCursor("broken", NOT_JSON);
    store.load("broken");
    store.load("broken");

    writeCursor("broken", "{\"version\":3,\"mark\":{\"kind\":\"file\"}}");
    store.load("broken");
    store.load("broken");

    assertThat(unreadableReports()).hasSize(2);
    assertThat(unreadableReports().get(1)).contains("version 3");
  }

  @Test
  void eachKeyWithAnUnreadableCursorIsReported() throws Exception {
    writeCursor("first", NOT_JSON);
    writeCursor("second", NOT_JSON);
    FileCursorStore store = store();

    store.load("first");
    store.load("second");

    assertThat(unreadableReports()).hasSize(2);
  }

  @Test
  void aGoodCommitForgetsTheProblemSoTheSameBreakageIsReportedAgain() throws Exception {
    FileCursorStore store = store();
    writeCursor("broken", NOT_JSON);
    store.load("broken");

    store.commit("broken", new WindowMark(Instant.parse("2026-05-01T12:00:00Z")));
    writeCursor("broken", NOT_JSON);
    store.load("broken");

    assertThat(unreadableReports()).hasSize(2);
  }

  @Test
  void theReportDoesNotQuoteTheCursorsContent() throws Exception {
    writeCursor("broken", "{\"version\":1,\"mark\":{\"kind\":\"sk_live_4f9Q2xSECRET\"}}");

    store().load("broken");

    assertThat(unreadableReports()).singleElement().asString().doesNotContain("sk_live");
  }

  /**
   * The temporary file of key {@code stuck} is a FIFO, so its commit blocks, inside the commit and
   * holding whatever it holds for that key, until someone opens the FIFO for reading. A commit of
   * another key must complete meanwhile.
   */
  @Test
  @EnabledOnOs({OS.LINUX, OS.MAC})
  void aCommitStuckOnOneKeyDoesNotHoldUpACommitOfAnother() throws Exception {
    FileCursorStore store = store();
    Path fifo = directory.resolve("stuck.json.tmp");
    Process mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).start();
    assumeTrue(mkfifo.waitFor(10, SECONDS) && mkfifo.exitValue() == 0, "mkfifo is available");
    Thread stuck =
        new Thread(
            () -> {
              try {
                store.commit("stuck", new WindowMark(Instant.EPOCH));
              } catch (CheckpointException e) {
                // Expected once released: a FIFO cannot be fsynced.
              }
            },
            "stuck-commit");
    ExecutorService other = Executors.newSingleThreadExecutor();
    WindowMark freeMark = new WindowMark(Instant.parse("2026-05-01T12:00:00Z"));
    stuck.start();
    try {
      await().atMost(Duration.ofSeconds(10)).until(() -> isOpeningAFile(stuck));

      Future<?> free =
          other.submit(
              () -> {
                store.commit("free", freeMark);
                return null;
              });
      free.get(10, SECONDS);

      assertThat(stuck.isAlive()).as("the stuck commit is still stuck").isTrue();
      assertThat(store.load("free")).contains(freeMark);
    } finally {
      // Opening a FIFO for reading and writing does not block, and lets the stuck open through.
      RandomAccessFile release = new RandomAccessFile(fifo.toFile(), "rw");
      try {
        stuck.join(10_000);
      } finally {
        release.close();
      }
      other.shutdownNow();
    }
    assertThat(stuck.isAlive()).isFalse();
  }

  private static boolean isOpeningAFile(Thread thread) {
    return Arrays.stream(thread.getStackTrace())
        .anyMatch(
            frame ->
                frame.getClassName().equals(FileChannel.class.getName())
                    && frame.getMethodName().equals("open"));
  }
}
