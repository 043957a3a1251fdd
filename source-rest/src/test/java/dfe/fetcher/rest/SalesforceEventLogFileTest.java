package dfe.fetcher.rest;

import static dfe.fetcher.rest.ApiServer.json;
import static dfe.fetcher.rest.ApiServer.ok;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dfe.fetcher.core.row.WindowMark;
import dfe.fetcher.source.ProbeOutcome;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.KeyPair;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code event_log_file} unit of the shipped {@code salesforce} profile, and its probe, against
 * a local server answering as Salesforce's REST API does: a SOQL page of EventLogFile records with
 * {@code nextRecordsUrl}, the last page, each file's CSV content, and an error list.
 */
class SalesforceEventLogFileTest {

  private static final Instant NOW = Instant.parse("2026-12-01T08:00:00.500Z");
  private static final String QUERY = "/services/data/v62.0/query";
  private static final String NEXT = "/services/data/v62.0/query/01gRO0000016PIAYA2-2000";
  private static final String FILES = "/services/data/v62.0/sobjects/EventLogFile/";

  @TempDir Path directory;
  @AutoClose private final ApiServer server = ApiServer.started();
  private JwtTokenEndpoint tokens;
  private final MutableClock clock = new MutableClock(NOW);

  private RestConnection salesforce(String vars) throws Exception {
    KeyPair keys = TestKeys.rsa();
    tokens = new JwtTokenEndpoint(keys.getPublic(), "assertion", "00Dsf!token");
    server.on("/services/oauth2/token", tokens.answer());
    Path key = TestKeys.privateKeyPem(keys, directory.resolve("sf.pem"));
    return RestFixture.connection(
        """
        topic: salesforce
        profile: salesforce
        vars: {instance_url: "%s"%s}
        auth: {mode: jwt_bearer, token_url: "%s/services/oauth2/token", issuer: 3MVG9consumer,
               subject: audit@acme.example, audience: "https://login.salesforce.com",
               private_key: "file:%s"}
        units: {event_log_file: {enabled: true}}
        """
            .formatted(server.url(), vars, server.url(), key));
  }

  private static String soql(String eventTypes) {
    return "q="
        + URLEncoder.encode(
            "SELECT Id, EventType, LogDate, Interval, LogFileLength, CreatedDate FROM EventLogFile"
                + " WHERE CreatedDate >= 2026-12-01T07:00:00Z AND CreatedDate < 2026-12-01T08:00:00Z"
                + " AND Interval = 'Daily'"
                + eventTypes
                + " ORDER BY CreatedDate ASC",
            StandardCharsets.UTF_8);
  }

  private static String file(String id, String type) {
    return "{\"attributes\":{\"type\":\"EventLogFile\",\"url\":\""
        + FILES
        + id
        + "\"},\"Id\":\""
        + id
        + "\",\"EventType\":\""
        + type
        + "\",\"LogDate\":\"2026-11-30T00:00:00.000+0000\","
        + "\"Interval\":\"Daily\",\"LogFileLength\":120.0,"
        + "\"CreatedDate\":\"2026-12-01T07:12:03.000+0000\"}";
  }

  private void serveTwoPagesOfFiles(String query) {
    server.on(
        QUERY,
        ApiServer.byQuery(
            Map.of(
                query,
                ok(
                    "{\"totalSize\":2,\"done\":false,\"nextRecordsUrl\":\""
                        + NEXT
                        + "\",\"records\":["
                        + file("0ATD000000001bROAQ", "Login")
                        + "]}"))));
    server.on(
        NEXT,
        ok(
            "{\"totalSize\":2,\"done\":true,\"records\":["
                + file("0ATD000000001bSOAQ", "API")
                + "]}"));
  }

  @Test
  void eachListedLogFileLandsItsCsvRowsWithItsEventTypeAndLogDate() throws Exception {
    serveTwoPagesOfFiles(soql(""));
    server.on(
        FILES + "0ATD000000001bROAQ/LogFile",
        ApiServer.send(
            200,
            "text/csv",
            ("\"EVENT_TYPE\",\"TIMESTAMP\",\"USER_ID\"\n"
                    + "\"Login\",\"20261130000105.123\",\"005D0000001\"\n"
                    + "\"Login\",\"20261130000217.456\",\"005D0000002\"\n")
                .getBytes(StandardCharsets.UTF_8)));
    server.on(
        FILES + "0ATD000000001bSOAQ/LogFile",
        ApiServer.send(
            200,
            "text/csv",
            "\"EVENT_TYPE\",\"URI\"\n\"API\",\"/services/data/v62.0/query\"\n"
                .getBytes(StandardCharsets.UTF_8)));

    RecordingSink sink =
        RestFixture.read(salesforce(""), "event_log_file", Optional.empty(), clock);

    String added = ",\"_dfe_fetcher_log_date\":\"2026-11-30T00:00:00.000+0000\"}";
    assertThat(sink.records())
        .containsExactly(
            "{\"EVENT_TYPE\":\"Login\",\"TIMESTAMP\":\"20261130000105.123\","
                + "\"USER_ID\":\"005D0000001\",\"_dfe_fetcher_event_type\":\"Login\""
                + added,
            "{\"EVENT_TYPE\":\"Login\",\"TIMESTAMP\":\"20261130000217.456\","
                + "\"USER_ID\":\"005D0000002\",\"_dfe_fetcher_event_type\":\"Login\""
                + added,
            "{\"EVENT_TYPE\":\"API\",\"URI\":\"/services/data/v62.0/query\","
                + "\"_dfe_fetcher_event_type\":\"API\""
                + added);
    assertThat(sink.checkpoint()).contains(new WindowMark(Instant.parse("2026-12-01T08:00:00Z")));
    List<ApiServer.Seen> requests =
        server.requests().stream().filter(r -> !r.pathAndQuery().contains("oauth2")).toList();
    assertThat(requests)
        .extracting(ApiServer.Seen::pathAndQuery)
        .containsExactly(
            QUERY + "?" + soql(""),
            FILES + "0ATD000000001bROAQ/LogFile",
            NEXT,
            FILES + "0ATD000000001bSOAQ/LogFile");
    assertThat(requests)
        .allSatisfy(
            r -> {
              assertThat(r.method()).isEqualTo("GET");
              assertThat(r.header("Authorization")).isEqualTo("Bearer 00Dsf!token");
            });
    assertThat(requests)
        .extracting(r -> r.header("Accept"))
        .containsExactly("application/json", "*/*", "application/json", "*/*");
    assertThat(tokens.verified()).hasSize(1);
  }

  @Test
  void eventTypesNarrowTheQueryWithAnInClause() throws Exception {
    String query = soql(" AND EventType IN ('Login', 'API')");
    server.on(
        QUERY,
        ApiServer.byQuery(Map.of(query, ok("{\"totalSize\":0,\"done\":true,\"records\":[]}"))));

    RecordingSink sink =
        RestFixture.read(
            salesforce(", event_types: \"Login, API\""), "event_log_file", Optional.empty(), clock);

    assertThat(sink.records()).isEmpty();
    assertThat(sink.checkpoint()).contains(new WindowMark(Instant.parse("2026-12-01T08:00:00Z")));
    assertThat(server.paths()).contains(QUERY + "?" + query);
  }

  @Test
  void aFileThatCannotBeReadFailsTheWindowQuotingSalesforcesMessage() throws Exception {
    serveTwoPagesOfFiles(soql(""));
    server.on(
        FILES + "0ATD000000001bROAQ/LogFile",
        json(
            403,
            "[{\"message\":\"TotalRequests Limit exceeded.\",\"errorCode\":\"REQUEST_LIMIT_EXCEEDED\"}]"));
    RestConnection connection = salesforce("");

    assertThatThrownBy(
            () -> RestFixture.read(connection, "event_log_file", Optional.empty(), clock))
        .hasMessageContaining("403")
        .hasMessageContaining("TotalRequests Limit exceeded.")
        .hasMessageNotContaining("00Dsf!token");
    assertThat(server.paths().stream().filter(p -> p.startsWith(FILES))).hasSize(1);
  }

  @Test
  void theProbeAsksForTheOrgsLimitsWithTheToken() throws Exception {
    server.on("/services/data/v62.0/limits", ok("{\"DailyApiRequests\":{\"Max\":15000}}"));

    Optional<ProbeOutcome> outcome = RestFixture.probe(salesforce(""));

    assertThat(outcome)
        .contains(
            new ProbeOutcome(
                ProbeOutcome.Verdict.OK,
                "GET " + server.url() + "/services/data/v62.0/limits answered 200"));
    assertThat(server.requests())
        .filteredOn(r -> r.pathAndQuery().endsWith("/limits"))
        .singleElement()
        .satisfies(r -> assertThat(r.header("Authorization")).isEqualTo("Bearer 00Dsf!token"));
  }
}
