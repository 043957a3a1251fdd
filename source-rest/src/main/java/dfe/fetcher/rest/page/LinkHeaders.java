package dfe.fetcher.rest.page;

import java.util.Locale;
import java.util.Optional;

/** RFC 8288 {@code Link} header values: only what a pager needs, the {@code rel="next"} target. */
final class LinkHeaders {

  private LinkHeaders() {}

  /** The target of the link whose {@code rel} includes {@code next}, as written. */
  static Optional<String> next(String header) {
    int at = 0;
    while (at < header.length()) {
      int open = header.indexOf('<', at);
      if (open < 0) {
        return Optional.empty();
      }
      int close = header.indexOf('>', open);
      if (close < 0) {
        return Optional.empty();
      }
      String target = header.substring(open + 1, close);
      int end = nextLinkStart(header, close + 1);
      String params = header.substring(close + 1, end < header.length() ? end - 1 : end);
      if (relIncludesNext(params)) {
        return Optional.of(target.trim());
      }
      at = end;
    }
    return Optional.empty();
  }

  /** Where the next link starts: the first comma outside quotes, or the end. */
  private static int nextLinkStart(String header, int from) {
    boolean quoted = false;
    for (int i = from; i < header.length(); i++) {
      char c = header.charAt(i);
      if (c == '"') {
        quoted = !quoted;
      } else if (c == ',' && !quoted) {
        return i + 1;
      }
    }
    return header.length();
  }

  private static boolean relIncludesNext(String params) {
    for (String param : params.split(";")) {
      String[] nameValue = param.split("=", 2);
      if (nameValue.length == 2 && nameValue[0].trim().equalsIgnoreCase("rel")) {
        String value = nameValue[1].trim();
        if (value.startsWith("\"") && value.endsWith("\"") && value.length() >= 2) {
          value = value.substring(1, value.length() - 1);
        }
        for (String rel : value.toLowerCase(Locale.ROOT).split("\\s+")) {
          if (rel.equals("next")) {
            return true;
          }
        }
      }
    }
    return false;
  }
}
