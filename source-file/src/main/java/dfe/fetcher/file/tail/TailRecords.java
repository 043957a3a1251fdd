package dfe.fetcher.file.tail;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.core.io.JsonStringEncoder;
import dfe.fetcher.core.enrich.Enrichment;
import dfe.fetcher.core.envelope.FrameCodec;
import dfe.fetcher.core.envelope.JsonValueScanner;
import dfe.fetcher.core.envelope.RawRecord;
import dfe.fetcher.file.dump.ParseProblem;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * How a tailed line (or multiline event) becomes a record, with the file's path and the line's byte
 * offset as fields {@value #FILE_PATH} and {@value #FILE_OFFSET}:
 *
 * <ul>
 *   <li>{@code ndjson}: the line must be one JSON value in strict UTF-8. An object lands as written
 *       with the two fields added before its closing brace; a top-level key of the record that has
 *       one of their names is kept under {@code <key>_original} ({@code _original_2}, ... when that
 *       is taken), as the enrichment does. Any other value is wrapped: {@code
 *       {"_record":<value>,"_file_path":...}}. JSON whitespace around the value and a byte order
 *       mark before it are dropped.
 *   <li>{@code lines}: the line must be strict UTF-8; it lands as {@code {"message":"<the line>",
 *       "_file_path":...}}, a {@code \r} before the newline dropped.
 * </ul>
 *
 * A line that is empty once trimmed is no record. What cannot be a record is {@link Bad}, with a
 * reason that names the problem and where in the line, never the content. Not thread-safe.
 */
final class TailRecords {

  static final String FILE_PATH = "_file_path";
  static final String FILE_OFFSET = "_file_offset";
  static final String MESSAGE = "message";

  private static final JsonFactory JSON = JsonValueScanner.RECORD_PARSER;
  private static final JsonStringEncoder STRINGS = JsonStringEncoder.getInstance();
  private static final List<String> FIELDS = List.of(FILE_PATH, FILE_OFFSET);
  private static final byte[] FIELD_PREFIX = "_file_".getBytes(StandardCharsets.US_ASCII);

  /** What a line decodes to. */
  sealed interface Decoded permits Record, Bad, Blank {}

  /** A record to land. */
  record Record(RawRecord record) implements Decoded {}

  /** A line that cannot land; {@code reason} names the problem, never the content. */
  record Bad(String reason) implements Decoded {}

  /** A line with nothing on it. */
  record Blank() implements Decoded {}

  private final TailDecoder decoder;
  private final JsonValueScanner scanner = new JsonValueScanner();
  // "_file_path":"<path>","_file_offset": for the last path, written once per file, not per line.
  private String prefixPath;
  private byte[] fieldsPrefix;
  private final byte[] digits = new byte[20];

  TailRecords(TailDecoder decoder) {
    this.decoder = decoder;
  }

  Decoded decode(byte[] line, int length, String path, long offset) {
    if (decoder == TailDecoder.NDJSON) {
      return json(line, length, path, offset);
    }
    int invalid = Utf8.firstInvalid(line, length);
    if (invalid >= 0) {
      return notUtf8(invalid);
    }
    return text(line, length, path, offset);
  }

  private static Bad notUtf8(int at) {
    return new Bad("not valid UTF-8 at byte " + at + " of the line");
  }

  private Decoded text(byte[] line, int length, String path, long offset) {
    int end = length > 0 && line[length - 1] == '\r' ? length - 1 : length;
    if (end == 0) {
      return new Blank();
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream(end + 64 + path.length());
    out.write('{');
    string(out, MESSAGE);
    out.write(':');
    string(out, new String(line, 0, end, StandardCharsets.UTF_8));
    out.write(',');
    fields(out, path, offset);
    out.write('}');
    return new Record(RawRecord.ofCheckedObjectWithoutEnrichmentNames(out.toByteArray()));
  }

  private Decoded json(byte[] line, int length, String path, long offset) {
    int from = 0;
    if (length >= 3 && line[0] == (byte) 0xef && line[1] == (byte) 0xbb && line[2] == (byte) 0xbf) {
      from = 3;
    }
    while (from < length && isWhitespace(line[from])) {
      from++;
    }
    int to = length;
    while (to > from && isWhitespace(line[to - 1])) {
      to--;
    }
    if (from == to) {
      return new Blank();
    }
    // The scanner checks UTF-8 strictly: a line it accepts needs no second look, and it tells on
    // the way whether a top-level name could collide with the fields the tail and the enrichment
    // add (all of which begin with '_'), so a line without one is not scanned for them again.
    boolean scanned = scanner.isOneValue(line, from, to);
    boolean namesClear = scanned && !scanner.topLevelNameMayCollide();
    if (!scanned) {
      int invalid = Utf8.firstInvalid(line, length);
      if (invalid >= 0) {
        return notUtf8(invalid);
      }
      String problem = problemOf(java.util.Arrays.copyOfRange(line, from, to));
      if (problem != null) {
        return new Bad(problem);
      }
    }
    if (namesClear && line[from] == '{') {
      return new Record(
          RawRecord.ofCheckedObjectWithoutEnrichmentNames(object(line, from, to, path, offset)));
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream(to - from + 64 + path.length());
    if (line[from] != '{') {
      out.write('{');
      string(out, Enrichment.WRAPPED_RECORD);
      out.write(':');
      out.write(line, from, to - from);
      out.write(',');
      fields(out, path, offset);
      out.write('}');
      return new Record(RawRecord.ofCheckedObjectWithoutEnrichmentNames(out.toByteArray()));
    }
    int copied = from;
    for (Rename rename : namesClear ? List.<Rename>of() : renames(line, from, to)) {
      out.write(line, copied, rename.keyStart() - copied);
      string(out, rename.newName());
      copied = endOfString(line, rename.keyStart());
    }
    int close = to - 1; // the closing brace: the value is one object, trimmed
    out.write(line, copied, close - copied);
    int last = close - 1;
    while (last > from && isWhitespace(line[last])) {
      last--;
    }
    if (last > from) {
      out.write(',');
    }
    fields(out, path, offset);
    out.write('}');
    byte[] record = out.toByteArray();
    return new Record(
        namesClear
            ? RawRecord.ofCheckedObjectWithoutEnrichmentNames(record)
            : RawRecord.ofCheckedObject(record));
  }

  /**
   * The object at {@code line[from, to)} (trimmed, checked, no top-level name to rename) with the
   * tail's fields before its closing brace, written once into an array of its exact size.
   */
  private byte[] object(byte[] line, int from, int to, String path, long offset) {
    int close = to - 1;
    int last = close - 1;
    while (last > from && isWhitespace(line[last])) {
      last--;
    }
    boolean comma = last > from;
    byte[] prefix = fieldsPrefix(path);
    int digitsAt = digitsOf(offset);
    int digitCount = digits.length - digitsAt;
    byte[] record = new byte[close - from + (comma ? 1 : 0) + prefix.length + digitCount + 1];
    System.arraycopy(line, from, record, 0, close - from);
    int at = close - from;
    if (comma) {
      record[at++] = ',';
    }
    System.arraycopy(prefix, 0, record, at, prefix.length);
    at += prefix.length;
    System.arraycopy(digits, digitsAt, record, at, digitCount);
    record[record.length - 1] = '}';
    return record;
  }

  /** What is wrong with {@code value} as one JSON value; null when nothing is. */
  private String problemOf(byte[] value) {
    if (scanner.isOneValue(value, value.length)) {
      return null;
    }
    try (JsonParser parser = JSON.createParser(value)) {
      parser.nextToken();
      parser.skipChildren();
      if (parser.nextToken() != null) {
        return "not one JSON value: a second value starts at byte "
            + parser.currentTokenLocation().getByteOffset();
      }
      return null;
    } catch (StreamConstraintsException e) {
      return "the record passes a limit of the parser (nesting deeper than "
          + FrameCodec.MAX_RECORD_DEPTH
          + " levels, or a number or name too long)";
    } catch (JsonProcessingException e) {
      return "not valid JSON: " + ParseProblem.describe(e);
    } catch (IOException e) {
      return "not valid JSON";
    }
  }

  /**
   * The renames the colliding top-level keys of the object at {@code line[from, to)} need, in the
   * order the keys stand; their starts are indexes into {@code line}.
   */
  private static List<Rename> renames(byte[] line, int from, int to) {
    if (!mayMentionAField(line, from, to)) {
      return List.of();
    }
    List<String> names = new ArrayList<>();
    List<Integer> starts = new ArrayList<>();
    try (JsonParser parser = JSON.createParser(line, from, to - from)) {
      parser.nextToken();
      while (parser.nextToken() == JsonToken.FIELD_NAME) {
        names.add(parser.currentName());
        starts.add(from + (int) parser.currentTokenLocation().getByteOffset());
        parser.nextToken();
        parser.skipChildren();
      }
    } catch (IOException e) {
      throw new IllegalStateException("a line checked to be one JSON object did not parse", e);
    }
    Set<String> taken = new HashSet<>(names);
    List<Rename> renames = new ArrayList<>();
    for (int i = 0; i < names.size(); i++) {
      if (FIELDS.contains(names.get(i))) {
        String newName = names.get(i) + "_original";
        for (int n = 2; taken.contains(newName); n++) {
          newName = names.get(i) + "_original_" + n;
        }
        taken.add(newName);
        renames.add(new Rename(starts.get(i), newName));
      }
    }
    return renames;
  }

  /**
   * A cheap look, before any parse for the top-level keys, for what a field's name needs: {@code
   * "_file_} as it stands (a key starts right after its quote), or a {@code \\u} escape, which
   * could spell any of its letters.
   */
  private static boolean mayMentionAField(byte[] line, int from, int to) {
    for (int i = from; i + 1 < to; i++) {
      byte b = line[i];
      if (b == '\\' && line[i + 1] == 'u') {
        return true;
      }
      if (b == '"' && line[i + 1] == '_' && i + 1 + FIELD_PREFIX.length <= to) {
        int k = 1;
        while (k < FIELD_PREFIX.length && line[i + 1 + k] == FIELD_PREFIX[k]) {
          k++;
        }
        if (k == FIELD_PREFIX.length) {
          return true;
        }
      }
    }
    return false;
  }

  private record Rename(int keyStart, String newName) {}

  private static int endOfString(byte[] json, int start) {
    int i = start + 1;
    while (json[i] != '"') {
      i += json[i] == '\\' ? 2 : 1;
    }
    return i + 1;
  }

  private void fields(ByteArrayOutputStream out, String path, long offset) {
    out.writeBytes(fieldsPrefix(path));
    int at = digitsOf(offset);
    out.write(digits, at, digits.length - at);
  }

  /** {@code "_file_path":"<path>","_file_offset":}, made again only when the path changes. */
  private byte[] fieldsPrefix(String path) {
    if (!path.equals(prefixPath)) {
      ByteArrayOutputStream prefix = new ByteArrayOutputStream(path.length() + 32);
      string(prefix, FILE_PATH);
      prefix.write(':');
      string(prefix, path);
      prefix.write(',');
      string(prefix, FILE_OFFSET);
      prefix.write(':');
      fieldsPrefix = prefix.toByteArray();
      prefixPath = path;
    }
    return fieldsPrefix;
  }

  /**
   * Writes {@code value} (at least 0) in decimal digits at the end of {@link #digits}, without a
   * String between; returns where they start.
   */
  private int digitsOf(long value) {
    int at = digits.length;
    long rest = value;
    do {
      digits[--at] = (byte) ('0' + rest % 10);
      rest /= 10;
    } while (rest > 0);
    return at;
  }

  private static void string(ByteArrayOutputStream out, String text) {
    out.write('"');
    out.writeBytes(STRINGS.quoteAsUTF8(text));
    out.write('"');
  }

  private static boolean isWhitespace(byte b) {
    return b == ' ' || b == '\t' || b == '\r' || b == '\n';
  }
}
