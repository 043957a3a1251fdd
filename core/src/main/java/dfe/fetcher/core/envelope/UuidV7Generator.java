package dfe.fetcher.core.envelope;

import java.security.SecureRandom;
import java.util.UUID;
import java.util.random.RandomGenerator;

/**
 * UUIDv7 (RFC 9562, section 5.7) whose 48-bit prefix is the given epoch millisecond.
 *
 * <p>Within one millisecond the 42 bits after the version (the 12 of {@code rand_a} and the top 30
 * of {@code rand_b}) are a counter that starts at a random value below 2^41 and increases by one
 * per id (RFC 9562 section 6.2, method 1), so ids minted in the same millisecond differ and sort in
 * minting order, as strings and as unsigned 128-bit numbers. The last 32 bits are random for every
 * id. When the millisecond changes the counter is reseeded; a clock that steps back gives ids that
 * sort by their (earlier) prefix, as the prefix must equal the dump's start.
 */
public final class UuidV7Generator implements SnapshotIdGenerator {

  private static final long MAX_MILLIS = (1L << 48) - 1;
  private static final long COUNTER_SEED_MASK = (1L << 41) - 1;
  private static final long COUNTER_LIMIT = 1L << 42;

  private final RandomGenerator random;
  private long lastMillis = -1;
  private long counter;

  /** A generator drawing its random bits from a {@link SecureRandom}. */
  public UuidV7Generator() {
    this(new SecureRandom());
  }

  /** A generator drawing its random bits from {@code random}, e.g. a seeded one in tests. */
  public UuidV7Generator(RandomGenerator random) {
    this.random = random;
  }

  @Override
  public synchronized UUID mint(long epochMillis) {
    if (epochMillis < 0 || epochMillis > MAX_MILLIS) {
      throw new IllegalArgumentException(
          "a UUIDv7 holds epoch milliseconds 0.." + MAX_MILLIS + ", not " + epochMillis);
    }
    if (epochMillis == lastMillis) {
      counter++;
      if (counter >= COUNTER_LIMIT) {
        throw new IllegalStateException(
            "more than 2^41 snapshot ids requested in the millisecond " + epochMillis);
      }
    } else {
      lastMillis = epochMillis;
      counter = random.nextLong() & COUNTER_SEED_MASK;
    }
    long randA = counter >>> 30;
    long counterLow = counter & ((1L << 30) - 1);
    long mostSignificant = (epochMillis << 16) | (0x7L << 12) | randA;
    long leastSignificant = (0b10L << 62) | (counterLow << 32) | (random.nextInt() & 0xFFFF_FFFFL);
    return new UUID(mostSignificant, leastSignificant);
  }

  /** The epoch millisecond in the 48-bit prefix of a UUIDv7. */
  public static long epochMillisOf(UUID id) {
    return id.getMostSignificantBits() >>> 16;
  }
}
