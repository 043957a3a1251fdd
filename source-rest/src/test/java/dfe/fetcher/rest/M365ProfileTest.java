package dfe.fetcher.rest;

import static dfe.fetcher.rest.ApiServer.json;
import static dfe.fetcher.rest.ApiServer.ok;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dfe.fetcher.core.row.Mark;
import dfe.fetcher.core.row.WindowMark;
import dfe.fetcher.source.ProbeOutcome;
import dfe.fetcher.source.SourceUnit;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The shipped {@code m365} profile against a local server answering in the Office 365 Management
 * Activity API's documented shapes (subscriptions/start, subscriptions/content with its {@code
 * NextPageUri} header, a content blob as a JSON array, the {@code {"error": {code, message}}} body,
 * AF429) and Graph's alerts_v2, its tokens from a local Entra token endpoint that answers a token
 * named after the scope asked for.
 */
class M365ProfileTest {

  /** A one-hour lookback makes the first window [07:00:00, 08:00:00) in whole seconds. */
  private static final Instant NOW = Instant.parse("2026-12-01T08:00:00.500Z");

  private static final String FEED = "/api/v1.0/tenant-1/activity/feed";
  private static final String TOKEN = "/tenant-1/oauth2/v2.0/token";
  private static final String SECRET = "entra-s3cret";

  @AutoClose private final ApiServer server = ApiServer.started();
  private final List<Map<String, String>> tokenForms = new CopyOnWriteArrayList<>();

  @BeforeEach
  void start() throws Exception {
    server.on(
        TOKEN,
        exchange -> {
          Map<String, String> form =
              JwtTokenEndpoint.form((String) exchange.getAttribute(ApiServer.BODY));
          tokenForms.add(form);
          String token = form.get("scope").contains("graph") ? "graph-token" : "manage-token";
          ok("{\"access_token\":\"" + token + "\",\"expires_in\":3599,\"token_type\":\"Bearer\"}")
              .answer(exchange);
        });
  }

  private RestConnection m365(String units) {
    return RestFixture.connection(
        """
        topic: m365
        profile: m365
        vars: {manage_url: "%s", graph_url: "%s", tenant_id: tenant-1}
        auth: {mode: oauth2_client_credentials, token_url: "%s%s", client_id: app-1,
               client_secret: env:M365_SECRET}
        %s
        """
            .formatted(server.url(), server.url(), server.url(), TOKEN, units),
        Map.of("M365_SECRET", SECRET));
  }

  private RecordingSink read(RestConnection connection, String unit, Optional<Mark> checkpoint)
      throws Exception {
    return RestFixture.read(connection, unit, checkpoint, new MutableClock(NOW));
  }

  /** What the API was asked, token requests left out: method and path with query. */
  private List<String> apiRequests() {
    return server.requests().stream()
        .filter(seen -> !seen.pathAndQuery().equals(TOKEN))
        .map(seen -> seen.method() + " " + seen.pathAndQuery())
        .toList();
  }

  private static String contentQuery(String type, String start, String end) {
    return "contentType="
        + type
        + "&startTime="
        + start.replace(":", "%3A")
        + "&endTime="
        + end.replace(":", "%3A")
        + "&PublisherIdentifier=tenant-1";
  }

  private static String blob(String url, String id, String type, String created) {
    return "{\"contentType\":\""
        + type
        + "\",\"contentId\":\""
        + id
        + "\",\"contentUri\":\""
        + url
        + FEED
        + "/audit/"
        + id
        + "\",\"contentCreated\":\""
        + created
        + "\",\"contentExpiration\":\"2026-12-08T07:10:00.000Z\"}";
  }

  /** The content list of one window over two pages (blob-1, then blob-2), and the two blobs. */
  private void serveContent(String type) {
    String first = contentQuery(type, "2026-12-01T07:00:00", "2026-12-01T08:00:00");
    String second = first + "&nextPage=2026120100R0001";
    server.on(
        FEED + "/subscriptions/content",
        ApiServer.byQuery(
            Map.of(
                first,
                ok(
                    "[" + blob(server.url(), "blob-1", type, "2026-12-01T07:10:00.000Z") + "]",
                    "NextPageUri",
                    server.url() + FEED + "/subscriptions/content?" + second),
                second,
                ok("[" + blob(server.url(), "blob-2", type, "2026-12-01T07:20:00.000Z") + "]"))));
    server.on(
        FEED + "/audit/blob-1",
        ok(
            "[{\"Id\":\"r1\",\"Operation\":\"UserLoggedIn\"},{\"Id\":\"r2\",\"Operation\":\"Send\"}]"));
    server.on(FEED + "/audit/blob-2", ok("[{\"Id\":\"r3\",\"Operation\":\"FileAccessed\"}]"));
    // Starting a subscription that is enabled already is refused; the profile carries on.
    server.on(
        FEED + "/subscriptions/start",
        json(
            400,
            "{\"error\":{\"code\":\"AF20024\",\"message\":\"The subscription is already"
                + " enabled. No property change.\"}}"));
  }

  static Stream<Arguments> contentUnits() {
    return Stream.of(
        Arguments.of("audit_log_audit_azureactivedirectory", "Audit.AzureActiveDirectory"),
        Arguments.of("audit_log_audit_exchange", "Audit.Exchange"),
        Arguments.of("audit_log_audit_sharepoint", "Audit.SharePoint"),
        Arguments.of("audit_log_audit_general", "Audit.General"),
        Arguments.of("audit_log_dlp_all", "DLP.All"),
        Arguments.of("dlp", "DLP.All"),
        Arguments.of("exchange_audit", "Audit.Exchange"));
  }

  @Test
  void theProfileRunsEightUnitsTheContentEndpointOnlyUnderTheContentTypesNames() {
    assertThat(m365("").units())
        .extracting(SourceUnit::unit)
        .containsExactly(
            "audit_log_audit_azureactivedirectory",
            "audit_log_audit_exchange",
            "audit_log_audit_sharepoint",
            "audit_log_audit_general",
            "audit_log_dlp_all",
            "dlp",
            "exchange_audit",
            "alerts");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("contentUnits")
  void aContentUnitStartsItsSubscriptionListsItsContentOverPagesAndReadsEveryBlob(
      String unit, String type) throws Exception {
    serveContent(type);

    RecordingSink sink = read(m365(""), unit, Optional.empty());

    assertThat(sink.records())
        .containsExactly(
            "{\"Id\":\"r1\",\"Operation\":\"UserLoggedIn\"}",
            "{\"Id\":\"r2\",\"Operation\":\"Send\"}",
            "{\"Id\":\"r3\",\"Operation\":\"FileAccessed\"}");
    String query = contentQuery(type, "2026-12-01T07:00:00", "2026-12-01T08:00:00");
    assertThat(apiRequests())
        .containsExactly(
            "POST "
                + FEED
                + "/subscriptions/start?contentType="
                + type
                + "&PublisherIdentifier=tenant-1",
            "GET " + FEED + "/subscriptions/content?" + query,
            "GET " + FEED + "/audit/blob-1",
            "GET " + FEED + "/subscriptions/content?" + query + "&nextPage=2026120100R0001",
            "GET " + FEED + "/audit/blob-2");
    assertThat(server.requests())
        .filteredOn(seen -> !seen.pathAndQuery().equals(TOKEN))
        .allSatisfy(
            seen -> assertThat(seen.header("Authorization")).isEqualTo("Bearer manage-token"));
    assertThat(server.requests())
        .filteredOn(seen -> seen.method().equals("POST") && !seen.pathAndQuery().equals(TOKEN))
        .extracting(ApiServer.Seen::body)
        .containsExactly("");
    assertThat(tokenForms).hasSize(1);
    assertThat(tokenForms.get(0))
        .containsEntry("grant_type", "client_credentials")
        .containsEntry("scope", "https://manage.office.com/.default");
    // Each blob commits its own checkpoint once its rows are handed on, then the window its end.
    assertThat(sink.shape()).containsExactly("row", "row", "advance", "row", "advance", "advance");
    assertThat(sink.checkpoint()).contains(new WindowMark(Instant.parse("2026-12-01T08:00:00Z")));
  }

  @Test
  void aTickAfterOneThatFailedHalfWayRequestsOnlyTheBlobsAfterTheLastOneLanded() throws Exception {
    serveContent("Audit.General");
    Mark afterFirst =
        new WindowMark(
            Instant.parse("2026-12-01T07:00:00Z"),
            Optional.of(new WindowMark.Item("blob-1", "2026-12-01T07:10:00.000Z")));

    RecordingSink sink = read(m365(""), "audit_log_audit_general", Optional.of(afterFirst));

    assertThat(sink.records()).containsExactly("{\"Id\":\"r3\",\"Operation\":\"FileAccessed\"}");
    assertThat(apiRequests())
        .filteredOn(request -> request.contains("/audit/"))
        .containsExactly("GET " + FEED + "/audit/blob-2");
    assertThat(sink.checkpoint()).contains(new WindowMark(Instant.parse("2026-12-01T08:00:00Z")));
  }

  @Test
  void aLongerWindowIsListedInStepsOfAtMost24Hours() throws Exception {
    String first = contentQuery("Audit.SharePoint", "2026-11-30T02:00:00", "2026-12-01T02:00:00");
    String second = contentQuery("Audit.SharePoint", "2026-12-01T02:00:00", "2026-12-01T08:00:00");
    server.on(
        FEED + "/subscriptions/content",
        ApiServer.byQuery(Map.of(first, ok("[]"), second, ok("[]"))));
    server.on(FEED + "/subscriptions/start", ok("{\"contentType\":\"Audit.SharePoint\"}"));

    RecordingSink sink =
        read(
            m365(""),
            "audit_log_audit_sharepoint",
            Optional.of(new WindowMark(Instant.parse("2026-11-30T02:00:00Z"))));

    assertThat(apiRequests())
        .containsExactly(
            "POST "
                + FEED
                + "/subscriptions/start?contentType=Audit.SharePoint"
                + "&PublisherIdentifier=tenant-1",
            "GET " + FEED + "/subscriptions/content?" + first,
            "GET " + FEED + "/subscriptions/content?" + second);
    assertThat(sink.records()).isEmpty();
    assertThat(sink.checkpoint()).contains(new WindowMark(Instant.parse("2026-12-01T08:00:00Z")));
  }

  @Test
  void anErrorOfTheContentListIsNotRetriedAndQuotesTheApisMessageWithoutACredential() {
    server.on(FEED + "/subscriptions/start", ok("{\"contentType\":\"DLP.All\"}"));
    server.on(
        FEED + "/subscriptions/content",
        json(
            400,
            "{\"error\":{\"code\":\"AF20022\",\"message\":\"No subscription found for the"
                + " specified content type\"}}"));
    RestConnection connection = m365("");

    assertThatThrownBy(() -> read(connection, "dlp", Optional.empty()))
        .hasMessageContaining("400")
        .hasMessageContaining("No subscription found for the specified content type")
        .hasMessageNotContaining(SECRET)
        .hasMessageNotContaining("manage-token");
    assertThat(apiRequests())
        .filteredOn(request -> request.contains("/subscriptions/content"))
        .hasSize(1);
  }

  @Test
  void aThrottledContentListIsWaitedOutAndTriedAgain() throws Exception {
    server.on(FEED + "/subscriptions/start", ok("{\"contentType\":\"Audit.Exchange\"}"));
    server.on(
        FEED + "/subscriptions/content",
        json(
            429,
            "{\"error\":{\"code\":\"AF429\",\"message\":\"Too many requests. Method=GET,"
                + " PublisherId=tenant-1\"}}",
            "Retry-After",
            "0"),
        ok("[" + blob(server.url(), "blob-9", "Audit.Exchange", "2026-12-01T07:30:00.000Z") + "]"));
    server.on(FEED + "/audit/blob-9", ok("[{\"Id\":\"r9\"}]"));

    RecordingSink sink = read(m365(""), "exchange_audit", Optional.empty());

    assertThat(sink.records()).containsExactly("{\"Id\":\"r9\"}");
    assertThat(apiRequests())
        .filteredOn(request -> request.contains("/subscriptions/content"))
        .hasSize(2);
  }

  @Test
  void alertsListGraphsAlertsUpdatedInTheWindowWithAGraphTokenAndNoSubscription() throws Exception {
    String path = "/v1.0/security/alerts_v2";
    String query =
        "%24filter=lastUpdateDateTime+ge+2026-12-01T07%3A00%3A00Z+and+lastUpdateDateTime+lt"
            + "+2026-12-01T08%3A00%3A00Z&%24top=100";
    server.on(
        path,
        ApiServer.byQuery(
            Map.of(
                query,
                ok(
                    "{\"@odata.context\":\"x\",\"value\":[{\"id\":\"da1\",\"status\":\"new\"}],"
                        + "\"@odata.nextLink\":\""
                        + server.url()
                        + path
                        + "?"
                        + query
                        + "&%24skiptoken=s2\"}"),
                query + "&%24skiptoken=s2",
                ok("{\"value\":[{\"id\":\"da2\",\"status\":\"resolved\"}]}"))));

    RecordingSink sink = read(m365(""), "alerts", Optional.empty());

    assertThat(sink.records())
        .containsExactly(
            "{\"id\":\"da1\",\"status\":\"new\"}", "{\"id\":\"da2\",\"status\":\"resolved\"}");
    assertThat(apiRequests())
        .containsExactly(
            "GET " + path + "?" + query, "GET " + path + "?" + query + "&%24skiptoken=s2");
    assertThat(server.requests())
        .filteredOn(seen -> !seen.pathAndQuery().equals(TOKEN))
        .allSatisfy(
            seen -> assertThat(seen.header("Authorization")).isEqualTo("Bearer graph-token"));
    assertThat(tokenForms).hasSize(1);
    assertThat(tokenForms.get(0)).containsEntry("scope", "https://graph.microsoft.com/.default");
    assertThat(sink.checkpoint()).contains(new WindowMark(Instant.parse("2026-12-01T08:00:00Z")));
  }

  @Test
  void alertsForbiddenIsNotRetriedAndQuotesGraphsMessage() {
    server.on(
        "/v1.0/security/alerts_v2",
        json(
            403,
            "{\"error\":{\"code\":\"Forbidden\",\"message\":\"Missing application"
                + " permission SecurityAlert.Read.All.\"}}"));
    RestConnection connection = m365("");

    assertThatThrownBy(() -> read(connection, "alerts", Optional.empty()))
        .hasMessageContaining("403")
        .hasMessageContaining("Missing application permission SecurityAlert.Read.All.")
        .hasMessageNotContaining(SECRET)
        .hasMessageNotContaining("graph-token");
    assertThat(apiRequests()).hasSize(1);
  }

  @Test
  void anInstanceRunsTheContentEndpointUnderItsOwnUnitWithItsOwnVars() throws Exception {
    RestConnection connection =
        m365(
            "units: {exchange_eu: {endpoint: audit_content,"
                + " vars: {content_type: Audit.Exchange, publisher_id: pub-9}}}");
    server.on(FEED + "/subscriptions/start", ok("{\"contentType\":\"Audit.Exchange\"}"));
    server.on(FEED + "/subscriptions/content", ok("[]"));

    RecordingSink sink = read(connection, "exchange_eu", Optional.empty());

    assertThat(connection.units()).extracting(SourceUnit::unit).containsExactly("exchange_eu");
    assertThat(sink.records()).isEmpty();
    assertThat(apiRequests())
        .containsExactly(
            "POST "
                + FEED
                + "/subscriptions/start?contentType=Audit.Exchange"
                + "&PublisherIdentifier=pub-9",
            "GET "
                + FEED
                + "/subscriptions/content?"
                + contentQuery("Audit.Exchange", "2026-12-01T07:00:00", "2026-12-01T08:00:00")
                    .replace("tenant-1", "pub-9"));
  }

  @Test
  void theProbeListsTheTenantsSubscriptionsWithTheManagementToken() throws Exception {
    server.on(FEED + "/subscriptions/list", ok("[]"));

    Optional<ProbeOutcome> outcome = RestFixture.probe(m365(""));

    String probe = FEED + "/subscriptions/list?PublisherIdentifier=tenant-1";
    assertThat(outcome).contains(RestFixture.answeredOk(server.url() + probe));
    assertThat(apiRequests()).containsExactly("GET " + probe);
    assertThat(server.requests().get(server.requests().size() - 1).header("Authorization"))
        .isEqualTo("Bearer manage-token");
  }
}
