import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Sends N records shaped as the fetcher's row frames on Kafka, from one loop and nothing else: the
 * value a frame of FRAMES (cycled), the key STORE, and the three headers the fetcher writes on
 * every frame ({@code dfe-kind}, {@code dfe-snapshot-id}, {@code dfe-seq}), with the producer
 * settings the fetcher uses by default (lz4, linger.ms=5, batch.size=262144, idempotent, acks=all).
 * With {@code bare} it sends the same values without key or headers, as ProducerPerformance does.
 * benchmarks/scripts/throughput.sh times it as the limit the fetcher's records themselves set: what
 * Kafka's producer costs for exactly what the fetcher sends, without any of the fetcher's own work.
 *
 * <p>Usage: java -cp 'lib/*:classes' FetcherRecordsProducer BOOTSTRAP TOPIC N FRAMES STORE [bare]
 */
public class FetcherRecordsProducer {
  public static void main(String[] args) throws IOException, InterruptedException {
    String topic = args[1];
    long n = Long.parseLong(args[2]);
    List<byte[]> values =
        Files.readAllLines(Path.of(args[3]), StandardCharsets.UTF_8).stream()
            .map(line -> line.getBytes(StandardCharsets.UTF_8))
            .toList();
    byte[] key = args[4].getBytes(StandardCharsets.UTF_8);
    boolean bare = args.length > 5 && args[5].equals("bare");
    byte[] kind = "row".getBytes(StandardCharsets.UTF_8);
    byte[] snapshotId = UUID.randomUUID().toString().getBytes(StandardCharsets.UTF_8);

    Map<String, Object> settings = new HashMap<>();
    settings.put("bootstrap.servers", args[0]);
    settings.put("compression.type", "lz4");
    settings.put("linger.ms", 5);
    settings.put("batch.size", 262144);
    settings.put("enable.idempotence", true);
    settings.put("acks", "all");
    settings.put("key.serializer", ByteArraySerializer.class);
    settings.put("value.serializer", ByteArraySerializer.class);

    AtomicLong acknowledged = new AtomicLong();
    AtomicReference<Exception> failure = new AtomicReference<>();
    try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(settings)) {
      for (long seq = 0; seq < n && failure.get() == null; seq++) {
        byte[] value = values.get((int) (seq % values.size()));
        ProducerRecord<byte[], byte[]> record;
        if (bare) {
          record = new ProducerRecord<>(topic, value);
        } else {
          record = new ProducerRecord<>(topic, null, key, value);
          record.headers().add(new RecordHeader("dfe-kind", kind));
          record.headers().add(new RecordHeader("dfe-snapshot-id", snapshotId));
          record.headers()
              .add(
                  new RecordHeader(
                      "dfe-seq", Long.toString(seq).getBytes(StandardCharsets.UTF_8)));
        }
        producer.send(
            record,
            (metadata, error) -> {
              if (error != null) {
                failure.compareAndSet(null, error);
              } else {
                acknowledged.incrementAndGet();
              }
            });
      }
      producer.flush();
    }
    if (failure.get() != null || acknowledged.get() != n) {
      System.err.printf(
          "FetcherRecordsProducer: %d of %d records acknowledged: %s%n",
          acknowledged.get(), n, failure.get());
      System.exit(1);
    }
    System.out.printf("%d records sent%n", acknowledged.get());
  }
}
