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
import dfe.fetcher.core.envelope.RawRecord;
import dfe.fetcher.core.row.SourceException;
import dfe.fetcher.rest.profile.Endpoint;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Turns one page's body into rows with the endpoint's {@link Decoder}. {@code json_array}, {@code
 * ndjson}, {@code csv} and {@code json_at} decode as the body arrives and hold one record at a time
 * (a record longer than {@code max_page_bytes} fails the page); {@code json_at} keeps the rest of
 * its body ({@link JsonAtRows}) for the pager. {@code document}, and {@code json_at} with {@code
 * fail_when} (which must see the page before any of its rows is handed on), hold the page, at most
 * {@code max_page_bytes}, and hand its tree to the pager and {@code fail_when}. Numbers are kept
 * exact. A {@code json_at} page without its rows fails unless {@code rows.allow_missing} says the
 * API leaves them out.
 */
final class PageDecoding {

  /** Where decoded rows go, in order. */
  @FunctionalInterface
  interface Rows {
    void accept(RawRecord record) throws InterruptedException;
  }

  /** Looks at a held page before any of its rows is handed on ({@code fail_when}). */
  @FunctionalInterface
  interface BodyCheck {
    void check(JsonNode body) throws SourceException;
  }

  /** What a page held: its row count and, for a held decoder, its tree. */
  record Page(long rows, Optional<JsonNode> body) {}

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
      case JSON_AT ->
          endpoint.failWhen().isPresent()
              ? jsonAt(endpoint, held(endpoint, body, where, check), where, rows)
              : JsonAtRows.read(endpoint, bounded(endpoint), body, where, rows);
      case DOCUMENT -> document(held(endpoint, body, where, check), where, rows);
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
        if (parser.currentToken() != JsonToken.START_OBJECT) {
          throw new SourceException(
              where + ": element " + count + " of the array is not a JSON object");
        }
        out.reset();
        try (JsonGenerator generator = JSON.createGenerator(out)) {
          BoundedElement.copy(parser, generator, endpoint.maxPageBytes());
        } catch (BoundedElement.TooLong e) {
          throw elementTooLong(endpoint, where, count);
        } catch (StreamConstraintsException e) {
          if (parser.currentToken() == JsonToken.VALUE_STRING) {
            throw elementTooLong(endpoint, where, count);
          }
          throw new SourceException(
              where + ": element " + count + " passes a limit of the JSON parser (nesting depth)");
        }
        if (out.size() > endpoint.maxPageBytes()) {
          throw elementTooLong(endpoint, where, count);
        }
        rows.accept(RawRecord.of(out.toByteArray()));
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

  /** A parser whose strings are bounded as a streamed element is ({@link BoundedElement}). */
  private static JsonFactory bounded(Endpoint endpoint) {
    return JsonFactory.builder()
        .streamReadConstraints(
            StreamReadConstraints.builder()
                .maxStringLength((int) Math.min(Integer.MAX_VALUE, endpoint.maxPageBytes()))
                .build())
        .build();
  }

  private static SourceException elementTooLong(Endpoint endpoint, String where, long index) {
    return elementTooLong(endpoint, where, "element " + index);
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

  private static Page ndjson(Endpoint endpoint, InputStream body, String where, Rows rows)
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
        if (emit(record, length, where + ": line " + line, rows)) {
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
    if (emit(record, length, where + ": line " + (line + 1), rows)) {
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
  private static boolean emit(byte[] record, int length, String where, Rows rows)
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
    checkObject(copy, where);
    rows.accept(RawRecord.of(copy));
    return true;
  }

  private static void checkObject(byte[] record, String where) throws SourceException {
    try (JsonParser parser = JSON.createParser(record)) {
      if (parser.nextToken() != JsonToken.START_OBJECT) {
        throw new SourceException(where + " is not a JSON object");
      }
      parser.skipChildren();
      if (parser.nextToken() != null) {
        throw new SourceException(where + " holds more than one JSON value");
      }
    } catch (JsonProcessingException e) {
      throw new SourceException(where + " is not valid JSON");
    } catch (IOException e) {
      throw new SourceException(where + " could not be read", e);
    }
  }

  private static Page csv(Endpoint endpoint, InputStream body, String where, Rows rows)
      throws SourceException, IOException, InterruptedException {
    CsvLines lines =
        new CsvLines(
            new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8)),
            endpoint.maxPageBytes());
    Optional<List<String>> header = lines.next(where);
    if (header.isEmpty()) {
      return new Page(0, Optional.empty());
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
      JsonNode tree = TREE.readTree(bytes);
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
      if (!item.isObject()) {
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

  private static Page document(JsonNode tree, String where, Rows rows)
      throws SourceException, InterruptedException, JsonProcessingException {
    if (!tree.isObject()) {
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
            } else {
              quoted = false;
              reader.reset();
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
