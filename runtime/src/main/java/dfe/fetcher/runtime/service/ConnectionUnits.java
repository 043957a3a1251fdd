package dfe.fetcher.runtime.service;

import dfe.fetcher.runtime.config.ConnectionConfig;
import dfe.fetcher.runtime.config.FetcherConfig;
import dfe.fetcher.runtime.config.FilterCompiler;
import dfe.fetcher.runtime.tick.BoundUnit;
import dfe.fetcher.runtime.tick.RowFilterStage;
import dfe.fetcher.source.SourceRuntime;
import dfe.fetcher.source.SourceUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * One connection's enabled units bound to what their ticks need, and the connection they share,
 * opened by the first tick that reads and closed by {@link #close}. The standalone service and the
 * Kafka Connect task wire connections with it, so a unit runs the same way in either runtime.
 */
public final class ConnectionUnits implements AutoCloseable {

  /** Checks every connection's {@code filter:} while the configuration is bound. */
  public static final FilterCompiler FILTERS = FilterStages.COMPILER;

  private final OpenedLazily opened;
  private final List<BoundUnit> units;

  private ConnectionUnits(OpenedLazily opened, List<BoundUnit> units) {
    this.opened = opened;
    this.units = List.copyOf(units);
  }

  /**
   * Binds the enabled units of {@code connection} that {@code wanted} takes (by store), each
   * reading the connection's filter from {@code filter} at the start of its ticks.
   */
  public static ConnectionUnits wire(
      FetcherConfig config,
      ConnectionConfig connection,
      SourceRuntime runtime,
      Supplier<RowFilterStage> filter,
      Predicate<String> wanted) {
    OpenedLazily opened = new OpenedLazily(connection, runtime);
    List<BoundUnit> units = new ArrayList<>();
    for (SourceUnit unit : connection.source().units()) {
      if (!unit.enabled() || !wanted.test(connection.spec(unit).store())) {
        continue;
      }
      units.add(
          new BoundUnit(
              connection.spec(unit),
              config.topicOf(connection, unit),
              config.sourceNameOf(connection, unit),
              opened.source(unit.unit()),
              cursorKeyOf(config, connection, unit),
              filter,
              unit.markKind()));
    }
    return new ConnectionUnits(opened, units);
  }

  /** {@code <instance>.<connection>.<unit>}: the key of the unit's checkpoint. */
  public static String cursorKeyOf(
      FetcherConfig config, ConnectionConfig connection, SourceUnit unit) {
    return config.instanceId() + "." + connection.id() + "." + unit.unit();
  }

  /** The connection's own filter, compiled; keeps every row when it has none. */
  public static RowFilterStage filterOf(ConnectionConfig connection) {
    return connection
        .filter()
        .map(expression -> FilterStages.compiled(expression, connection.filterErrors()))
        .orElse(RowFilterStage.KEEP_ALL);
  }

  public List<BoundUnit> units() {
    return units;
  }

  /** Closes the connection if a tick opened it; later reads fail naming it closed. */
  @Override
  public void close() {
    opened.close();
  }
}
