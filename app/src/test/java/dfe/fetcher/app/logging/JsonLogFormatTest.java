package dfe.fetcher.app.logging;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --log-format json} and {@code DFE_FETCHER_LOG_FORMAT}, in a process of its own as an
 * operator runs it: every line on stderr one JSON object with ECS-style names and the event's
 * {@code key=value} pairs as fields, and neither a secret of the configuration (given through an
 * override, which is logged) nor a record's value (a landed one, and one on a malformed line that
 * fails its tick) in any field.
 */
class JsonLogFormatTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String SECRET = "tok3n-S3CRET-4711";
  private static final String RECORD_VALUE = "rec0rd-VALUE-0815";
  private static final String BAD_LINE_VALUE = "bad-L1NE-VALUE-42";
  private static final Pattern ONCE_SUMMARY =
      Pattern.compile("^(unit \\S+ (failed|stopped)|ran \\d+ units?, ).*");

  @TempDir Path directory;
  private HttpServer api;
  private Path config;

  @BeforeEach
  void sources() throws IOException {
    AtomicInteger requests = new AtomicInteger();
    api = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    api.createContext(
        "/items",
        exchange -> {
          byte[] body;
          if (requests.getAndIncrement() == 0) {
            // The API answers 429 once, quoting the credential it was sent: a retry is logged.
            body =
                ("{\"error\":\"slow down\",\"token\":\""
                        + exchange.getRequestHeaders().getFirst("Authorization")
                        + "\"}")
                    .getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Retry-After", "0");
            exchange.sendResponseHeaders(429, body.length);
          } else {
            body =
                ("[{\"id\":\"a\",\"name\":\"" + RECORD_VALUE + "\"}]")
                    .getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
          }
          try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
          }
        });
    api.start();
    Path good = Files.createDirectories(directory.resolve("good"));
    Files.writeString(good.resolve("a.ndjson"), "{\"id\":1,\"name\":\"" + RECORD_VALUE + "\"}\n");
    Path bad = Files.createDirectories(directory.resolve("bad"));
    Files.writeString(
        bad.resolve("b.ndjson"),
        "{\"id\":1}\n{\"id\":2,\"name\":\"" + BAD_LINE_VALUE + "\" this is not json\n");
    config =
        Files.writeString(
            directory.resolve("config.yaml"),
            """
            instance_id: logs
            sources:
              file:
                inventory:
                  topic: inventory
                  units:
                    - unit: good
                      dump: {paths: [good/*.ndjson]}
                    - unit: bad
                      dump: {paths: [bad/*.ndjson]}
              rest:
                lab:
                  topic: lab
                  auth: {mode: bearer, token: "placeholder"}
                  profile:
                    base_url: "http://127.0.0.1:%d"
                    retry: {max_retries: 3, initial_backoff_ms: 10, max_backoff_ms: 100}
                    endpoints:
                      - unit: items
                        shape: dump
                        path: /items
                        rows: {decoder: json_array}
                        paginate: {type: none}
            """
                .formatted(api.getAddress().getPort()));
  }

  @AfterEach
  void stopApi() {
    api.stop(0);
  }

  @Test
  void everyLineIsOneJsonObjectWithEcsNamesAndTheEventsPairsAsFields() throws Exception {
    Finished run = run(Map.of(), "run", "--once", "--log-format", "json", "--config", config);

    assertThat(run.exit()).as(run.err()).isEqualTo(1); // the bad file's unit fails
    List<JsonNode> events = jsonLines(run.err());
    assertThat(events).isNotEmpty();
    for (JsonNode event : events) {
      assertThat(event.path("@timestamp").asText())
          .matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z");
      assertThat(event.path("log.level").asText()).isIn("TRACE", "DEBUG", "INFO", "WARN", "ERROR");
      assertThat(event.path("log.logger").asText()).isNotBlank();
      assertThat(event.path("message").isTextual()).isTrue();
    }
    JsonNode done = only(events, "tick_done", "inventory.good");
    assertThat(done.path("log.logger").asText()).isEqualTo("dfe.fetcher.tick");
    assertThat(done.path("log.level").asText()).isEqualTo("INFO");
    assertThat(done.path("records").isNumber()).as("an unquoted number: %s", done).isTrue();
    assertThat(done.path("records").asLong()).isEqualTo(3);
    assertThat(done.path("message").asText()).startsWith("event=tick_done unit=inventory.good ");
    JsonNode failed = only(events, "tick_failed", "inventory.bad");
    assertThat(failed.path("log.level").asText()).isEqualTo("ERROR");
    assertThat(failed.path("error").asText())
        .as("a quoted value, unescaped")
        .contains("b.ndjson:2");
    assertThat(events)
        .as("the override of the secret is logged, by its variable's name")
        .anySatisfy(event -> assertThat(event.path("event").asText()).isEqualTo("config_override"));
    assertThat(events)
        .as("the REST unit's retry is logged")
        .anySatisfy(
            event -> assertThat(event.path("event").asText()).isEqualTo("rest_request_retried"));

    assertThat(run.err()).doesNotContain(SECRET, RECORD_VALUE, BAD_LINE_VALUE);
    assertThat(run.out()).doesNotContain(SECRET, RECORD_VALUE, BAD_LINE_VALUE);
    // Reconfiguring logback for JSON warns of nothing (the test class path's two
    // logback-test.xml make logback's first, automatic configuration warn: not ours).
    assertThat(run.out().lines().filter(line -> line.matches(".*\\|-(WARN|ERROR).*")))
        .allMatch(line -> line.contains("logback-test.xml"));
  }

  @Test
  void theEnvironmentChoosesJsonWhenNoOptionIsGiven() throws Exception {
    Finished run =
        run(Map.of("DFE_FETCHER_LOG_FORMAT", "JSON"), "run", "--once", "--config", config);

    assertThat(jsonLines(run.err()))
        .anySatisfy(event -> assertThat(event.has("log.level")).isTrue());
    assertThat(run.err()).doesNotContain(SECRET, RECORD_VALUE, BAD_LINE_VALUE);
  }

  @Test
  void theOptionWinsOverTheEnvironmentAndTextStaysTheDefault() throws Exception {
    Finished text =
        run(
            Map.of("DFE_FETCHER_LOG_FORMAT", "json"),
            "run",
            "--once",
            "--log-format",
            "text",
            "--config",
            config);

    assertThat(text.err()).contains("event=tick_done unit=inventory.good ");
    assertThat(text.err().lines()).noneMatch(line -> line.startsWith("{"));
  }

  @Test
  void anUnknownFormatIsAUsageError() throws Exception {
    Finished option = run(Map.of(), "run", "--once", "--log-format", "yaml", "--config", config);
    assertThat(option.exit()).isEqualTo(2);
    assertThat(option.err()).contains("--log-format yaml: not a log format; use text or json");

    Finished variable =
        run(Map.of("DFE_FETCHER_LOG_FORMAT", "yaml"), "config-check", "--config", config);
    assertThat(variable.exit()).isEqualTo(2);
    assertThat(variable.err()).contains("DFE_FETCHER_LOG_FORMAT=yaml: not a log format");
  }

  private record Finished(int exit, String out, String err) {}

  /** Runs the CLI in a JVM of its own, the REST unit's token given through an override. */
  private Finished run(Map<String, String> environment, Object... args) throws Exception {
    List<String> command = new ArrayList<>();
    command.add(ProcessHandle.current().info().command().orElse("java"));
    command.addAll(
        List.of(
            "-Xmx128m",
            "-cp",
            System.getProperty("java.class.path"),
            "dfe.fetcher.app.cli.DfeFetcher"));
    for (Object arg : args) {
      command.add(arg.toString());
    }
    Path out = directory.resolve("out.txt");
    Path err = directory.resolve("err.txt");
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .directory(directory.toFile())
            .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
            .redirectOutput(out.toFile())
            .redirectError(err.toFile());
    builder.environment().keySet().removeIf(name -> name.startsWith("DFE_FETCHER_"));
    builder.environment().put("DFE_FETCHER_SOURCES__REST__LAB__AUTH__TOKEN", SECRET);
    builder.environment().put("DFE_FETCHER_LOG_LEVEL", "DEBUG");
    builder.environment().putAll(environment);
    Process process = builder.start();
    assertThat(process.waitFor(120, TimeUnit.SECONDS)).as("the command ended").isTrue();
    return new Finished(
        process.exitValue(),
        Files.readString(out, StandardCharsets.UTF_8),
        Files.readString(err, StandardCharsets.UTF_8));
  }

  private static List<JsonNode> jsonLines(String err) throws IOException {
    List<JsonNode> events = new ArrayList<>();
    for (String line : err.split("\n")) {
      if (line.isBlank()) {
        continue;
      }
      if (ONCE_SUMMARY.matcher(line).matches()) {
        // run --once's report (a unit that failed, the summary): command output, not log events.
        continue;
      }
      JsonNode event = JSON.readTree(line);
      assertThat(event.isObject()).as("one JSON object per line: %s", line).isTrue();
      events.add(event);
    }
    return events;
  }

  private static JsonNode only(List<JsonNode> events, String name, String unit) {
    List<JsonNode> matching =
        events.stream()
            .filter(event -> event.path("event").asText().equals(name))
            .filter(event -> event.path("unit").asText().equals(unit))
            .toList();
    assertThat(matching).as("%s of %s in %s", name, unit, events).hasSize(1);
    return matching.get(0);
  }
}
