package dfe.fetcher.rest.http;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The error text an API put at an endpoint's {@code error_at}, as a message quotes it: on one line
 * and at most {@value #MAX_CHARS} characters, so an answer cannot flood a log line.
 */
public final class ErrorText {

  static final int MAX_CHARS = 300;

  private ErrorText() {}

  /** {@code : "text"} for the node at {@code error_at}; empty when it is missing or null. */
  public static String quoted(JsonNode node) {
    if (node.isMissingNode() || node.isNull()) {
      return "";
    }
    String text = node.isValueNode() ? node.asText() : node.toString();
    if (text.length() > MAX_CHARS) {
      text = text.substring(0, MAX_CHARS) + "...";
    }
    return ": \"" + text.replace('\n', ' ').replace('\r', ' ') + "\"";
  }
}
