package dfe.fetcher.connect;

import dfe.fetcher.core.row.Mark;
import dfe.fetcher.runtime.config.ConfigLoader;
import dfe.fetcher.runtime.config.ConnectionConfig;
import dfe.fetcher.runtime.config.FetcherConfig;
import dfe.fetcher.runtime.service.ConnectionUnits;
import dfe.fetcher.source.SourceUnit;
import dfe.fetcher.source.config.ConfigException;
import dfe.fetcher.source.config.ConfigOrigin;
import dfe.fetcher.source.config.ConfigProblem;
import dfe.fetcher.source.config.Problems;
import dfe.fetcher.source.config.YamlNode;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.connect.errors.ConnectException;

/**
 * The connector's own properties, and the fetcher configuration they hold: {@value #CONFIG} (the
 * YAML itself) or {@value #CONFIG_FILE} (a file on every worker), bound by the standalone service's
 * binders with what Connect does not use refused.
 */
final class ConnectorSettings {

  static final String CONFIG = "dfe.config";
  static final String CONFIG_FILE = "dfe.config.file";

  /** Set by the connector on each task's configuration: the stores the task runs, by comma. */
  static final String TASK_UNITS = "dfe.task.units";

  /** What origins name when the YAML is given inline. */
  static final Path INLINE_NAME = Path.of(CONFIG);

  static final ConfigDef DEFINITION =
      new ConfigDef()
          .define(
              CONFIG,
              ConfigDef.Type.PASSWORD,
              "",
              ConfigDef.Importance.HIGH,
              "The fetcher's configuration as YAML (sources, oversize, dlq, output.topic_suffix,"
                  + " output.batch, instance_id, scheduler.default_interval_secs,"
                  + " scheduler.stop_grace_secs). Relative paths resolve against the worker's"
                  + " working directory. Give secrets by reference (env:, file:), never inline:"
                  + " Connect returns this property as written through its REST API, so a literal"
                  + " secret here is refused.")
          .define(
              CONFIG_FILE,
              ConfigDef.Type.PASSWORD,
              "",
              ConfigDef.Importance.HIGH,
              "A file holding the fetcher's configuration, present on every worker; relative"
                  + " paths in it resolve against its directory. Set this or "
                  + CONFIG
                  + ", not both.")
          .define(
              FailureStreaks.SETTING,
              ConfigDef.Type.INT,
              0,
              ConfigDef.Range.atLeast(0),
              ConfigDef.Importance.MEDIUM,
              "Fail the task once one of its units has failed this many ticks in a row (0, the"
                  + " default: never; the unit is retried on its interval and its run shows as"
                  + " dfe_fetcher_consecutive_tick_failures on the task's JMX bean).");

  /**
   * What the standalone service reads that Connect does not: the worker's producer lands the
   * records, Connect stores the offsets, and tasks, not threads, run units side by side.
   */
  private static final Map<String, String> NOT_USED =
      Map.of(
          "output.type",
          "the worker's producer lands the records",
          "output.file",
          "the worker's producer lands the records",
          "output.kafka",
          "the worker's producer lands the records: set producer.override.* on the connector"
              + " and bootstrap.servers on the worker",
          "cursor",
          "Connect keeps each unit's mark as its source offset",
          "metrics",
          "Connect reports its task metrics over JMX",
          "scheduler.max_concurrent_fetches",
          "tasks.max says how many units run side by side");

  /** The property a problem is reported against, and the configuration, when it binds. */
  record Bound(String property, Optional<FetcherConfig> config, List<String> problems) {}

  private ConnectorSettings() {}

  /**
   * Binds the fetcher configuration the properties hold; the problems name the property and, for
   * each, the YAML line ({@code dfe.config:LINE:COL: path: message}).
   */
  static Bound bind(Map<String, String> properties, Map<String, String> environment) {
    Bound bound = bindYaml(properties, environment);
    List<String> refused = new ArrayList<>(refusedConnectSettings(properties));
    bound
        .config()
        .flatMap(config -> ProducerRequestSize.refused(properties, config))
        .ifPresent(refused::add);
    if (refused.isEmpty()) {
      return bound;
    }
    List<String> problems = new ArrayList<>(refused);
    problems.addAll(bound.problems());
    return new Bound(bound.property(), Optional.empty(), problems);
  }

  /**
   * Connect settings this connector cannot keep its promises under: a record the worker drops
   * counts as acknowledged in Connect's offset bookkeeping (a mark on a later record would be
   * committed past it) and, exactly once, leaves a gap in a committed snapshot; transaction
   * boundaries other than the connector's end a transaction in the middle of a snapshot.
   */
  static List<String> refusedConnectSettings(Map<String, String> properties) {
    List<String> refused = new ArrayList<>();
    if ("all".equalsIgnoreCase(properties.getOrDefault("errors.tolerance", "none").trim())) {
      refused.add(
          "errors.tolerance=all: not supported: a record the worker drops would count as landed"
              + " and a mark after it would be committed past it; leave errors.tolerance at none");
    }
    if (!properties.getOrDefault("transforms", "").isBlank()) {
      refused.add(
          "transforms: not supported: a transform that drops or rewrites a record breaks the"
              + " snapshot envelope and the marks riding on records; remove transforms");
    }
    String boundary = properties.get("transaction.boundary");
    boolean required =
        "required".equalsIgnoreCase(properties.getOrDefault("exactly.once.support", "").trim());
    if ((boundary != null || required) && !connectorBoundaries(properties)) {
      refused.add(
          "transaction.boundary="
              + (boundary == null ? "poll" : boundary.trim())
              + ": use transaction.boundary=connector: with poll or interval boundaries a"
              + " transaction ends in the middle of a snapshot");
    }
    return refused;
  }

  /**
   * A resumable dump ({@code resume: by_key}) is refused on Connect: exactly once, a snapshot is
   * one transaction, so a failed task aborts all of it and there is nothing to resume; at least
   * once, the task cannot read back what the worker's producer landed but Connect had not yet
   * acknowledged, and would number those seqs again.
   */
  static List<String> refusedResumableDumps(FetcherConfig config, Path name) {
    List<String> refused = new ArrayList<>();
    for (ConnectionConfig connection : config.connections()) {
      for (SourceUnit unit : connection.source().units()) {
        if (unit.markKind().equals(Optional.of(Mark.Kind.DUMP_RESUME))) {
          refused.add(
              unit.origin().render()
                  + ": "
                  + unit.settingPath("resume")
                  + ": resume: by_key is not supported on Kafka Connect: exactly once a snapshot"
                  + " is one transaction, and at least once what the worker landed cannot be read"
                  + " back; run the store on the standalone service, or leave resume at none");
        }
      }
    }
    return refused;
  }

  /** Whether the connector's configuration asks for transactions the connector defines. */
  static boolean connectorBoundaries(Map<String, String> properties) {
    return "connector".equalsIgnoreCase(properties.getOrDefault("transaction.boundary", "").trim());
  }

  private static Bound bindYaml(Map<String, String> properties, Map<String, String> environment) {
    String inline = properties.getOrDefault(CONFIG, "");
    String file = properties.getOrDefault(CONFIG_FILE, "");
    if (inline.isBlank() == file.isBlank()) {
      String property = inline.isBlank() ? CONFIG : CONFIG_FILE;
      return new Bound(
          property,
          Optional.empty(),
          List.of("set exactly one of " + CONFIG + " (the YAML) and " + CONFIG_FILE));
    }
    String property = inline.isBlank() ? CONFIG_FILE : CONFIG;
    Path name = INLINE_NAME;
    String text = inline;
    if (!file.isBlank()) {
      name = Path.of(file);
      try {
        text = Files.readString(name, StandardCharsets.UTF_8);
      } catch (IOException | RuntimeException e) {
        return new Bound(
            property,
            Optional.empty(),
            List.of(file + ": cannot read on this worker (" + e.getClass().getSimpleName() + ")"));
      }
    }
    try {
      // The YAML of dfe.config is shown by Connect's REST API; a file on the workers is not.
      FetcherConfig config =
          ConfigLoader.loadText(
              text,
              name,
              environment,
              ConnectionUnits.FILTERS,
              ConnectorSettings::forConnect,
              file.isBlank() ? LiteralSecrets.REFUSED : ConfigLoader.SecretsCheck.NONE);
      List<String> resumable = refusedResumableDumps(config, name);
      if (!resumable.isEmpty()) {
        return new Bound(property, Optional.empty(), resumable);
      }
      return new Bound(property, Optional.of(config), List.of());
    } catch (ConfigException e) {
      return new Bound(
          property, Optional.empty(), e.problems().stream().map(ConfigProblem::render).toList());
    }
  }

  /**
   * Refuses what Connect does not use, then binds the rest as the Kafka output would be bound
   * ({@code output.type: kafka}), so the checks that hold for Kafka (a DLQ entry must fit a
   * request) hold here too.
   */
  static Optional<YamlNode> forConnect(Optional<YamlNode> root, Problems problems) {
    if (root.isEmpty() || !(root.get() instanceof YamlNode.Mapping top)) {
      return root;
    }
    refuseNotUsed(top, "", problems);
    Optional<YamlNode.Entry> given = top.entry("output");
    if (given.isPresent() && !(given.get().value() instanceof YamlNode.Mapping)) {
      // Not a mapping: left as written, so the binder reports it.
      return root;
    }
    ConfigOrigin origin = top.origin();
    YamlNode.Mapping output =
        top.entry("output")
            .map(YamlNode.Entry::value)
            .filter(YamlNode.Mapping.class::isInstance)
            .map(YamlNode.Mapping.class::cast)
            .orElse(new YamlNode.Mapping(List.of(), origin));
    YamlNode.Scalar kafka =
        new YamlNode.Scalar(YamlNode.ScalarKind.STRING, "kafka", BigInteger.ZERO, false, origin);
    output = output.with(new YamlNode.Entry("type", origin, kafka));
    return Optional.of(top.with(new YamlNode.Entry("output", origin, output)));
  }

  private static void refuseNotUsed(YamlNode.Mapping mapping, String at, Problems problems) {
    for (YamlNode.Entry entry : mapping.entries()) {
      String path = at.isEmpty() ? entry.key() : at + "." + entry.key();
      String why = NOT_USED.get(path);
      if (why != null) {
        problems.add(entry.keyOrigin(), path, "not used on Kafka Connect: " + why);
      } else if ((path.equals("output") || path.equals("scheduler"))
          && entry.value() instanceof YamlNode.Mapping inner) {
        refuseNotUsed(inner, path, problems);
      }
    }
  }

  /**
   * The configuration the properties hold, as a connector or task starts with it.
   *
   * @throws ConnectException with every problem, each naming its property and line
   */
  static FetcherConfig boundOrThrow(Map<String, String> properties) {
    Bound bound = bind(properties, System.getenv());
    if (bound.config().isEmpty()) {
      throw new ConnectException(
          bound.property() + " does not bind:\n" + String.join("\n", bound.problems()));
    }
    return bound.config().get();
  }

  /** {@code dfe.task.max_consecutive_failures}: empty when 0 or unset (never). */
  static OptionalInt maxConsecutiveFailures(Map<String, String> properties) {
    Object value = DEFINITION.parse(properties).get(FailureStreaks.SETTING);
    int max = value instanceof Integer number ? number : 0;
    return max > 0 ? OptionalInt.of(max) : OptionalInt.empty();
  }

  /** The stores a task runs, from its configuration. */
  static List<String> taskUnits(Map<String, String> properties) {
    String units = properties.getOrDefault(TASK_UNITS, "");
    return units.isBlank() ? List.of() : Arrays.stream(units.split(",")).map(String::trim).toList();
  }
}
