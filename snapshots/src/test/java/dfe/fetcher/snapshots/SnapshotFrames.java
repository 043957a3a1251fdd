package dfe.fetcher.snapshots;

import dfe.fetcher.core.envelope.Frame;
import dfe.fetcher.core.envelope.FrameCodec;
import dfe.fetcher.core.envelope.RawRecord;
import dfe.fetcher.core.envelope.SnapshotWriter;
import dfe.fetcher.core.envelope.UuidV7Generator;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.function.LongFunction;

/**
 * One dump written by the real {@link SnapshotWriter}: its frames as lines, to be shuffled,
 * repeated, cut or mixed with another dump's. Dumps started later get greater ids.
 */
public final class SnapshotFrames {

  private static final Instant BASE = Instant.parse("2026-05-01T12:00:00.000Z");

  private final String snapshotId;
  private final List<String> lines;

  private SnapshotFrames(String snapshotId, List<String> lines) {
    this.snapshotId = snapshotId;
    this.lines = lines;
  }

  /** A dump of {@code store} started {@code minute} minutes after a fixed instant. */
  public static SnapshotFrames dump(String store, int minute, String... records) {
    return dump(store, minute, records.length, i -> records[(int) i]);
  }

  /** A dump of {@code rows} records made by {@code record}. */
  public static SnapshotFrames dump(
      String store, int minute, long rows, LongFunction<String> record) {
    Clock clock = Clock.fixed(BASE.plusSeconds(60L * minute), ZoneOffset.UTC);
    SnapshotWriter writer =
        SnapshotWriter.open(store, clock, new UuidV7Generator(new Random(minute)));
    List<String> lines = new ArrayList<>();
    lines.add(line(writer.begin()));
    for (long i = 0; i < rows; i++) {
      lines.add(line(writer.row(RawRecord.of(record.apply(i)))));
    }
    lines.add(line(writer.end()));
    return new SnapshotFrames(writer.snapshotId(), lines);
  }

  /** Writes a dump straight to a file without holding its frames. */
  public static String write(
      Path file, String store, int minute, long rows, LongFunction<String> record)
      throws IOException {
    Clock clock = Clock.fixed(BASE.plusSeconds(60L * minute), ZoneOffset.UTC);
    SnapshotWriter writer =
        SnapshotWriter.open(store, clock, new UuidV7Generator(new Random(minute)));
    try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      out.write(line(writer.begin()));
      out.write('\n');
      for (long i = 0; i < rows; i++) {
        out.write(line(writer.row(RawRecord.of(record.apply(i)))));
        out.write('\n');
      }
      out.write(line(writer.end()));
      out.write('\n');
    }
    return writer.snapshotId();
  }

  private static String line(Frame frame) {
    return new String(FrameCodec.encode(frame), StandardCharsets.UTF_8);
  }

  public String id() {
    return snapshotId;
  }

  /** Every frame, begin first and end last. */
  public List<String> lines() {
    return List.copyOf(lines);
  }

  /** The frames in a seeded random order, each row frame twice. */
  public List<String> shuffledWithDuplicates(long seed) {
    List<String> shuffled = new ArrayList<>(lines);
    shuffled.addAll(lines.subList(1, lines.size() - 1));
    Collections.shuffle(shuffled, new Random(seed));
    return shuffled;
  }

  /** Every frame but the row at {@code seq}: a truncated dump. */
  public List<String> withoutRow(int seq) {
    List<String> cut = new ArrayList<>(lines);
    cut.remove(seq + 1);
    return cut;
  }

  /** Every frame but the end: an open dump. */
  public List<String> withoutEnd() {
    return List.copyOf(lines.subList(0, lines.size() - 1));
  }

  /** Lines of {@code a} and {@code b} alternating. */
  public static List<String> interleave(List<String> a, List<String> b) {
    List<String> mixed = new ArrayList<>();
    for (int i = 0; i < Math.max(a.size(), b.size()); i++) {
      if (i < a.size()) {
        mixed.add(a.get(i));
      }
      if (i < b.size()) {
        mixed.add(b.get(i));
      }
    }
    return mixed;
  }

  public static Path file(Path directory, String name, List<String> lines) throws IOException {
    Path file = directory.resolve(name);
    Files.write(file, lines, StandardCharsets.UTF_8);
    return file;
  }
}
