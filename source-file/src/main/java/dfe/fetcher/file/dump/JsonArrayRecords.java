package dfe.fetcher.file.dump;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.util.ByteArrayBuilder;
import dfe.fetcher.envelope.RawRecord;
import java.io.IOException;
import java.io.InputStream;

/**
 * A file that is one JSON array, streamed element by element with Jackson's streaming parser: the
 * whole file is never a tree, only the current element is held.
 *
 * <p>Each element is re-emitted compactly with a {@link JsonGenerator} (the parser does not hand
 * out an element's original bytes): whitespace between tokens goes and string escapes may be
 * spelled differently, but the value is the same JSON value, and numbers keep their exact text
 * ({@code 1.50e+3} stays {@code 1.50e+3}, no detour through {@code double}).
 *
 * <p>An empty file, or one holding only whitespace, has no records. Anything but an array at the
 * top, or anything after the array, is an error.
 */
final class JsonArrayRecords implements RecordReader {

  private final JsonFactory json;
  private final JsonParser parser;
  private final int maxRecordBytes;
  private boolean started;
  private boolean finished;

  JsonArrayRecords(InputStream in, int maxRecordBytes) throws IOException {
    // Jackson's own cap on a string's length (20 M characters) would refuse a record that our
    // limit allows; the limit on the record covers it.
    this.json =
        JsonFactory.builder()
            .streamReadConstraints(
                StreamReadConstraints.builder().maxStringLength(maxRecordBytes).build())
            .build();
    this.parser = json.createParser(in);
    this.maxRecordBytes = maxRecordBytes;
  }

  @Override
  public DecodedRecord next() throws IOException {
    if (finished) {
      return null;
    }
    try {
      if (!started) {
        started = true;
        JsonToken first = parser.nextToken();
        if (first == null) {
          finished = true;
          return null;
        }
        if (first != JsonToken.START_ARRAY) {
          throw new InvalidRecordException(
              tokenLine(),
              "expected the file to be one JSON array, found " + describe(first) + " instead");
        }
      }
      JsonToken token = parser.nextToken();
      if (token == JsonToken.END_ARRAY) {
        finished = true;
        JsonToken after = parser.nextToken();
        if (after != null) {
          throw new InvalidRecordException(
              tokenLine(), "more content after the JSON array: " + describe(after));
        }
        return null;
      }
      long line = tokenLine();
      return new DecodedRecord(RawRecord.of(copyCurrentValue(line)), line);
    } catch (JsonProcessingException e) {
      throw new InvalidRecordException(
          e.getLocation() == null ? line() : e.getLocation().getLineNr(),
          "not valid JSON: "
              + e.getOriginalMessage()
              + (e.getLocation() == null ? "" : " (column " + e.getLocation().getColumnNr() + ")"),
          e);
    }
  }

  @Override
  public long line() {
    return parser.currentLocation().getLineNr();
  }

  @Override
  public void close() {
    try {
      parser.close(); // closes the stream as well
    } catch (IOException ignored) {
      // See RecordReader.close: nothing read is lost by a failed close.
    }
  }

  /** Copies the value starting at the current token; leaves the parser on its last token. */
  private byte[] copyCurrentValue(long line) throws IOException {
    ByteArrayBuilder out = new ByteArrayBuilder();
    try (JsonGenerator generator = json.createGenerator(out)) {
      int depth = 0;
      do {
        JsonToken token = parser.currentToken();
        switch (token) {
          case START_OBJECT -> {
            generator.writeStartObject();
            depth++;
          }
          case END_OBJECT -> {
            generator.writeEndObject();
            depth--;
          }
          case START_ARRAY -> {
            generator.writeStartArray();
            depth++;
          }
          case END_ARRAY -> {
            generator.writeEndArray();
            depth--;
          }
          case FIELD_NAME -> generator.writeFieldName(parser.currentName());
          case VALUE_STRING ->
              generator.writeString(
                  parser.getTextCharacters(), parser.getTextOffset(), parser.getTextLength());
          // The number's text as written; writeNumber(String) emits it raw.
          case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> generator.writeNumber(parser.getText());
          case VALUE_TRUE -> generator.writeBoolean(true);
          case VALUE_FALSE -> generator.writeBoolean(false);
          case VALUE_NULL -> generator.writeNull();
          default ->
              throw new InvalidRecordException(
                  tokenLine(), "unexpected " + token + " in a JSON array element");
        }
        // The generator flushes to `out` every few kilobytes, so this bounds the element's size
        // before it is all in memory.
        if (out.size() > maxRecordBytes) {
          throw new InvalidRecordException(
              line, "the element is larger than the largest record (" + maxRecordBytes + " bytes)");
        }
      } while (depth > 0 && parser.nextToken() != null);
    }
    if (out.size() > maxRecordBytes) {
      throw new InvalidRecordException(
          line, "the element is larger than the largest record (" + maxRecordBytes + " bytes)");
    }
    return out.toByteArray();
  }

  private long tokenLine() {
    return parser.currentTokenLocation().getLineNr();
  }

  private static String describe(JsonToken token) {
    return switch (token) {
      case START_OBJECT -> "an object";
      case START_ARRAY -> "an array";
      case VALUE_STRING -> "a string";
      case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> "a number";
      case VALUE_TRUE, VALUE_FALSE -> "a boolean";
      case VALUE_NULL -> "null";
      default -> token.asString() == null ? token.name() : "'" + token.asString() + "'";
    };
  }
}
