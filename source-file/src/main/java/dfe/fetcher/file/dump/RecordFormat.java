package dfe.fetcher.file.dump;

import java.io.IOException;
import java.io.InputStream;

/** A concrete way to decode a file, once {@link Decoder#AUTO} has been resolved for it. */
enum RecordFormat {
  NDJSON,
  JSON_ARRAY,
  CSV;

  /** A reader of {@code content}, which it owns and closes. */
  RecordReader reader(InputStream content, int maxRecordBytes) throws IOException {
    return switch (this) {
      case NDJSON -> new NdjsonRecords(content, maxRecordBytes);
      case JSON_ARRAY -> new JsonArrayRecords(content, maxRecordBytes);
      case CSV -> new CsvRecords(content, maxRecordBytes);
    };
  }
}
