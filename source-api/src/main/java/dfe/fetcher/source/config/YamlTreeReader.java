package dfe.fetcher.source.config;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.dataformat.yaml.JacksonYAMLParseException;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.yaml.snakeyaml.error.MarkedYAMLException;

/**
 * Reads YAML text into {@link YamlNode}s with Jackson's streaming parser, keeping each node's line
 * and column. Duplicate keys and aliases are reported, not resolved. Syntax errors are reported
 * with their problem and place only: the parser's own message quotes the offending line, which may
 * hold a secret.
 */
public final class YamlTreeReader {

  private static final YAMLFactory YAML = new YAMLFactory();

  private final Path file;
  private final Problems problems;

  public YamlTreeReader(Path file, Problems problems) {
    this.file = file;
    this.problems = problems;
  }

  /**
   * The document's root, or empty for an empty document.
   *
   * @throws ConfigException when the text is not YAML: nothing after a syntax error can be trusted,
   *     so the problems found so far and the syntax error are reported at once
   */
  public Optional<YamlNode> read(String text) throws ConfigException {
    try (JsonParser parser = YAML.createParser(text)) {
      JsonToken first = parser.nextToken();
      if (first == null) {
        return Optional.empty();
      }
      YamlNode root = node(parser, "");
      if (parser.nextToken() != null) {
        problems.add(
            origin(parser.currentTokenLocation()),
            "",
            "a second YAML document ('---') starts here; the configuration must be one document");
      }
      return Optional.of(root);
    } catch (JacksonYAMLParseException e) {
      // SnakeYAML's own exception carries the problem and its place apart from the quoted line.
      if (e.getCause() instanceof MarkedYAMLException marked && marked.getProblemMark() != null) {
        problems.add(
            new ConfigOrigin.InFile(
                file,
                marked.getProblemMark().getLine() + 1,
                marked.getProblemMark().getColumn() + 1),
            "",
            "not valid YAML: " + marked.getProblem());
      } else {
        problems.add(
            origin(e.getLocation()), "", "not valid YAML: " + firstLine(e.getOriginalMessage()));
      }
      throw new ConfigException(problems.inReadingOrder());
    } catch (JsonProcessingException e) {
      // Not the YAML scanner: keep only the first line, the rest may quote the document.
      problems.add(
          origin(e.getLocation()), "", "not valid YAML: " + firstLine(e.getOriginalMessage()));
      throw new ConfigException(problems.inReadingOrder());
    } catch (IOException e) {
      // The text is already in memory: reading a String does not fail.
      throw new UncheckedIOException(e);
    }
  }

  /** The node starting at the parser's current token. */
  private YamlNode node(JsonParser parser, String path) throws IOException {
    ConfigOrigin origin = origin(parser.currentTokenLocation());
    JsonToken token = parser.currentToken();
    switch (token) {
      case START_OBJECT:
        return mapping(parser, path, origin);
      case START_ARRAY:
        List<YamlNode> items = new ArrayList<>();
        while (parser.nextToken() != JsonToken.END_ARRAY) {
          items.add(node(parser, path + "[" + items.size() + "]"));
        }
        return new YamlNode.Sequence(items, origin);
      default:
        return scalar(parser, path, origin);
    }
  }

  private YamlNode mapping(JsonParser parser, String path, ConfigOrigin origin) throws IOException {
    List<YamlNode.Entry> entries = new ArrayList<>();
    Map<String, ConfigOrigin> seen = new HashMap<>();
    while (parser.nextToken() == JsonToken.FIELD_NAME) {
      String key = parser.currentName();
      ConfigOrigin keyOrigin = origin(parser.currentTokenLocation());
      parser.nextToken();
      String childPath = path.isEmpty() ? key : path + "." + key;
      YamlNode value = node(parser, childPath);
      ConfigOrigin first = seen.putIfAbsent(key, keyOrigin);
      if (first != null) {
        problems.add(
            keyOrigin, childPath, "duplicate key '" + key + "' (first at " + first.render() + ")");
        continue;
      }
      entries.add(new YamlNode.Entry(key, keyOrigin, value));
    }
    return new YamlNode.Mapping(entries, origin);
  }

  private YamlNode scalar(JsonParser parser, String path, ConfigOrigin origin) throws IOException {
    if (parser instanceof YAMLParser yaml && yaml.isCurrentAlias()) {
      problems.add(
          origin, path, "YAML aliases (*name) are not supported; write the value out in full");
      return nullScalar(origin);
    }
    return switch (parser.currentToken()) {
      case VALUE_STRING ->
          new YamlNode.Scalar(YamlNode.ScalarKind.STRING, parser.getText(), null, false, origin);
      case VALUE_NUMBER_INT ->
          new YamlNode.Scalar(
              YamlNode.ScalarKind.INTEGER,
              parser.getText(),
              parser.getBigIntegerValue(),
              false,
              origin);
      case VALUE_NUMBER_FLOAT ->
          new YamlNode.Scalar(YamlNode.ScalarKind.FLOAT, parser.getText(), null, false, origin);
      case VALUE_TRUE ->
          new YamlNode.Scalar(YamlNode.ScalarKind.BOOLEAN, parser.getText(), null, true, origin);
      case VALUE_FALSE ->
          new YamlNode.Scalar(YamlNode.ScalarKind.BOOLEAN, parser.getText(), null, false, origin);
      case VALUE_NULL -> nullScalar(origin);
      default -> {
        // e.g. !!binary: nothing in the configuration takes it.
        problems.add(origin, path, "is a YAML value this configuration does not use");
        yield nullScalar(origin);
      }
    };
  }

  /**
   * How YAML types the value of an environment variable: one scalar, or (for anything else: a list,
   * a mapping, text that is not YAML) a string. The scalar keeps the value verbatim.
   */
  public static YamlNode.Scalar scalarOfVariable(String value, ConfigOrigin origin) {
    YamlNode.Scalar typed =
        new YamlNode.Scalar(YamlNode.ScalarKind.STRING, value, null, false, origin);
    try (JsonParser parser = YAML.createParser(value)) {
      JsonToken token = parser.nextToken();
      if (token == null) {
        return typed;
      }
      if (parser instanceof YAMLParser yaml && yaml.isCurrentAlias()) {
        return typed;
      }
      YamlNode.Scalar scalar =
          switch (token) {
            case VALUE_NUMBER_INT ->
                new YamlNode.Scalar(
                    YamlNode.ScalarKind.INTEGER, value, parser.getBigIntegerValue(), false, origin);
            case VALUE_NUMBER_FLOAT ->
                new YamlNode.Scalar(YamlNode.ScalarKind.FLOAT, value, null, false, origin);
            case VALUE_TRUE ->
                new YamlNode.Scalar(YamlNode.ScalarKind.BOOLEAN, value, null, true, origin);
            case VALUE_FALSE ->
                new YamlNode.Scalar(YamlNode.ScalarKind.BOOLEAN, value, null, false, origin);
            case VALUE_NULL ->
                new YamlNode.Scalar(YamlNode.ScalarKind.NULL, value, null, false, origin);
            default -> typed;
          };
      return parser.nextToken() == null ? scalar : typed;
    } catch (IOException e) {
      return typed;
    }
  }

  private static YamlNode.Scalar nullScalar(ConfigOrigin origin) {
    return new YamlNode.Scalar(YamlNode.ScalarKind.NULL, "", null, false, origin);
  }

  private ConfigOrigin origin(JsonLocation location) {
    if (location == null || location.getLineNr() < 1) {
      return new ConfigOrigin.InFile(file, 0, 0);
    }
    return new ConfigOrigin.InFile(file, location.getLineNr(), Math.max(1, location.getColumnNr()));
  }

  private static String firstLine(String message) {
    if (message == null) {
      return "unreadable";
    }
    int newline = message.indexOf('\n');
    return newline < 0 ? message : message.substring(0, newline);
  }
}
