package dfe.fetcher.runtime.config;

import dfe.fetcher.core.row.Shape;
import dfe.fetcher.runtime.transport.FileRotation;
import java.nio.file.Path;
import java.util.Objects;

/**
 * {@code output}: the transport and how topic names are made.
 *
 * @param type file (default) or kafka
 * @param topicSuffix appended to every data topic, not to the DLQ topic (default {@code _land}; may
 *     be empty)
 * @param fileDirectory {@code output.file.directory}, absolute (default {@code ./landing} next to
 *     the config file)
 * @param fileRotation {@code output.file.rotate_bytes}, {@code rotate_secs}, {@code retain_files}
 *     and {@code retain_secs}
 * @param kafka {@code output.kafka}
 */
public record OutputConfig(
    OutputType type,
    String topicSuffix,
    Path fileDirectory,
    FileRotation fileRotation,
    KafkaOutput kafka) {

  public static final String DEFAULT_TOPIC_SUFFIX = "_land";

  public OutputConfig {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(topicSuffix, "topicSuffix");
    Objects.requireNonNull(fileDirectory, "fileDirectory");
    Objects.requireNonNull(fileRotation, "fileRotation");
    Objects.requireNonNull(kafka, "kafka");
  }

  /**
   * The topic a unit lands on: {@code <topic>-<unit><suffix>} for a dump unit, {@code
   * <topic><suffix>} for a tail one.
   */
  public String topicOf(String connectionTopic, String unit, Shape shape) {
    return sourceOf(connectionTopic, unit, shape) + topicSuffix;
  }

  /** The topic without the suffix: the enrichment field {@code _source}. */
  public String sourceOf(String connectionTopic, String unit, Shape shape) {
    return switch (shape) {
      case DUMP -> connectionTopic + "-" + unit;
      case TAIL -> connectionTopic;
    };
  }
}
