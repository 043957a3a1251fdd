package dfe.fetcher.row;

import java.util.OptionalLong;

/**
 * Where a {@link RowSource} pushes what it reads; the driver implements it.
 *
 * <p>A dump source brackets each part (one file, one read of a table, one tick of an endpoint) with
 * {@link #beginPart} and {@link #endPart}; the driver opens a snapshot at {@code beginPart} and
 * closes it (end frame, flush, acknowledgement, checkpoint) at {@code endPart}. An incremental
 * source calls only {@link #row}, each row carrying its mark, and {@link #advance} when it reached
 * a position without rows.
 *
 * <p>Any exception a sink method throws (the transport failed, the service is stopping) must
 * propagate out of {@link RowSource#read} unchanged: the source closes what it opened and reads no
 * further.
 */
public interface RowSink {

  /** A dump part starts; {@code total} is the part's row count when the source knows it. */
  void beginPart(OptionalLong total) throws InterruptedException;

  /** One row. */
  void row(Row row) throws InterruptedException;

  /** The part was read completely; {@code mark} is the checkpoint once its frames are landed. */
  void endPart(Mark mark) throws InterruptedException;

  /** An incremental unit reached {@code mark} with no further rows (a window with no records). */
  void advance(Mark mark) throws InterruptedException;
}
