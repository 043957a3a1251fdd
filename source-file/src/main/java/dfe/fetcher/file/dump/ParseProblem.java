package dfe.fetcher.file.dump;

import com.fasterxml.jackson.core.JsonProcessingException;
import java.util.List;
import java.util.Objects;

/**
 * What is wrong with content a parser refused, in words that never quote the content: Jackson's own
 * messages quote the offending token (up to 256 characters of it), and records carry personal data
 * and secrets. Only Jackson's kind of problem and what it expected instead are kept; the place
 * (line, column) is the caller's.
 */
public final class ParseProblem {

  /** Jackson's message openings, and how to say them without the quoted content that follows. */
  private static final List<String[]> KINDS =
      List.of(
          new String[] {"Unrecognized token", "unrecognized token"},
          new String[] {"Unexpected character", "unexpected character"},
          new String[] {"Unexpected close marker", "unexpected close marker"},
          new String[] {"Unexpected end-of-input", "unexpected end of input"},
          new String[] {"Illegal unquoted character", "unescaped control character in a string"},
          new String[] {"Unrecognized character escape", "unrecognized escape in a string"},
          new String[] {"Invalid UTF-8", "invalid UTF-8"},
          new String[] {"Invalid numeric value", "invalid number"},
          new String[] {"Missing closing quote", "missing closing quote"},
          new String[] {"Expected separator", "expected a separator or the end of the line"});

  private ParseProblem() {}

  /** The problem {@code failure} reports, without any of the content it quotes. */
  public static String describe(JsonProcessingException failure) {
    String message = Objects.requireNonNullElse(failure.getOriginalMessage(), "");
    String kind = "malformed";
    for (String[] known : KINDS) {
      if (message.startsWith(known[0])) {
        kind = known[1];
        break;
      }
    }
    String expected = expectation(message);
    return expected.isEmpty() ? kind : kind + ", " + expected;
  }

  /**
   * Jackson's "was expecting ..." or "expected ..." tail, in its own vocabulary (token kinds,
   * structural characters), cut before the location it may append.
   */
  private static String expectation(String message) {
    int at = message.indexOf("was expecting");
    if (at < 0) {
      at = message.indexOf(": expected ");
      at = at < 0 ? -1 : at + 2;
    }
    if (at < 0) {
      return "";
    }
    String tail = message.substring(at);
    for (String cut : List.of(" (for ", " (start marker", " [Source", "\n")) {
      int end = tail.indexOf(cut);
      if (end >= 0) {
        tail = tail.substring(0, end);
      }
    }
    return tail;
  }
}
