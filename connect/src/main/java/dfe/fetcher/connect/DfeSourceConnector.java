package dfe.fetcher.connect;

import dfe.fetcher.core.checkpoint.MarkCodec;
import dfe.fetcher.runtime.config.ConnectionConfig;
import dfe.fetcher.runtime.config.FetcherConfig;
import dfe.fetcher.source.SourceUnit;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigValue;
import org.apache.kafka.connect.connector.Task;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.source.ConnectorTransactionBoundaries;
import org.apache.kafka.connect.source.ExactlyOnceSupport;
import org.apache.kafka.connect.source.SourceConnector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The fetcher's units as a Kafka Connect source connector. Its configuration is the fetcher's own
 * YAML ({@value ConnectorSettings#CONFIG} or {@value ConnectorSettings#CONFIG_FILE}), checked by
 * the standalone service's binders; {@code tasks.max} tasks share the enabled units, each unit in
 * one task. Exactly once is supported with connector-defined transactions: each dump snapshot is
 * one transaction, committed at its end (docs/kafka-connect.md).
 */
public final class DfeSourceConnector extends SourceConnector {

  private static final Logger LOG = LoggerFactory.getLogger("dfe.fetcher.connect");

  private Map<String, String> properties;
  private List<String> stores;

  @Override
  public String version() {
    return Versions.VERSION;
  }

  @Override
  public ConfigDef config() {
    return ConnectorSettings.DEFINITION;
  }

  @Override
  public void start(Map<String, String> properties) {
    FetcherConfig config = ConnectorSettings.boundOrThrow(properties);
    this.properties = Map.copyOf(properties);
    this.stores = storesOf(config);
    if (stores.isEmpty()) {
      LOG.warn("event=connector_without_units note=\"no enabled unit: no task will run\"");
    }
  }

  /** Every enabled unit's store, in configuration order. */
  static List<String> storesOf(FetcherConfig config) {
    List<String> stores = new ArrayList<>();
    for (ConnectionConfig connection : config.connections()) {
      if (!connection.enabled()) {
        continue;
      }
      for (SourceUnit unit : connection.source().units()) {
        if (unit.enabled()) {
          stores.add(connection.spec(unit).store());
        }
      }
    }
    return stores;
  }

  @Override
  public Class<? extends Task> taskClass() {
    return DfeSourceTask.class;
  }

  /** Deals the units out in turn to at most {@code maxTasks} tasks; no task without a unit. */
  @Override
  public List<Map<String, String>> taskConfigs(int maxTasks) {
    int tasks = Math.min(maxTasks, stores.size());
    List<List<String>> dealt = new ArrayList<>();
    for (int i = 0; i < tasks; i++) {
      dealt.add(new ArrayList<>());
    }
    for (int i = 0; i < stores.size(); i++) {
      dealt.get(i % tasks).add(stores.get(i));
    }
    List<Map<String, String>> configs = new ArrayList<>();
    for (List<String> units : dealt) {
      Map<String, String> task = new HashMap<>(properties);
      task.put(ConnectorSettings.TASK_UNITS, String.join(",", units));
      configs.add(task);
    }
    return configs;
  }

  @Override
  public void stop() {
    // Nothing held: the tasks own what they open.
  }

  /** The connector's own checks, then the fetcher configuration's, each against its property. */
  @Override
  public Config validate(Map<String, String> connectorConfigs) {
    Config config = super.validate(connectorConfigs);
    ConnectorSettings.Bound bound = ConnectorSettings.bind(connectorConfigs, System.getenv());
    for (ConfigValue value : config.configValues()) {
      if (value.name().equals(bound.property())) {
        bound.problems().forEach(value::addErrorMessage);
      }
    }
    return config;
  }

  /**
   * Takes offsets an operator alters or resets through Connect's offsets API when each names a
   * store ({@code {"store": "<connection>.<unit>"}}) and is either null (the unit starts over) or a
   * mark this build reads ({@code {"mark": "<MarkCodec document>"}}), with or without {@code
   * "tick_started_ms"} (when the unit's last tick began), or that time alone for a unit without
   * marks.
   *
   * @throws ConnectException naming the first offset that is neither
   */
  @Override
  public boolean alterOffsets(
      Map<String, String> connectorConfig, Map<Map<String, ?>, Map<String, ?>> offsets) {
    for (Map.Entry<Map<String, ?>, Map<String, ?>> entry : offsets.entrySet()) {
      Object store = entry.getKey() == null ? null : entry.getKey().get(ConnectTransport.STORE);
      if (!(store instanceof String) || entry.getKey().size() != 1) {
        throw new ConnectException(
            "a source partition of this connector is {\"store\": \"<connection>.<unit>\"}, not "
                + entry.getKey());
      }
      if (entry.getValue() == null) {
        continue;
      }
      Object mark = entry.getValue().get(ConnectTransport.MARK);
      Object started = entry.getValue().get(ConnectTransport.TICK_STARTED);
      if (started != null && !(started instanceof Number)) {
        throw new ConnectException(
            "the offset of store "
                + store
                + " has a "
                + ConnectTransport.TICK_STARTED
                + " that is not a number of milliseconds");
      }
      if (mark == null && started != null) {
        continue; // a unit without marks: only when its last tick began
      }
      try {
        if (!(mark instanceof String document)) {
          throw new MarkCodec.UnreadableMarkException("no \"mark\" string");
        }
        MarkCodec.decode(document.getBytes(StandardCharsets.UTF_8));
      } catch (MarkCodec.UnreadableMarkException e) {
        throw new ConnectException(
            "the offset of store " + store + " is not a mark this build reads: " + e.getMessage());
      }
    }
    return true;
  }

  @Override
  public ExactlyOnceSupport exactlyOnceSupport(Map<String, String> connectorConfig) {
    // A snapshot is one transaction only when the connector draws the boundaries.
    return ConnectorSettings.connectorBoundaries(connectorConfig)
        ? ExactlyOnceSupport.SUPPORTED
        : ExactlyOnceSupport.UNSUPPORTED;
  }

  @Override
  public ConnectorTransactionBoundaries canDefineTransactionBoundaries(
      Map<String, String> connectorConfig) {
    return ConnectorTransactionBoundaries.SUPPORTED;
  }
}
