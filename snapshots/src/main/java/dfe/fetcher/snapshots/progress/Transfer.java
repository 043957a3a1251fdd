package dfe.fetcher.snapshots.progress;

import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * The counters a reading command moves as it goes: rows and bytes, and the byte total once the
 * sizes of its files are known. Counting is a {@link LongAdder} increment, so the path that reads
 * stays as fast with progress shown as without; {@link #reading} is for the thread that draws.
 * Thread-safe.
 */
public final class Transfer {

  private final LongAdder rows = new LongAdder();
  private final LongAdder bytes = new LongAdder();
  private final AtomicLong totalBytes = new AtomicLong(-1);

  /** One row handled. */
  public void row() {
    rows.increment();
  }

  /** {@code count} more bytes read. */
  public void read(long count) {
    bytes.add(count);
  }

  /** {@code size} more bytes to read in all (a file about to be read). */
  public void expect(long size) {
    totalBytes.accumulateAndGet(size, (total, more) -> total < 0 ? more : total + more);
  }

  /** Where the counters stand now. */
  public Reading reading() {
    long total = totalBytes.get();
    return Reading.ofBytes(
        rows.sum(), bytes.sum(), total < 0 ? OptionalLong.empty() : OptionalLong.of(total));
  }
}
