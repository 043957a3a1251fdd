package dfe.fetcher.source;

import java.util.Locale;
import java.util.Objects;

/**
 * What {@code config-check --probe} learnt from trying a connection's credentials with the cheapest
 * call its configuration names ({@link SourceConnection#probe}).
 *
 * @param verdict whether the credentials work
 * @param detail what was sent and what came back (the request, the status or the failure), never a
 *     secret
 */
public record ProbeOutcome(Verdict verdict, String detail) {

  /** Whether a probe's credentials work. */
  public enum Verdict {
    /** The call was answered as the configuration expects: the credentials work. */
    OK,
    /** The service answered, but not as expected (401, 403, a token endpoint's refusal). */
    REFUSED,
    /** No answer: the connection failed, timed out, or could not be set up. */
    UNREACHABLE;

    /** As {@code config-check} prints it. */
    public String word() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  public ProbeOutcome {
    Objects.requireNonNull(verdict, "verdict");
    Objects.requireNonNull(detail, "detail");
  }
}
