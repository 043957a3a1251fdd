package dfe.fetcher.app.logging;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The {@code key=value} pairs of one log message as the fetcher writes them: {@code event=NAME
 * key=value key="a value with spaces"}, a quoted value's backslashes, quotes and line breaks
 * escaped ({@code \\}, {@code \"}, {@code \n}, {@code \r}). Words that are not a pair (a third
 * party's prose) are passed over; a key given twice keeps its first value.
 */
final class LogfmtFields {

  /**
   * One value, and whether it was written in quotes (an unquoted number is written as a number).
   */
  record Value(String text, boolean quoted) {}

  private LogfmtFields() {}

  static Map<String, Value> parse(String message) {
    Map<String, Value> fields = new LinkedHashMap<>();
    int i = 0;
    int length = message.length();
    while (i < length) {
      while (i < length && message.charAt(i) == ' ') {
        i++;
      }
      int keyStart = i;
      while (i < length && isKeyChar(message.charAt(i), i == keyStart)) {
        i++;
      }
      if (i == keyStart || i >= length || message.charAt(i) != '=') {
        i = skipWord(message, i);
        continue;
      }
      String key = message.substring(keyStart, i);
      i++; // '='
      if (i < length && message.charAt(i) == '"') {
        StringBuilder value = new StringBuilder();
        i++;
        boolean closed = false;
        while (i < length) {
          char c = message.charAt(i++);
          if (c == '"') {
            closed = true;
            break;
          }
          if (c == '\\' && i < length) {
            char escaped = message.charAt(i++);
            value.append(
                switch (escaped) {
                  case 'n' -> '\n';
                  case 'r' -> '\r';
                  default -> escaped;
                });
          } else {
            value.append(c);
          }
        }
        if (closed) {
          fields.putIfAbsent(key, new Value(value.toString(), true));
        }
      } else {
        int valueStart = i;
        i = skipWord(message, i);
        fields.putIfAbsent(key, new Value(message.substring(valueStart, i), false));
      }
    }
    return fields;
  }

  private static boolean isKeyChar(char c, boolean first) {
    return c == '_'
        || (c >= 'a' && c <= 'z')
        || (c >= 'A' && c <= 'Z')
        || (!first && ((c >= '0' && c <= '9') || c == '.'));
  }

  private static int skipWord(String message, int from) {
    int i = from;
    while (i < message.length() && message.charAt(i) != ' ') {
      i++;
    }
    return i;
  }
}
