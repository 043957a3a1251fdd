package dfe.fetcher.runtime.config;

import dfe.fetcher.runtime.transport.FileRotation;
import dfe.fetcher.source.SourceUnit;
import dfe.fetcher.source.config.Secret;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The short human summary {@code config-check} prints for a valid configuration: the instance,
 * where records go, and every connection with its units, their topics and intervals. It never holds
 * a secret's value: Kafka properties are listed by name with where their value comes from (and
 * whether that source is available now), never with the value, whatever the property.
 */
public final class ConfigSummary {

  private ConfigSummary() {}

  /** {@code output.file}'s rotation and retention in words. */
  private static String rotation(FileRotation rotation) {
    if (!rotation.rotates()) {
      return "none, one growing file per topic";
    }
    List<String> when = new ArrayList<>();
    if (rotation.rotateBytes() > 0) {
      when.add("at " + rotation.rotateBytes() + " bytes");
    }
    if (!rotation.rotateAge().isZero()) {
      when.add("after " + rotation.rotateAge().toSeconds() + "s");
    }
    List<String> kept = new ArrayList<>();
    if (rotation.retainFiles() > 0) {
      kept.add("the newest " + rotation.retainFiles() + " rotated files per topic kept");
    }
    if (!rotation.retainAge().isZero()) {
      kept.add("rotated files deleted " + rotation.retainAge().toSeconds() + "s after rotation");
    }
    if (kept.isEmpty()) {
      kept.add("every rotated file kept");
    }
    return String.join(" or ", when) + ", " + String.join(", ", kept);
  }

  /** The summary, one fact a line, ending with a line break. */
  public static String render(FetcherConfig config) {
    List<String> lines = new ArrayList<>();
    lines.add("config: " + config.configFile());
    lines.add("instance: " + config.instanceId());
    lines.add(
        "scheduler: every "
            + config.scheduler().defaultIntervalSecs()
            + "s unless a connection says otherwise, at most "
            + config.scheduler().maxConcurrentFetches()
            + " fetches at once"
            + (config.scheduler().jitterPercent() == 0
                ? ""
                : ", each connection's ticks shifted by up to "
                    + config.scheduler().jitterPercent()
                    + "% of its interval"));
    OutputConfig output = config.output();
    String suffix = "topic suffix '" + output.topicSuffix() + "'";
    switch (output.type()) {
      case FILE -> {
        lines.add("output: file, into " + output.fileDirectory() + ", " + suffix);
        lines.add("file rotation: " + rotation(output.fileRotation()));
      }
      case KAFKA ->
          lines.add("output: kafka, to " + output.kafka().bootstrapServers() + ", " + suffix);
    }
    // Listed with the file output too: output.kafka is checked whichever output is chosen.
    if (!output.kafka().properties().isEmpty()) {
      lines.add("kafka properties: " + properties(output.kafka().properties()));
    }
    BatchConfig batch = config.batch();
    lines.add(
        "batches: up to "
            + batch.maxRows()
            + " rows or "
            + batch.maxBytes()
            + " bytes, flushed after "
            + batch.lingerMillis()
            + " ms");
    lines.add(
        "dlq: " + (config.dlq().enabled() ? "enabled, topic " + config.dlq().topic() : "disabled"));
    lines.add(
        "oversize: records over "
            + config.oversize().maxRecordBytes()
            + " bytes become stubs; the DLQ keeps their first "
            + config.oversize().maxDlqBytes()
            + " bytes");
    lines.add("cursors: " + config.checkpointDirectory());
    lines.add(
        "metrics: "
            + config.metrics().address()
            + (config.metrics().port() == 0 ? " (any free port)" : ""));
    lines.add("connections: " + config.connections().size());
    for (ConnectionConfig connection : config.connections()) {
      lines.add(
          "  "
              + connection.family()
              + " "
              + connection.id()
              + (connection.enabled() ? "" : " (disabled)")
              + ": every "
              + config.intervalOf(connection).toSeconds()
              + "s"
              + (connection.intervalSecs().isPresent() ? "" : " (scheduler default)")
              + connection.filter().map(f -> ", filter " + f).orElse(", no filter"));
      for (SourceUnit unit : connection.source().units()) {
        lines.add(
            "    unit "
                + unit.unit()
                + (unit.enabled() ? "" : " (disabled)")
                + ": "
                + unit.shape().name().toLowerCase(Locale.ROOT)
                + " to topic "
                + config.topicOf(connection, unit)
                + ", store "
                + connection.spec(unit).store()
                + unit.rowKey().map(k -> ", row_key " + k).orElse(""));
        for (String detail : unit.details()) {
          lines.add("      " + detail);
        }
      }
    }
    return String.join(System.lineSeparator(), lines) + System.lineSeparator();
  }

  private static String properties(Map<String, Secret> properties) {
    List<String> described = new ArrayList<>();
    properties.forEach(
        (name, secret) ->
            described.add(
                name
                    + " ("
                    + secret.describe()
                    + secret.unavailability().map(why -> ", unavailable").orElse("")
                    + ")"));
    return String.join(", ", described);
  }
}
