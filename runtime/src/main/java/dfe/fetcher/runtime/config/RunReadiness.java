package dfe.fetcher.runtime.config;

import dfe.fetcher.runtime.transport.ProducerSettings;
import dfe.fetcher.source.config.BoundSecrets;
import dfe.fetcher.source.config.ConfigOrigin;
import dfe.fetcher.source.config.Problems;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.KafkaException;

/**
 * What a run would only find when it starts or ticks, found at load for {@code config-check}: a
 * secret a run uses that cannot be read now (an unset variable, an unreadable file), and a Kafka
 * property the producer refuses. Each is reported at the place it is written. A secret of a
 * disabled connection, or of the Kafka output while the file output is chosen, is not used by a run
 * and not reported; the Kafka properties are still checked by the producer's rules, with the values
 * that can be read.
 */
final class RunReadiness {

  private static final String KAFKA_PROPERTIES = "output.kafka.properties.";

  private final FetcherConfig config;
  private final List<BoundSecrets.Entry> secrets;
  private final Problems problems;

  RunReadiness(FetcherConfig config, BoundSecrets secrets, Problems problems) {
    this.config = config;
    this.secrets = secrets.entries();
    this.problems = problems;
  }

  void check() {
    for (BoundSecrets.Entry entry : secrets) {
      if (!usedByARun(entry.path())) {
        continue;
      }
      entry
          .secret()
          .unavailability()
          .ifPresent(why -> problems.add(entry.origin(), entry.path(), withoutPath(why, entry)));
    }
    checkProducerProperties();
  }

  private boolean usedByARun(String path) {
    if (path.startsWith("output.kafka.")) {
      return config.output().type() == OutputType.KAFKA;
    }
    for (ConnectionConfig connection : config.connections()) {
      if (path.startsWith("sources." + connection.family() + "." + connection.id() + ".")) {
        return connection.enabled();
      }
    }
    return true;
  }

  /** The reason as it reads after the problem's path: without the setting's name again. */
  private static String withoutPath(String why, BoundSecrets.Entry entry) {
    String prefix = entry.secret().setting() + ": ";
    return why.startsWith(prefix) ? why.substring(prefix.length()) : why;
  }

  private void checkProducerProperties() {
    Map<String, String> readable = new LinkedHashMap<>();
    Map<String, ConfigOrigin> origins = new LinkedHashMap<>();
    for (BoundSecrets.Entry entry : secrets) {
      if (entry.path().startsWith(KAFKA_PROPERTIES)) {
        String name = entry.path().substring(KAFKA_PROPERTIES.length());
        origins.put(name, entry.origin());
        entry
            .secret()
            .unavailability()
            .ifPresentOrElse(why -> {}, () -> readable.put(name, entry.secret().reveal()));
      }
    }
    try {
      ProducerSettings.of(
          config.output().kafka().bootstrapServers(), readable, config.oversize().maxRecordBytes());
    } catch (KafkaException e) {
      // Kafka's message quotes the value, which may be a secret: name the property only.
      String message = String.valueOf(e.getMessage());
      Optional<String> property = readable.keySet().stream().filter(message::contains).findFirst();
      problems.add(
          property.map(origins::get).orElse(new ConfigOrigin.InFile(config.configFile(), 0, 0)),
          property.map(name -> KAFKA_PROPERTIES + name).orElse("output.kafka.properties"),
          "not accepted by the Kafka producer ("
              + e.getClass().getSimpleName()
              + "); check its name and value");
    } catch (IllegalArgumentException e) {
      // The record limit is reported where oversize is bound.
    }
  }
}
