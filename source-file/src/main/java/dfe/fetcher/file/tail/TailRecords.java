package dfe.fetcher.file.tail;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.core.io.JsonStringEncoder;
import dfe.fetcher.core.enrich.Enrichment;
import dfe.fetcher.core.envelope.FrameCodec;
import dfe.fetcher.core.envelope.RawRecord;
import dfe.fetcher.file.dump.JsonValueScanner;
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

  private static final JsonFactory JSON =
      JsonFactory.builder()
          .streamReadConstraints(
              StreamReadConstraints.builder()
                  .maxNestingDepth(FrameCodec.MAX_RECORD_DEPTH)
                  .maxStringLength(Integer.MAX_VALUE)
                  .build())
          .build();
  private static final JsonStringEncoder STRINGS = JsonStringEncoder.getInstance();
  private static final List<String> FIELDS = List.of(FILE_PATH, FILE_OFFSET);

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

  TailRecords(TailDecoder decoder) {
    this.decoder = decoder;
  }

  Decoded decode(byte[] line, int length, String path, long offset) {
    int invalid = Utf8.firstInvalid(line, length);
    if (invalid >= 0) {
      return new Bad("not valid UTF-8 at byte " + invalid + " of the line");
    }
    return switch (decoder) {
      case NDJSON -> json(line, length, path, offset);
      case LINES -> text(line, length, path, offset);
    };
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
    return new Record(RawRecord.of(out.toByteArray()));
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
    byte[] value = java.util.Arrays.copyOfRange(line, from, to);
    String problem = problemOf(value);
    if (problem != null) {
      return new Bad(problem);
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream(value.length + 64 + path.length());
    if (value[0] != '{') {
      out.write('{');
      string(out, Enrichment.WRAPPED_RECORD);
      out.write(':');
      out.writeBytes(value);
      out.write(',');
      fields(out, path, offset);
      out.write('}');
      return new Record(RawRecord.of(out.toByteArray()));
    }
    int copied = 0;
    for (Rename rename : renames(value)) {
      out.write(value, copied, rename.keyStart() - copied);
      string(out, rename.newName());
      copied = endOfString(value, rename.keyStart());
    }
    int close = value.length - 1; // the closing brace: the value is one object, trimmed
    out.write(value, copied, close - copied);
    int last = close - 1;
    while (last > 0 && isWhitespace(value[last])) {
      last--;
    }
    if (last > 0) {
      out.write(',');
    }
    fields(out, path, offset);
    out.write('}');
    return new Record(RawRecord.of(out.toByteArray()));
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

  /** The renames {@code object}'s colliding top-level keys need, in the order the keys stand. */
  private static List<Rename> renames(byte[] object) {
    if (!mentionsAField(object)) {
      return List.of();
    }
    List<String> names = new ArrayList<>();
    List<Integer> starts = new ArrayList<>();
    try (JsonParser parser = JSON.createParser(object)) {
      parser.nextToken();
      while (parser.nextToken() == JsonToken.FIELD_NAME) {
        names.add(parser.currentName());
        starts.add((int) parser.currentTokenLocation().getByteOffset());
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

  /** A cheap look for the fields' names anywhere, before any parse for the top-level keys. */
  private static boolean mentionsAField(byte[] object) {
    byte[] needle = "_file_".getBytes(StandardCharsets.US_ASCII);
    outer:
    for (int i = 0; i + needle.length <= object.length; i++) {
      for (int k = 0; k < needle.length; k++) {
        if (object[i + k] != needle[k]) {
          continue outer;
        }
      }
      return true;
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

  private static void fields(ByteArrayOutputStream out, String path, long offset) {
    string(out, FILE_PATH);
    out.write(':');
    string(out, path);
    out.write(',');
    string(out, FILE_OFFSET);
    out.write(':');
    out.writeBytes(Long.toString(offset).getBytes(StandardCharsets.US_ASCII));
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
