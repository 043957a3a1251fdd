package dfe.fetcher.file.tail;

import java.util.Objects;

/**
 * A tail unit's {@code fingerprint:} settings.
 *
 * @param strategy how files are told apart
 * @param bytes how many bytes the digest covers ({@code bytes}, after the header)
 * @param headerBytes how many leading bytes the checksum skips ({@code header_bytes}): files that
 *     all start with the same header are told apart by what follows it
 */
public record FingerprintSpec(FingerprintStrategy strategy, int bytes, int headerBytes) {

  public static final int DEFAULT_BYTES = 256;

  public static final FingerprintSpec DEFAULT =
      new FingerprintSpec(FingerprintStrategy.CHECKSUM, DEFAULT_BYTES, 0);

  public FingerprintSpec {
    Objects.requireNonNull(strategy, "strategy");
    if (bytes < 1) {
      throw new IllegalArgumentException("fingerprint.bytes must be at least 1, was " + bytes);
    }
    if (headerBytes < 0) {
      throw new IllegalArgumentException(
          "fingerprint.header_bytes must be at least 0, was " + headerBytes);
    }
  }

  /** How many leading bytes of a file a fingerprint may need. */
  int span() {
    return strategy == FingerprintStrategy.CHECKSUM ? headerBytes + bytes : bytes;
  }
}
