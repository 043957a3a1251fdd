package dfe.fetcher.service;

import dfe.fetcher.config.FetcherConfig;
import dfe.fetcher.config.FileConnection;
import dfe.fetcher.config.FileUnit;
import dfe.fetcher.config.KafkaOutput;
import dfe.fetcher.config.Secret;
import dfe.fetcher.config.SecretUnavailableException;
import dfe.fetcher.cursor.FileCursorStore;
import dfe.fetcher.dlq.DeadLetterQueue;
import dfe.fetcher.envelope.UuidV7Generator;
import dfe.fetcher.file.dump.Decoder;
import dfe.fetcher.file.dump.FileDumpSource;
import dfe.fetcher.file.dump.FileDumpSpec;
import dfe.fetcher.health.FetcherMetrics;
import dfe.fetcher.health.HealthServer;
import dfe.fetcher.schedule.ConnectionJob;
import dfe.fetcher.schedule.Scheduler;
import dfe.fetcher.tick.BatchLimits;
import dfe.fetcher.tick.BoundUnit;
import dfe.fetcher.tick.RowFilterStage;
import dfe.fetcher.tick.TickContext;
import dfe.fetcher.tick.TickOutcome;
import dfe.fetcher.tick.UnitRunner;
import dfe.fetcher.transport.FileTransport;
import dfe.fetcher.transport.KafkaTransport;
import dfe.fetcher.transport.Transport;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The running fetcher: the configuration wired into units, a transport, a cursor store, metrics and
 * a scheduler. {@link #runOnce} runs every enabled unit one time; {@link #start} serves until
 * {@link #stop}. {@link #reload} takes a new configuration's filters without a restart.
 */
public final class FetcherService implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(FetcherService.class);
  private static final Duration STOP_GRACE = Duration.ofSeconds(30);

  private final FetcherConfig config;
  private volatile FetcherConfig current;
  private final Transport transport;
  private final FetcherMetrics metrics;
  private final AtomicBoolean stopping = new AtomicBoolean();
  private final Map<String, AtomicReference<RowFilterStage>> filters = new HashMap<>();
  private final List<ConnectionJob> jobs;
  private final Scheduler scheduler;
  private HealthServer health;

  private FetcherService(FetcherConfig config, Transport transport, Clock clock) {
    this.config = config;
    this.current = config;
    this.transport = transport;
    this.metrics = new FetcherMetrics();
    TickContext context =
        new TickContext(
            transport,
            config.dlq().enabled()
                ? Optional.of(new DeadLetterQueue(config.dlq().topic(), clock))
                : Optional.empty(),
            config.oversize(),
            new BatchLimits(
                config.batch().maxRows(), config.batch().maxBytes(), config.batch().lingerMillis()),
            new FileCursorStore(config.cursor().directory(), clock),
            metrics,
            clock,
            new UuidV7Generator(),
            stopping::get);
    this.jobs = jobs(config, clock);
    this.scheduler =
        new Scheduler(new UnitRunner(context), config.scheduler().maxConcurrentFetches());
  }

  /**
   * Wires {@code config}.
   *
   * @throws IllegalArgumentException when the configuration asks for something this build cannot do
   *     yet (the Kafka transport)
   */
  public static FetcherService create(FetcherConfig config, Clock clock) {
    return new FetcherService(config, transportOf(config), clock);
  }

  /**
   * The transport {@code output.type} names.
   *
   * @throws IllegalArgumentException when a Kafka property's secret cannot be read (the message
   *     names the property and where its value was to come from, never the value)
   */
  static Transport transportOf(FetcherConfig config) {
    return switch (config.output().type()) {
      case FILE -> new FileTransport(config.output().fileDirectory());
      case KAFKA -> {
        KafkaOutput kafka = config.output().kafka();
        Map<String, String> properties = new java.util.LinkedHashMap<>();
        for (Map.Entry<String, Secret> property : kafka.properties().entrySet()) {
          try {
            properties.put(property.getKey(), property.getValue().reveal());
          } catch (SecretUnavailableException e) {
            throw new IllegalArgumentException(
                "output.kafka.properties." + property.getKey() + ": " + e.getMessage(), e);
          }
        }
        LOG.info(
            "event=kafka_output bootstrap_servers={} properties={} create_topics={}",
            kafka.bootstrapServers(),
            properties.keySet(),
            kafka.createTopics());
        try {
          yield new KafkaTransport(
              kafka.bootstrapServers(),
              properties,
              config.oversize().maxRecordBytes(),
              new KafkaTransport.TopicCreation(
                  kafka.createTopics(), kafka.partitions(), kafka.replicationFactor()));
        } catch (org.apache.kafka.common.KafkaException e) {
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
      }
    };
  }

  /** Loads and checks a configuration, CEL filters included, reporting every problem at once. */
  public static FetcherConfig loadConfig(java.nio.file.Path file, Map<String, String> environment)
      throws dfe.fetcher.config.ConfigException {
    return dfe.fetcher.config.ConfigLoader.load(file, environment, FilterStages.COMPILER);
  }

  public FetcherMetrics metrics() {
    return metrics;
  }

  /** Runs every enabled unit once; the outcome of each, keyed by store. */
  public Map<String, TickOutcome> runOnce() throws InterruptedException {
    return scheduler.runOnce(jobs);
  }

  /**
   * Serves metrics and health, and starts every connection's schedule. Returns at once.
   *
   * @throws IOException when {@code metrics.address} cannot be listened on (the message names it);
   *     no unit has started then
   */
  public void start() throws IOException {
    try {
      health =
          HealthServer.start(
              config.metrics().host(),
              config.metrics().port(),
              metrics,
              () -> !stopping.get() && transport.isReady());
    } catch (IOException e) {
      throw new IOException(
          "metrics.address " + config.metrics().address() + ": cannot listen: " + e.getMessage(),
          e);
    }
    LOG.info(
        "event=metrics_listening address={}:{} paths=/metrics,/livez,/readyz",
        config.metrics().host(),
        health.port());
    scheduler.start(jobs);
  }

  /** The port metrics and health are served on, once started. */
  public int healthPort() {
    return health.port();
  }

  /**
   * Takes the filters of {@code newer} for the connections both configurations have; they apply
   * from each unit's next tick. Other settings need a restart, and a change to them is logged.
   */
  public void reload(FetcherConfig newer) {
    for (FileConnection connection : newer.fileConnections()) {
      AtomicReference<RowFilterStage> current = filters.get(connection.id());
      if (current != null) {
        current.set(filterOf(connection));
      }
    }
    if (!withoutFilters(newer).equals(withoutFilters(current))) {
      LOG.warn("event=config_reload_partial note=\"only filters reload; restart for the rest\"");
    }
    current = newer;
    LOG.info("event=config_reloaded connections={}", newer.fileConnections().size());
  }

  /**
   * Asks every running tick to stop taking rows, without waiting: open dumps are left without an
   * end and checkpoints already committed stay. Safe to call from a signal handler.
   */
  public void requestStop() {
    stopping.set(true);
  }

  /** Stops taking rows; open dumps are left without an end; waits for running ticks to end. */
  public void stop() throws InterruptedException {
    requestStop();
    if (!scheduler.stop(STOP_GRACE)) {
      LOG.warn("event=stop_timeout grace_secs={}", STOP_GRACE.toSeconds());
    }
  }

  @Override
  public void close() {
    stopping.set(true);
    if (health != null) {
      health.close();
    }
    scheduler.close();
    transport.close();
  }

  private List<ConnectionJob> jobs(FetcherConfig config, Clock clock) {
    List<ConnectionJob> wired = new ArrayList<>();
    String suffix = config.output().topicSuffix();
    for (FileConnection connection : config.fileConnections()) {
      if (!connection.enabled()) {
        continue;
      }
      AtomicReference<RowFilterStage> filter = new AtomicReference<>(filterOf(connection));
      filters.put(connection.id(), filter);
      List<BoundUnit> units = new ArrayList<>();
      for (FileUnit unit : connection.units()) {
        if (!unit.enabled()) {
          continue;
        }
        String topic = config.topicOf(connection, unit);
        FileDumpSource source =
            new FileDumpSource(
                new FileDumpSpec(
                    unit.dump().paths(),
                    config.configFile().toAbsolutePath().getParent(),
                    Decoder.named(unit.dump().decoder().configName())),
                clock);
        units.add(
            new BoundUnit(
                connection.spec(unit),
                topic,
                topic.substring(0, topic.length() - suffix.length()),
                source,
                config.instanceId() + "." + connection.id() + "." + unit.unit(),
                filter::get));
      }
      wired.add(new ConnectionJob(connection.id(), config.intervalOf(connection), units));
    }
    return wired;
  }

  private static RowFilterStage filterOf(FileConnection connection) {
    return connection.filter().map(FilterStages::compiled).orElse(RowFilterStage.KEEP_ALL);
  }

  private static FetcherConfig withoutFilters(FetcherConfig config) {
    List<FileConnection> connections = new ArrayList<>();
    for (FileConnection connection : config.fileConnections()) {
      connections.add(
          new FileConnection(
              connection.id(),
              connection.topic(),
              connection.intervalSecs(),
              connection.enabled(),
              Optional.empty(),
              connection.units()));
    }
    return new FetcherConfig(
        config.instanceId(),
        config.scheduler(),
        config.output(),
        config.dlq(),
        config.oversize(),
        config.cursor(),
        config.metrics(),
        config.batch(),
        connections,
        config.configFile());
  }
}
