package dfe.fetcher.checkpoint;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dfe.fetcher.row.CursorTokenMark;
import dfe.fetcher.row.FileMark;
import dfe.fetcher.row.KeysetMark;
import dfe.fetcher.row.Mark;
import dfe.fetcher.row.WindowMark;
import java.io.IOException;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The one written form of a checkpoint, versioned so later builds can read what earlier ones wrote:
 *
 * <pre>{@code
 * {"version":1,"mark":{"kind":"file","changed_at":"2026-05-01T12:00:00.123456789Z","path":"/d/a.ndjson"},
 *  "committed_at":"2026-05-01T12:00:01Z"}
 * {"version":1,"mark":{"kind":"keyset","values":[{"type":"integer","value":"42"},
 *  {"type":"decimal","value":"1.50"},{"type":"string","value":"x"},
 *  {"type":"timestamp","value":"2026-05-01T12:00:00.123456Z"},
 *  {"type":"local_timestamp","value":"2026-05-01T12:00:00.123456"},{"type":"bytes","value":"AAE="}]}}
 * {"version":1,"mark":{"kind":"window","end":"2026-05-01T12:00:00Z"}}
 * {"version":1,"mark":{"kind":"cursor_token","token":"..."}}
 * }</pre>
 *
 * Numbers travel as strings so no value passes through binary floating point; times are ISO-8601 at
 * full precision. A document without {@code version} is the first build's file cursor ({@code
 * {"mark":{"type":"file",...}}}) and still reads. Unknown fields are ignored; an unknown version or
 * kind is {@linkplain UnreadableMarkException unreadable}, never guessed at.
 */
public final class MarkCodec {

  /** The version this build writes. */
  public static final int VERSION = 1;

  private static final ObjectMapper JSON = new ObjectMapper();

  // Errors name what this build reads, never what the document holds: a cursor may carry an API
  // token or a path that must not reach a log.
  private static final String MARK_KINDS =
      Arrays.stream(Mark.Kind.values()).map(Mark.Kind::wireName).collect(Collectors.joining(", "));
  private static final String VALUE_TYPES =
      "integer, decimal, string, timestamp, local_timestamp, bytes";

  private MarkCodec() {}

  /** The cursor document for {@code mark}, committed at {@code committedAt}. */
  public static byte[] encode(Mark mark, Instant committedAt) {
    ObjectNode document = JSON.createObjectNode();
    document.put("version", VERSION);
    document.set("mark", markNode(mark));
    document.put("committed_at", committedAt.toString());
    try {
      return JSON.writeValueAsBytes(document);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a cursor document could not be written as JSON", e);
    }
  }

  /**
   * The mark in a cursor document.
   *
   * @throws UnreadableMarkException when the bytes are not a cursor document this build can read;
   *     the message says what is wrong, never quoting the document
   */
  public static Mark decode(byte[] document) throws UnreadableMarkException {
    JsonNode root;
    try {
      root = JSON.readTree(document);
    } catch (IOException e) {
      throw new UnreadableMarkException("not JSON");
    }
    if (root == null || !root.isObject()) {
      throw new UnreadableMarkException("not a JSON object");
    }
    JsonNode mark = root.path("mark");
    if (!mark.isObject()) {
      throw new UnreadableMarkException("no \"mark\" object");
    }
    JsonNode version = root.get("version");
    if (version == null) {
      return legacy(mark);
    }
    if (!version.isInt()) {
      throw new UnreadableMarkException(
          "\"version\" is not an integer (this build reads " + VERSION + ")");
    }
    if (version.asInt() != VERSION) {
      throw new UnreadableMarkException(
          "version " + version.asInt() + " is not one this build reads (it reads " + VERSION + ")");
    }
    String kind = mark.path("kind").asText("");
    return switch (kind) {
      case "file" -> new FileMark(instant(mark, "changed_at"), text(mark, "path"));
      case "keyset" -> keyset(mark);
      case "window" -> new WindowMark(instant(mark, "end"));
      case "cursor_token" -> cursorToken(mark);
      default ->
          throw new UnreadableMarkException(
              "unknown mark kind (this build reads " + MARK_KINDS + ")");
    };
  }

  private static ObjectNode markNode(Mark mark) {
    ObjectNode node = JSON.createObjectNode();
    node.put("kind", mark.kind().wireName());
    switch (mark.kind()) {
      case FILE -> {
        FileMark file = (FileMark) mark;
        node.put("changed_at", file.changedAt().toString());
        node.put("path", file.path());
      }
      case KEYSET -> {
        ArrayNode values = node.putArray("values");
        for (KeysetMark.Value value : ((KeysetMark) mark).values()) {
          values.add(valueNode(value));
        }
      }
      case WINDOW -> node.put("end", ((WindowMark) mark).end().toString());
      case CURSOR_TOKEN -> node.put("token", ((CursorTokenMark) mark).token());
    }
    return node;
  }

  private static ObjectNode valueNode(KeysetMark.Value value) {
    ObjectNode node = JSON.createObjectNode();
    node.put("type", value.typeName());
    node.put("value", value.text());
    return node;
  }

  private static KeysetMark keyset(JsonNode mark) throws UnreadableMarkException {
    JsonNode values = mark.path("values");
    if (!values.isArray() || values.isEmpty()) {
      throw new UnreadableMarkException("a keyset mark needs a non-empty \"values\" list");
    }
    List<KeysetMark.Value> parsed = new ArrayList<>();
    for (JsonNode value : values) {
      int position = parsed.size() + 1;
      String type = value.path("type").asText("");
      String text = text(value, "value");
      try {
        parsed.add(
            switch (type) {
              case "integer" -> new KeysetMark.IntegerValue(Long.parseLong(text));
              case "decimal" -> new KeysetMark.DecimalValue(new BigDecimal(text));
              case "string" -> new KeysetMark.StringValue(text);
              case "timestamp" -> new KeysetMark.TimestampValue(Instant.parse(text));
              case "local_timestamp" ->
                  new KeysetMark.LocalTimestampValue(LocalDateTime.parse(text));
              case "bytes" -> new KeysetMark.BytesValue(Base64.getDecoder().decode(text));
              default ->
                  throw new UnreadableMarkException(
                      "key value "
                          + position
                          + " has an unknown type (this build reads "
                          + VALUE_TYPES
                          + ")");
            });
      } catch (NumberFormatException | DateTimeParseException e) {
        throw new UnreadableMarkException(
            "key value " + position + " (" + type + ") does not parse");
      } catch (IllegalArgumentException e) {
        throw new UnreadableMarkException("key value " + position + " (bytes) is not base64");
      }
    }
    return new KeysetMark(parsed);
  }

  private static CursorTokenMark cursorToken(JsonNode mark) throws UnreadableMarkException {
    String token = text(mark, "token");
    if (token.isEmpty()) {
      throw new UnreadableMarkException("a cursor token mark has an empty token");
    }
    return new CursorTokenMark(token);
  }

  /** The first build's form: {@code {"mark":{"type":"file","changed_at":...,"path":...}}}. */
  private static Mark legacy(JsonNode mark) throws UnreadableMarkException {
    String type = mark.path("type").asText("");
    if (!type.equals("file")) {
      throw new UnreadableMarkException("no \"version\" and not a first-build file cursor");
    }
    return new FileMark(instant(mark, "changed_at"), text(mark, "path"));
  }

  private static String text(JsonNode node, String field) throws UnreadableMarkException {
    JsonNode value = node.get(field);
    if (value == null || !value.isTextual()) {
      throw new UnreadableMarkException("\"" + field + "\" is missing or not a string");
    }
    return value.asText();
  }

  private static Instant instant(JsonNode node, String field) throws UnreadableMarkException {
    try {
      return Instant.parse(text(node, field));
    } catch (DateTimeParseException e) {
      throw new UnreadableMarkException("\"" + field + "\" is not an ISO-8601 instant");
    }
  }

  /** A cursor document this build cannot read; the unit starts over. */
  public static final class UnreadableMarkException extends Exception {
    private static final long serialVersionUID = 1L;

    public UnreadableMarkException(String message) {
      super(message);
    }
  }
}
