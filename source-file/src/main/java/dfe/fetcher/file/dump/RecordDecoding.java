package dfe.fetcher.file.dump;

import dfe.fetcher.core.oversize.OversizePolicy;
import dfe.fetcher.core.row.Row;
import dfe.fetcher.core.row.RowKey;
import java.io.IOException;
import java.io.InputStream;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The decoders of a file dump on their own, without a unit, a tick or a sink: what the decoding
 * benchmark measures. A dump reads files through {@link FileDumpSource}, never through this.
 */
public final class RecordDecoding {

  /** The formats a file can be decoded as, once {@code auto} is resolved. */
  public enum Format {
    NDJSON(RecordFormat.NDJSON),
    JSON_ARRAY(RecordFormat.JSON_ARRAY),
    CSV(RecordFormat.CSV);

    private final RecordFormat format;

    Format(RecordFormat format) {
      this.format = format;
    }
  }

  private RecordDecoding() {}

  /**
   * Decodes every record of {@code content} (which this closes) under the default oversize policy,
   * handing each one's content to {@code each}; the count decoded.
   *
   * @throws IOException when the content is not what the format requires, or cannot be read
   */
  public static long decodeAll(Format format, InputStream content, Consumer<Row.Content> each)
      throws IOException {
    RecordBytes record = new RecordBytes(OversizePolicy.DEFAULT, Optional.<RowKey>empty());
    long count = 0;
    try (RecordReader reader = format.format.reader(content, record)) {
      for (RecordReader.DecodedRecord next = reader.next(); next != null; next = reader.next()) {
        each.accept(next.content());
        count++;
      }
    }
    return count;
  }
}
