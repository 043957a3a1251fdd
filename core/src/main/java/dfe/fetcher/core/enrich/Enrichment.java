package dfe.fetcher.core.enrich;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.io.JsonStringEncoder;
import dfe.fetcher.core.envelope.RawRecord;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Adds the {@link EnrichmentFields} to a frame or a tail record, without re-serialising what was
 * there: the input's bytes are copied and the four members spliced in before the closing brace, so
 * a frame's {@code record} and a record's values reach the topic byte for byte as the provider sent
 * them.
 *
 * <p><b>Frames</b> ({@link #enrichFrame}) are objects written by {@code FrameCodec}; their keys are
 * the envelope's own and never collide with the four.
 *
 * <p><b>Incremental records</b> ({@link #enrichRecord}):
 *
 * <ul>
 *   <li>A JSON object gets the four members at its end. When one of its top-level keys is one of
 *       the four, the record's value is kept under {@code <key>_original}, or {@code
 *       <key>_original_2}, {@code _3}, ... when that is taken by another top-level key, and the
 *       enrichment value goes under the plain key. Only those key names are rewritten, in place;
 *       every value, every other key and the whitespace between them are copied as they are. Nested
 *       keys are never renamed.
 *   <li>A record that is not an object (an array, a string, a number, a boolean, {@code null}) has
 *       no place for fields, so it is wrapped: {@code {"_record":<the record>,"_timestamp_fetcher":
 *       ...}}. The record's bytes are embedded as they are, without the whitespace around them. A
 *       consumer that sees {@code _record} next to the four fields knows the provider sent a
 *       non-object.
 * </ul>
 *
 * <p>Both methods are thread-safe and return a new array; the input is not changed. Output is one
 * line when the input is.
 */
public final class Enrichment {

  /** The key a record that is not a JSON object is wrapped under. */
  public static final String WRAPPED_RECORD = "_record";

  private static final JsonFactory JSON = new JsonFactory();
  private static final JsonStringEncoder STRINGS = JsonStringEncoder.getInstance();
  private static final byte[] WRAPPED_RECORD_KEY =
      ("{\"" + WRAPPED_RECORD + "\":").getBytes(StandardCharsets.US_ASCII);
  // Every one of the four keys starts with one of these.
  private static final byte[] SOURCE_PREFIX = "_source".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] TIMESTAMP_PREFIX = "_timestamp_".getBytes(StandardCharsets.US_ASCII);

  private Enrichment() {}

  /**
   * {@code frameJson} with the four fields appended after the frame's own.
   *
   * @param frameJson a frame as {@code FrameCodec.encode} writes it: one JSON object
   * @throws IllegalArgumentException when {@code frameJson} does not start with {@code {} and end
   *     with {@code }} (only the braces are checked: frames come from the codec, not from outside)
   */
  public static byte[] enrichFrame(byte[] frameJson, EnrichmentFields fields) {
    Objects.requireNonNull(frameJson, "frameJson");
    Objects.requireNonNull(fields, "fields");
    int open = firstNonWhitespace(frameJson);
    int close = lastNonWhitespace(frameJson);
    if (open < 0 || open >= close || frameJson[open] != '{' || frameJson[close] != '}') {
      throw new IllegalArgumentException(
          "a frame must be a JSON object, but these "
              + frameJson.length
              + " bytes do not start with '{' and end with '}'");
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream(frameJson.length + 160);
    out.write(frameJson, 0, close);
    appendMembers(out, frameJson, open, close, fields.members());
    return out.toByteArray();
  }

  /**
   * The record with the four fields added, as the class describes: appended to an object, with
   * colliding top-level keys renamed; a non-object wrapped under {@code _record}.
   *
   * @throws IllegalArgumentException when the record's bytes are not one valid JSON value, which
   *     breaks {@link RawRecord}'s contract
   */
  public static byte[] enrichRecord(RawRecord record, EnrichmentFields fields) {
    Objects.requireNonNull(fields, "fields");
    return enrichRecord(record, fields.members());
  }

  /**
   * {@link #enrichRecord(RawRecord, EnrichmentFields)} with the fields already written as {@link
   * EnrichmentFields#members()} writes them, so a caller enriching many records in the same
   * millisecond writes them once.
   *
   * <p>A record {@link RawRecord#isCheckedObject() checked} to be one object, in which none of the
   * four keys can stand (no {@code _source} or {@code _timestamp_} in its bytes, and no {@code \\u}
   * escape that could spell one), is not parsed again: the fields go before its closing brace,
   * which is what the parse would have found to do. A record {@link
   * RawRecord#isWithoutEnrichmentNames() checked} by its source to hold no such name is not even
   * looked at for one.
   */
  public static byte[] enrichRecord(RawRecord record, byte[] members) {
    Objects.requireNonNull(record, "record");
    Objects.requireNonNull(members, "members");
    byte[] json = record.bytes();
    if (record.isCheckedObject() && (record.isWithoutEnrichmentNames() || !mayHoldAKey(json))) {
      return appendToCheckedObject(json, members);
    }
    TopLevel topLevel = TopLevel.read(json);
    int open = firstNonWhitespace(json);
    int close = lastNonWhitespace(json);
    ByteArrayOutputStream out = new ByteArrayOutputStream(json.length + 192);
    if (!topLevel.isObject()) {
      out.writeBytes(WRAPPED_RECORD_KEY);
      out.write(json, open, close + 1 - open);
      out.write(',');
      out.writeBytes(members);
      out.write('}');
      return out.toByteArray();
    }
    List<Rename> renames = renames(topLevel.keys());
    int copied = 0;
    for (Rename rename : renames) {
      out.write(json, copied, rename.keyStart() - copied);
      out.write('"');
      out.writeBytes(STRINGS.quoteAsUTF8(rename.newName()));
      out.write('"');
      copied = endOfString(json, rename.keyStart());
    }
    out.write(json, copied, close - copied);
    appendMembers(out, json, open, close, members);
    return out.toByteArray();
  }

  /** {@code object} (one object, trimmed) with {@code members} before its closing brace. */
  private static byte[] appendToCheckedObject(byte[] object, byte[] members) {
    int close = object.length - 1;
    int last = close - 1;
    while (last > 0 && isJsonWhitespace(object[last])) {
      last--;
    }
    boolean empty = last == 0;
    byte[] out = new byte[close + (empty ? 0 : 1) + members.length + 1];
    System.arraycopy(object, 0, out, 0, close);
    int at = close;
    if (!empty) {
      out[at++] = ',';
    }
    System.arraycopy(members, 0, out, at, members.length);
    out[out.length - 1] = '}';
    return out;
  }

  /**
   * Whether a key of the four could be in {@code json}: every one starts with {@code _source} or
   * {@code _timestamp_}, so as a key it stands right after a quote, and a key spelled with escapes
   * needs {@code \\u} for any of its letters.
   */
  private static boolean mayHoldAKey(byte[] json) {
    for (int i = 0; i + 1 < json.length; i++) {
      byte b = json[i];
      if (b == '\\' && json[i + 1] == 'u') {
        return true;
      }
      if (b == '"'
          && json[i + 1] == '_'
          && (startsWith(json, i + 1, SOURCE_PREFIX)
              || startsWith(json, i + 1, TIMESTAMP_PREFIX))) {
        return true;
      }
    }
    return false;
  }

  private static boolean startsWith(byte[] json, int at, byte[] prefix) {
    if (at + prefix.length > json.length) {
      return false;
    }
    for (int k = 1; k < prefix.length; k++) {
      if (json[at + k] != prefix[k]) {
        return false;
      }
    }
    return true;
  }

  /**
   * Writes the members and the closing brace; a comma first unless the object was empty, which is
   * when nothing but whitespace stands between its braces (a value never ends in '{').
   */
  private static void appendMembers(
      ByteArrayOutputStream out, byte[] json, int open, int close, byte[] members) {
    int last = close - 1;
    while (last > open && isJsonWhitespace(json[last])) {
      last--;
    }
    if (last != open) {
      out.write(',');
    }
    out.writeBytes(members);
    out.write('}');
  }

  /** The renames the record's top-level keys need, in the order the keys stand. */
  private static List<Rename> renames(List<Key> keys) {
    Set<String> taken = new HashSet<>();
    for (Key key : keys) {
      taken.add(key.name());
    }
    List<Rename> renames = new ArrayList<>();
    for (Key key : keys) {
      if (EnrichmentFields.KEYS.contains(key.name())) {
        String newName = key.name() + "_original";
        for (int n = 2; taken.contains(newName); n++) {
          newName = key.name() + "_original_" + n;
        }
        taken.add(newName);
        renames.add(new Rename(key.start(), newName));
      }
    }
    return renames;
  }

  /** The index just past the JSON string whose opening quote is at {@code start}. */
  private static int endOfString(byte[] json, int start) {
    int i = start + 1;
    while (json[i] != '"') {
      i += json[i] == '\\' ? 2 : 1;
    }
    return i + 1;
  }

  private static int firstNonWhitespace(byte[] json) {
    for (int i = 0; i < json.length; i++) {
      if (!isJsonWhitespace(json[i])) {
        return i;
      }
    }
    return -1;
  }

  private static int lastNonWhitespace(byte[] json) {
    for (int i = json.length - 1; i >= 0; i--) {
      if (!isJsonWhitespace(json[i])) {
        return i;
      }
    }
    return -1;
  }

  private static boolean isJsonWhitespace(byte b) {
    return b == ' ' || b == '\t' || b == '\n' || b == '\r';
  }

  /** A top-level key: its decoded name and the index of its opening quote. */
  private record Key(String name, int start) {}

  /** A top-level key to write under another name. */
  private record Rename(int keyStart, String newName) {}

  /** What one validating pass learns of a record: whether it is an object, and its keys. */
  private record TopLevel(boolean isObject, List<Key> keys) {

    static TopLevel read(byte[] json) {
      try (JsonParser parser = JSON.createParser(json)) {
        JsonToken first = parser.nextToken();
        if (first == null) {
          throw new IllegalArgumentException("the record is empty, not a JSON value");
        }
        List<Key> keys = new ArrayList<>();
        if (first == JsonToken.START_OBJECT) {
          while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String name = parser.currentName();
            keys.add(new Key(name, keyStart(parser, json, name)));
            parser.nextToken();
            parser.skipChildren();
          }
        } else {
          parser.skipChildren();
        }
        if (parser.nextToken() != null) {
          throw new IllegalArgumentException("the record holds more than one JSON value");
        }
        return new TopLevel(first == JsonToken.START_OBJECT, keys);
      } catch (JsonProcessingException e) {
        throw new IllegalArgumentException(
            "the record is not valid JSON: " + e.getOriginalMessage(), e);
      } catch (IOException e) {
        throw new UncheckedIOException("reading from a byte array failed", e);
      }
    }

    private static int keyStart(JsonParser parser, byte[] json, String name) {
      long offset = parser.currentTokenLocation().getByteOffset();
      if (offset < 0 || offset >= json.length || json[(int) offset] != '"') {
        // The splice depends on Jackson reporting where a name's quote stands; fail loudly if not.
        throw new IllegalStateException(
            "Jackson reported byte offset "
                + offset
                + " for key \""
                + name
                + "\", which is not its opening quote");
      }
      return (int) offset;
    }
  }
}
