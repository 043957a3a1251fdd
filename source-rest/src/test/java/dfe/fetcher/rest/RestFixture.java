package dfe.fetcher.rest;

import dfe.fetcher.core.oversize.OversizePolicy;
import dfe.fetcher.core.row.Cancellation;
import dfe.fetcher.core.row.Mark;
import dfe.fetcher.core.row.SourceException;
import dfe.fetcher.source.BindContext;
import dfe.fetcher.source.OpenConnection;
import dfe.fetcher.source.ProbeOutcome;
import dfe.fetcher.source.SourceFamily;
import dfe.fetcher.source.SourceMetrics;
import dfe.fetcher.source.SourceRuntime;
import dfe.fetcher.source.config.ConfigException;
import dfe.fetcher.source.config.ConfigOrigin;
import dfe.fetcher.source.config.ConfigProblem;
import dfe.fetcher.source.config.Problems;
import dfe.fetcher.source.config.Section;
import dfe.fetcher.source.config.YamlNode;
import dfe.fetcher.source.config.YamlTreeReader;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/** Binds {@code sources.rest.lab} from YAML as the application would, and reads its units. */
final class RestFixture {

  private RestFixture() {}

  /** The problems binding {@code yaml} (the connection's mapping) reports, rendered. */
  static List<String> problems(String yaml, Map<String, String> environment) {
    Problems problems = new Problems();
    bind(yaml, environment, problems);
    return problems.inReadingOrder().stream().map(ConfigProblem::render).toList();
  }

  static List<String> problems(String yaml) {
    return problems(yaml, Map.of());
  }

  static RestConnection connection(String yaml) {
    return connection(yaml, Map.of());
  }

  static RestConnection connection(String yaml, Map<String, String> environment) {
    Problems problems = new Problems();
    RestConnection connection = bind(yaml, environment, problems);
    if (!problems.isEmpty()) {
      throw new AssertionError(
          "unexpected problems:\n"
              + String.join(
                  "\n", problems.inReadingOrder().stream().map(ConfigProblem::render).toList()));
    }
    return connection;
  }

  private static RestConnection bind(
      String yaml, Map<String, String> environment, Problems problems) {
    Optional<YamlNode> root;
    try {
      root = new YamlTreeReader(Path.of("config.yaml"), problems).read(yaml);
    } catch (ConfigException e) {
      throw new AssertionError(e.getMessage(), e);
    }
    List<String> allowed = new ArrayList<>(SourceFamily.COMMON_CONNECTION_KEYS);
    allowed.addAll(new RestSourceFamily().connectionKeys());
    Section section =
        Section.of(
            root,
            new ConfigOrigin.InFile(Path.of("config.yaml"), 1, 1),
            "sources.rest.lab",
            allowed,
            problems);
    return (RestConnection)
        new RestSourceFamily()
            .bind("lab", section, new BindContext(Path.of("."), environment, problems));
  }

  static OpenConnection open(RestConnection connection, Clock clock, SourceMetrics metrics)
      throws SourceException {
    return connection.open(new SourceRuntime(clock, OversizePolicy.DEFAULT, metrics));
  }

  /** One tick of {@code unit}, on a connection opened for it. */
  /** The connection's probe, as {@code config-check --probe} sends it, on the system clock. */
  static Optional<ProbeOutcome> probe(RestConnection connection) throws InterruptedException {
    return connection.probe(new SourceRuntime(Clock.systemUTC(), OversizePolicy.DEFAULT));
  }

  /** The outcome of a probe whose GET of {@code url} answered 200. */
  static ProbeOutcome answeredOk(String url) {
    return new ProbeOutcome(ProbeOutcome.Verdict.OK, "GET " + url + " answered 200");
  }

  /**
   * Reads {@code unit} of {@code open} on another thread into a sink of its own; completes with
   * what the read threw, or null when it ended normally.
   */
  static CompletableFuture<Throwable> readInBackground(
      OpenConnection open, String unit, Cancellation cancellation) {
    return CompletableFuture.supplyAsync(
        () -> {
          try {
            open.source(unit).read(Optional.empty(), new RecordingSink(), cancellation);
            return null;
          } catch (Exception e) {
            return e;
          }
        });
  }

  static RecordingSink read(RestConnection connection, String unit) throws Exception {
    return read(connection, unit, Optional.empty(), Clock.systemUTC());
  }

  static RecordingSink read(
      RestConnection connection, String unit, Optional<Mark> checkpoint, Clock clock)
      throws Exception {
    return read(connection, unit, checkpoint, clock, new RecordingSink());
  }

  /** One tick of {@code unit} into {@code sink}; what the source throws is thrown. */
  static RecordingSink read(
      RestConnection connection,
      String unit,
      Optional<Mark> checkpoint,
      Clock clock,
      RecordingSink sink)
      throws Exception {
    try (OpenConnection open = open(connection, clock, SourceMetrics.NONE)) {
      open.source(unit).read(checkpoint, sink, new Cancellation());
    }
    return sink;
  }
}
