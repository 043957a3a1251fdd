package dfe.fetcher.runtime.service;

import dfe.fetcher.core.row.Mark;
import dfe.fetcher.core.row.RowSource;
import dfe.fetcher.core.row.Shape;
import dfe.fetcher.source.BindContext;
import dfe.fetcher.source.OpenConnection;
import dfe.fetcher.source.SourceConnection;
import dfe.fetcher.source.SourceFamily;
import dfe.fetcher.source.SourceRuntime;
import dfe.fetcher.source.SourceUnit;
import dfe.fetcher.source.config.ConfigOrigin;
import dfe.fetcher.source.config.Section;
import dfe.fetcher.source.config.YamlNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A source family for service tests, {@code sources.test}: each connection lists unit names under
 * {@code units}, and each name's behaviour is the {@link RowSource} the test registered for it.
 * Opens and closes are counted per connection, for lifecycle tests.
 *
 * <pre>{@code
 * sources:
 *   test:
 *     c1: {topic: t, units: [blocks], setting: 1}
 * }</pre>
 */
final class ScriptedFamily implements SourceFamily {

  final Map<String, RowSource> behaviours = new ConcurrentHashMap<>();
  final Map<String, AtomicInteger> opens = new ConcurrentHashMap<>();
  final Map<String, AtomicInteger> closes = new ConcurrentHashMap<>();

  /** One bound connection: its id, a setting a reload may change, its unit names. */
  record Connection(ScriptedFamily family, String id, long setting, List<String> names)
      implements SourceConnection {

    @Override
    public List<SourceUnit> units() {
      return names.stream()
          .map(
              name ->
                  new SourceUnit(
                      name,
                      true,
                      Shape.DUMP,
                      Optional.empty(),
                      Optional.of(Mark.Kind.FILE),
                      List.of(),
                      new ConfigOrigin.InEnvironment("test"),
                      name))
          .toList();
    }

    @Override
    public OpenConnection open(SourceRuntime runtime) {
      family.opens.computeIfAbsent(id, k -> new AtomicInteger()).incrementAndGet();
      return new OpenConnection() {
        @Override
        public RowSource source(String unit) {
          return (checkpoint, sink, cancellation) ->
              family.behaviours.get(unit).read(checkpoint, sink, cancellation);
        }

        @Override
        public void close() {
          family.closes.computeIfAbsent(id, k -> new AtomicInteger()).incrementAndGet();
        }
      };
    }

    @Override
    public boolean equals(Object other) {
      return other instanceof Connection that
          && id.equals(that.id)
          && setting == that.setting
          && names.equals(that.names);
    }

    @Override
    public int hashCode() {
      return Objects.hash(id, setting, names);
    }
  }

  int opens(String connection) {
    return opens.getOrDefault(connection, new AtomicInteger()).get();
  }

  int closes(String connection) {
    return closes.getOrDefault(connection, new AtomicInteger()).get();
  }

  @Override
  public String name() {
    return "test";
  }

  @Override
  public List<String> connectionKeys() {
    return List.of("units", "setting");
  }

  @Override
  public List<List<String>> knownKeys() {
    return List.of(connectionKeys());
  }

  @Override
  public SourceConnection bind(String id, Section connection, BindContext context) {
    List<String> names = new ArrayList<>();
    for (YamlNode item : connection.list("units").orElse(List.of())) {
      connection.text(item, connection.pathOf("units")).ifPresent(names::add);
    }
    return new Connection(this, id, connection.integer("setting", 0, 0, 1000), names);
  }
}
