package dfe.fetcher.config;

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
 */
public record KafkaOutput(String bootstrapServers, Map<String, Secret> properties) {

  public static final String DEFAULT_BOOTSTRAP_SERVERS = "127.0.0.1:9092";

  public KafkaOutput {
    Objects.requireNonNull(bootstrapServers, "bootstrapServers");
    properties = Collections.unmodifiableMap(new LinkedHashMap<>(properties));
  }
}
