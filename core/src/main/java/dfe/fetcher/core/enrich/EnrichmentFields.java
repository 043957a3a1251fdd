package dfe.fetcher.core.enrich;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;

/**
 * The four fields the pipeline adds to every frame and every tail record, in the order they are
 * written: {@code _timestamp_fetcher}, {@code _timestamp_received}, {@code _source}, {@code
 * _source_fetcher}.
 *
 * @param timestampFetcherMillis epoch milliseconds when the row was read from the source
 * @param timestampReceivedMillis epoch milliseconds when the row was enriched
 * @param source the topic the row lands on, without the deployment's suffix
 * @param sourceFetcher {@code <connection>.<unit>}, which tells two instances sharing a topic apart
 */
public record EnrichmentFields(
    long timestampFetcherMillis,
    long timestampReceivedMillis,
    String source,
    String sourceFetcher) {

  public static final String TIMESTAMP_FETCHER = "_timestamp_fetcher";
  public static final String TIMESTAMP_RECEIVED = "_timestamp_received";
  public static final String SOURCE = "_source";
  public static final String SOURCE_FETCHER = "_source_fetcher";

  /** The keys, in the order they are written. */
  public static final List<String> KEYS =
      List.of(TIMESTAMP_FETCHER, TIMESTAMP_RECEIVED, SOURCE, SOURCE_FETCHER);

  private static final JsonStringEncoder STRINGS = JsonStringEncoder.getInstance();

  public EnrichmentFields {
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(sourceFetcher, "sourceFetcher");
  }

  /**
   * The four members as JSON, {@code "_timestamp_fetcher":...,"_source_fetcher":"..."}, without
   * braces or a leading comma, the strings escaped.
   */
  public byte[] members() {
    ByteArrayOutputStream out =
        new ByteArrayOutputStream(96 + source.length() + sourceFetcher.length());
    writeKey(out, TIMESTAMP_FETCHER);
    writeAscii(out, Long.toString(timestampFetcherMillis));
    out.write(',');
    writeKey(out, TIMESTAMP_RECEIVED);
    writeAscii(out, Long.toString(timestampReceivedMillis));
    out.write(',');
    writeKey(out, SOURCE);
    writeString(out, source);
    out.write(',');
    writeKey(out, SOURCE_FETCHER);
    writeString(out, sourceFetcher);
    return out.toByteArray();
  }

  private static void writeKey(ByteArrayOutputStream out, String key) {
    writeString(out, key);
    out.write(':');
  }

  private static void writeString(ByteArrayOutputStream out, String text) {
    out.write('"');
    out.writeBytes(STRINGS.quoteAsUTF8(text));
    out.write('"');
  }

  private static void writeAscii(ByteArrayOutputStream out, String text) {
    out.writeBytes(text.getBytes(StandardCharsets.US_ASCII));
  }
}
