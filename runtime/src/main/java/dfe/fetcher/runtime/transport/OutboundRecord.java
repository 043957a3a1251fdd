package dfe.fetcher.runtime.transport;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One message for a topic.
 *
 * @param topic the destination topic, suffix included
 * @param key the message key (envelope frames: the store; tail records: the row key)
 * @param value the message bytes: an enriched frame, an enriched record, or a DLQ entry
 * @param headers routing headers, e.g. {@code dfe-kind}
 */
public record OutboundRecord(
    String topic, Optional<byte[]> key, byte[] value, List<Header> headers) {

  public OutboundRecord {
    Objects.requireNonNull(topic, "topic");
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(value, "value");
    headers = List.copyOf(headers);
  }

  /** A message header; values are UTF-8 text. */
  public record Header(String name, String value) {}
}
