package dfe.fetcher.runtime.schedule;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.zip.CRC32;

/**
 * How far each connection's ticks are shifted from the moment it is scheduled, so connections on
 * one interval do not all start together ({@code scheduler.jitter_percent}).
 *
 * <p>The shift is a fixed share of the interval, between 0 and {@code percent}% of it, taken from a
 * CRC-32 of the connection id: the same connection gets the same shift on every start, every
 * restart and every reload, so the spacing between connections survives a restart, and no random
 * source or clock is involved. With {@code percent} 0 every shift is zero.
 *
 * @param percent the largest shift as a share of the interval, 0 to {@value #MAX_PERCENT}
 */
public record TickJitter(int percent) {

  public static final int MAX_PERCENT = 50;

  /** No shift: every connection starts when it is scheduled. */
  public static final TickJitter NONE = new TickJitter(0);

  public TickJitter {
    if (percent < 0 || percent > MAX_PERCENT) {
      throw new IllegalArgumentException(
          "jitter percent must be 0 to " + MAX_PERCENT + ", was " + percent);
    }
  }

  /**
   * The shift of {@code connection} on {@code interval}: at least zero and less than {@code
   * percent}% of the interval, the same for the same id and interval every time.
   */
  public Duration offset(String connection, Duration interval) {
    if (percent == 0) {
      return Duration.ZERO;
    }
    CRC32 crc = new CRC32();
    crc.update(connection.getBytes(StandardCharsets.UTF_8));
    double share = crc.getValue() / (double) (1L << 32);
    long spreadMillis = interval.toMillis() * percent / 100;
    return Duration.ofMillis((long) (spreadMillis * share));
  }
}
