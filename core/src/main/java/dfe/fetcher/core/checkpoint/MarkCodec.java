package dfe.fetcher.core.checkpoint;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dfe.fetcher.core.row.CursorTokenMark;
import dfe.fetcher.core.row.DumpResumeMark;
import dfe.fetcher.core.row.FieldCursorMark;
import dfe.fetcher.core.row.FileMark;
import dfe.fetcher.core.row.FileTailMark;
import dfe.fetcher.core.row.KeysetMark;
import dfe.fetcher.core.row.Mark;
import dfe.fetcher.core.row.WindowMark;
import java.io.IOException;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The one written form of a checkpoint, versioned so later builds can read what earlier ones wrote:
 *
 * <pre>{@code
 * {"version":2,"mark":{"kind":"file","watermark":"2026-05-01T12:00:00.123456789Z","path":"/d/a.ndjson",
 *  "committed":[{"path":"/d/a.ndjson","identity":"(dev=803,ino=12)","size":"120",
 *  "modified_at":"2026-04-30T00:00:00Z","changed_at":"2026-05-01T12:00:00.123456789Z"}]},
 *  "committed_at":"2026-05-01T12:00:01Z"}
 * {"version":2,"mark":{"kind":"keyset","values":[{"type":"integer","value":"42"},
 *  {"type":"decimal","value":"1.50"},{"type":"string","value":"x"},
 *  {"type":"timestamp","value":"2026-05-01T12:00:00.123456Z"},
 *  {"type":"local_timestamp","value":"2026-05-01T12:00:00.123456"},{"type":"bytes","value":"AAE="}]}}
 * {"version":2,"mark":{"kind":"window","end":"2026-05-01T12:00:00Z"}}
 * {"version":2,"mark":{"kind":"window","end":"2026-05-01T12:00:00Z",
 *  "after":{"key":"item-7","position":"2026-05-01T12:03:00Z"}}}
 * {"version":2,"mark":{"kind":"cursor_token","token":"..."}}
 * {"version":2,"mark":{"kind":"field_cursor","greatest":"2026-05-01T12:00:00Z",
 *  "near":[{"key":"evt-9","at":"2026-05-01T11:58:00Z"},{"key":"evt-10","at":"2026-05-01T12:00:00Z"}]}}
 * {"version":2,"mark":{"kind":"dump_resume","snapshot_id":"0190...","snapshot_at":"2026-05-01T12:00:00.123Z",
 *  "next_seq":"100000","last_key":[{"type":"integer","value":"100000"}],"anchor_ms":"1777636800123",
 *  "ended":false}}
 * {"version":2,"mark":{"kind":"file_tail","files":[{"fingerprint":"checksum:0:256:9a0c...","path":"/var/log/app.log",
 *  "offset":"5120"}]}}
 * }</pre>
 *
 * Numbers travel as strings so no value passes through binary floating point; times are ISO-8601 at
 * full precision.
 *
 * <p>Older forms still read. Version 1 is version 2 but for the file mark, which held only the
 * greatest (modification time, path) committed ({@code
 * {"kind":"file","changed_at":...,"path":...}}); a document without {@code version} is the first
 * build's file cursor ({@code {"mark":{"type":"file",...}}}). Neither can say which files were
 * really read (a file moved in with an older modification time was skipped under them), so both
 * read as a file mark whose watermark is {@link FileMark#EMPTY_WATERMARK} and which holds no
 * entries: every file is read once more rather than any skipped. Unknown fields are ignored; an
 * unknown version or kind is {@linkplain UnreadableMarkException unreadable}, never guessed at.
 */
public final class MarkCodec {

  /** The version this build writes. */
  public static final int VERSION = 2;

  /** The version before the file mark carried its committed files. */
  private static final int VERSION_WITHOUT_COMMITTED_FILES = 1;

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
          "\"version\" is not an integer (this build reads "
              + VERSION_WITHOUT_COMMITTED_FILES
              + " and "
              + VERSION
              + ")");
    }
    boolean withCommittedFiles = version.asInt() == VERSION;
    if (!withCommittedFiles && version.asInt() != VERSION_WITHOUT_COMMITTED_FILES) {
      throw new UnreadableMarkException(
          "version "
              + version.asInt()
              + " is not one this build reads (it reads "
              + VERSION_WITHOUT_COMMITTED_FILES
              + " and "
              + VERSION
              + ")");
    }
    String kind = mark.path("kind").asText("");
    return switch (kind) {
      case "file" -> withCommittedFiles ? file(mark) : withoutCommittedFiles(mark);
      case "keyset" -> keyset(mark);
      case "window" -> window(mark);
      case "cursor_token" -> cursorToken(mark);
      case "dump_resume" -> dumpResume(mark);
      case "file_tail" -> fileTail(mark);
      case "field_cursor" -> fieldCursor(mark);
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
        node.put("watermark", file.watermark().toString());
        node.put("path", file.path());
        ArrayNode committed = node.putArray("committed");
        for (FileMark.CommittedFile entry : file.committed()) {
          ObjectNode entryNode = committed.addObject();
          entryNode.put("path", entry.path());
          entryNode.put("identity", entry.identity());
          entryNode.put("size", Long.toString(entry.size()));
          entryNode.put("modified_at", entry.modifiedAt().toString());
          entryNode.put("changed_at", entry.changedAt().toString());
        }
      }
      case KEYSET -> node.set("values", valuesNode((KeysetMark) mark));
      case WINDOW -> {
        WindowMark window = (WindowMark) mark;
        node.put("end", window.end().toString());
        window
            .after()
            .ifPresent(
                item -> {
                  ObjectNode after = node.putObject("after");
                  after.put("key", item.key());
                  after.put("position", item.position());
                });
      }
      case CURSOR_TOKEN -> node.put("token", ((CursorTokenMark) mark).token());
      case DUMP_RESUME -> {
        DumpResumeMark resume = (DumpResumeMark) mark;
        node.put("snapshot_id", resume.snapshotId());
        node.put("snapshot_at", resume.snapshotAt());
        node.put("next_seq", Long.toString(resume.nextSeq()));
        if (resume.lastKey().isPresent()) {
          node.set("last_key", valuesNode(resume.lastKey().get()));
        }
        node.put("anchor_ms", Long.toString(resume.anchorMillis()));
        node.put("ended", resume.ended());
      }
      case FILE_TAIL -> {
        ArrayNode files = node.putArray("files");
        for (FileTailMark.TailedFile file : ((FileTailMark) mark).files()) {
          ObjectNode fileNode = files.addObject();
          fileNode.put("fingerprint", file.fingerprint());
          fileNode.put("path", file.path());
          fileNode.put("offset", Long.toString(file.offset()));
        }
      }
      case FIELD_CURSOR -> {
        FieldCursorMark cursor = (FieldCursorMark) mark;
        node.put("greatest", cursor.greatest().toString());
        ArrayNode near = node.putArray("near");
        for (FieldCursorMark.Landed landed : cursor.near()) {
          near.addObject().put("key", landed.key()).put("at", landed.at().toString());
        }
      }
    }
    return node;
  }

  /**
   * A key tuple's written form on its own, {@code [{"type":"integer","value":"42"},...]}: the form
   * a resumable dump's row frames carry in their {@code dfe-resume-key} header.
   */
  public static String encodeKey(KeysetMark key) {
    try {
      return JSON.writeValueAsString(valuesNode(key));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a key could not be written as JSON", e);
    }
  }

  /**
   * The key tuple {@link #encodeKey} wrote.
   *
   * @throws UnreadableMarkException when the text is not such a tuple
   */
  public static KeysetMark decodeKey(String text) throws UnreadableMarkException {
    JsonNode values;
    try {
      values = JSON.readTree(text);
    } catch (IOException e) {
      throw new UnreadableMarkException("a key is not JSON");
    }
    return keysetValues(values);
  }

  private static ArrayNode valuesNode(KeysetMark key) {
    ArrayNode values = JSON.createArrayNode();
    for (KeysetMark.Value value : key.values()) {
      values.add(valueNode(value));
    }
    return values;
  }

  private static ObjectNode valueNode(KeysetMark.Value value) {
    ObjectNode node = JSON.createObjectNode();
    node.put("type", value.typeName());
    node.put("value", value.text());
    return node;
  }

  private static FileMark file(JsonNode mark) throws UnreadableMarkException {
    JsonNode committed = mark.path("committed");
    if (!committed.isArray()) {
      throw new UnreadableMarkException("a file mark needs a \"committed\" list");
    }
    List<FileMark.CommittedFile> entries = new ArrayList<>();
    for (JsonNode entry : committed) {
      long size;
      try {
        size = Long.parseLong(text(entry, "size"));
      } catch (NumberFormatException e) {
        throw new UnreadableMarkException("a committed file's \"size\" is not an integer");
      }
      entries.add(
          new FileMark.CommittedFile(
              text(entry, "path"),
              text(entry, "identity"),
              size,
              instant(entry, "modified_at"),
              instant(entry, "changed_at")));
    }
    return new FileMark(instant(mark, "watermark"), text(mark, "path"), entries);
  }

  /**
   * A file mark of a form that kept only the greatest (modification time, path): it covers no file,
   * see the class comment.
   */
  private static FileMark withoutCommittedFiles(JsonNode mark) throws UnreadableMarkException {
    instant(mark, "changed_at"); // still refuse a document that was never well formed
    return new FileMark(FileMark.EMPTY_WATERMARK, text(mark, "path"));
  }

  /**
   * A window mark; its {@code after} item is optional (a build before it wrote none, and one that
   * cannot read it ignores it, reading the whole window again: at least once).
   */
  private static WindowMark window(JsonNode mark) throws UnreadableMarkException {
    Instant end = instant(mark, "end");
    JsonNode after = mark.get("after");
    if (after == null) {
      return new WindowMark(end);
    }
    if (!after.isObject()) {
      throw new UnreadableMarkException("a window mark's \"after\" is not an object");
    }
    return new WindowMark(
        end, Optional.of(new WindowMark.Item(text(after, "key"), text(after, "position"))));
  }

  private static DumpResumeMark dumpResume(JsonNode mark) throws UnreadableMarkException {
    String snapshotId = text(mark, "snapshot_id");
    String snapshotAt = text(mark, "snapshot_at");
    long nextSeq = number(mark, "next_seq");
    long anchor = number(mark, "anchor_ms");
    JsonNode ended = mark.get("ended");
    if (ended == null || !ended.isBoolean()) {
      throw new UnreadableMarkException("\"ended\" is missing or not a boolean");
    }
    if (snapshotId.isEmpty() || nextSeq < 0) {
      throw new UnreadableMarkException("a dump resume mark needs a snapshot id and a seq >= 0");
    }
    Optional<KeysetMark> lastKey =
        mark.has("last_key") ? Optional.of(keysetValues(mark.get("last_key"))) : Optional.empty();
    return new DumpResumeMark(snapshotId, snapshotAt, nextSeq, lastKey, anchor, ended.asBoolean());
  }

  private static FileTailMark fileTail(JsonNode mark) throws UnreadableMarkException {
    JsonNode files = mark.path("files");
    if (!files.isArray()) {
      throw new UnreadableMarkException("a file tail mark needs a \"files\" list");
    }
    List<FileTailMark.TailedFile> entries = new ArrayList<>();
    for (JsonNode file : files) {
      String fingerprint = text(file, "fingerprint");
      long offset = number(file, "offset");
      if (fingerprint.isEmpty() || offset < 0) {
        throw new UnreadableMarkException(
            "a tailed file needs a fingerprint and an offset >= 0 (entry " + entries.size() + ")");
      }
      entries.add(new FileTailMark.TailedFile(fingerprint, text(file, "path"), offset));
    }
    return new FileTailMark(entries);
  }

  private static FieldCursorMark fieldCursor(JsonNode mark) throws UnreadableMarkException {
    JsonNode near = mark.path("near");
    if (!near.isArray()) {
      throw new UnreadableMarkException("a field cursor mark needs a \"near\" list");
    }
    List<FieldCursorMark.Landed> landed = new ArrayList<>();
    for (JsonNode entry : near) {
      landed.add(new FieldCursorMark.Landed(text(entry, "key"), instant(entry, "at")));
    }
    return new FieldCursorMark(instant(mark, "greatest"), landed);
  }

  private static long number(JsonNode node, String field) throws UnreadableMarkException {
    try {
      return Long.parseLong(text(node, field));
    } catch (NumberFormatException e) {
      throw new UnreadableMarkException("\"" + field + "\" is not an integer");
    }
  }

  private static KeysetMark keyset(JsonNode mark) throws UnreadableMarkException {
    return keysetValues(mark.path("values"));
  }

  private static KeysetMark keysetValues(JsonNode values) throws UnreadableMarkException {
    if (values == null || !values.isArray() || values.isEmpty()) {
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
    return withoutCommittedFiles(mark);
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
