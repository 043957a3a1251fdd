package dfe.fetcher.runtime.config;

/**
 * {@code output.batch}: when the batcher hands what it holds to the transport. A batch is flushed
 * as soon as any limit is reached; a single record larger than {@code maxBytes} goes alone.
 *
 * @param maxRows at least 1 (default 500)
 * @param maxBytes serialised bytes, at least 1 (default 1 MiB)
 * @param lingerMillis how long the first record of a batch may wait; 0 flushes every record at once
 *     (default 1000)
 */
public record BatchConfig(int maxRows, long maxBytes, long lingerMillis) {

  public static final BatchConfig DEFAULT = new BatchConfig(500, 1_048_576, 1_000);
}
