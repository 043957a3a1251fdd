package dfe.fetcher.app.cli;

import dfe.fetcher.app.top.PrometheusText;
import dfe.fetcher.app.top.Scrape;
import dfe.fetcher.app.top.TopView;
import dfe.fetcher.runtime.config.FetcherConfig;
import dfe.fetcher.snapshots.Terminal;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jline.terminal.TerminalBuilder;
import org.jline.utils.InfoCmp;
import org.jline.utils.NonBlockingReader;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code dfe-fetcher top}: a running fetcher's units, live, from its {@code /metrics}. */
@Command(
    name = "top",
    mixinStandardHelpOptions = true,
    description = {
      "Shows a running fetcher's units live, read from its /metrics every --interval seconds: last"
          + " success, rows per second (between two reads), last snapshot, checkpoint age and"
          + " tick failures. q or Ctrl-C quits.",
      "Exit 0 when quit; 1 when the endpoint cannot be reached or does not answer with metrics at"
          + " the start (later, the screen says so and keeps trying); 2 on a usage error."
    })
final class TopCommand implements Callable<Integer> {

  private static final DateTimeFormatter CLOCK =
      DateTimeFormatter.ofPattern("HH:mm:ss", Locale.ROOT).withZone(ZoneOffset.UTC);
  private static final int KEY_WAIT_MILLIS = 100;
  private static final int CTRL_C = 3;

  @ParentCommand private DfeFetcher root;
  @Spec private CommandSpec spec;

  @ArgGroup(multiplicity = "1")
  private Where where;

  /** Where the metrics are: a URL, a configuration's metrics.address, or an address. */
  static final class Where {
    @Option(
        names = "--url",
        paramLabel = "URL",
        description = "the metrics endpoint, e.g. http://127.0.0.1:9090/metrics")
    String url;

    @Option(
        names = "--config",
        paramLabel = "FILE",
        description = "the fetcher's YAML file: read /metrics on its metrics.address")
    Path config;

    @Option(
        names = "--address",
        paramLabel = "HOST:PORT",
        description = "read /metrics on this address")
    String address;
  }

  @Option(
      names = "--interval",
      paramLabel = "SECONDS",
      defaultValue = "2",
      description = "seconds between two reads (at least 0.2). Default: ${DEFAULT-VALUE}.")
  private double intervalSeconds;

  @Override
  public Integer call() throws IOException, InterruptedException {
    Terminal terminal = root.terminal();
    if (!(intervalSeconds >= 0.2) || intervalSeconds > 3600) {
      throw new ParameterException(
          spec.commandLine(), "--interval " + intervalSeconds + ": give 0.2 to 3600 seconds");
    }
    URI uri = endpoint(terminal);
    if (uri == null) {
      return ConfigCheckCommand.INVALID_CONFIG;
    }
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    Scrape first;
    try {
      first = scrape(http, uri);
    } catch (IOException e) {
      terminal
          .err()
          .println(uri + ": cannot read the metrics (is the fetcher running?): " + describe(e));
      return StatusCommand.UNREACHABLE;
    }
    Duration interval = Duration.ofMillis(Math.round(intervalSeconds * 1000));
    if (System.console() == null) {
      // Not on a terminal (stdin or stdout a pipe or a file): each read is printed after the last,
      // until
      // the process is stopped; no key is read.
      watch(
          http,
          uri,
          first,
          interval,
          new PrintWriter(terminal.out(), true),
          Optional.empty(),
          new AtomicBoolean());
      return 0;
    }
    try (org.jline.terminal.Terminal screen = TerminalBuilder.builder().system(true).build()) {
      AtomicBoolean quit = new AtomicBoolean();
      screen.handle(org.jline.terminal.Terminal.Signal.INT, signal -> quit.set(true));
      screen.enterRawMode();
      screen.puts(InfoCmp.Capability.cursor_invisible);
      try {
        watch(http, uri, first, interval, screen.writer(), Optional.of(screen.reader()), quit);
      } finally {
        screen.puts(InfoCmp.Capability.cursor_visible);
        screen.writer().println();
        screen.flush();
      }
    }
    return 0;
  }

  /**
   * Draws a screen per read until {@code quit}; with {@code keys} (a terminal in raw mode) each
   * screen replaces the last and {@code q} or Ctrl-C sets {@code quit}.
   */
  private void watch(
      HttpClient http,
      URI uri,
      Scrape first,
      Duration interval,
      PrintWriter out,
      Optional<NonBlockingReader> keys,
      AtomicBoolean quit)
      throws InterruptedException, IOException {
    boolean interactive = keys.isPresent();
    TopView view = new TopView();
    Scrape latest = first;
    String problem = null;
    while (!quit.get()) {
      List<String> lines =
          screenLines(uri, interval, latest, problem == null ? view.update(latest) : null, problem);
      if (interactive) {
        out.print("\033[H\033[2J");
      }
      for (String line : lines) {
        out.print(line);
        out.print(interactive ? "\r\n" : "\n");
      }
      out.flush();
      Instant next = Instant.now().plus(interval);
      while (!quit.get() && Instant.now().isBefore(next)) {
        int key = interactive ? keys.get().read(KEY_WAIT_MILLIS) : sleep();
        if (key == 'q' || key == 'Q' || key == CTRL_C) {
          quit.set(true);
        }
      }
      if (quit.get()) {
        break;
      }
      try {
        latest = scrape(http, uri);
        problem = null;
      } catch (IOException e) {
        problem = "cannot read the metrics: " + describe(e) + "; trying again";
      }
    }
  }

  private static int sleep() throws InterruptedException {
    Thread.sleep(KEY_WAIT_MILLIS);
    return NonBlockingReader.READ_EXPIRED;
  }

  /** The screen: a title line, the table (or the problem reading the endpoint), a key hint. */
  private static List<String> screenLines(
      URI uri, Duration interval, Scrape latest, List<List<String>> table, String problem) {
    String ready =
        TopView.ready(latest).map(yes -> yes ? "ready" : "NOT READY").orElse("readiness unknown");
    List<String> lines = new ArrayList<>();
    lines.add(
        "dfe-fetcher top  "
            + uri
            + "  every "
            + interval.toMillis() / 1000.0
            + "s  "
            + (problem == null ? ready + "  " + CLOCK.format(latest.at()) + " UTC" : ""));
    lines.add("");
    if (problem != null) {
      lines.add(problem);
    } else {
      TextTable text = new TextTable(table.get(0).toArray(String[]::new));
      for (List<String> row : table.subList(1, table.size())) {
        text.add(row.toArray(String[]::new));
      }
      lines.addAll(text.lines());
      if (table.size() == 1) {
        lines.add("(no unit series yet)");
      }
    }
    lines.add("");
    lines.add("q quits");
    return lines;
  }

  private URI endpoint(Terminal terminal) {
    String text;
    if (where.url != null) {
      text = where.url;
    } else if (where.address != null) {
      text = "http://" + where.address + "/metrics";
    } else {
      FetcherConfig loaded = ConfigCheckCommand.loadOrReport(where.config, terminal);
      if (loaded == null) {
        return null;
      }
      text = "http://" + StatusCommand.addressOf(loaded.metrics(), spec) + "/metrics";
    }
    try {
      URI uri = URI.create(text);
      if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme())
          || uri.getHost() == null) {
        throw new IllegalArgumentException("not an http(s) URL with a host");
      }
      return uri;
    } catch (IllegalArgumentException e) {
      throw new ParameterException(
          spec.commandLine(),
          (where.url != null ? "--url " : "--address ") + text + ": " + e.getMessage());
    }
  }

  /** The exception's message, or its kind when it has none (a refused connection has none). */
  private static String describe(IOException e) {
    return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
  }

  private static Scrape scrape(HttpClient http, URI uri) throws IOException, InterruptedException {
    HttpResponse<InputStream> answer =
        http.send(
            HttpRequest.newBuilder(uri)
                .header("Accept", "text/plain; version=0.0.4")
                .timeout(Duration.ofSeconds(10))
                .build(),
            HttpResponse.BodyHandlers.ofInputStream());
    try (InputStream body = answer.body()) {
      if (answer.statusCode() != 200) {
        throw new IOException("HTTP " + answer.statusCode());
      }
      return new Scrape(
          Instant.now(), PrometheusText.parse(new InputStreamReader(body, StandardCharsets.UTF_8)));
    } catch (PrometheusText.FormatException e) {
      throw new IOException("not the Prometheus text format (" + e.getMessage() + ")", e);
    }
  }
}
