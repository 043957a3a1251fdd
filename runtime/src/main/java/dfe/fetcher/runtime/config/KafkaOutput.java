package dfe.fetcher.runtime.config;

import dfe.fetcher.source.config.Secret;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * {@code output.kafka}: the brokers and extra producer properties. Read whatever {@code
 * output.type} is, so a kafka section is checked before it is switched on.
 *
 * @param bootstrapServers comma-separated {@code host:port} list (default {@code 127.0.0.1:9092})
 * @param properties extra Kafka producer properties in file order; every value is a {@link Secret}
 *     spec so that passwords and JAAS configs can come from the environment or a file
 * @param createTopics whether the fetcher creates a missing topic before its first send (default
 *     false: topics are the cluster operator's to create)
 * @param partitions partitions of a topic the fetcher creates (default 1)
 * @param replicationFactor replication of a topic the fetcher creates; -1 takes the broker's {@code
 *     default.replication.factor} (the default)
 */
public record KafkaOutput(
    String bootstrapServers,
    Map<String, Secret> properties,
    boolean createTopics,
    int partitions,
    short replicationFactor) {

  public static final String DEFAULT_BOOTSTRAP_SERVERS = "127.0.0.1:9092";
  public static final int DEFAULT_PARTITIONS = 1;
  public static final short BROKER_DEFAULT_REPLICATION = -1;

  /** Brokers and properties with the topic-creation defaults. */
  public KafkaOutput(String bootstrapServers, Map<String, Secret> properties) {
    this(bootstrapServers, properties, false, DEFAULT_PARTITIONS, BROKER_DEFAULT_REPLICATION);
  }

  public KafkaOutput {
    Objects.requireNonNull(bootstrapServers, "bootstrapServers");
    properties = Collections.unmodifiableMap(new LinkedHashMap<>(properties));
  }
}
