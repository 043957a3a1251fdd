package dfe.fetcher.runtime.transport;

import dfe.fetcher.runtime.config.FetcherConfig;
import dfe.fetcher.runtime.config.KafkaOutput;
import dfe.fetcher.source.config.Secret;
import dfe.fetcher.source.config.SecretUnavailableException;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.common.KafkaException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The transport a configuration's {@code output} names, opened or only checked. */
public final class ConfiguredTransport {

  private static final Logger LOG = LoggerFactory.getLogger("dfe.fetcher.output");

  private ConfiguredTransport() {}

  /**
   * The transport {@code output.type} names; the file output tells {@code fileEvents} of its
   * rotations and deletions.
   *
   * @throws IllegalArgumentException when a Kafka property's secret cannot be read or the producer
   *     refuses a property (the message names the property and where its value was to come from,
   *     never the value)
   */
  public static Transport open(FetcherConfig config, FileOutputEvents fileEvents) {
    return switch (config.output().type()) {
      case FILE ->
          new FileTransport(
              config.output().fileDirectory(),
              config.output().fileRotation(),
              Clock.systemUTC(),
              fileEvents);
      case KAFKA -> {
        KafkaOutput kafka = config.output().kafka();
        Map<String, String> properties = checkedKafkaProperties(config);
        LOG.info(
            "event=kafka_output bootstrap_servers={} properties={} create_topics={}",
            kafka.bootstrapServers(),
            properties.keySet(),
            kafka.createTopics());
        yield new KafkaTransport(
            kafka.bootstrapServers(),
            properties,
            config.oversize().maxRecordBytes(),
            new TopicCreation(kafka.createTopics(), kafka.partitions(), kafka.replicationFactor()));
      }
    };
  }

  /** The Kafka properties with their secrets revealed, accepted by the producer's config. */
  private static Map<String, String> checkedKafkaProperties(FetcherConfig config) {
    KafkaOutput kafka = config.output().kafka();
    Map<String, String> properties = new LinkedHashMap<>();
    for (Map.Entry<String, Secret> property : kafka.properties().entrySet()) {
      try {
        properties.put(property.getKey(), property.getValue().reveal());
      } catch (SecretUnavailableException e) {
        throw new IllegalArgumentException(
            "output.kafka.properties." + property.getKey() + ": " + e.getMessage(), e);
      }
    }
    try {
      ProducerSettings.of(kafka.bootstrapServers(), properties, config.oversize().maxRecordBytes());
    } catch (KafkaException e) {
      // Kafka's message quotes the value, which may be a secret: name the property only.
      String message = String.valueOf(e.getMessage());
      String property =
          properties.keySet().stream()
              .filter(message::contains)
              .findFirst()
              .map(name -> "output.kafka.properties." + name)
              .orElse("output.kafka.properties");
      throw new IllegalArgumentException(
          property
              + ": not accepted by the Kafka producer ("
              + e.getClass().getSimpleName()
              + "); check its name and value",
          e);
    }
    return properties;
  }
}
