package dfe.fetcher.runtime.config;

import dfe.fetcher.runtime.transport.FileRotation;
import dfe.fetcher.source.config.ConfigOrigin;
import dfe.fetcher.source.config.Problems;
import dfe.fetcher.source.config.Secret;
import dfe.fetcher.source.config.Section;
import dfe.fetcher.source.config.YamlNode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Binds {@code output} (type, topic suffix, file, kafka) and {@code output.batch}. */
final class OutputBinding {

  static final List<String> OUTPUT_KEYS = List.of("type", "topic_suffix", "file", "kafka", "batch");
  static final List<String> OUTPUT_FILE_KEYS =
      List.of("directory", "rotate_bytes", "rotate_secs", "retain_files", "retain_secs");
  static final List<String> OUTPUT_KAFKA_KEYS =
      List.of(
          "bootstrap_servers", "properties", "create_topics", "partitions", "replication_factor");
  static final List<String> BATCH_KEYS = List.of("max_rows", "max_bytes", "linger_ms");

  private static final int MAX_INT = Integer.MAX_VALUE;

  /** Ten years: a longer age limit is a typo, and keeps {@code Instant} arithmetic in range. */
  private static final long MAX_SECONDS = 10L * 366 * 24 * 3600;

  private final ConfigBinding root;
  private final Problems problems;

  OutputBinding(ConfigBinding root, Problems problems) {
    this.root = root;
    this.problems = problems;
  }

  OutputConfig output(Section output) {
    OutputType type = OutputType.FILE;
    Optional<String> typeName = output.string("type");
    if (typeName.isPresent()) {
      Optional<OutputType> named =
          Arrays.stream(OutputType.values())
              .filter(t -> t.configName().equals(typeName.get()))
              .findFirst();
      if (named.isPresent()) {
        type = named.get();
      } else {
        problems.add(
            output.originOf("type"),
            output.pathOf("type"),
            "unknown output type '" + typeName.get() + "'; one of file, kafka");
      }
    }
    String suffix = output.string("topic_suffix", OutputConfig.DEFAULT_TOPIC_SUFFIX);
    TopicNames.check(
        suffix, output.originOf("topic_suffix"), output.pathOf("topic_suffix"), true, problems);

    Section file = output.section("file", OUTPUT_FILE_KEYS);
    Path directory = root.directory(file, "directory", "./landing");
    FileRotation rotation = rotation(file);

    Section kafka = output.section("kafka", OUTPUT_KAFKA_KEYS);
    String bootstrap =
        kafka.string("bootstrap_servers", KafkaOutput.DEFAULT_BOOTSTRAP_SERVERS).trim();
    checkBootstrapServers(bootstrap, kafka.originOf("bootstrap_servers"), kafka);
    Map<String, Secret> properties = new LinkedHashMap<>();
    for (YamlNode.Entry property : kafka.namedEntries("properties").orElse(List.of())) {
      String at = Section.join(kafka.pathOf("properties"), property.key());
      if (property.key().equals("bootstrap.servers")) {
        problems.add(
            property.keyOrigin(),
            at,
            "set output.kafka.bootstrap_servers instead of this property");
        continue;
      }
      if (property.key().equals("transactional.id")) {
        problems.add(
            property.keyOrigin(),
            at,
            "the fetcher's producer is idempotent, not transactional: with a transactional.id"
                + " every send outside a transaction fails; remove it");
        continue;
      }
      propertyValue(property.value(), at)
          .ifPresent(secret -> properties.put(property.key(), secret));
    }
    boolean createTopics = kafka.bool("create_topics", false);
    int partitions = (int) kafka.integer("partitions", KafkaOutput.DEFAULT_PARTITIONS, 1, 100_000);
    short replication =
        (short) kafka.integer("replication_factor", KafkaOutput.BROKER_DEFAULT_REPLICATION, -1, 32);
    if (replication == 0) {
      problems.add(
          kafka.originOf("replication_factor"),
          kafka.pathOf("replication_factor"),
          "must be at least 1, or -1 for the broker's default");
    }
    return new OutputConfig(
        type,
        suffix,
        directory,
        rotation,
        new KafkaOutput(bootstrap, properties, createTopics, partitions, replication));
  }

  /** {@code output.file}'s rotation and retention; 0 switches each limit off. */
  private static FileRotation rotation(Section file) {
    FileRotation defaults = FileRotation.DEFAULT;
    return new FileRotation(
        file.integer("rotate_bytes", defaults.rotateBytes(), 0, Long.MAX_VALUE),
        Duration.ofSeconds(
            file.integer("rotate_secs", defaults.rotateAge().toSeconds(), 0, MAX_SECONDS)),
        file.smallInteger("retain_files", defaults.retainFiles(), 0, 1_000_000),
        Duration.ofSeconds(
            file.integer("retain_secs", defaults.retainAge().toSeconds(), 0, MAX_SECONDS)));
  }

  /** A Kafka property's value as a secret spec; numbers and booleans are taken as their text. */
  private Optional<Secret> propertyValue(YamlNode value, String at) {
    if (!(value instanceof YamlNode.Scalar scalar)) {
      problems.add(
          value.origin(), at, "must be a string, number or boolean, not " + value.description());
      return Optional.empty();
    }
    String text =
        switch (scalar.kind()) {
          case BOOLEAN ->
              scalar.isFromEnvironment() ? scalar.text() : Boolean.toString(scalar.bool());
          case NULL -> scalar.isFromEnvironment() ? scalar.text() : null;
          default -> scalar.text();
        };
    if (text == null) {
      problems.add(scalar.origin(), at, "needs a value");
      return Optional.empty();
    }
    return root.secret(text, scalar.origin(), at);
  }

  BatchConfig batch(Section batch) {
    return new BatchConfig(
        batch.smallInteger("max_rows", BatchConfig.DEFAULT.maxRows(), 1, MAX_INT),
        batch.integer("max_bytes", BatchConfig.DEFAULT.maxBytes(), 1, Long.MAX_VALUE),
        batch.integer("linger_ms", BatchConfig.DEFAULT.lingerMillis(), 0, Long.MAX_VALUE));
  }

  private void checkBootstrapServers(String servers, ConfigOrigin origin, Section kafka) {
    boolean valid = !servers.isEmpty();
    for (String server : servers.split(",", -1)) {
      valid &= ConfigBinding.HostAndPort.parse(server.trim(), 1).isPresent();
    }
    if (!valid) {
      problems.add(
          origin,
          kafka.pathOf("bootstrap_servers"),
          "'"
              + servers
              + "' is not a comma-separated list of HOST:PORT, e.g. 10.0.0.1:9092,10.0.0.2:9092");
    }
  }
}
