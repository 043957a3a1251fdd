package dfe.fetcher.snapshots.progress;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The text of one progress line: {@code LABEL [PERCENT] ROWS [BYTES] RATE... [ETA]}, e.g. {@code
 * verify 45% 12,345 rows 3.4 MiB/7.6 MiB 1,234 rows/s 2.1 MiB/s ETA 0:12}. Rates are averages since
 * the start; the ETA is what is left at that rate, counted in bytes when their total is known, else
 * in rows, and shown only with a total. Numbers are written the same in every locale.
 */
public final class ProgressLine {

  private static final String[] BINARY_UNITS = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};

  private ProgressLine() {}

  /** The line for {@code reading} after {@code elapsed}, cut to {@code width} characters. */
  public static String render(String label, Reading reading, Duration elapsed, int width) {
    List<String> parts = new ArrayList<>();
    parts.add(label);
    Optional<Reading.Share> share = reading.share();
    share.ifPresent(done -> parts.add(percent(done.fraction())));
    parts.add(
        count(reading.rows())
            + (reading.totalRows().isPresent() && reading.bytes().isEmpty()
                ? "/" + count(reading.totalRows().getAsLong())
                : "")
            + " rows");
    reading
        .bytes()
        .ifPresent(
            bytes ->
                parts.add(
                    bytes(bytes)
                        + (reading.totalBytes().isPresent()
                            ? "/" + bytes(reading.totalBytes().getAsLong())
                            : "")));
    double seconds = elapsed.toNanos() / 1e9;
    if (seconds > 0) {
      parts.add(rate(reading.rows() / seconds) + " rows/s");
      reading.bytes().ifPresent(bytes -> parts.add(bytes(Math.round(bytes / seconds)) + "/s"));
    }
    share.flatMap(done -> eta(done, elapsed)).ifPresent(left -> parts.add("ETA " + clock(left)));
    String line = String.join("  ", parts);
    return width > 0 && line.length() > width ? line.substring(0, width) : line;
  }

  /**
   * What is left of {@code share} at the rate it went over {@code elapsed}; empty before anything
   * was done (no rate yet). Zero once the total is reached.
   */
  public static Optional<Duration> eta(Reading.Share share, Duration elapsed) {
    if (share.done() >= share.total()) {
      return Optional.of(Duration.ZERO);
    }
    if (share.done() <= 0 || elapsed.isZero() || elapsed.isNegative()) {
      return Optional.empty();
    }
    double perUnitNanos = (double) elapsed.toNanos() / share.done();
    return Optional.of(
        Duration.ofSeconds(
            Math.round(perUnitNanos * (share.total() - share.done()) / 1_000_000_000.0)));
  }

  /** {@code 512 B}, {@code 1.5 KiB}, {@code 3.4 MiB}, ...: powers of 1024, one decimal. */
  public static String bytes(long count) {
    if (count < 1024) {
      return count + " B";
    }
    double value = count;
    int unit = -1;
    while (value >= 1024 && unit < BINARY_UNITS.length - 1) {
      value /= 1024;
      unit++;
    }
    // 1023.96 KiB would round to "1024.0 KiB": say 1.0 MiB instead.
    if (Math.round(value * 10) >= 10240 && unit < BINARY_UNITS.length - 1) {
      value /= 1024;
      unit++;
    }
    return String.format(Locale.ROOT, "%.1f %s", value, BINARY_UNITS[unit]);
  }

  /** A count with thousands separators: {@code 12,345}. */
  public static String count(long value) {
    return String.format(Locale.ROOT, "%,d", value);
  }

  /** A rate: one decimal below 10, whole numbers with separators above. */
  public static String rate(double perSecond) {
    return perSecond < 10
        ? String.format(Locale.ROOT, "%.1f", perSecond)
        : String.format(Locale.ROOT, "%,d", Math.round(perSecond));
  }

  /** {@code m:ss} under an hour, else {@code h:mm:ss}. */
  public static String clock(Duration duration) {
    long seconds = duration.toSeconds();
    long hours = seconds / 3600;
    long minutes = (seconds % 3600) / 60;
    long rest = seconds % 60;
    return hours > 0
        ? String.format(Locale.ROOT, "%d:%02d:%02d", hours, minutes, rest)
        : String.format(Locale.ROOT, "%d:%02d", minutes, rest);
  }

  private static String percent(double fraction) {
    return String.format(Locale.ROOT, "%3d%%", (int) Math.floor(fraction * 100));
  }
}
