package dfe.fetcher.file.dump;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.dataformat.csv.CsvFactory;
import com.fasterxml.jackson.dataformat.csv.CsvParser;
import java.io.IOException;
import java.io.InputStream;
import java.io.Writer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * CSV (RFC 4180: comma-separated, {@code "}-quoted, UTF-8) with a header row. Each later row is one
 * record: a JSON object whose keys are the header's column names in header order and whose values
 * are the row's fields as JSON strings, exactly as written (no trimming, no type guessing).
 *
 * <ul>
 *   <li>A row with more fields than the header is an error naming its line.
 *   <li>A row with fewer fields has the missing trailing columns absent from its object, not set to
 *       {@code ""}: an empty field that was written ({@code a,,c}) stays distinguishable from one
 *       that was not there at all.
 *   <li>Empty lines are skipped. A header naming a column twice is an error (the object would have
 *       a duplicate key).
 *   <li>An empty file, or one with only a header, has no records.
 * </ul>
 *
 * <p>Lines are physical lines: a row whose quoted field spans lines starts on the line given.
 *
 * <p>The object goes through {@link RecordBytes}, so a row longer than {@code max_record_bytes} is
 * measured exactly but not held: it comes out as a {@link dfe.fetcher.core.row.Row.NotKept}, its
 * {@code row_key} found when the key's column comes before the kept bytes run out. Jackson's CSV
 * parser holds the field being read whole (as characters and as a string, about three times its
 * UTF-8 size), which is what bounds memory for such a file; a long field is escaped into the output
 * in chunks, never copied again.
 */
final class CsvRecords implements RecordReader {

  // As RecordBytes writes a long field: a character outside the BMP as its UTF-8.
  private static final JsonFactory JSON =
      JsonFactory.builder().enable(JsonWriteFeature.COMBINE_UNICODE_SURROGATES_IN_UTF8).build();

  /** Fields longer than this many chars are escaped into the output in chunks. */
  private static final int LONG_FIELD_CHARS = 64 * 1024;

  private final CsvParser parser;
  private final RecordBytes record;
  private List<String> header;

  CsvRecords(InputStream in, RecordBytes record) throws IOException {
    // No cap on a field's length: a long field makes the row oversize, which RecordBytes measures.
    CsvFactory csv =
        CsvFactory.builder()
            .enable(CsvParser.Feature.SKIP_EMPTY_LINES)
            .streamReadConstraints(
                StreamReadConstraints.builder().maxStringLength(Integer.MAX_VALUE).build())
            .build();
    // Without a schema the parser exposes each row as an array of strings; the header is read
    // here rather than by Jackson so that extra and missing fields are ours to judge.
    this.parser = csv.createParser(in);
    this.record = record;
  }

  @Override
  public DecodedRecord next() throws IOException {
    try {
      if (header == null) {
        header = readHeader();
        if (header == null) {
          return null;
        }
      }
      if (parser.nextToken() == null) {
        return null;
      }
      return readRow();
    } catch (JsonProcessingException e) {
      throw InvalidRecordException.refusedByParser(e, "CSV", line());
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

  /** The column names, or null when the file has no rows at all. */
  private List<String> readHeader() throws IOException {
    if (parser.nextToken() == null) {
      return null;
    }
    List<String> names = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    long line = -1;
    while (parser.nextToken() == JsonToken.VALUE_STRING) {
      if (line < 0) {
        line = tokenLine();
      }
      String name = parser.getText();
      if (!seen.add(name)) {
        throw new InvalidRecordException(
            line, "the header names the column \"" + name + "\" more than once");
      }
      names.add(name);
    }
    return names;
  }

  /** The row whose START_ARRAY the parser is on. */
  private DecodedRecord readRow() throws IOException {
    record.reset();
    long line = -1;
    int fields = 0;
    try (JsonGenerator generator = JSON.createGenerator(record)) {
      generator.writeStartObject();
      while (parser.nextToken() == JsonToken.VALUE_STRING) {
        // The array's own token carries a stale location; the first field's is the row's line.
        if (line < 0) {
          line = tokenLine();
        }
        if (fields < header.size()) {
          generator.writeFieldName(header.get(fields));
          writeField(generator, parser.getText());
        }
        fields++;
      }
      generator.writeEndObject();
    }
    if (line < 0) {
      line = line();
    }
    if (fields > header.size()) {
      throw new InvalidRecordException(
          line, "the row has " + fields + " fields, the header has " + header.size());
    }
    return new DecodedRecord(record.content(), line);
  }

  /**
   * Writes one field as a JSON string. A long one goes past the generator in chunks: the generator
   * writes the separator before it ({@code writeRawValue("")}), then the escaped content follows.
   */
  private void writeField(JsonGenerator generator, String value) throws IOException {
    if (value.length() <= LONG_FIELD_CHARS) {
      generator.writeString(value);
      return;
    }
    generator.writeRawValue("");
    generator.flush();
    record.write('"');
    Writer content = record.jsonStringContent();
    content.write(value);
    content.flush();
    record.write('"');
  }

  private long tokenLine() {
    return parser.currentTokenLocation().getLineNr();
  }
}
