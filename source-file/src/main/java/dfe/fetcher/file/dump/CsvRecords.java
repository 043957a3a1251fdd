package dfe.fetcher.file.dump;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.util.ByteArrayBuilder;
import com.fasterxml.jackson.dataformat.csv.CsvFactory;
import com.fasterxml.jackson.dataformat.csv.CsvParser;
import dfe.fetcher.envelope.RawRecord;
import java.io.IOException;
import java.io.InputStream;
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
 */
final class CsvRecords implements RecordReader {

  private static final JsonFactory JSON = new JsonFactory();

  private final CsvParser parser;
  private final int maxRecordBytes;
  private List<String> header;

  CsvRecords(InputStream in, int maxRecordBytes) throws IOException {
    CsvFactory csv =
        CsvFactory.builder()
            .enable(CsvParser.Feature.SKIP_EMPTY_LINES)
            .streamReadConstraints(
                StreamReadConstraints.builder().maxStringLength(maxRecordBytes).build())
            .build();
    // Without a schema the parser exposes each row as an array of strings; the header is read
    // here rather than by Jackson so that extra and missing fields are ours to judge.
    this.parser = csv.createParser(in);
    this.maxRecordBytes = maxRecordBytes;
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
      throw new InvalidRecordException(
          e.getLocation() == null ? line() : e.getLocation().getLineNr(),
          "not valid CSV: " + e.getOriginalMessage(),
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
    ByteArrayBuilder out = new ByteArrayBuilder();
    long line = -1;
    int fields = 0;
    try (JsonGenerator generator = JSON.createGenerator(out)) {
      generator.writeStartObject();
      while (parser.nextToken() == JsonToken.VALUE_STRING) {
        // The array's own token carries a stale location; the first field's is the row's line.
        if (line < 0) {
          line = tokenLine();
        }
        if (fields < header.size()) {
          generator.writeFieldName(header.get(fields));
          generator.writeString(
              parser.getTextCharacters(), parser.getTextOffset(), parser.getTextLength());
          if (out.size() > maxRecordBytes) {
            throw new InvalidRecordException(
                line, "the row is larger than the largest record (" + maxRecordBytes + " bytes)");
          }
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
    if (out.size() > maxRecordBytes) {
      throw new InvalidRecordException(
          line, "the row is larger than the largest record (" + maxRecordBytes + " bytes)");
    }
    return new DecodedRecord(RawRecord.of(out.toByteArray()), line);
  }

  private long tokenLine() {
    return parser.currentTokenLocation().getLineNr();
  }
}
