package dfe.fetcher.file.dump;

import java.io.IOException;
import java.io.InputStream;

/** A concrete way to decode a file, once {@link Decoder#AUTO} has been resolved for it. */
enum RecordFormat {
  NDJSON,
  JSON_ARRAY,
  CSV;

  /**
   * A reader of {@code content}, which it owns and closes, producing each record into {@code
   * record}.
   */
  RecordReader reader(InputStream content, RecordBytes record) throws IOException {
    return switch (this) {
      case NDJSON -> new NdjsonRecords(content, record);
      case JSON_ARRAY -> new JsonArrayRecords(content, record);
      case CSV -> new CsvRecords(content, record);
    };
  }
}
