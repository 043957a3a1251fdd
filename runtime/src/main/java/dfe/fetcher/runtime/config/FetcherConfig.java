package dfe.fetcher.runtime.config;

import dfe.fetcher.core.oversize.OversizePolicy;
import dfe.fetcher.source.SourceUnit;
import dfe.fetcher.source.config.Secret;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * A loaded, validated configuration. Every path in it is absolute (relative ones in the file are
 * resolved against the file's directory), every default is filled in, and secrets are {@link
 * Secret}s that are resolved only when revealed. {@link #toString()} holds no secret.
 *
 * @param instanceId names this instance in checkpoint keys {@code <instance>.<connection>.<unit>}
 *     (default {@code default})
 * @param batch {@code output.batch}
 * @param connections every family's connections under {@code sources}, in file order
 * @param configFile the file it was loaded from, absolute
 */
public record FetcherConfig(
    String instanceId,
    SchedulerConfig scheduler,
    OutputConfig output,
    DlqConfig dlq,
    OversizePolicy oversize,
    CursorConfig cursor,
    MetricsConfig metrics,
    BatchConfig batch,
    List<ConnectionConfig> connections,
    Path configFile) {

  public static final String DEFAULT_INSTANCE_ID = "default";

  public FetcherConfig {
    Objects.requireNonNull(instanceId, "instanceId");
    Objects.requireNonNull(scheduler, "scheduler");
    Objects.requireNonNull(output, "output");
    Objects.requireNonNull(dlq, "dlq");
    Objects.requireNonNull(oversize, "oversize");
    Objects.requireNonNull(cursor, "cursor");
    Objects.requireNonNull(metrics, "metrics");
    Objects.requireNonNull(batch, "batch");
    connections = List.copyOf(connections);
    Objects.requireNonNull(configFile, "configFile");
  }

  /**
   * The topic {@code unit} of {@code connection} lands on: {@code <topic>-<unit><suffix>} for a
   * dump, {@code <topic><suffix>} for a tail.
   */
  /**
   * Where this configuration's checkpoints are kept: {@code cursor.directory} for the Kafka output,
   * its {@value #FILE_OUTPUT_CHECKPOINTS} subdirectory for the file output. A file output and a
   * Kafka cluster are different destinations: what one has landed says nothing about the other, so
   * a unit moved from one to the other starts over instead of skipping what the new one never
   * received.
   */
  public Path checkpointDirectory() {
    return switch (output.type()) {
      case KAFKA -> cursor.directory();
      case FILE -> cursor.directory().resolve(FILE_OUTPUT_CHECKPOINTS);
    };
  }

  /** The subdirectory of {@code cursor.directory} holding the file output's checkpoints. */
  public static final String FILE_OUTPUT_CHECKPOINTS = "file-output";

  public String topicOf(ConnectionConfig connection, SourceUnit unit) {
    return output.topicOf(connection.topic(), unit.unit(), unit.shape());
  }

  /** {@link #topicOf} without the suffix: the {@code _source} enrichment field. */
  public String sourceNameOf(ConnectionConfig connection, SourceUnit unit) {
    return output.sourceOf(connection.topic(), unit.unit(), unit.shape());
  }

  /** Time between two ticks of {@code connection}: its own interval or the scheduler default. */
  public Duration intervalOf(ConnectionConfig connection) {
    return Duration.ofSeconds(connection.intervalSecs().orElse(scheduler.defaultIntervalSecs()));
  }
}
