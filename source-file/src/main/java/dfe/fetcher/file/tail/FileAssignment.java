package dfe.fetcher.file.tail;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Which checkpoint entry each file found now continues: the rule that keeps an offset with its file
 * through renames, and keeps it from a new file that merely starts like an old one.
 *
 * <p>A file continues an entry only when it matches the entry's fingerprint. Among several, the
 * strongest evidence wins, in this order: the file system identity this process last read under
 * that fingerprint (a rename keeps it, so {@code app.log} renamed to {@code app.log.1} keeps its
 * offset even when the new {@code app.log} starts with the same bytes); then the same path; then
 * the entry whose fingerprint covers the most bytes. Each entry goes to one file at most and each
 * file takes one entry at most; a file that takes none is new and is read from its start.
 */
final class FileAssignment {

  /** A file found now: its path, file system identity and first content bytes. */
  record Found(String path, String identity, byte[] prefix, int length) {}

  /** An entry of the checkpoint, its fingerprint parsed. */
  record Entry(Fingerprint fingerprint, String path, long offset) {}

  /** The content bytes a fingerprint covers. */
  private record Range(long start, long end) {}

  private FileAssignment() {}

  /**
   * @param lastIdentity the identity each fingerprint's file had when this process last read it
   * @return for each file that continues an entry, that entry
   */
  static Map<Found, Entry> assign(
      List<Found> files, List<Entry> entries, Map<String, String> lastIdentity) {
    Map<Found, Entry> assigned = new IdentityHashMap<>();
    Map<Entry, Found> taken = new IdentityHashMap<>();
    // Entries by the bytes their fingerprint covers and its digest: a file's digest of each range
    // is computed once and looked up, so matching stays linear in files and entries (most share
    // the one full range).
    Map<Range, Map<String, List<Entry>>> byRange = new HashMap<>();
    for (Entry entry : entries) {
      Fingerprint fingerprint = entry.fingerprint();
      byRange
          .computeIfAbsent(
              new Range(fingerprint.start(), fingerprint.end()), range -> new HashMap<>())
          .computeIfAbsent(fingerprint.digest(), digest -> new ArrayList<>())
          .add(entry);
    }
    List<List<Entry>> candidates = new ArrayList<>();
    for (Found file : files) {
      List<Entry> matching = new ArrayList<>();
      for (Map.Entry<Range, Map<String, List<Entry>>> range : byRange.entrySet()) {
        Range covered = range.getKey();
        if (file.length() < covered.end()) {
          continue;
        }
        String digest =
            Fingerprint.digest(file.prefix(), (int) covered.start(), (int) covered.end());
        for (Entry entry : range.getValue().getOrDefault(digest, List.of())) {
          if (entry.fingerprint().matches(file.identity(), file.prefix(), file.length())) {
            matching.add(entry);
          }
        }
      }
      matching.sort((a, b) -> Long.compare(b.fingerprint().end(), a.fingerprint().end()));
      candidates.add(matching);
    }
    for (int pass = 0; pass < 3; pass++) {
      for (int i = 0; i < files.size(); i++) {
        Found file = files.get(i);
        if (assigned.containsKey(file)) {
          continue;
        }
        Optional<Entry> chosen = Optional.empty();
        for (Entry entry : candidates.get(i)) {
          if (taken.containsKey(entry)) {
            continue;
          }
          boolean fits =
              switch (pass) {
                case 0 -> file.identity().equals(lastIdentity.get(entry.fingerprint().text()));
                case 1 -> file.path().equals(entry.path());
                default -> true;
              };
          if (fits) {
            chosen = Optional.of(entry);
            break;
          }
        }
        if (chosen.isPresent()) {
          assigned.put(file, chosen.get());
          taken.put(chosen.get(), file);
        }
      }
    }
    return assigned;
  }
}
