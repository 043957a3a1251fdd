package dfe.fetcher.snapshots.apply;

import java.util.Locale;

/**
 * Which of two snapshots is newer: snapshot ids are UUIDv7, whose text sorts by start time, so the
 * greater id (compared in lowercase) is the later dump, as {@code Reassembler.latestComplete} has
 * it.
 */
final class SnapshotOrder {

  private SnapshotOrder() {}

  static int compare(String a, String b) {
    return a.toLowerCase(Locale.ROOT).compareTo(b.toLowerCase(Locale.ROOT));
  }
}
