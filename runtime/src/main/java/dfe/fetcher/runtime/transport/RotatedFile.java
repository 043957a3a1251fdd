package dfe.fetcher.runtime.transport;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A closed file of a topic on the file output: {@code <topic>+<UTC time of rotation>-<seq>.ndjson},
 * e.g. {@code inventory-hosts_land+20261202T104116Z-000001.ndjson}.
 *
 * <p>Names sort in the order the files were written: the time is fixed width and never goes back (a
 * rotation within the second of the previous one, or after the clock stepped back, takes the
 * previous time and the next seq), and the seq is six digits. {@code +} cannot be part of a topic
 * (topics hold letters, digits, {@code .}, {@code _} and {@code -}), so a rotated file is never
 * another topic's live file; and it sorts before {@code .}, so the live {@code <topic>.ndjson}
 * lists after its topic's rotated files, in the C locale as in the usual UTF-8 ones.
 */
record RotatedFile(String topic, Instant rotatedAt, int seq) implements Comparable<RotatedFile> {

  static final String SEPARATOR = "+";
  static final String SUFFIX = ".ndjson";

  private static final DateTimeFormatter TIME =
      DateTimeFormatter.ofPattern("uuuuMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);
  private static final Pattern TAIL = Pattern.compile("(\\d{8}T\\d{6}Z)-(\\d{6})\\.ndjson");
  private static final int MAX_SEQ = 999_999;

  RotatedFile {
    rotatedAt = rotatedAt.truncatedTo(ChronoUnit.SECONDS);
  }

  /** The file name, without a directory. */
  String fileName() {
    return topic + SEPARATOR + TIME.format(rotatedAt) + "-" + String.format("%06d", seq) + SUFFIX;
  }

  /** The name the live file of {@code topic} takes when rotated at {@code now}. */
  static RotatedFile next(String topic, Instant now, Optional<RotatedFile> newest) {
    Instant at = now.truncatedTo(ChronoUnit.SECONDS);
    if (newest.isEmpty() || at.isAfter(newest.get().rotatedAt())) {
      return new RotatedFile(topic, at, 1);
    }
    RotatedFile last = newest.get();
    if (last.seq() < MAX_SEQ) {
      return new RotatedFile(topic, last.rotatedAt(), last.seq() + 1);
    }
    return new RotatedFile(topic, last.rotatedAt().plusSeconds(1), 1);
  }

  /** {@code fileName} as a rotated file of {@code topic}, or empty when it is not one. */
  static Optional<RotatedFile> parse(String topic, String fileName) {
    String prefix = topic + SEPARATOR;
    if (!fileName.startsWith(prefix)) {
      return Optional.empty();
    }
    Matcher tail = TAIL.matcher(fileName.substring(prefix.length()));
    if (!tail.matches()) {
      return Optional.empty();
    }
    try {
      Instant at = LocalDateTime.parse(tail.group(1), TIME).toInstant(ZoneOffset.UTC);
      return Optional.of(new RotatedFile(topic, at, Integer.parseInt(tail.group(2))));
    } catch (DateTimeParseException e) {
      return Optional.empty(); // 20261399T..., not a name this output wrote
    }
  }

  @Override
  public int compareTo(RotatedFile other) {
    int byTime = rotatedAt.compareTo(other.rotatedAt);
    return byTime != 0 ? byTime : Integer.compare(seq, other.seq);
  }
}
