package dfe.fetcher.jdbc.clickhouse;

import static org.awaitility.Awaitility.await;

import dfe.fetcher.core.oversize.OversizePolicy;
import dfe.fetcher.core.row.Cancellation;
import dfe.fetcher.core.row.Mark;
import dfe.fetcher.core.row.SourceException;
import dfe.fetcher.jdbc.JdbcSourceFamily;
import dfe.fetcher.source.BindContext;
import dfe.fetcher.source.OpenConnection;
import dfe.fetcher.source.SourceFamily;
import dfe.fetcher.source.SourceRuntime;
import dfe.fetcher.source.config.ConfigException;
import dfe.fetcher.source.config.ConfigOrigin;
import dfe.fetcher.source.config.ConfigProblem;
import dfe.fetcher.source.config.Problems;
import dfe.fetcher.source.config.Section;
import dfe.fetcher.source.config.YamlNode;
import dfe.fetcher.source.config.YamlTreeReader;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The real ClickHouse server the tests read (Debian's 18.16, on 127.0.0.1:18123, HTTPS on 18443):
 * started by {@code scripts/clickhouse-test-server.sh} when nothing answers there ({@code .ci/run}
 * starts it first), plus binding a connection from YAML and reading one tick. The ports and the
 * server's directory follow the script's variables ({@code DFE_CLICKHOUSE_HTTP_PORT}, {@code
 * DFE_CLICKHOUSE_HTTPS_PORT}, {@code DFE_CLICKHOUSE_DIR}), so the tests can read a second instance.
 */
final class ClickHouseFixture {

  static final int HTTP_PORT = port("DFE_CLICKHOUSE_HTTP_PORT", 18123);
  static final int HTTPS_PORT = port("DFE_CLICKHOUSE_HTTPS_PORT", 18443);
  static final String URL = "http://127.0.0.1:" + HTTP_PORT;
  static final String HTTPS_URL = "https://127.0.0.1:" + HTTPS_PORT;
  private static final HttpClient CLIENT = HttpClient.newHttpClient();

  private ClickHouseFixture() {}

  /** Starts the server unless it answers already. */
  static synchronized void ensureServer() throws IOException, InterruptedException {
    if (answers()) {
      return;
    }
    Path script = Path.of("..", "scripts", "clickhouse-test-server.sh").toAbsolutePath();
    if (!Files.exists(script)) {
      throw new IllegalStateException("cannot start ClickHouse: " + script + " is missing");
    }
    Process start = new ProcessBuilder("bash", script.toString(), "start").inheritIO().start();
    if (start.waitFor() != 0) {
      throw new IllegalStateException(
          "cannot start ClickHouse with " + script + " (is clickhouse-server installed?)");
    }
    await().atMost(Duration.ofSeconds(60)).until(ClickHouseFixture::answers);
  }

  private static int port(String variable, int fallback) {
    String value = System.getenv(variable);
    return value == null || value.isBlank() ? fallback : Integer.parseInt(value.strip());
  }

  /**
   * Starts the server unless it answers already, and checks that it has the HTTPS port and the CA
   * its certificate is signed by (a server started by an older script has neither).
   */
  static synchronized void ensureTlsServer() throws IOException, InterruptedException {
    ensureServer();
    if (!answers(HTTPS_PORT)) {
      throw new IllegalStateException(
          "the ClickHouse test server answers on "
              + HTTP_PORT
              + " but not on its HTTPS port "
              + HTTPS_PORT
              + ": it was started by an older scripts/clickhouse-test-server.sh; stop and start it");
    }
    if (!Files.isRegularFile(caFile())) {
      throw new IllegalStateException(
          "no "
              + caFile()
              + ": the ClickHouse test server was started from another checkout; set"
              + " DFE_CLICKHOUSE_DIR to its directory");
    }
  }

  /** The CA the test server's certificate is signed by, made by the script at start. */
  static Path caFile() {
    String dir = System.getenv("DFE_CLICKHOUSE_DIR");
    Path base = dir == null || dir.isBlank() ? Path.of("target", "clickhouse") : Path.of(dir);
    return base.resolve("tls").resolve("ca.crt").toAbsolutePath();
  }

  private static boolean answers() {
    return answers(HTTP_PORT);
  }

  private static boolean answers(int port) {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress("127.0.0.1", port), 500);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  /** Runs {@code sql} as the default user; returns the answer's text. */
  static String exec(String sql) throws IOException, InterruptedException {
    return exec(sql, Map.of());
  }

  static String exec(String sql, Map<String, String> settings)
      throws IOException, InterruptedException {
    StringBuilder url = new StringBuilder(URL + "/?");
    settings.forEach(
        (name, value) ->
            url.append(name)
                .append('=')
                .append(URLEncoder.encode(value, StandardCharsets.UTF_8))
                .append('&'));
    HttpResponse<String> response =
        CLIENT.send(
            HttpRequest.newBuilder(URI.create(url.toString()))
                .POST(HttpRequest.BodyPublishers.ofString(sql))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() != 200) {
      throw new IllegalStateException("ClickHouse refused " + sql + ": " + response.body());
    }
    return response.body();
  }

  /** A fresh database of that name. */
  static void freshDatabase(String database) throws IOException, InterruptedException {
    exec("DROP DATABASE IF EXISTS " + database);
    exec("CREATE DATABASE " + database);
  }

  /** Binds {@code sources.db.<id>} from {@code yaml}; fails on any problem. */
  static ClickHouseConnection connection(String id, String yaml) {
    Problems problems = new Problems();
    Object bound = bind(id, yaml, problems);
    if (!problems.isEmpty()) {
      throw new AssertionError(
          "unexpected problems:\n"
              + String.join(
                  "\n", problems.inReadingOrder().stream().map(ConfigProblem::render).toList()));
    }
    return (ClickHouseConnection) bound;
  }

  /** The problems binding {@code yaml} reports. */
  static List<String> problems(String yaml) {
    Problems problems = new Problems();
    bind("wh", yaml, problems);
    return problems.inReadingOrder().stream().map(ConfigProblem::render).toList();
  }

  private static Object bind(String id, String yaml, Problems problems) {
    Optional<YamlNode> root;
    try {
      root = new YamlTreeReader(Path.of("config.yaml"), problems).read(yaml);
    } catch (ConfigException e) {
      throw new AssertionError(e.getMessage(), e);
    }
    List<String> allowed = new ArrayList<>(SourceFamily.COMMON_CONNECTION_KEYS);
    allowed.addAll(new JdbcSourceFamily().connectionKeys());
    Section section =
        Section.of(
            root,
            new ConfigOrigin.InFile(Path.of("config.yaml"), 1, 1),
            "sources.db." + id,
            allowed,
            problems);
    return new JdbcSourceFamily()
        .bind(id, section, new BindContext(Path.of("."), Map.of(), problems));
  }

  static OpenConnection open(ClickHouseConnection connection) {
    try {
      return connection.open(runtime());
    } catch (SourceException e) {
      throw new IllegalStateException(e.getMessage(), e);
    }
  }

  static SourceRuntime runtime() {
    return new SourceRuntime(Clock.systemUTC(), OversizePolicy.DEFAULT);
  }

  /** One tick of {@code unit} on a connection opened for it. */
  static EventSink read(ClickHouseConnection connection, String unit, Optional<Mark> checkpoint)
      throws SourceException, InterruptedException {
    EventSink sink = new EventSink();
    try (OpenConnection open = open(connection)) {
      open.source(unit).read(checkpoint, sink, new Cancellation());
    }
    return sink;
  }
}
