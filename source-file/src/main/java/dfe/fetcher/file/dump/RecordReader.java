package dfe.fetcher.file.dump;

import dfe.fetcher.core.row.Row;
import java.io.Closeable;
import java.io.IOException;

/**
 * Pulls the records of one file, one at a time, holding at most one record (and of a record longer
 * than {@code max_record_bytes} only its first bytes) and bounded buffers. Pulling (rather than
 * pushing into the sink) keeps the decoders free of the sink's exceptions, so those propagate from
 * {@link FileDumpSource} untouched.
 */
sealed interface RecordReader extends Closeable
    permits NdjsonRecords, JsonArrayRecords, CsvRecords {

  /**
   * The next record, or {@code null} once the file ended cleanly.
   *
   * @throws InvalidRecordException when the content is not what the format requires
   * @throws IOException when the bytes cannot be read (including corrupt or truncated gzip)
   */
  DecodedRecord next() throws IOException;

  /** The line being read, for naming the place of a read error; 1-based. */
  long line();

  /**
   * Closes the file. Closing a file opened only for reading loses nothing, so a failure to close is
   * not reported: it says nothing about the records already read.
   */
  @Override
  void close();

  /**
   * One decoded record.
   *
   * @param content the record's JSON bytes, or its stand-in when it was too long to keep
   * @param line the line it starts on, 1-based
   */
  record DecodedRecord(Row.Content content, long line) {}
}
