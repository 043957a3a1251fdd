package dfe.fetcher.jdbc;

import dfe.fetcher.core.row.Cancellation;
import dfe.fetcher.core.row.SourceException;
import dfe.fetcher.source.OpenConnection;
import java.util.List;
import java.util.Optional;
import java.util.TimeZone;

/** Runs a store's read the way a tick does, through a fresh pool. */
final class Dumps {

  private Dumps() {}

  /** The records of one read of {@code store}. */
  static List<String> records(TestDatabase database, DbStore store)
      throws SourceException, InterruptedException {
    return read(database, store).records();
  }

  static RecordingSink read(TestDatabase database, DbStore store)
      throws SourceException, InterruptedException {
    RecordingSink sink = new RecordingSink();
    try (OpenConnection open = database.open(store)) {
      open.source(store.unit()).read(Optional.empty(), sink, new Cancellation());
    }
    return sink;
  }

  /**
   * The records of one read with the JVM's default zone set to {@code zone} while the pool opens
   * its connections (drivers read the default zone at connect and when they build values).
   */
  static List<String> recordsInZone(TestDatabase database, DbStore store, String zone)
      throws SourceException, InterruptedException {
    TimeZone before = TimeZone.getDefault();
    TimeZone.setDefault(TimeZone.getTimeZone(zone));
    try {
      return records(database, store);
    } finally {
      TimeZone.setDefault(before);
    }
  }
}
