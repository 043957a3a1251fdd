package dfe.fetcher.config;

import dfe.fetcher.oversize.OversizePolicy;
import dfe.fetcher.row.RowKey;
import dfe.fetcher.row.Shape;
import java.nio.file.FileSystems;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Binds the (overridden) tree to a {@link FetcherConfig}: the schema of the configuration file.
 * Every key a section allows is listed here, once; {@link #KNOWN_KEYS} gathers them for tests and
 * docs. Where a value is wrong the problem is reported and the default stands in, so binding goes
 * on and finds the rest; the result is only handed out when nothing was reported.
 */
final class ConfigBinding {

  static final List<String> ROOT_KEYS =
      List.of(
          "instance_id", "scheduler", "output", "dlq", "oversize", "cursor", "metrics", "sources");
  static final List<String> SCHEDULER_KEYS =
      List.of("default_interval_secs", "max_concurrent_fetches");
  static final List<String> OUTPUT_KEYS = List.of("type", "topic_suffix", "file", "kafka", "batch");
  static final List<String> OUTPUT_FILE_KEYS = List.of("directory");
  static final List<String> OUTPUT_KAFKA_KEYS =
      List.of(
          "bootstrap_servers", "properties", "create_topics", "partitions", "replication_factor");
  static final List<String> BATCH_KEYS = List.of("max_rows", "max_bytes", "linger_ms");
  static final List<String> DLQ_KEYS = List.of("enabled", "topic");
  static final List<String> OVERSIZE_KEYS = List.of("max_record_bytes", "max_dlq_bytes");
  static final List<String> CURSOR_KEYS = List.of("directory");
  static final List<String> METRICS_KEYS = List.of("address");
  static final List<String> SOURCES_KEYS = List.of("file", "db", "rest");

  /** The families this build reads: db and rest are refused as not supported yet. */
  static final List<String> SUPPORTED_SOURCES_KEYS = List.of("file");

  static final List<String> FILE_CONNECTION_KEYS =
      List.of("topic", "interval_secs", "enabled", "filter", "units");
  static final List<String> FILE_UNIT_KEYS = List.of("unit", "enabled", "row_key", "dump");
  static final List<String> FILE_DUMP_KEYS = List.of("paths", "decoder");

  /**
   * Every key name this build reads (not ids or Kafka property names, which the operator picks; not
   * the source families it refuses).
   */
  static final List<List<String>> KNOWN_KEYS =
      List.of(
          ROOT_KEYS,
          SCHEDULER_KEYS,
          OUTPUT_KEYS,
          OUTPUT_FILE_KEYS,
          OUTPUT_KAFKA_KEYS,
          BATCH_KEYS,
          DLQ_KEYS,
          OVERSIZE_KEYS,
          CURSOR_KEYS,
          METRICS_KEYS,
          SUPPORTED_SOURCES_KEYS,
          FILE_CONNECTION_KEYS,
          FILE_UNIT_KEYS,
          FILE_DUMP_KEYS);

  /** Source families the design names but this build does not read yet. */
  private static final List<String> UNSUPPORTED_FAMILIES = List.of("db", "rest");

  /** Kafka's limit on a topic name's length. */
  static final int MAX_TOPIC_LENGTH = 249;

  /** Instance, connection and unit names end up in store names and checkpoint file names. */
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_-]+");

  private static final Pattern TOPIC = Pattern.compile("[A-Za-z0-9._-]*");

  private static final int MAX_INT = Integer.MAX_VALUE;

  private final Path baseDirectory;
  private final Path configFile;
  private final Map<String, String> environment;
  private final FilterCompiler filters;
  private final Problems problems;

  ConfigBinding(
      Path configFile, Map<String, String> environment, FilterCompiler filters, Problems problems) {
    this.configFile = configFile.toAbsolutePath().normalize();
    this.baseDirectory = this.configFile.getParent();
    this.environment = environment;
    this.filters = filters;
    this.problems = problems;
  }

  FetcherConfig bind(Optional<YamlNode> root, ConfigOrigin rootOrigin) {
    Section top = Section.of(root, rootOrigin, "", ROOT_KEYS, problems);

    String instanceId = top.string("instance_id", FetcherConfig.DEFAULT_INSTANCE_ID);
    checkName(instanceId, top.originOf("instance_id"), "instance_id");

    Section scheduler = top.section("scheduler", SCHEDULER_KEYS);
    SchedulerConfig schedulerConfig =
        new SchedulerConfig(
            scheduler.smallInteger(
                "default_interval_secs", SchedulerConfig.DEFAULT.defaultIntervalSecs(), 1, MAX_INT),
            scheduler.smallInteger(
                "max_concurrent_fetches",
                SchedulerConfig.DEFAULT.maxConcurrentFetches(),
                1,
                MAX_INT));

    Section output = top.section("output", OUTPUT_KEYS);
    OutputConfig outputConfig = output(output);
    BatchConfig batchConfig = batch(output.section("batch", BATCH_KEYS));

    Section dlq = top.section("dlq", DLQ_KEYS);
    String dlqTopic = dlq.string("topic", DlqConfig.DEFAULT.topic());
    checkTopic(dlqTopic, dlq.originOf("topic"), dlq.pathOf("topic"), false);
    DlqConfig dlqConfig = new DlqConfig(dlq.bool("enabled", DlqConfig.DEFAULT.enabled()), dlqTopic);

    Section oversize = top.section("oversize", OVERSIZE_KEYS);
    OversizePolicy oversizePolicy =
        new OversizePolicy(
            oversize.integer(
                "max_record_bytes", OversizePolicy.DEFAULT.maxRecordBytes(), 1, MAX_INT),
            oversize.smallInteger(
                "max_dlq_bytes", OversizePolicy.DEFAULT.maxDlqBytes(), 0, MAX_INT));

    Section cursor = top.section("cursor", CURSOR_KEYS);
    CursorConfig cursorConfig = new CursorConfig(directory(cursor, "directory", "./state"));

    Section metrics = top.section("metrics", METRICS_KEYS);
    MetricsConfig metricsConfig = metrics(metrics);

    List<FileConnection> fileConnections =
        sources(top.section("sources", SOURCES_KEYS), outputConfig);

    return new FetcherConfig(
        instanceId,
        schedulerConfig,
        outputConfig,
        dlqConfig,
        oversizePolicy,
        cursorConfig,
        metricsConfig,
        batchConfig,
        fileConnections,
        configFile);
  }

  private OutputConfig output(Section output) {
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
    checkTopic(suffix, output.originOf("topic_suffix"), output.pathOf("topic_suffix"), true);

    Path directory = directory(output.section("file", OUTPUT_FILE_KEYS), "directory", "./landing");

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
        new KafkaOutput(bootstrap, properties, createTopics, partitions, replication));
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
    return secret(text, scalar.origin(), at);
  }

  private Optional<Secret> secret(String spec, ConfigOrigin origin, String at) {
    try {
      return Optional.of(Secret.parse(spec, at, environment, baseDirectory));
    } catch (IllegalArgumentException e) {
      problems.add(origin, at, e.getMessage());
      return Optional.empty();
    }
  }

  private BatchConfig batch(Section batch) {
    return new BatchConfig(
        batch.smallInteger("max_rows", BatchConfig.DEFAULT.maxRows(), 1, MAX_INT),
        batch.integer("max_bytes", BatchConfig.DEFAULT.maxBytes(), 1, Long.MAX_VALUE),
        batch.integer("linger_ms", BatchConfig.DEFAULT.lingerMillis(), 0, Long.MAX_VALUE));
  }

  private MetricsConfig metrics(Section metrics) {
    Optional<String> address = metrics.string("address");
    if (address.isEmpty()) {
      return MetricsConfig.DEFAULT;
    }
    Optional<HostAndPort> parsed = HostAndPort.parse(address.get(), 0);
    if (parsed.isEmpty()) {
      problems.add(
          metrics.originOf("address"),
          metrics.pathOf("address"),
          "'"
              + address.get()
              + "' is not HOST:PORT with a port from 0 to 65535 (0 picks any free port),"
              + " e.g. 127.0.0.1:9090 or [::1]:9090");
      return MetricsConfig.DEFAULT;
    }
    return new MetricsConfig(parsed.get().host(), parsed.get().port());
  }

  private void checkBootstrapServers(String servers, ConfigOrigin origin, Section kafka) {
    boolean valid = !servers.isEmpty();
    for (String server : servers.split(",", -1)) {
      valid &= HostAndPort.parse(server.trim(), 1).isPresent();
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

  private Path directory(Section section, String key, String fallback) {
    String text = section.string(key, fallback);
    if (text.isBlank()) {
      problems.add(section.originOf(key), section.pathOf(key), "must not be empty");
      return baseDirectory.resolve(fallback).normalize();
    }
    try {
      return baseDirectory.resolve(text).normalize();
    } catch (InvalidPathException e) {
      problems.add(section.originOf(key), section.pathOf(key), "is not a path: " + e.getReason());
      return baseDirectory.resolve(fallback).normalize();
    }
  }

  /** {@code sources}: every family's ids are checked for clashes; only {@code file} is bound. */
  private List<FileConnection> sources(Section sources, OutputConfig output) {
    Map<String, String> idsSeen = new HashMap<>();
    for (String family : UNSUPPORTED_FAMILIES) {
      sources
          .entry(family)
          .ifPresent(
              entry ->
                  problems.add(
                      entry.keyOrigin(),
                      sources.pathOf(family),
                      "is not supported by this build yet; only sources.file is"));
    }
    List<FileConnection> connections = new ArrayList<>();
    for (String family : SOURCES_KEYS) {
      String familyPath = sources.pathOf(family);
      for (YamlNode.Entry entry : sources.namedEntries(family).orElse(List.of())) {
        String id = entry.key();
        String at = Section.join(familyPath, id);
        checkName(id, entry.keyOrigin(), at);
        String firstUse = idsSeen.putIfAbsent(id, at + " (" + entry.keyOrigin().render() + ")");
        if (firstUse != null) {
          problems.add(
              entry.keyOrigin(),
              at,
              "connection id '"
                  + id
                  + "' is already used by "
                  + firstUse
                  + "; ids must be unique across sources.file, sources.db and sources.rest");
        }
        if (family.equals("file")) {
          connections.add(fileConnection(id, entry, at, output));
        }
      }
    }
    return connections;
  }

  private FileConnection fileConnection(
      String id, YamlNode.Entry entry, String at, OutputConfig output) {
    Section connection =
        Section.of(
            Optional.of(entry.value()), entry.keyOrigin(), at, FILE_CONNECTION_KEYS, problems);
    String topic = connection.requiredString("topic").orElse("");
    if (connection.node("topic").isPresent()) {
      checkTopic(topic, connection.originOf("topic"), connection.pathOf("topic"), false);
    }
    OptionalLong interval = connection.integer("interval_secs", 1, MAX_INT);
    boolean enabled = connection.bool("enabled", true);
    Optional<String> filter = connection.string("filter");
    filter.ifPresent(
        expression ->
            checkFilter(expression, connection.originOf("filter"), connection.pathOf("filter")));

    List<FileUnit> units = new ArrayList<>();
    Map<String, ConfigOrigin> unitNames = new HashMap<>();
    if (connection.require("units")) {
      List<YamlNode> items = connection.list("units").orElse(null);
      if (items != null && items.isEmpty()) {
        problems.add(
            connection.originOf("units"), connection.pathOf("units"), "needs at least one unit");
      }
      for (int i = 0; items != null && i < items.size(); i++) {
        String unitPath = connection.pathOf("units") + "[" + i + "]";
        Section unit =
            Section.of(
                Optional.of(items.get(i)),
                items.get(i).origin(),
                unitPath,
                FILE_UNIT_KEYS,
                problems);
        FileUnit bound = fileUnit(unit);
        if (!bound.unit().isEmpty()) {
          ConfigOrigin first = unitNames.putIfAbsent(bound.unit(), unit.originOf("unit"));
          if (first != null) {
            problems.add(
                unit.originOf("unit"),
                unit.pathOf("unit"),
                "duplicate unit name '"
                    + bound.unit()
                    + "' in this connection (first at "
                    + first.render()
                    + ")");
          }
        }
        String unitTopic = output.topicOf(topic, bound.unit(), Shape.DUMP);
        if (!topic.isEmpty() && unitTopic.length() > MAX_TOPIC_LENGTH) {
          problems.add(
              unit.originOf("unit"),
              unit.pathOf("unit"),
              "lands on topic '"
                  + unitTopic
                  + "', "
                  + unitTopic.length()
                  + " characters; Kafka allows "
                  + MAX_TOPIC_LENGTH);
        }
        units.add(bound);
      }
    }
    return new FileConnection(
        id,
        topic,
        interval.isPresent() ? OptionalInt.of((int) interval.getAsLong()) : OptionalInt.empty(),
        enabled,
        filter,
        units);
  }

  private void checkFilter(String expression, ConfigOrigin origin, String at) {
    if (expression.isBlank()) {
      problems.add(origin, at, "must not be empty; leave filter out to land every row");
      return;
    }
    try {
      filters
          .problem(expression)
          .ifPresent(problem -> problems.add(origin, at, "does not compile: " + problem));
    } catch (RuntimeException e) {
      problems.add(
          origin,
          at,
          "could not be checked: " + e.getClass().getSimpleName() + ": " + e.getMessage());
    }
  }

  private FileUnit fileUnit(Section unit) {
    String name = unit.requiredString("unit").orElse("");
    if (unit.node("unit").isPresent()) {
      checkName(name, unit.originOf("unit"), unit.pathOf("unit"));
    }
    boolean enabled = unit.bool("enabled", true);
    Optional<String> rowKey = unit.string("row_key");
    rowKey.ifPresent(
        pointer -> checkRowKey(pointer, unit.originOf("row_key"), unit.pathOf("row_key")));
    unit.require("dump");
    FileDump dump = fileDump(unit.section("dump", FILE_DUMP_KEYS));
    return new FileUnit(name, enabled, rowKey, dump);
  }

  private void checkRowKey(String pointer, ConfigOrigin origin, String at) {
    if (pointer.isEmpty()) {
      problems.add(
          origin, at, "must name a field, e.g. /id (an empty pointer is the whole record)");
      return;
    }
    try {
      RowKey.at(pointer);
    } catch (IllegalArgumentException e) {
      problems.add(origin, at, e.getMessage());
    }
  }

  private FileDump fileDump(Section dump) {
    List<String> paths = new ArrayList<>();
    if (dump.require("paths")) {
      List<YamlNode> items = dump.list("paths").orElse(null);
      if (items != null && items.isEmpty()) {
        problems.add(dump.originOf("paths"), dump.pathOf("paths"), "needs at least one path");
      }
      for (int i = 0; items != null && i < items.size(); i++) {
        String at = dump.pathOf("paths") + "[" + i + "]";
        YamlNode item = items.get(i);
        dump.text(item, at)
            .flatMap(pattern -> glob(pattern, item.origin(), at))
            .ifPresent(paths::add);
      }
    }
    FileDecoder decoder = FileDecoder.AUTO;
    Optional<String> decoderName = dump.string("decoder");
    if (decoderName.isPresent()) {
      Optional<FileDecoder> named =
          Arrays.stream(FileDecoder.values())
              .filter(d -> d.configName().equals(decoderName.get()))
              .findFirst();
      if (named.isPresent()) {
        decoder = named.get();
      } else {
        problems.add(
            dump.originOf("decoder"),
            dump.pathOf("decoder"),
            "unknown decoder '"
                + decoderName.get()
                + "'; one of "
                + String.join(
                    ", ",
                    Arrays.stream(FileDecoder.values()).map(FileDecoder::configName).toList()));
      }
    }
    return new FileDump(paths, decoder);
  }

  /** {@code pattern} made absolute against the config's directory, once its syntax is checked. */
  private Optional<String> glob(String pattern, ConfigOrigin origin, String at) {
    if (pattern.isBlank()) {
      problems.add(origin, at, "must not be empty");
      return Optional.empty();
    }
    try {
      String absolute = baseDirectory.resolve(pattern).normalize().toString();
      FileSystems.getDefault().getPathMatcher("glob:" + absolute);
      return Optional.of(absolute);
    } catch (InvalidPathException e) {
      problems.add(origin, at, "is not a path: " + e.getReason());
    } catch (PatternSyntaxException e) {
      problems.add(origin, at, "is not a valid glob: " + e.getDescription());
    }
    return Optional.empty();
  }

  private void checkName(String name, ConfigOrigin origin, String at) {
    if (name.isEmpty()) {
      problems.add(origin, at, "must not be empty");
    } else if (name.contains(".")) {
      problems.add(origin, at, "must not contain '.'");
    } else if (!NAME.matcher(name).matches()) {
      problems.add(origin, at, "may hold only letters, digits, '_' and '-'");
    }
  }

  /** A Kafka topic name, or (when {@code part}) a piece of one, which may be empty. */
  private void checkTopic(String topic, ConfigOrigin origin, String at, boolean part) {
    if (topic.isEmpty() && !part) {
      problems.add(origin, at, "must not be empty");
    } else if (!TOPIC.matcher(topic).matches()) {
      problems.add(
          origin, at, "may hold only letters, digits, '.', '_' and '-' (Kafka topic names)");
    } else if (topic.length() > MAX_TOPIC_LENGTH) {
      problems.add(origin, at, "must be at most " + MAX_TOPIC_LENGTH + " characters");
    }
  }

  /** A {@code host:port} pair; an IPv6 host is written in brackets. */
  record HostAndPort(String host, int port) {

    static Optional<HostAndPort> parse(String text, int minPort) {
      String host;
      String port;
      if (text.startsWith("[")) {
        int close = text.indexOf("]:");
        if (close < 0) {
          return Optional.empty();
        }
        host = text.substring(1, close);
        port = text.substring(close + 2);
      } else {
        int colon = text.lastIndexOf(':');
        if (colon < 0) {
          return Optional.empty();
        }
        host = text.substring(0, colon);
        port = text.substring(colon + 1);
        if (host.contains(":")) {
          return Optional.empty();
        }
      }
      if (host.isEmpty() || host.chars().anyMatch(Character::isWhitespace)) {
        return Optional.empty();
      }
      if (!port.matches("\\d{1,5}")) {
        return Optional.empty();
      }
      int number = Integer.parseInt(port);
      if (number < minPort || number > 65_535) {
        return Optional.empty();
      }
      return Optional.of(new HostAndPort(host, number));
    }
  }
}
