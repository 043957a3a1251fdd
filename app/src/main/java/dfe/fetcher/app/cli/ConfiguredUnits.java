package dfe.fetcher.app.cli;

import dfe.fetcher.runtime.config.ConnectionConfig;
import dfe.fetcher.runtime.config.FetcherConfig;
import dfe.fetcher.runtime.service.ConnectionUnits;
import dfe.fetcher.source.SourceUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/**
 * Every unit a configuration names, as {@code CONNECTION.UNIT}, so the commands that take a unit's
 * name check it one way and refuse an unknown one as a usage error naming the known ones.
 */
final class ConfiguredUnits {

  /** One configured unit, enabled or not. */
  record Unit(FetcherConfig config, ConnectionConfig connection, SourceUnit unit) {

    String store() {
      return connection.spec(unit).store();
    }

    boolean enabled() {
      return connection.enabled() && unit.enabled();
    }

    String cursorKey() {
      return ConnectionUnits.cursorKeyOf(config, connection, unit);
    }
  }

  private final List<Unit> units;

  private ConfiguredUnits(List<Unit> units) {
    this.units = List.copyOf(units);
  }

  static ConfiguredUnits of(FetcherConfig config) {
    List<Unit> units = new ArrayList<>();
    for (ConnectionConfig connection : config.connections()) {
      for (SourceUnit unit : connection.source().units()) {
        units.add(new Unit(config, connection, unit));
      }
    }
    return new ConfiguredUnits(units);
  }

  List<Unit> all() {
    return units;
  }

  Optional<Unit> find(String store) {
    return units.stream().filter(unit -> unit.store().equals(store)).findFirst();
  }

  /**
   * The unit named {@code store}.
   *
   * @throws ParameterException when the configuration has no such unit, or (with {@code
   *     enabledOnly}) it is disabled; picocli reports it as a usage error, exit 2
   */
  Unit require(CommandSpec spec, String store, boolean enabledOnly) {
    Optional<Unit> found = find(store);
    if (found.isEmpty()) {
      throw new ParameterException(
          spec.commandLine(),
          "unknown unit '" + store + "'; the configuration's units are: " + names(false));
    }
    if (enabledOnly && !found.get().enabled()) {
      throw new ParameterException(
          spec.commandLine(),
          "unit '"
              + store
              + "' is disabled in the configuration; the enabled units are: "
              + names(true));
    }
    return found.get();
  }

  private String names(boolean enabledOnly) {
    String names =
        units.stream()
            .filter(unit -> !enabledOnly || unit.enabled())
            .map(Unit::store)
            .collect(Collectors.joining(", "));
    return names.isEmpty() ? "(none)" : names;
  }
}
