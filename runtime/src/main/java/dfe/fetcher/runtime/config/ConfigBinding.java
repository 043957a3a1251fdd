package dfe.fetcher.runtime.config;

import dfe.fetcher.core.oversize.OversizePolicy;
import dfe.fetcher.runtime.schedule.TickJitter;
import dfe.fetcher.runtime.transport.ProducerSettings;
import dfe.fetcher.source.BindContext;
import dfe.fetcher.source.SourceFamily;
import dfe.fetcher.source.config.BoundSecrets;
import dfe.fetcher.source.config.ConfigOrigin;
import dfe.fetcher.source.config.Names;
import dfe.fetcher.source.config.Problems;
import dfe.fetcher.source.config.Secret;
import dfe.fetcher.source.config.Section;
import dfe.fetcher.source.config.YamlNode;
import dfe.fetcher.source.config.vault.VaultSecrets;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Binds the (overridden) tree to a {@link FetcherConfig}: the schema of the configuration file's
 * top level and its small sections. {@code output} is {@link OutputBinding}'s, {@code sources} is
 * {@link SourcesBinding}'s, and each family binds its own connections. Where a value is wrong the
 * problem is reported and the default stands in, so binding goes on and finds the rest; the result
 * is only handed out when nothing was reported.
 */
final class ConfigBinding {

  static final List<String> ROOT_KEYS =
      List.of(
          "instance_id",
          "scheduler",
          "output",
          "dlq",
          "oversize",
          "cursor",
          "metrics",
          "vault",
          "sources");
  static final List<String> SCHEDULER_KEYS =
      List.of(
          "default_interval_secs", "max_concurrent_fetches", "stop_grace_secs", "jitter_percent");
  static final List<String> DLQ_KEYS = List.of("enabled", "topic");
  static final List<String> OVERSIZE_KEYS = List.of("max_record_bytes", "max_dlq_bytes");
  static final List<String> CURSOR_KEYS = List.of("directory");
  static final List<String> METRICS_KEYS = List.of("address");
  static final List<String> VAULT_KEYS = List.of("cache_ttl_secs");

  /** The longest {@code vault.cache_ttl_secs}: a day. */
  static final int MAX_VAULT_CACHE_TTL_SECS = 86_400;

  /**
   * Every key name this build reads with {@code families} (not ids or Kafka property names, which
   * the operator picks; not the source families it refuses).
   */
  static List<List<String>> knownKeys(List<SourceFamily> families) {
    List<List<String>> keys =
        new ArrayList<>(
            List.of(
                ROOT_KEYS,
                SCHEDULER_KEYS,
                OutputBinding.OUTPUT_KEYS,
                OutputBinding.OUTPUT_FILE_KEYS,
                OutputBinding.OUTPUT_KAFKA_KEYS,
                OutputBinding.BATCH_KEYS,
                DLQ_KEYS,
                OVERSIZE_KEYS,
                CURSOR_KEYS,
                METRICS_KEYS,
                VAULT_KEYS,
                families.stream().map(SourceFamily::name).toList(),
                SourceFamily.COMMON_CONNECTION_KEYS));
    families.forEach(family -> keys.addAll(family.knownKeys()));
    return keys;
  }

  private static final int MAX_INT = Integer.MAX_VALUE;

  private final Path baseDirectory;
  private final Path configFile;
  private final FilterCompiler filters;
  private final List<SourceFamily> families;
  private final Problems problems;
  private final Map<String, String> environment;

  /** Replaced once {@code vault} is read, before anything binds a secret. */
  private BindContext context;

  ConfigBinding(
      Path configFile,
      Map<String, String> environment,
      FilterCompiler filters,
      List<SourceFamily> families,
      Problems problems) {
    this.configFile = configFile.toAbsolutePath().normalize();
    this.baseDirectory = this.configFile.getParent();
    this.filters = filters;
    this.families = families;
    this.problems = problems;
    this.environment = environment;
    this.context = new BindContext(this.baseDirectory, environment, problems);
  }

  FetcherConfig bind(Optional<YamlNode> root, ConfigOrigin rootOrigin) {
    Section top = Section.of(root, rootOrigin, "", ROOT_KEYS, problems);

    String instanceId = top.string("instance_id", FetcherConfig.DEFAULT_INSTANCE_ID);
    Names.check(instanceId, top.originOf("instance_id"), "instance_id", problems);

    // First: every secret spec below reads vault: through the cache it configures.
    Section vault = top.section("vault", VAULT_KEYS);
    Duration vaultCacheTtl =
        Duration.ofSeconds(
            vault.smallInteger(
                "cache_ttl_secs",
                (int) VaultSecrets.DEFAULT_CACHE_TTL.toSeconds(),
                0,
                MAX_VAULT_CACHE_TTL_SECS));
    context =
        new BindContext(
            baseDirectory,
            environment,
            problems,
            context.secrets(),
            new VaultSecrets(environment, vaultCacheTtl, Clock.systemUTC()));

    Section scheduler = top.section("scheduler", SCHEDULER_KEYS);
    SchedulerConfig schedulerConfig =
        new SchedulerConfig(
            scheduler.smallInteger(
                "default_interval_secs", SchedulerConfig.DEFAULT.defaultIntervalSecs(), 1, MAX_INT),
            scheduler.smallInteger(
                "max_concurrent_fetches",
                SchedulerConfig.DEFAULT.maxConcurrentFetches(),
                1,
                MAX_INT),
            scheduler.smallInteger(
                "stop_grace_secs", SchedulerConfig.DEFAULT.stopGraceSecs(), 1, 3600),
            scheduler.smallInteger(
                "jitter_percent",
                SchedulerConfig.DEFAULT.jitterPercent(),
                0,
                TickJitter.MAX_PERCENT));

    OutputBinding outputBinding = new OutputBinding(this, problems);
    Section output = top.section("output", OutputBinding.OUTPUT_KEYS);
    OutputConfig outputConfig = outputBinding.output(output);
    BatchConfig batchConfig =
        outputBinding.batch(output.section("batch", OutputBinding.BATCH_KEYS));

    Section dlq = top.section("dlq", DLQ_KEYS);
    String dlqTopic = dlq.string("topic", DlqConfig.DEFAULT.topic());
    TopicNames.check(dlqTopic, dlq.originOf("topic"), dlq.pathOf("topic"), false, problems);
    DlqConfig dlqConfig = new DlqConfig(dlq.bool("enabled", DlqConfig.DEFAULT.enabled()), dlqTopic);

    Section oversize = top.section("oversize", OVERSIZE_KEYS);
    OversizePolicy oversizePolicy =
        new OversizePolicy(
            oversize.integer(
                "max_record_bytes", OversizePolicy.DEFAULT.maxRecordBytes(), 1, MAX_RECORD_BYTES),
            oversize.smallInteger(
                "max_dlq_bytes", OversizePolicy.DEFAULT.maxDlqBytes(), 0, MAX_INT));
    if (outputConfig.type() == OutputType.KAFKA) {
      checkDeadLettersFit(oversizePolicy, oversize);
    }

    Section cursor = top.section("cursor", CURSOR_KEYS);
    CursorConfig cursorConfig = new CursorConfig(directory(cursor, "directory", "./state"));

    Section metrics = top.section("metrics", METRICS_KEYS);
    MetricsConfig metricsConfig = metrics(metrics);

    List<ConnectionConfig> connections =
        new SourcesBinding(families, context, filters, problems)
            .bind(
                top.section("sources", SourcesBinding.keys(families)),
                outputConfig,
                dlqConfig.topic());

    return new FetcherConfig(
        instanceId,
        schedulerConfig,
        outputConfig,
        dlqConfig,
        oversizePolicy,
        cursorConfig,
        metricsConfig,
        batchConfig,
        connections,
        configFile);
  }

  /**
   * The largest {@code max_record_bytes}: a frame is the record plus {@link
   * KafkaTransport#ENVELOPE_ROOM_BYTES}, and a request of 1 GiB is already far past what a broker
   * takes; beyond it the producer's buffers could not be sized.
   */
  static final long MAX_RECORD_BYTES = (1L << 30) - ProducerSettings.ENVELOPE_ROOM_BYTES;

  /** Room a DLQ entry needs besides its base64 payload: reason, store, destination, fields. */
  static final int DEAD_LETTER_ROOM_BYTES = 4 * 1024;

  /**
   * A DLQ entry carries up to {@code max_dlq_bytes} as base64 (4/3 larger) and must fit the
   * producer's request size, {@code max_record_bytes} plus the envelope's room: otherwise every
   * dead letter would fail its tick.
   */
  private void checkDeadLettersFit(OversizePolicy policy, Section oversize) {
    long entry = (policy.maxDlqBytes() + 2L) / 3 * 4 + DEAD_LETTER_ROOM_BYTES;
    long request = policy.maxRecordBytes() + ProducerSettings.ENVELOPE_ROOM_BYTES;
    if (entry > request) {
      oversize.report(
          "max_dlq_bytes",
          "a DLQ entry of "
              + policy.maxDlqBytes()
              + " bytes is about "
              + entry
              + " bytes as base64, more than the "
              + request
              + " a Kafka request may hold (max_record_bytes + "
              + ProducerSettings.ENVELOPE_ROOM_BYTES
              + "); lower max_dlq_bytes to at most "
              + (request - DEAD_LETTER_ROOM_BYTES) / 4 * 3);
    }
  }

  /** Every secret setting bound so far, with its place. */
  BoundSecrets secrets() {
    return context.secrets();
  }

  /** A secret setting's value; reported when its spec names nothing usable. */
  Optional<Secret> secret(String spec, ConfigOrigin origin, String at) {
    return context.secret(spec, origin, at);
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

  Path directory(Section section, String key, String fallback) {
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
