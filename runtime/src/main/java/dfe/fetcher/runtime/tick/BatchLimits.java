package dfe.fetcher.runtime.tick;

/**
 * When the driver hands a batch to the transport: at {@code maxRows} records, at {@code maxBytes}
 * bytes of values, or once the oldest record waited {@code lingerMillis} (checked as records
 * arrive); and always at the end of a dump part and of a tick.
 */
public record BatchLimits(int maxRows, long maxBytes, long lingerMillis) {

  public static final BatchLimits DEFAULT = new BatchLimits(500, 1 << 20, 1000);

  public BatchLimits {
    if (maxRows < 1 || maxBytes < 1 || lingerMillis < 0) {
      throw new IllegalArgumentException(
          "batch limits must be positive: " + maxRows + " rows, " + maxBytes + " bytes");
    }
  }
}
