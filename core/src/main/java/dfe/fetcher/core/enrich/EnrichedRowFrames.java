package dfe.fetcher.core.enrich;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import dfe.fetcher.core.envelope.AsciiLong;
import dfe.fetcher.core.envelope.Frame;
import dfe.fetcher.core.envelope.RowFrameEncoder;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * The enriched row frames of one unit, written straight into the message's array: the frame's head
 * comes from the snapshot's {@link RowFrameEncoder} and the unit's constant enrichment members
 * ({@code _source}, {@code _source_fetcher}) are escaped once, here, and the two times once a
 * millisecond, so a row costs one copy of its record and its seq. The bytes are exactly those of
 * {@link Enrichment#enrichFrame} over {@code FrameCodec.encode} of the same frame with the same
 * {@link EnrichmentFields}.
 *
 * <p>Not thread-safe: it keeps the last times it wrote; one unit's tick uses it.
 */
public final class EnrichedRowFrames {

  private static final byte[] TIMESTAMP_FETCHER = ascii(",\"_timestamp_fetcher\":");
  private static final byte[] TIMESTAMP_RECEIVED = ascii(",\"_timestamp_received\":");

  /** {@code ,"_source":"...","_source_fetcher":"..."}} with the strings escaped. */
  private final byte[] constantTail;

  // The last tail written (see #tail) and the times it holds.
  private byte[] lastTail;
  private long lastFetcherMillis;
  private long lastReceivedMillis;

  /**
   * @param source the topic without the deployment's suffix, as {@link EnrichmentFields#source}
   * @param sourceFetcher {@code <connection>.<unit>}, as {@link EnrichmentFields#sourceFetcher}
   */
  public EnrichedRowFrames(String source, String sourceFetcher) {
    JsonStringEncoder strings = JsonStringEncoder.getInstance();
    ByteArrayOutputStream tail = new ByteArrayOutputStream(64);
    tail.writeBytes(ascii(",\"" + EnrichmentFields.SOURCE + "\":\""));
    tail.writeBytes(strings.quoteAsUTF8(source));
    tail.writeBytes(ascii("\",\"" + EnrichmentFields.SOURCE_FETCHER + "\":\""));
    tail.writeBytes(strings.quoteAsUTF8(sourceFetcher));
    tail.writeBytes(ascii("\"}"));
    this.constantTail = tail.toByteArray();
  }

  /**
   * The message value of {@code row}, written by {@code encoder} (which must {@linkplain
   * RowFrameEncoder#writes write} its head), with the enrichment members for the two times.
   */
  public byte[] enrich(
      RowFrameEncoder encoder,
      Frame.Row row,
      long timestampFetcherMillis,
      long timestampReceivedMillis) {
    long seq = row.head().seq();
    byte[] record = row.record().bytes();
    byte[] tail = tail(timestampFetcherMillis, timestampReceivedMillis);
    byte[] out = new byte[encoder.openLength(seq, record.length) + tail.length];
    int at = encoder.writeOpen(seq, record, out, 0);
    put(tail, out, at);
    return out;
  }

  /**
   * What follows the record: the two times and the constant members. The rows of a dump are
   * enriched many to a millisecond, so the last one written is kept and reused while both times are
   * the same.
   */
  private byte[] tail(long timestampFetcherMillis, long timestampReceivedMillis) {
    if (lastTail == null
        || timestampFetcherMillis != lastFetcherMillis
        || timestampReceivedMillis != lastReceivedMillis) {
      byte[] tail =
          new byte
              [TIMESTAMP_FETCHER.length
                  + AsciiLong.length(timestampFetcherMillis)
                  + TIMESTAMP_RECEIVED.length
                  + AsciiLong.length(timestampReceivedMillis)
                  + constantTail.length];
      int at = put(TIMESTAMP_FETCHER, tail, 0);
      at = AsciiLong.write(timestampFetcherMillis, tail, at);
      at = put(TIMESTAMP_RECEIVED, tail, at);
      at = AsciiLong.write(timestampReceivedMillis, tail, at);
      put(constantTail, tail, at);
      lastTail = tail;
      lastFetcherMillis = timestampFetcherMillis;
      lastReceivedMillis = timestampReceivedMillis;
    }
    return lastTail;
  }

  private static int put(byte[] chunk, byte[] dest, int at) {
    System.arraycopy(chunk, 0, dest, at, chunk.length);
    return at + chunk.length;
  }

  private static byte[] ascii(String text) {
    return text.getBytes(StandardCharsets.US_ASCII);
  }
}
