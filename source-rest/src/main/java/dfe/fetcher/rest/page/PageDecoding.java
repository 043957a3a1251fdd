package dfe.fetcher.rest.page;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dfe.fetcher.core.envelope.JsonValueScanner;
import dfe.fetcher.core.envelope.RawRecord;
import dfe.fetcher.core.row.SourceException;
import dfe.fetcher.rest.profile.Endpoint;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.CharacterCodingException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Turns one page's body into elements with the endpoint's {@link Decoder}, which the listing's
 * {@link dfe.fetcher.rest.shape.RowShaper} turns into rows. {@code json_array}, {@code ndjson},
 * {@code csv}, {@code lines}, {@code json} and {@code json_at} decode as the body arrives and hold
 * one record at a time (a record longer than {@code max_page_bytes} fails the page); {@code
 * json_at} keeps the rest of its body ({@link JsonAtRows}) for the pager. {@code document}, and
 * {@code json_at} with {@code fail_when} (which must see the page before any of its rows is handed
 * on), hold the page, at most {@code max_page_bytes}, and hand its tree to the pager and {@code
 * fail_when}. Numbers are kept exact. A {@code json_at} page without its rows fails unless {@code
 * rows.allow_missing} says the API leaves them out. An element must be a JSON object unless {@code
 * rows.quoted} or a builder will make it one ({@link
 * dfe.fetcher.rest.shape.RowShape#takesAnyElement}).
 */
final class PageDecoding {

  /** Where decoded rows go, in order. */
  @FunctionalInterface
  interface Rows {
    void accept(RawRecord record) throws SourceException, InterruptedException;
  }

  /** Looks at a held page before any of its rows is handed on ({@code fail_when}). */
  @FunctionalInterface
  interface BodyCheck {
    void check(JsonNode body) throws SourceException;
  }

  /** What a page held: its row count and, for a held decoder, its tree. */
  record Page(long rows, Optional<JsonNode> body) {}

  /** The field {@code lines} puts each line under when {@code rows.field} is not set. */
  private static final String LINE_FIELD = "line";

  static final ObjectMapper TREE =
      JsonMapper.builder()
          .disable(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES)
          .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
          .build();
  private static final JsonFactory JSON = new JsonFactory();

  private PageDecoding() {}

  /**
   * Decodes {@code body}.
   *
   * @param where the page, for messages: method and URL
   * @throws SourceException naming the page and the row or line at fault, never its content
   * @throws IOException when the body could not be read
   */
  static Page decode(Endpoint endpoint, InputStream body, String where, BodyCheck check, Rows rows)
      throws SourceException, IOException, InterruptedException {
    return switch (endpoint.decoder()) {
      case JSON_ARRAY -> jsonArray(endpoint, body, where, rows);
      case NDJSON -> ndjson(endpoint, body, where, rows);
      case CSV -> csv(endpoint, body, where, rows);
      case LINES -> lines(endpoint, body, where, rows);
      case JSON -> json(endpoint, body, where, rows);
      case JSON_AT ->
          endpoint.failWhen().isPresent()
              ? jsonAt(endpoint, held(endpoint, body, where, check), where, rows)
              : JsonAtRows.read(endpoint, bounded(endpoint), body, where, rows);
      case DOCUMENT -> document(endpoint, held(endpoint, body, where, check), where, rows);
      case S3_LIST_OBJECTS -> S3ListObjects.read(endpoint, body, where, rows);
    };
  }

  private static Page jsonArray(Endpoint endpoint, InputStream body, String where, Rows rows)
      throws SourceException, IOException, InterruptedException {
    long count = 0;
    try (JsonParser parser = bounded(endpoint).createParser(body)) {
      JsonToken first = parser.nextToken();
      if (first != JsonToken.START_ARRAY) {
        throw new SourceException(
            where
                + ": the body is not a JSON array (decoder json_array)"
                + (first == null ? "; it is empty" : ""));
      }
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      while (parser.nextToken() != JsonToken.END_ARRAY) {
        if (parser.currentToken() != JsonToken.START_OBJECT
            && !endpoint.rowShape().takesAnyElement()) {
          throw new SourceException(
              where + ": element " + count + " of the array is not a JSON object");
        }
        rows.accept(element(parser, out, endpoint, where, "element " + count));
        count++;
      }
      if (parser.nextToken() != null) {
        throw new SourceException(where + ": text follows the JSON array");
      }
    } catch (JsonProcessingException e) {
      throw new SourceException(
          where
              + ": not valid JSON after "
              + count
              + " rows"
              + (e.getLocation() == null ? "" : ", at byte " + e.getLocation().getByteOffset()));
    }
    return new Page(count, Optional.empty());
  }

  /**
   * The value at the parser's current token, copied exactly and bounded by {@code max_page_bytes}
   * as it is read.
   */
  private static RawRecord element(
      JsonParser parser, ByteArrayOutputStream out, Endpoint endpoint, String where, String name)
      throws SourceException, IOException {
    out.reset();
    try (JsonGenerator generator = JSON.createGenerator(out)) {
      BoundedElement.copy(parser, generator, endpoint.maxPageBytes());
    } catch (BoundedElement.TooLong e) {
      throw elementTooLong(endpoint, where, name);
    } catch (StreamConstraintsException e) {
      if (parser.currentToken() == JsonToken.VALUE_STRING) {
        throw elementTooLong(endpoint, where, name);
      }
      throw new SourceException(
          where + ": " + name + " passes a limit of the JSON parser (nesting depth)");
    }
    if (out.size() > endpoint.maxPageBytes()) {
      throw elementTooLong(endpoint, where, name);
    }
    return RawRecord.of(out.toByteArray());
  }

  /**
   * {@code json}: the body is one JSON value. An array's elements are the rows, each read and
   * bounded as {@code json_array}'s; any other value (an object; with a builder or {@code quoted},
   * also a string or a number) is one row, bounded by {@code max_page_bytes} as it is read.
   */
  private static Page json(Endpoint endpoint, InputStream body, String where, Rows rows)
      throws SourceException, IOException, InterruptedException {
    long count = 0;
    boolean anyElement = endpoint.rowShape().takesAnyElement();
    try (JsonParser parser = bounded(endpoint).createParser(body)) {
      JsonToken first = parser.nextToken();
      if (first == null) {
        throw new SourceException(where + ": the body is empty, not JSON (decoder json)");
      }
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      if (first == JsonToken.START_ARRAY) {
        while (parser.nextToken() != JsonToken.END_ARRAY) {
          if (parser.currentToken() != JsonToken.START_OBJECT && !anyElement) {
            throw new SourceException(
                where + ": element " + count + " of the array is not a JSON object");
          }
          rows.accept(element(parser, out, endpoint, where, "element " + count));
          count++;
        }
      } else {
        if (first != JsonToken.START_OBJECT && !anyElement) {
          throw new SourceException(
              where
                  + ": the body is neither a JSON array nor an object (decoder json); set"
                  + " rows.builder: wrap_non_object to wrap it");
        }
        rows.accept(element(parser, out, endpoint, where, "the body"));
        count = 1;
      }
      if (parser.nextToken() != null) {
        throw new SourceException(where + ": text follows the JSON value");
      }
    } catch (JsonProcessingException e) {
      throw new SourceException(
          where
              + ": not valid JSON after "
              + count
              + " rows"
              + (e.getLocation() == null ? "" : ", at byte " + e.getLocation().getByteOffset()));
    }
    return new Page(count, Optional.empty());
  }

  /** A parser whose strings are bounded as a streamed element is ({@link BoundedElement}). */
  private static JsonFactory bounded(Endpoint endpoint) {
    return JsonFactory.builder()
        .streamReadConstraints(
            StreamReadConstraints.builder()
                .maxStringLength((int) Math.min(Integer.MAX_VALUE, endpoint.maxPageBytes()))
                .build())
        .build();
  }

  static SourceException elementTooLong(Endpoint endpoint, String where, String element) {
    return new SourceException(
        where + ": " + element + " is longer than max_page_bytes " + endpoint.maxPageBytes());
  }

  /** A {@code json_at} page with nothing or null at the rows' pointer, not allowed to. */
  static SourceException rowsMissing(String where, String at, boolean isNull) {
    // An error answered with 200 ({"error": ...}) must not read as the listing's last page.
    return new SourceException(
        where
            + ": the body has "
            + (isNull ? "null" : "nothing")
            + " at "
            + at
            + " (rows.at); set rows.allow_missing: true if the API leaves it out of an empty"
            + " page");
  }

  /** What a line of an {@code ndjson} or {@code lines} body becomes. */
  @FunctionalInterface
  private interface LineOut {
    /**
     * Hands on line {@code number} (from 1), {@code record[0, length)} without its {@code \n};
     * false for none.
     */
    boolean line(byte[] record, int length, long number)
        throws SourceException, InterruptedException;
  }

  /** A line of the page, for messages; made only for one, not for every line. */
  private static String lineOf(String where, long number) {
    return where + ": line " + number;
  }

  private static Page ndjson(Endpoint endpoint, InputStream body, String where, Rows rows)
      throws SourceException, IOException, InterruptedException {
    boolean anyValue = endpoint.rowShape().takesAnyElement();
    JsonValueScanner scanner = new JsonValueScanner();
    return splitLines(
        endpoint,
        body,
        where,
        (record, length, line) -> emit(record, length, where, line, anyValue, scanner, rows));
  }

  /**
   * {@code lines}: each line of text, without its line break ({@code \n} or {@code \r\n}), is a row
   * {@code {"<rows.field>": "<the line>"}} ({@code line} unless set); an empty line is none. The
   * text must be UTF-8: a line that is not fails the page, as a replacement character would land a
   * value the body did not hold.
   */
  private static Page lines(Endpoint endpoint, InputStream body, String where, Rows rows)
      throws SourceException, IOException, InterruptedException {
    String field = endpoint.rowShape().field().orElse(LINE_FIELD);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    return splitLines(
        endpoint,
        body,
        where,
        (record, length, line) -> {
          int end = length > 0 && record[length - 1] == '\r' ? length - 1 : length;
          if (end == 0) {
            return false;
          }
          String text;
          try {
            text = Utf8Text.decode(record, 0, end);
          } catch (CharacterCodingException e) {
            throw new SourceException(lineOf(where, line) + " is not UTF-8 text (decoder lines)");
          }
          out.reset();
          try (JsonGenerator json = JSON.createGenerator(out)) {
            json.writeStartObject();
            json.writeStringField(field, text);
            json.writeEndObject();
          } catch (IOException e) {
            throw new SourceException(lineOf(where, line) + " cannot be written as JSON", e);
          }
          rows.accept(RawRecord.of(out.toByteArray()));
          return true;
        });
  }

  /** Splits the body into lines, each bounded by {@code max_page_bytes} as it is read. */
  private static Page splitLines(Endpoint endpoint, InputStream body, String where, LineOut out)
      throws SourceException, IOException, InterruptedException {
    long count = 0;
    long line = 0;
    byte[] chunk = new byte[64 * 1024];
    byte[] record = new byte[8 * 1024];
    int length = 0;
    while (true) {
      int read = body.read(chunk);
      int from = 0;
      for (int i = 0; i < Math.max(read, 0); i++) {
        if (chunk[i] != '\n') {
          continue;
        }
        record = append(record, length, chunk, from, i - from, endpoint, where, line + 1);
        length += i - from;
        from = i + 1;
        line++;
        if (out.line(record, length, line)) {
          count++;
        }
        length = 0;
      }
      if (read < 0) {
        break;
      }
      record = append(record, length, chunk, from, read - from, endpoint, where, line + 1);
      length += read - from;
    }
    if (out.line(record, length, line + 1)) {
      count++;
    }
    return new Page(count, Optional.empty());
  }

  private static byte[] append(
      byte[] record,
      int length,
      byte[] chunk,
      int from,
      int count,
      Endpoint endpoint,
      String where,
      long line)
      throws SourceException {
    if ((long) length + count > endpoint.maxPageBytes()) {
      throw new SourceException(
          where + ": line " + line + " is longer than max_page_bytes " + endpoint.maxPageBytes());
    }
    if (length + count > record.length) {
      record = Arrays.copyOf(record, Math.max(length + count, record.length * 2));
    }
    System.arraycopy(chunk, from, record, length, count);
    return record;
  }

  /** Hands on a line that is not blank; false for a blank one. */
  private static boolean emit(
      byte[] record,
      int length,
      String where,
      long line,
      boolean anyValue,
      JsonValueScanner scanner,
      Rows rows)
      throws SourceException, InterruptedException {
    int end = length;
    while (end > 0
        && (record[end - 1] == '\r' || record[end - 1] == ' ' || record[end - 1] == '\t')) {
      end--;
    }
    if (end == 0) {
      return false;
    }
    byte[] copy = Arrays.copyOf(record, end);
    checkValue(copy, where, line, anyValue, scanner);
    rows.accept(RawRecord.of(copy));
    return true;
  }

  /**
   * The line holds one JSON object; with {@code anyValue}, one JSON value of any kind. The scanner
   * answers first: a line it accepts {@link #JSON}'s parser accepts too (below the parser's string
   * limit, which bounds every string of a line no longer than it; {@code
   * JsonValueScannerProperties} in core checks this against Jackson's defaults). Any other line
   * goes to the parser, which accepts it or says what is wrong, as before the scanner.
   */
  private static void checkValue(
      byte[] record, String where, long line, boolean anyValue, JsonValueScanner scanner)
      throws SourceException {
    if (record.length <= JSON.streamReadConstraints().getMaxStringLength()
        && scanner.isOneValue(record, record.length)
        && (anyValue || scanner.isObject())) {
      return;
    }
    String at = lineOf(where, line);
    try (JsonParser parser = JSON.createParser(record)) {
      if (parser.nextToken() != JsonToken.START_OBJECT && !anyValue) {
        throw new SourceException(at + " is not a JSON object");
      }
      parser.skipChildren();
      if (parser.nextToken() != null) {
        throw new SourceException(at + " holds more than one JSON value");
      }
    } catch (JsonProcessingException e) {
      throw new SourceException(at + " is not valid JSON");
    } catch (IOException e) {
      throw new SourceException(at + " could not be read", e);
    }
  }

  /**
   * {@code csv}: RFC 4180 records under a header record, which names the fields (a byte-order mark
   * before it is dropped). The text must be UTF-8, and the header's names distinct: a replacement
   * character, or two fields of one name in a row, would land values the body did not hold.
   */
  private static Page csv(Endpoint endpoint, InputStream body, String where, Rows rows)
      throws SourceException, IOException, InterruptedException {
    try {
      return csvRecords(endpoint, body, where, rows);
    } catch (CharacterCodingException e) {
      throw new SourceException(where + ": the CSV body is not UTF-8 text");
    }
  }

  private static Page csvRecords(Endpoint endpoint, InputStream body, String where, Rows rows)
      throws SourceException, IOException, InterruptedException {
    BufferedReader reader =
        new BufferedReader(new InputStreamReader(body, Utf8Text.strictDecoder()));
    reader.mark(1);
    if (reader.read() != '\uFEFF') {
      reader.reset();
    }
    CsvLines lines = new CsvLines(reader, endpoint.maxPageBytes());
    Optional<List<String>> header = lines.next(where);
    if (header.isEmpty()) {
      return new Page(0, Optional.empty());
    }
    Set<String> names = new HashSet<>();
    for (String name : header.get()) {
      if (!names.add(name)) {
        throw new SourceException(where + ": the CSV header names a field twice");
      }
    }
    long count = 0;
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (Optional<List<String>> fields = lines.next(where);
        fields.isPresent();
        fields = lines.next(where)) {
      if (fields.get().size() == 1 && fields.get().get(0).isEmpty()) {
        continue;
      }
      if (fields.get().size() != header.get().size()) {
        throw new SourceException(
            where
                + ": CSV record "
                + (count + 1)
                + " has "
                + fields.get().size()
                + " fields, the header "
                + header.get().size());
      }
      out.reset();
      try (JsonGenerator json = JSON.createGenerator(out)) {
        json.writeStartObject();
        for (int i = 0; i < fields.get().size(); i++) {
          json.writeStringField(header.get().get(i), fields.get().get(i));
        }
        json.writeEndObject();
      }
      rows.accept(RawRecord.of(out.toByteArray()));
      count++;
    }
    return new Page(count, Optional.empty());
  }

  private static JsonNode held(Endpoint endpoint, InputStream body, String where, BodyCheck check)
      throws SourceException, IOException {
    byte[] bytes = body.readNBytes((int) endpoint.maxPageBytes() + 1);
    if (bytes.length > endpoint.maxPageBytes()) {
      throw new SourceException(
          where + ": the page is longer than max_page_bytes " + endpoint.maxPageBytes());
    }
    try {
      // Text after the document is an answer the decoder does not read, not one to cut short.
      JsonNode tree =
          TREE.reader().with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS).readTree(bytes);
      if (tree == null || tree.isMissingNode()) {
        throw new SourceException(where + ": the body is empty, not JSON");
      }
      check.check(tree);
      return tree;
    } catch (JsonProcessingException e) {
      throw new SourceException(
          where + ": the body is not valid JSON (at byte " + e.getLocation().getByteOffset() + ")");
    }
  }

  private static Page jsonAt(Endpoint endpoint, JsonNode tree, String where, Rows rows)
      throws SourceException, InterruptedException, JsonProcessingException {
    String at = endpoint.rowsAt().orElse("");
    JsonNode items = tree.at(at);
    if (items.isMissingNode() || items.isNull()) {
      if (endpoint.rowsMayBeAbsent()) {
        return new Page(0, Optional.of(tree));
      }
      throw rowsMissing(where, at, items.isNull());
    }
    if (!items.isArray()) {
      throw new SourceException(where + ": " + at + " is not a JSON array (rows.at)");
    }
    long count = 0;
    for (JsonNode item : items) {
      if (!item.isObject() && !endpoint.rowShape().takesAnyElement()) {
        throw new SourceException(where + ": " + at + "/" + count + " is not a JSON object");
      }
      rows.accept(RawRecord.of(TREE.writeValueAsBytes(item)));
      count++;
    }
    return new Page(count, Optional.of(withoutRows(tree, at)));
  }

  /**
   * The held tree as the streamed one reads ({@link JsonAtRows}): the rows array left out (a null
   * in its place in an array), so a pager or {@code stop_when} sees the same body either way.
   */
  private static JsonNode withoutRows(JsonNode tree, String at) {
    JsonPointer pointer = JsonPointer.compile(at);
    if (pointer.matches()) {
      return TREE.nullNode();
    }
    JsonNode parent = tree.at(pointer.head());
    if (parent instanceof ObjectNode object) {
      object.remove(pointer.last().getMatchingProperty());
    } else if (parent instanceof ArrayNode array && pointer.last().getMatchingIndex() >= 0) {
      array.set(pointer.last().getMatchingIndex(), TREE.nullNode());
    }
    return tree;
  }

  private static Page document(Endpoint endpoint, JsonNode tree, String where, Rows rows)
      throws SourceException, InterruptedException, JsonProcessingException {
    if (!tree.isObject() && !endpoint.rowShape().takesAnyElement()) {
      throw new SourceException(where + ": the body is not a JSON object (decoder document)");
    }
    rows.accept(RawRecord.of(TREE.writeValueAsBytes(tree)));
    return new Page(1, Optional.of(tree));
  }

  /** RFC 4180 records: quoted fields may hold commas, quotes ({@code ""}) and line breaks. */
  private static final class CsvLines {
    private final BufferedReader reader;
    private final long maxRecordChars;

    CsvLines(BufferedReader reader, long maxRecordChars) {
      this.reader = reader;
      this.maxRecordChars = maxRecordChars;
    }

    Optional<List<String>> next(String where) throws IOException, SourceException {
      int c = reader.read();
      if (c == -1) {
        return Optional.empty();
      }
      List<String> fields = new ArrayList<>();
      StringBuilder field = new StringBuilder();
      boolean quoted = false;
      long chars = 0;
      while (true) {
        if (++chars > maxRecordChars) {
          throw new SourceException(where + ": a CSV record is longer than max_page_bytes");
        }
        if (quoted) {
          if (c == -1) {
            throw new SourceException(where + ": a quoted CSV field is not closed");
          }
          if (c == '"') {
            reader.mark(1);
            int after = reader.read();
            if (after == '"') {
              field.append('"');
            } else if (after == ',' || after == '\n' || after == '\r' || after == -1) {
              quoted = false;
              reader.reset();
            } else {
              // RFC 4180: a closing quote ends the field; text after it has no one reading.
              throw new SourceException(where + ": a CSV field has text after its closing quote");
            }
          } else {
            field.append((char) c);
          }
        } else if (c == '"' && field.length() == 0) {
          quoted = true;
        } else if (c == ',') {
          fields.add(field.toString());
          field.setLength(0);
        } else if (c == '\n' || c == -1) {
          break;
        } else if (c == '\r') {
          reader.mark(1);
          if (reader.read() != '\n') {
            reader.reset();
          }
          break;
        } else {
          field.append((char) c);
        }
        c = reader.read();
      }
      fields.add(field.toString());
      return Optional.of(fields);
    }
  }
}
