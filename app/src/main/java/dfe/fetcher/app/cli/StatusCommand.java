package dfe.fetcher.app.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dfe.fetcher.app.top.TopView;
import dfe.fetcher.runtime.config.FetcherConfig;
import dfe.fetcher.runtime.config.MetricsConfig;
import dfe.fetcher.snapshots.Terminal;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code dfe-fetcher status}: a running service's units, from its {@code /status} endpoint. */
@Command(
    name = "status",
    mixinStandardHelpOptions = true,
    description = {
      "Asks a running service (its metrics.address, /status) for each unit's last tick, outcome,"
          + " last success, next tick and checkpoint, and prints them as a table; the reason of"
          + " each last tick that failed follows the table.",
      "Exit 0 when the service answered; 1 when it cannot be reached or answers otherwise; 2 on a"
          + " usage error (metrics.address with port 0 cannot be asked: pass --address)."
    })
final class StatusCommand implements Callable<Integer> {

  static final int UNREACHABLE = 1;
  private static final ObjectMapper JSON = new ObjectMapper();

  @ParentCommand private DfeFetcher root;
  @Spec private CommandSpec spec;

  @ArgGroup(multiplicity = "1")
  private Where where;

  /** Where the service listens: its configuration's metrics.address, or an address given. */
  static final class Where {
    @Option(
        names = "--config",
        paramLabel = "FILE",
        description = "the service's YAML file: ask its metrics.address")
    Path config;

    @Option(names = "--address", paramLabel = "HOST:PORT", description = "ask this address")
    String address;
  }

  @Override
  public Integer call() throws InterruptedException {
    Terminal terminal = root.terminal();
    String address = where.address;
    if (address == null) {
      FetcherConfig loaded = ConfigCheckCommand.loadOrReport(where.config, terminal);
      if (loaded == null) {
        return ConfigCheckCommand.INVALID_CONFIG;
      }
      address = addressOf(loaded.metrics(), spec);
    }
    URI uri;
    try {
      uri = URI.create("http://" + address + "/status");
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), "--address " + address + ": not HOST:PORT");
    }
    HttpResponse<String> answer;
    try {
      HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
      answer =
          http.send(
              HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).build(),
              HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      terminal.err().println(uri + ": cannot reach the service (is it running?): " + describe(e));
      return UNREACHABLE;
    }
    JsonNode document;
    try {
      if (answer.statusCode() != 200) {
        throw new IOException("HTTP " + answer.statusCode());
      }
      document = JSON.readTree(answer.body());
      if (document == null || !document.path("units").isArray()) {
        throw new IOException("no \"units\" list");
      }
    } catch (IOException e) {
      terminal.err().println(uri + ": not a dfe-fetcher status answer (" + describe(e) + ")");
      return UNREACHABLE;
    }
    print(document, terminal);
    return 0;
  }

  /**
   * The HOST:PORT to ask a service listening on {@code metrics.address}; a usage error of {@code
   * command} for port 0.
   */
  static String addressOf(MetricsConfig metrics, CommandSpec command) {
    if (metrics.port() == 0) {
      throw new ParameterException(
          command.commandLine(),
          "metrics.address "
              + metrics.address()
              + " listens on any free port: pass --address HOST:PORT (the service logs it as"
              + " event=metrics_listening)");
    }
    String host = metrics.host();
    // A service listening on every interface is asked on this machine's loopback.
    if (host.equals("0.0.0.0") || host.equals("::") || host.isEmpty()) {
      host = "127.0.0.1";
    }
    return host.contains(":") ? "[" + host + "]:" + metrics.port() : host + ":" + metrics.port();
  }

  private static void print(JsonNode document, Terminal terminal) {
    Instant now = instant(document.path("now"));
    TextTable table =
        new TextTable("UNIT", "LAST TICK", "OUTCOME", "LAST SUCCESS", "NEXT TICK", "CHECKPOINT");
    List<String> failures = new ArrayList<>();
    for (JsonNode unit : document.path("units")) {
      String store = unit.path("unit").asText();
      String outcome = unit.path("last_outcome").asText("-");
      if (unit.hasNonNull("running_since")) {
        outcome = "running " + ago(now, instant(unit.path("running_since")));
      }
      JsonNode checkpoint = unit.path("checkpoint");
      table.add(
          store,
          when(now, unit.path("last_tick_end"), "never"),
          outcome,
          when(now, unit.path("last_success"), "never"),
          when(now, unit.path("next_tick"), unit.hasNonNull("running_since") ? "after this" : "-"),
          checkpoint.isObject()
              ? checkpoint.path("kind").asText() + ": " + checkpoint.path("description").asText()
              : "none kept");
      if (unit.hasNonNull("last_failure")) {
        failures.add(store + ": last tick failed: " + unit.path("last_failure").asText());
      }
    }
    table.print(terminal.out());
    failures.forEach(terminal.out()::println);
    terminal.out().flush();
  }

  /** {@code 2026-05-01T12:00:01Z (5s ago)}, or {@code (in 55s)} for a time ahead. */
  private static String when(Instant now, JsonNode at, String unknown) {
    if (at.isNull() || at.isMissingNode()) {
      return unknown;
    }
    Instant time = instant(at);
    if (time == null) {
      return at.asText();
    }
    return time.truncatedTo(ChronoUnit.SECONDS) + " (" + ago(now, time) + ")";
  }

  private static String ago(Instant now, Instant time) {
    if (now == null || time == null) {
      return "";
    }
    Duration between = Duration.between(time, now);
    return between.isNegative() ? "in " + span(between.negated()) : span(between) + " ago";
  }

  private static String span(Duration duration) {
    return TopView.span(duration.toSeconds());
  }

  private static Instant instant(JsonNode node) {
    try {
      return node.isTextual() ? Instant.parse(node.asText()) : null;
    } catch (RuntimeException e) {
      return null;
    }
  }

  private static String describe(IOException e) {
    return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
  }
}
