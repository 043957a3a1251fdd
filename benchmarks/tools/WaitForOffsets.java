import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Waits until the end offsets of TOPIC add up to at least TARGET, then prints the epoch
 * millisecond it saw that: how benchmarks/scripts/throughput.sh times Kafka Connect, which never
 * exits by itself.
 *
 * <p>Usage: java -cp 'lib/*' WaitForOffsets.java BOOTSTRAP TOPIC TARGET TIMEOUT_SECS
 */
public class WaitForOffsets {
  public static void main(String[] args) throws InterruptedException {
    String topic = args[1];
    long target = Long.parseLong(args[2]);
    long deadline = System.currentTimeMillis() + Long.parseLong(args[3]) * 1000;
    Properties props = new Properties();
    props.put("bootstrap.servers", args[0]);
    props.put("allow.auto.create.topics", "false");
    props.put("key.deserializer", ByteArrayDeserializer.class.getName());
    props.put("value.deserializer", ByteArrayDeserializer.class.getName());
    try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props)) {
      while (System.currentTimeMillis() < deadline) {
        List<TopicPartition> partitions;
        try {
          partitions =
              consumer.partitionsFor(topic, Duration.ofSeconds(1)).stream()
                  .map(info -> new TopicPartition(topic, info.partition()))
                  .collect(Collectors.toList());
        } catch (org.apache.kafka.common.errors.TimeoutException e) {
          partitions = List.of(); // the topic does not exist yet
        }
        if (!partitions.isEmpty()) {
          Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
          long sum = ends.values().stream().mapToLong(Long::longValue).sum();
          if (sum >= target) {
            System.out.println(System.currentTimeMillis());
            return;
          }
        }
        Thread.sleep(100);
      }
    }
    System.err.println("WaitForOffsets: " + topic + " did not reach " + target + " records");
    System.exit(1);
  }
}
