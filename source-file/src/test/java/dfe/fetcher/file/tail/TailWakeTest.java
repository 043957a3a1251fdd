package dfe.fetcher.file.tail;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A tail unit wakes the scheduler when one of its files is written, created or renamed (the
 * directory watch), and not for other files of the same directory, nor once it is closed.
 */
class TailWakeTest {

  private static final Duration WITHIN = Duration.ofSeconds(10);

  @TempDir Path dir;
  private final List<TailHarness> harnesses = new ArrayList<>();

  @AfterEach
  void closeSources() {
    harnesses.forEach(TailHarness::close);
  }

  /** A tail of {@code glob} in the test's directory, read once, counting its wakes. */
  private AtomicInteger woken(String glob) {
    TailHarness tail = TailSpecs.in(dir, glob).harness();
    harnesses.add(tail);
    AtomicInteger wakes = new AtomicInteger();
    tail.read();
    tail.wakeOn(wakes::incrementAndGet);
    return wakes;
  }

  private void append(String name, String text) throws IOException {
    Files.writeString(
        dir.resolve(name),
        text,
        StandardCharsets.UTF_8,
        StandardOpenOption.CREATE,
        StandardOpenOption.APPEND);
  }

  @Test
  void aLineAppendedToAFollowedFileWakesTheUnit() throws IOException {
    append("app.log", "one\n");
    AtomicInteger wakes = woken("*.log");

    append("app.log", "two\n");

    await().atMost(WITHIN).until(() -> wakes.get() >= 1);
  }

  @Test
  void aNewFileTheGlobMatchesWakesTheUnitAndARotationToo() throws IOException {
    AtomicInteger wakes = woken("app.log*");

    append("app.log", "one\n");
    await().atMost(WITHIN).until(() -> wakes.get() >= 1);

    int before = wakes.get();
    Files.move(dir.resolve("app.log"), dir.resolve("app.log.1"));
    await().atMost(WITHIN).until(() -> wakes.get() > before);
  }

  @Test
  void aFileTheGlobsDoNotMatchWakesNothing() throws IOException {
    AtomicInteger logs = woken("*.log");
    AtomicInteger texts = woken("*.txt");

    append("notes.txt", "one\n");
    await().atMost(WITHIN).until(() -> texts.get() >= 1);
    // The watch tells its listeners in turn on one thread: once a second change has reached the
    // text tail, the first has been offered to every listener.
    int seen = texts.get();
    append("later.txt", "two\n");
    await().atMost(WITHIN).until(() -> texts.get() > seen);

    assertThat(logs.get()).isZero();
  }

  @Test
  void aClosedUnitIsNotWoken() throws IOException {
    append("app.log", "one\n");
    AtomicInteger closed = woken("*.log");
    AtomicInteger open = woken("*.log");
    harnesses.get(0).close();

    append("app.log", "two\n");
    await().atMost(WITHIN).until(() -> open.get() >= 1);
    int seen = open.get();
    append("app.log", "three\n");
    await().atMost(WITHIN).until(() -> open.get() > seen);

    assertThat(closed.get()).isZero();
  }

  @Test
  void excludedFilesAreNotMatchedForWakes() {
    TailListing listing = new TailListing(TailSpecs.in(dir, "app.log*").exclude("*.gz").spec());

    assertThat(listing.matches(dir.resolve("app.log").toAbsolutePath())).isTrue();
    assertThat(listing.matches(dir.resolve("app.log.1").toAbsolutePath())).isTrue();
    assertThat(listing.matches(dir.resolve("app.log.2.gz").toAbsolutePath())).isFalse();
    assertThat(listing.matches(dir.resolve("other.log").toAbsolutePath())).isFalse();
    assertThat(listing.watchRoots()).containsExactly(dir.toAbsolutePath().normalize());
  }

  @Test
  void aGlobNamingOneFileWatchesItsDirectory() {
    TailListing listing = new TailListing(TailSpecs.in(dir, "app.log").spec());

    assertThat(listing.watchRoots()).containsExactly(dir.toAbsolutePath().normalize());
    assertThat(listing.matches(dir.resolve("app.log").toAbsolutePath().normalize())).isTrue();
    assertThat(listing.matches(dir.resolve("app.log.1").toAbsolutePath().normalize())).isFalse();
  }
}
