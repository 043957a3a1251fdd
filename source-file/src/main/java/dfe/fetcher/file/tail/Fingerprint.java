package dfe.fetcher.file.tail;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Objects;
import java.util.Optional;

/**
 * What tells one followed file from another, whatever its name, in the text form the checkpoint
 * carries:
 *
 * <ul>
 *   <li>{@code checksum:<start>:<end>:<digest>}: the digest of content bytes {@code [start, end)};
 *   <li>{@code device_and_inode:<identity>:<end>:<digest>}: the file system's key for the file and
 *       the digest of its first {@code end} bytes, so a reused inode is not taken for the old file.
 * </ul>
 *
 * <p><b>Short files.</b> A fingerprint covers what the file held when it was taken: {@code [header,
 * header + bytes)} once the file is longer than the header, else {@code [0, size)} (a file not
 * longer than its header is told apart by the header itself). A file matches a fingerprint when it
 * holds at least {@code end} bytes and those bytes have the digest, so a file that grew still
 * matches the fingerprint taken when it was short; the source then takes a fuller one. A file of
 * zero bytes has no fingerprint: it has nothing to read and no offset to keep. Two files whose
 * first bytes are the same match each other's short fingerprints; the source tells them apart by
 * the file it read last under the fingerprint, then by path (see {@code FileAssignment}).
 *
 * <p>The content of a gzip file is its decompressed bytes: a rotated file compressed after it was
 * read keeps its checksum, and is never fingerprinted by its compressed bytes.
 *
 * @param strategy the strategy that took it
 * @param identity the file system key ({@code device_and_inode}); empty for {@code checksum}
 * @param start the first content byte covered
 * @param end the content byte after the last one covered
 * @param digest 16 hex digits: the first 8 bytes of the SHA-256 of the bytes covered
 */
record Fingerprint(
    FingerprintStrategy strategy, String identity, long start, long end, String digest) {

  private static final HexFormat HEX = HexFormat.of();

  Fingerprint {
    Objects.requireNonNull(strategy, "strategy");
    Objects.requireNonNull(identity, "identity");
    Objects.requireNonNull(digest, "digest");
  }

  /**
   * The fingerprint of a file whose content starts with {@code prefix[0, length)} ({@code length}
   * is all of it when the file is shorter than the spec's span); empty for an empty file.
   */
  static Optional<Fingerprint> of(
      FingerprintSpec spec, String identity, byte[] prefix, int length) {
    if (length == 0) {
      return Optional.empty();
    }
    return Optional.of(
        switch (spec.strategy()) {
          case CHECKSUM -> {
            int start = length > spec.headerBytes() ? spec.headerBytes() : 0;
            int end = Math.min(length, spec.headerBytes() + spec.bytes());
            yield new Fingerprint(
                FingerprintStrategy.CHECKSUM, "", start, end, digest(prefix, start, end));
          }
          case DEVICE_AND_INODE -> {
            int end = Math.min(length, spec.bytes());
            yield new Fingerprint(
                FingerprintStrategy.DEVICE_AND_INODE, identity, 0, end, digest(prefix, 0, end));
          }
        });
  }

  /** Whether a file of {@code identity} whose content starts with {@code prefix} is this one. */
  boolean matches(String fileIdentity, byte[] prefix, int length) {
    if (length < end) {
      return false;
    }
    if (strategy == FingerprintStrategy.DEVICE_AND_INODE && !identity.equals(fileIdentity)) {
      return false;
    }
    return digest.equals(digest(prefix, (int) start, (int) end));
  }

  /** The checkpoint's text. */
  String text() {
    return switch (strategy) {
      case CHECKSUM -> "checksum:" + start + ":" + end + ":" + digest;
      case DEVICE_AND_INODE -> "device_and_inode:" + identity + ":" + end + ":" + digest;
    };
  }

  /** The fingerprint {@link #text} wrote; empty for any other text (the entry is dropped). */
  static Optional<Fingerprint> parse(String text) {
    try {
      int lastColon = text.lastIndexOf(':');
      int endColon = text.lastIndexOf(':', lastColon - 1);
      if (lastColon < 0 || endColon < 0) {
        return Optional.empty();
      }
      String digest = text.substring(lastColon + 1);
      long end = Long.parseLong(text.substring(endColon + 1, lastColon));
      String head = text.substring(0, endColon);
      if (digest.length() != 16 || end < 1) {
        return Optional.empty();
      }
      if (head.startsWith("checksum:")) {
        long start = Long.parseLong(head.substring("checksum:".length()));
        if (start < 0 || start >= end) {
          return Optional.empty();
        }
        return Optional.of(new Fingerprint(FingerprintStrategy.CHECKSUM, "", start, end, digest));
      }
      if (head.startsWith("device_and_inode:")) {
        return Optional.of(
            new Fingerprint(
                FingerprintStrategy.DEVICE_AND_INODE,
                head.substring("device_and_inode:".length()),
                0,
                end,
                digest));
      }
      return Optional.empty();
    } catch (NumberFormatException | StringIndexOutOfBoundsException e) {
      return Optional.empty();
    }
  }

  /** The digest this strategy writes of {@code bytes[from, to)}. */
  static String digest(byte[] bytes, int from, int to) {
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      sha.update(bytes, from, to - from);
      return HEX.formatHex(sha.digest(), 0, 8);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime has SHA-256", e);
    }
  }

  @Override
  public String toString() {
    return text();
  }

  /** For tests and logs: the text of {@code value}'s UTF-8 bytes as one fingerprint would take. */
  static Fingerprint ofText(FingerprintSpec spec, String identity, String value) {
    byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
    return of(spec, identity, bytes, Math.min(bytes.length, spec.span())).orElseThrow();
  }
}
