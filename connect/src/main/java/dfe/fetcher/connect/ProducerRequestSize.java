package dfe.fetcher.connect;

import dfe.fetcher.runtime.config.FetcherConfig;
import dfe.fetcher.runtime.transport.ProducerSettings;
import java.util.Map;
import java.util.Optional;

/**
 * The worker's producer must take every frame the fetcher sends: a record up to {@code
 * oversize.max_record_bytes} plus the envelope's room. The standalone service sizes its producer so
 * itself; on Connect the connector's {@code producer.override.max.request.size} (or the producer's
 * default, 1 MiB) does, and a frame above it would fail the task where standalone lands it. So a
 * request size too small for the oversize policy is refused when the connector is validated or
 * started.
 */
final class ProducerRequestSize {

  static final String OVERRIDE = "producer.override.max.request.size";

  /** The Kafka producer's default {@code max.request.size}. */
  static final long PRODUCER_DEFAULT = 1_048_576;

  private ProducerRequestSize() {}

  /** The problem with the properties' request size for {@code config}, if any. */
  static Optional<String> refused(Map<String, String> properties, FetcherConfig config) {
    long needed = config.oversize().maxRecordBytes() + ProducerSettings.ENVELOPE_ROOM_BYTES;
    String given = properties.get(OVERRIDE);
    long size;
    if (given == null || given.isBlank()) {
      size = PRODUCER_DEFAULT;
    } else {
      try {
        size = Long.parseLong(given.trim());
      } catch (NumberFormatException e) {
        return Optional.of(OVERRIDE + "=" + given.trim() + ": must be a number of bytes");
      }
    }
    if (size >= needed) {
      return Optional.empty();
    }
    return Optional.of(
        (given == null || given.isBlank()
                ? OVERRIDE + " is not set, so the producer's default " + PRODUCER_DEFAULT
                : OVERRIDE + "=" + size)
            + " is smaller than a frame may be: oversize.max_record_bytes "
            + config.oversize().maxRecordBytes()
            + " + "
            + ProducerSettings.ENVELOPE_ROOM_BYTES
            + " bytes of envelope = "
            + needed
            + "; a frame above it would fail the task; set "
            + OVERRIDE
            + " to at least "
            + needed
            + ", or lower max_record_bytes");
  }
}
