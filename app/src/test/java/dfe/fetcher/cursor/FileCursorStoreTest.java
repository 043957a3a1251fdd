package dfe.fetcher.cursor;

import static org.assertj.core.api.Assertions.assertThat;

import dfe.fetcher.row.FileMark;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileCursorStoreTest {

  @TempDir Path directory;

  @Test
  void aCommittedMarkIsLoadedBackAfterARestart() throws Exception {
    FileMark mark = new FileMark(Instant.parse("2026-05-01T12:00:00.123456789Z"), "/data/a.ndjson");
    new FileCursorStore(directory, Clock.systemUTC()).commit("demo.inventory.hosts", mark);

    FileCursorStore restarted = new FileCursorStore(directory, Clock.systemUTC());
    assertThat(restarted.load("demo.inventory.hosts")).contains(mark);
    assertThat(directory.resolve("demo.inventory.hosts.json")).exists();
    assertThat(directory.resolve("demo.inventory.hosts.json.tmp")).doesNotExist();
  }

  @Test
  void aLaterCommitReplacesTheEarlierOne() throws Exception {
    FileCursorStore store = new FileCursorStore(directory, Clock.systemUTC());
    store.commit("k", new FileMark(Instant.ofEpochSecond(1), "a"));
    store.commit("k", new FileMark(Instant.ofEpochSecond(2), "b"));
    assertThat(store.load("k")).contains(new FileMark(Instant.ofEpochSecond(2), "b"));
  }

  @Test
  void noCursorMeansStartFromTheBeginning() {
    assertThat(new FileCursorStore(directory, Clock.systemUTC()).load("nothing")).isEmpty();
  }

  @Test
  void anUnreadableCursorIsTreatedAsNone() throws Exception {
    Files.writeString(directory.resolve("broken.json"), "{\"mark\": {\"type\": \"fi");
    assertThat(new FileCursorStore(directory, Clock.systemUTC()).load("broken")).isEmpty();
  }
}
