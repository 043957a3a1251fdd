package dfe.fetcher.runtime.config;

import java.util.Locale;

/** {@code output.type}: where landed records go. */
public enum OutputType {
  /** One {@code <topic>.ndjson} per topic under {@code output.file.directory}: the default. */
  FILE,
  /** Kafka topics on {@code output.kafka.bootstrap_servers}. */
  KAFKA;

  /** The name used in the configuration file. */
  public String configName() {
    return name().toLowerCase(Locale.ROOT);
  }
}
