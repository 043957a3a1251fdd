package dfe.fetcher.runtime.transport;

import java.util.Objects;
import java.util.Optional;

/**
 * A frame of an open snapshot as it was read back from the output, by its headers alone.
 *
 * @param kind the frame's {@code dfe-kind}: begin, row, oversize or end
 * @param seq its {@code dfe-seq}
 * @param resumeKey its {@code dfe-resume-key}: the key of the row a resumable dump's row or stub
 *     frame was made of, in {@code MarkCodec.encodeKey}'s form
 */
public record LandedFrame(String kind, long seq, Optional<String> resumeKey) {

  /** The header a resumable dump's row and stub frames carry their row's key in. */
  public static final String RESUME_KEY_HEADER = "dfe-resume-key";

  public LandedFrame {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(resumeKey, "resumeKey");
  }
}
