package dfe.fetcher.app.top;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the Prometheus text exposition format (version 0.0.4): one sample a line, {@code
 * name{label="value",...} value [timestamp]}; {@code #} lines ({@code HELP}, {@code TYPE}) and
 * blank lines carry no sample. Label values may hold {@code \\}, {@code \"} and {@code \n} escapes
 * and any other character, commas and braces included. A line that does not follow the format is an
 * error naming its line number, never a sample guessed at.
 */
public final class PrometheusText {

  private PrometheusText() {}

  /** A line that is not a sample, a comment or blank. */
  public static final class FormatException extends IOException {
    FormatException(int line, String problem) {
      super("line " + line + ": " + problem);
    }
  }

  /** Every sample of {@code text}, in the order written, read a line at a time. */
  public static List<MetricSample> parse(Reader text) throws IOException {
    List<MetricSample> samples = new ArrayList<>();
    BufferedReader lines = new BufferedReader(text);
    int number = 0;
    for (String line = lines.readLine(); line != null; line = lines.readLine()) {
      number++;
      String trimmed = line.strip();
      if (trimmed.isEmpty() || trimmed.startsWith("#")) {
        continue;
      }
      samples.add(sample(trimmed, number));
    }
    return samples;
  }

  private static MetricSample sample(String line, int number) throws FormatException {
    int at = 0;
    while (at < line.length() && isNameChar(line.charAt(at), at == 0)) {
      at++;
    }
    if (at == 0) {
      throw new FormatException(number, "no metric name at the start");
    }
    String name = line.substring(0, at);
    Map<String, String> labels = new LinkedHashMap<>();
    if (at < line.length() && line.charAt(at) == '{') {
      at = labels(line, at + 1, labels, number);
    }
    String[] rest = line.substring(at).strip().split("[ \t]+");
    if (rest.length == 0 || rest[0].isEmpty() || rest.length > 2) {
      throw new FormatException(number, name + ": expected a value and at most a timestamp");
    }
    return new MetricSample(name, labels, value(rest[0], name, number));
  }

  /** Reads {@code label="value",...}} from {@code at}; returns the index after the brace. */
  private static int labels(String line, int at, Map<String, String> labels, int number)
      throws FormatException {
    while (true) {
      at = skipSpaces(line, at);
      if (at < line.length() && line.charAt(at) == '}') {
        return at + 1;
      }
      int start = at;
      while (at < line.length() && isNameChar(line.charAt(at), at == start)) {
        at++;
      }
      if (at == start) {
        throw new FormatException(number, "expected a label name at column " + (at + 1));
      }
      String label = line.substring(start, at);
      at = skipSpaces(line, at);
      if (at >= line.length() || line.charAt(at) != '=') {
        throw new FormatException(number, "label " + label + ": expected =");
      }
      at = skipSpaces(line, at + 1);
      if (at >= line.length() || line.charAt(at) != '"') {
        throw new FormatException(number, "label " + label + ": expected a quoted value");
      }
      StringBuilder value = new StringBuilder();
      at++;
      while (true) {
        if (at >= line.length()) {
          throw new FormatException(number, "label " + label + ": the value has no closing quote");
        }
        char c = line.charAt(at++);
        if (c == '"') {
          break;
        }
        if (c == '\\' && at < line.length()) {
          char escaped = line.charAt(at++);
          value.append(escaped == 'n' ? '\n' : escaped);
        } else {
          value.append(c);
        }
      }
      labels.put(label, value.toString());
      at = skipSpaces(line, at);
      if (at < line.length() && line.charAt(at) == ',') {
        at++;
      } else if (at >= line.length() || line.charAt(at) != '}') {
        throw new FormatException(number, "label " + label + ": expected , or }");
      }
    }
  }

  private static double value(String word, String name, int number) throws FormatException {
    switch (word) {
      case "+Inf", "Inf" -> {
        return Double.POSITIVE_INFINITY;
      }
      case "-Inf" -> {
        return Double.NEGATIVE_INFINITY;
      }
      case "NaN" -> {
        return Double.NaN;
      }
      default -> {
        try {
          return Double.parseDouble(word);
        } catch (NumberFormatException e) {
          throw new FormatException(number, name + ": " + word + " is not a number");
        }
      }
    }
  }

  private static int skipSpaces(String line, int at) {
    while (at < line.length() && (line.charAt(at) == ' ' || line.charAt(at) == '\t')) {
      at++;
    }
    return at;
  }

  private static boolean isNameChar(char c, boolean first) {
    return c == '_'
        || c == ':'
        || (c >= 'a' && c <= 'z')
        || (c >= 'A' && c <= 'Z')
        || (!first && c >= '0' && c <= '9');
  }
}
