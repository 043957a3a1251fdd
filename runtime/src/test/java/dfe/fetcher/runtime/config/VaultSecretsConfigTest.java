package dfe.fetcher.runtime.config;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.sun.net.httpserver.HttpServer;
import dfe.fetcher.source.config.ConfigException;
import dfe.fetcher.source.config.ConfigProblem;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * A {@code vault:} spec in the configuration: bound like {@code env:} and {@code file:}, checked by
 * {@code config-check}, and its token and value in no problem, summary or log line.
 */
class VaultSecretsConfigTest {

  private static final String TOKEN = "hvs.config-token-never-printed";
  private static final String JAAS = "jaas-value-never-printed";
  private static final String KAFKA_WITH_VAULT =
      """
      vault: {cache_ttl_secs: 60}
      output:
        type: kafka
        kafka:
          bootstrap_servers: "broker:9092"
          properties:
            sasl.jaas.config: vault:secret/dfe/kafka#jaas
      """;

  @TempDir Path directory;

  private HttpServer server;
  private final AtomicReference<String> answer = new AtomicReference<>();
  private final AtomicInteger status = new AtomicInteger(200);
  private final ListAppender<ILoggingEvent> logged = new ListAppender<>();
  private final Logger root = (Logger) LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME);

  @BeforeEach
  void start() throws Exception {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext(
        "/v1/secret/data/dfe/kafka",
        exchange -> {
          byte[] body = answer.get().getBytes(StandardCharsets.UTF_8);
          exchange.sendResponseHeaders(status.get(), body.length);
          exchange.getResponseBody().write(body);
          exchange.close();
        });
    server.start();
    answer.set("{\"data\":{\"data\":{\"jaas\":\"" + JAAS + "\"},\"metadata\":{\"version\":1}}}");
    logged.start();
    root.addAppender(logged);
  }

  @AfterEach
  void stop() {
    root.detachAppender(logged);
    server.stop(0);
    String logs =
        String.join("\n", logged.list.stream().map(ILoggingEvent::getFormattedMessage).toList());
    assertThat(logs).doesNotContain(TOKEN).doesNotContain(JAAS);
  }

  private Map<String, String> environment() {
    return Map.of(
        "VAULT_ADDR", "http://127.0.0.1:" + server.getAddress().getPort(), "VAULT_TOKEN", TOKEN);
  }

  @Test
  void theSummaryNamesTheVaultSpecButNeitherValueNorToken() throws Exception {
    Path file = new ConfigFixture(directory).write("config.yaml", KAFKA_WITH_VAULT);
    FetcherConfig config = ConfigLoader.check(file, environment(), ConfigFixture.FAKE_FILTERS);

    assertThat(ConfigSummary.render(config))
        .contains("kafka properties: sasl.jaas.config (vault:secret/dfe/kafka#jaas)")
        .doesNotContain(JAAS)
        .doesNotContain(TOKEN);
    assertThat(config.output().kafka().properties().get("sasl.jaas.config").reveal())
        .isEqualTo(JAAS);
  }

  @Test
  void configCheckReportsASealedVaultAtTheSettingWithoutTheToken() {
    status.set(503);
    answer.set("{\"errors\":[\"Vault is sealed\"]}");

    List<String> problems = checkProblems(environment());

    assertThat(problems)
        .singleElement()
        .satisfies(
            problem ->
                assertThat(problem)
                    .startsWith(
                        "config.yaml:7:25: output.kafka.properties.sasl.jaas.config:"
                            + " vault:secret/dfe/kafka#jaas: reading secret/dfe/kafka")
                    .contains("answered 503 (Vault is sealed)")
                    .doesNotContain(TOKEN));
  }

  @Test
  void configCheckReportsAForbiddenPathAtTheSettingWithoutTheToken() {
    status.set(403);
    answer.set("{\"errors\":[\"permission denied\"]}");

    assertThat(String.join("\n", checkProblems(environment())))
        .contains("vault:secret/dfe/kafka#jaas")
        .contains("answered 403 (permission denied)")
        .doesNotContain(TOKEN);
  }

  private List<String> checkProblems(Map<String, String> environment) {
    ConfigFixture fixture = new ConfigFixture(directory);
    Path file = fixture.write("config.yaml", KAFKA_WITH_VAULT);
    try {
      ConfigLoader.check(file, environment, ConfigFixture.FAKE_FILTERS);
    } catch (ConfigException e) {
      return e.problems().stream().map(ConfigProblem::render).map(fixture::relative).toList();
    }
    throw new AssertionError("the configuration passed the check, but it should have failed");
  }
}
