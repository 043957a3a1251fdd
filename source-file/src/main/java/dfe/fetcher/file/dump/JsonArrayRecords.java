package dfe.fetcher.file.dump;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import dfe.fetcher.core.envelope.FrameCodec;
import java.io.IOException;
import java.io.InputStream;
import java.io.Writer;

/**
 * A file that is one JSON array, streamed element by element with Jackson's streaming parser: the
 * whole file is never a tree, only the current element is held.
 *
 * <p>Each element is re-emitted compactly with a {@link JsonGenerator} (the parser does not hand
 * out an element's original bytes): whitespace between tokens goes and string escapes may be
 * spelled differently, but the value is the same JSON value, and numbers keep their exact text
 * ({@code 1.50e+3} stays {@code 1.50e+3}, no detour through {@code double}).
 *
 * <p>The re-emitted bytes go through {@link RecordBytes}, so an element longer than {@code
 * max_record_bytes} is measured exactly but not held: it comes out as a {@link
 * dfe.fetcher.core.row.Row.NotKept}. A long string is handed from the parser's segmented buffer to
 * the output in chunks, never joined into one array: the parser still holds the string being read
 * as characters (about twice its UTF-8 size), which is what bounds memory for such a file.
 *
 * <p>An element may nest at most {@link FrameCodec#MAX_RECORD_DEPTH} deep. An empty file, or one
 * holding only whitespace, has no records. Anything but an array at the top, or anything after the
 * array, is an error.
 */
final class JsonArrayRecords implements RecordReader {

  /** Strings longer than this many chars are streamed to the output rather than copied whole. */
  private static final int LONG_STRING_CHARS = 64 * 1024;

  private final JsonFactory json;
  private final JsonParser parser;
  private final RecordBytes record;
  private boolean started;
  private boolean finished;

  JsonArrayRecords(InputStream in, RecordBytes record) throws IOException {
    // No cap on a string's length: a long string makes the element oversize, which RecordBytes
    // measures. The array itself is one level above its elements.
    this.json =
        JsonFactory.builder()
            .streamReadConstraints(
                StreamReadConstraints.builder()
                    .maxStringLength(Integer.MAX_VALUE)
                    .maxNestingDepth(FrameCodec.MAX_RECORD_DEPTH + 1)
                    .build())
            // As RecordBytes writes a long string: a character outside the BMP as its UTF-8.
            .enable(JsonWriteFeature.COMBINE_UNICODE_SURROGATES_IN_UTF8)
            .build();
    this.parser = json.createParser(in);
    this.record = record;
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
      copyCurrentValue(line);
      return new DecodedRecord(record.content(), line);
    } catch (StreamConstraintsException e) {
      // The constraint's exception carries no location; the parser stands just past the opening
      // that went one level too deep.
      throw new InvalidRecordException(
          parser.currentLocation().getLineNr(),
          Math.max(1, parser.currentLocation().getColumnNr() - 1),
          "the element nests deeper than "
              + FrameCodec.MAX_RECORD_DEPTH
              + " levels, so its frame could not be read",
          null);
    } catch (JsonProcessingException e) {
      throw InvalidRecordException.refusedByParser(e, "JSON", line());
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

  /** Re-emits the value starting at the current token; leaves the parser on its last token. */
  private void copyCurrentValue(long line) throws IOException {
    record.reset();
    try (JsonGenerator generator = json.createGenerator(record)) {
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
          case VALUE_STRING -> writeString(generator);
          // The number's text as written; writeNumber(String) emits it raw.
          case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> generator.writeNumber(parser.getText());
          case VALUE_TRUE -> generator.writeBoolean(true);
          case VALUE_FALSE -> generator.writeBoolean(false);
          case VALUE_NULL -> generator.writeNull();
          default ->
              throw new InvalidRecordException(
                  tokenLine(), "unexpected " + token + " in a JSON array element");
        }
      } while (depth > 0 && parser.nextToken() != null);
    }
  }

  /**
   * Writes the current string. A long one goes past the generator in chunks: the generator writes
   * the separator before it ({@code writeRawValue("")}), then the escaped content follows.
   */
  private void writeString(JsonGenerator generator) throws IOException {
    // Finishes reading the token into the parser's segmented buffer without joining it.
    int length = parser.getTextLength();
    if (length <= LONG_STRING_CHARS) {
      generator.writeString(parser.getTextCharacters(), parser.getTextOffset(), length);
      return;
    }
    generator.writeRawValue("");
    generator.flush();
    record.write('"');
    Writer content = record.jsonStringContent();
    parser.getText(content);
    content.flush();
    record.write('"');
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
