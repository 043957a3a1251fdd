package dfe.fetcher.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dfe.fetcher.core.row.Cancellation;
import dfe.fetcher.core.row.DumpResumeMark;
import dfe.fetcher.core.row.KeysetMark;
import dfe.fetcher.core.row.Mark;
import dfe.fetcher.jdbc.TestDatabase.Engine;
import dfe.fetcher.source.OpenConnection;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A dump with {@code resume: by_key} against real PostgreSQL and MariaDB: the rows in key order, in
 * chunks each ending with a commit point, every row carrying its key, and a read handed an open
 * mark continuing after its key.
 */
class DumpResumeTest {

  private static final Pattern ID = Pattern.compile("\"id\":(\\d+)");

  private TestDatabase database;

  @AfterEach
  void drop() {
    if (database != null) {
      database.close();
    }
  }

  @ParameterizedTest
  @EnumSource(names = {"POSTGRES", "MARIADB"})
  void theDumpReadsInKeyOrderInChunksEachEndingWithACommitPoint(Engine engine) throws Exception {
    DbStore store = accounts(engine, 25, false);

    try (OpenConnection open = database.open(store)) {
      ChunkSink sink = read(open, Optional.empty());

      assertThat(ids(sink)).isEqualTo(range(1, 25));
      assertThat(sink.chunkEnds).containsExactly(10, 20, 25);
      assertThat(sink.events.get(0)).isEqualTo(new RecordingSink.Begin(OptionalLong.empty()));
      assertThat(sink.events.get(sink.events.size() - 1))
          .isEqualTo(new RecordingSink.End(Optional.empty()));
      assertThat(sink.events).filteredOn(RecordingSink.Begin.class::isInstance).hasSize(1);
      assertThat(RecordingSink.keyset(sink.lastMark())).isEqualTo(key(25));
    }
  }

  @ParameterizedTest
  @EnumSource(names = {"POSTGRES", "MARIADB"})
  void aReadGivenAnOpenMarkContinuesAfterItsKeyWithoutCountingAgain(Engine engine)
      throws Exception {
    DbStore store = accounts(engine, 25, true);
    DumpResumeMark open =
        new DumpResumeMark("id-1", "2026-05-01T12:00:00.000Z", 12, Optional.of(key(12)), 0, false);

    try (OpenConnection connection = database.open(store)) {
      ChunkSink first = read(connection, Optional.empty());
      assertThat(first.events.get(0)).isEqualTo(new RecordingSink.Begin(OptionalLong.of(25)));

      ChunkSink resumed = read(connection, Optional.of(open));
      assertThat(ids(resumed)).isEqualTo(range(13, 25));
      assertThat(resumed.chunkEnds).containsExactly(10, 13);
      // No count: the snapshot's begin was sent when it opened.
      assertThat(resumed.events.get(0)).isEqualTo(new RecordingSink.Begin(OptionalLong.empty()));
    }
  }

  @ParameterizedTest
  @EnumSource(names = {"POSTGRES", "MARIADB"})
  void anEndedMarkStartsFromTheFirstKey(Engine engine) throws Exception {
    DbStore store = accounts(engine, 5, false);
    DumpResumeMark ended =
        new DumpResumeMark("id-1", "2026-05-01T12:00:00.000Z", 5, Optional.of(key(5)), 0, true);

    try (OpenConnection connection = database.open(store)) {
      assertThat(ids(read(connection, Optional.of(ended)))).isEqualTo(range(1, 5));
    }
  }

  @ParameterizedTest
  @EnumSource(names = {"POSTGRES", "MARIADB"})
  void aTableOfExactlyOneChunkEndsAfterAnEmptyChunkWithoutACommitPointForIt(Engine engine)
      throws Exception {
    DbStore store = accounts(engine, 10, false);

    try (OpenConnection connection = database.open(store)) {
      ChunkSink sink = read(connection, Optional.empty());
      assertThat(ids(sink)).isEqualTo(range(1, 10));
      assertThat(sink.chunkEnds).containsExactly(10);
    }
  }

  /**
   * A database of {@code engine} holding {@code count} accounts, and a dump of them resumable by
   * {@code id} in chunks of 10.
   */
  private DbStore accounts(Engine engine, int count, boolean countFirst) {
    database = TestDatabase.create(engine);
    createAccounts(count);
    return TestDatabase.resumableDump(
        "accounts", "SELECT * FROM accounts", List.of("id"), 10, countFirst);
  }

  /** Rows 1..count inserted in a shuffled order, so key order is not insertion order. */
  private void createAccounts(int count) {
    database.execute("CREATE TABLE accounts (id INTEGER PRIMARY KEY, name VARCHAR(20))");
    List<Integer> ids = new ArrayList<>(range(1, count));
    Collections.shuffle(ids, new Random(7));
    database.execute(
        ids.stream()
            .map(i -> "INSERT INTO accounts VALUES (" + i + ", 'n" + i + "')")
            .toArray(String[]::new));
  }

  private static ChunkSink read(OpenConnection open, Optional<Mark> checkpoint) throws Exception {
    ChunkSink sink = new ChunkSink();
    open.source("accounts").read(checkpoint, sink, new Cancellation());
    return sink;
  }

  /** Records, besides every call, how many rows had been read at each chunk's end. */
  private static final class ChunkSink extends RecordingSink {
    final List<Integer> chunkEnds = new ArrayList<>();

    @Override
    public void chunkRead() {
      chunkEnds.add(records().size());
    }
  }

  private static List<Integer> ids(RecordingSink sink) {
    List<Integer> ids = new ArrayList<>();
    for (String record : sink.records()) {
      Matcher matcher = ID.matcher(record);
      assertThat(matcher.find()).as("an id in %s", record).isTrue();
      ids.add(Integer.parseInt(matcher.group(1)));
    }
    return ids;
  }

  private static KeysetMark key(long id) {
    return KeysetMark.of(new KeysetMark.IntegerValue(id));
  }

  private static List<Integer> range(int from, int to) {
    return IntStream.rangeClosed(from, to).boxed().toList();
  }
}
