package dfe.fetcher.rest.profile;

import java.util.Locale;
import java.util.Optional;

/**
 * Whether an endpoint's {@code path} as written is a URI path (RFC 3986 section 3.3): outside its
 * placeholders it may hold letters, digits, {@code -._~}, sub-delimiters, {@code :}, {@code @},
 * {@code /} and percent-encodings; placeholders are percent-encoded when rendered, so they are
 * always fine. A {@code ?} or {@code #} would change what the URI means, and a space or a non-ASCII
 * letter makes no URI at all, so each is refused at load rather than failing every request.
 */
final class UriPathCheck {

  private static final String ALLOWED = "-._~!$&'()*+,;=:@/";

  private UriPathCheck() {}

  /** What is wrong with {@code text}, a parsed path template, for a problem; empty when nothing. */
  static Optional<String> problem(String text) {
    for (int i = 0; i < text.length(); i++) {
      if (text.startsWith("{{", i)) {
        i = text.indexOf("}}", i) + 1;
        continue;
      }
      char c = text.charAt(i);
      if (c == '%'
          && i + 2 < text.length()
          && isHex(text.charAt(i + 1))
          && isHex(text.charAt(i + 2))) {
        i += 2;
      } else if (!isLetterOrDigit(c) && ALLOWED.indexOf(c) < 0) {
        return Optional.of(
            "'" + c + "' (character " + (i + 1) + ") is not allowed in a URI path" + advice(c));
      }
    }
    return Optional.empty();
  }

  private static String advice(char c) {
    return switch (c) {
      case '?' -> "; put query parameters under query";
      case '#' -> "; a fragment is never sent";
      case '%' -> "; a '%' starts a percent-encoding such as %20";
      default ->
          c < 0x80
              ? "; percent-encode it (%" + String.format(Locale.ROOT, "%02X", (int) c) + ")"
              : "; percent-encode its UTF-8 bytes";
    };
  }

  private static boolean isLetterOrDigit(char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
  }

  private static boolean isHex(char c) {
    return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'F') || (c >= 'a' && c <= 'f');
  }
}
