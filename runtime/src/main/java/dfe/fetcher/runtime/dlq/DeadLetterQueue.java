package dfe.fetcher.runtime.dlq;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dfe.fetcher.runtime.transport.OutboundRecord;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Builds dead-letter entries for {@code dlq.topic} (no suffix appended): {@code
 * {"timestamp":ms,"service":"dfe-fetcher","reason":"...","store":"...","seq":n|null,
 * "destination":"<topic>","payload":"<base64 of the cut bytes>"}}. The caller sends them with the
 * unit's other messages; a DLQ write that fails fails the tick like any other send.
 */
public final class DeadLetterQueue {

  private static final JsonFactory JSON = new JsonFactory();

  private final String topic;
  private final Clock clock;

  public DeadLetterQueue(String topic, Clock clock) {
    this.topic = topic;
    this.clock = clock;
  }

  public String topic() {
    return topic;
  }

  /**
   * An entry for a record that did not land on {@code destination}.
   *
   * @param seq the stub's seq for a dump row, empty for a tail record
   * @param payload the bytes kept (already cut to {@code max_dlq_bytes})
   */
  public OutboundRecord entry(
      String reason, String store, OptionalLong seq, String destination, byte[] payload) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(payload.length * 4 / 3 + 256);
    try (JsonGenerator json = JSON.createGenerator(bytes)) {
      json.writeStartObject();
      json.writeNumberField("timestamp", clock.millis());
      json.writeStringField("service", "dfe-fetcher");
      json.writeStringField("reason", reason);
      json.writeStringField("store", store);
      if (seq.isPresent()) {
        json.writeNumberField("seq", seq.getAsLong());
      } else {
        json.writeNullField("seq");
      }
      json.writeStringField("destination", destination);
      json.writeFieldName("payload");
      json.writeBinary(payload);
      json.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException("encoding a DLQ entry in memory failed", e);
    }
    return new OutboundRecord(
        topic, Optional.of(store.getBytes(StandardCharsets.UTF_8)), bytes.toByteArray(), List.of());
  }
}
