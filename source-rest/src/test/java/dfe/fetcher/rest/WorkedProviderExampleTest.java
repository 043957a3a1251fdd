package dfe.fetcher.rest;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import dfe.fetcher.core.oversize.OversizePolicy;
import dfe.fetcher.core.row.WindowMark;
import dfe.fetcher.source.ProbeOutcome;
import dfe.fetcher.source.SourceRuntime;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * docs/adding-a-provider.md adds a 22nd provider (Jira Cloud's audit records) in YAML only: this
 * test takes that page's configuration as it is written, points its {@code api_url} at a local
 * server answering in the shapes Jira documents, and runs the probe and a tick. No line of the
 * example is restated here, so the page cannot say what the product does not do.
 */
class WorkedProviderExampleTest {

  private static final Path PAGE = Path.of("..", "docs", "adding-a-provider.md");
  private static final Instant NOW = Instant.parse("2026-12-01T08:00:30.250Z");

  @AutoClose private final ApiServer server = ApiServer.started();

  /** The instance of the page's one yaml block: what lies under {@code sources.rest.jira_audit}. */
  private static String instanceOnThePage() throws IOException {
    List<String> lines = Files.readAllLines(PAGE, StandardCharsets.UTF_8);
    int open = lines.indexOf("```yaml");
    assertThat(open).as("the page's yaml block").isNotNegative();
    assertThat(lines.subList(open + 1, open + 4))
        .containsExactly("sources:", "  rest:", "    jira_audit:");
    List<String> instance = new ArrayList<>();
    for (String line : lines.subList(open + 4, lines.size())) {
      if (!line.startsWith("      ")) {
        break;
      }
      instance.add(line.substring(6));
    }
    return String.join("\n", instance) + "\n";
  }

  /** The page's instance with its api_url set to the local server (the profile's own test hook). */
  private RestConnection connection() throws IOException {
    String instance = instanceOnThePage();
    assertThat(instance).contains("vars:\n  site: acme");
    String local =
        instance.replace("vars:\n  site: acme", "vars:\n  api_url: \"" + server.url() + "\"");
    return RestFixture.connection(local, Map.of("JIRA_API_TOKEN", "atl-token"));
  }

  private static String basic() {
    return "Basic "
        + Base64.getEncoder()
            .encodeToString("security-bot@acme.example:atl-token".getBytes(StandardCharsets.UTF_8));
  }

  /** Jira's audit records, two to a page whatever limit asks, bounded by total. */
  private void answer(HttpExchange exchange) throws IOException {
    String query = exchange.getRequestURI().getRawQuery();
    boolean second = query.contains("offset=2");
    String records =
        second
            ? "{\"id\":3,\"summary\":\"User created\",\"created\":\"2026-11-30T12:00:00.000+0000\"}"
            : "{\"id\":1,\"summary\":\"Project deleted\",\"created\":\"2026-11-30T09:00:00.000+0000\"},"
                + "{\"id\":2,\"summary\":\"Group added\",\"created\":\"2026-11-30T10:00:00.000+0000\"}";
    ApiServer.ok(
            "{\"offset\":"
                + (second ? 2 : 0)
                + ",\"limit\":1000,\"total\":3,\"records\":["
                + records
                + "]}")
        .answer(exchange);
  }

  @Test
  void theYamlOnlyProfileOfThePageLandsEveryAuditRecordOfTheWindow() throws Exception {
    server.on("/rest/api/3/auditing/record", this::answer);
    MutableClock clock = new MutableClock(NOW);

    RecordingSink sink = RestFixture.read(connection(), "audit_records", Optional.empty(), clock);

    assertThat(sink.records())
        .containsExactly(
            "{\"id\":1,\"summary\":\"Project deleted\",\"created\":\"2026-11-30T09:00:00.000+0000\"}",
            "{\"id\":2,\"summary\":\"Group added\",\"created\":\"2026-11-30T10:00:00.000+0000\"}",
            "{\"id\":3,\"summary\":\"User created\",\"created\":\"2026-11-30T12:00:00.000+0000\"}");
    // The first window, in milliseconds: from now - lookback (24h) to now - settle (1m).
    String window = "from=2026-11-30T08%3A00%3A30.250Z&to=2026-12-01T07%3A59%3A30.250Z";
    assertThat(server.paths())
        .containsExactly(
            "/rest/api/3/auditing/record?" + window + "&offset=0&limit=1000",
            "/rest/api/3/auditing/record?" + window + "&offset=2&limit=1000");
    assertThat(server.requests())
        .allSatisfy(r -> assertThat(r.header("Authorization")).isEqualTo(basic()));
    assertThat(sink.checkpoint())
        .contains(new WindowMark(Instant.parse("2026-12-01T07:59:30.250Z")));
  }

  @Test
  void thePagesProbeAsksWhoTheTokenBelongsTo() throws Exception {
    server.on("/rest/api/3/myself", ApiServer.ok("{\"accountId\":\"5b10a2844c20165700ede21g\"}"));

    Optional<ProbeOutcome> outcome =
        connection()
            .probe(new SourceRuntime(Clock.fixed(NOW, ZoneOffset.UTC), OversizePolicy.DEFAULT));

    assertThat(outcome).map(ProbeOutcome::verdict).contains(ProbeOutcome.Verdict.OK);
    assertThat(server.requests())
        .singleElement()
        .satisfies(
            r -> {
              assertThat(r.pathAndQuery()).isEqualTo("/rest/api/3/myself");
              assertThat(r.header("Authorization")).isEqualTo(basic());
            });
  }
}
