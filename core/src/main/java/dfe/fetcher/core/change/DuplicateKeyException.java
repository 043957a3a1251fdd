package dfe.fetcher.core.change;

import java.nio.charset.StandardCharsets;

/** Two rows of one snapshot share a key, so the snapshot is not a function of its key. */
public final class DuplicateKeyException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  DuplicateKeyException(String side, byte[] key, long firstSeq, long secondSeq) {
    super(
        "key "
            + new String(key, StandardCharsets.UTF_8)
            + " appears at seq "
            + firstSeq
            + " and seq "
            + secondSeq
            + " of the "
            + side
            + " snapshot: the key does not identify a row");
  }
}
