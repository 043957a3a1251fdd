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
 * ({@code _source}, {@code _source_fetcher}) are escaped once, here, so a row costs one copy of its
 * record and two numbers. The bytes are exactly those of {@link Enrichment#enrichFrame} over {@code
 * FrameCodec.encode} of the same frame with the same {@link EnrichmentFields}.
 *
 * <p>Immutable and thread-safe.
 */
public final class EnrichedRowFrames {

  private static final byte[] TIMESTAMP_FETCHER = ascii(",\"_timestamp_fetcher\":");
  private static final byte[] TIMESTAMP_RECEIVED = ascii(",\"_timestamp_received\":");

  /** {@code ,"_source":"...","_source_fetcher":"..."}} with the strings escaped. */
  private final byte[] constantTail;

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
    int length =
        encoder.openLength(seq, record.length)
            + TIMESTAMP_FETCHER.length
            + AsciiLong.length(timestampFetcherMillis)
            + TIMESTAMP_RECEIVED.length
            + AsciiLong.length(timestampReceivedMillis)
            + constantTail.length;
    byte[] out = new byte[length];
    int at = encoder.writeOpen(seq, record, out, 0);
    at = put(TIMESTAMP_FETCHER, out, at);
    at = AsciiLong.write(timestampFetcherMillis, out, at);
    at = put(TIMESTAMP_RECEIVED, out, at);
    at = AsciiLong.write(timestampReceivedMillis, out, at);
    put(constantTail, out, at);
    return out;
  }

  private static int put(byte[] chunk, byte[] dest, int at) {
    System.arraycopy(chunk, 0, dest, at, chunk.length);
    return at + chunk.length;
  }

  private static byte[] ascii(String text) {
    return text.getBytes(StandardCharsets.US_ASCII);
  }
}
