package dfe.fetcher.file.dump;

import dfe.fetcher.envelope.RawRecord;
import java.io.Closeable;
import java.io.IOException;

/**
 * Pulls the records of one file, one at a time, holding at most one record and bounded buffers.
 * Pulling (rather than pushing into the sink) keeps the decoders free of the sink's exceptions, so
 * those propagate from {@link FileDumpSource} untouched.
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
   * @param json the record's JSON bytes
   * @param line the line it starts on, 1-based
   */
  record DecodedRecord(RawRecord json, long line) {}
}
