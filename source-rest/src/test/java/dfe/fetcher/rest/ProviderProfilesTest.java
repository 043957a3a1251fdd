package dfe.fetcher.rest;

import static dfe.fetcher.rest.ApiServer.json;
import static dfe.fetcher.rest.ApiServer.ok;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dfe.fetcher.core.row.WindowMark;
import java.nio.file.Path;
import java.security.KeyPair;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every unit of the provider profiles (gcp, aws, azure, ...) loaded through the real binder and
 * read once against a local server answering in the shapes the provider documents: the request the
 * server saw (method, path, the window's bounds in the provider's format, the credential), the rows
 * landed, the provider's pagination token followed to a second page; and per profile one error
 * answer as the provider writes it.
 */
class ProviderProfilesTest {

  /** The clock: a one-hour lookback makes the first window [07:00:00.500, 08:00:00.500). */
  private static final Instant NOW = Instant.parse("2026-12-01T08:00:00.500Z");

  @TempDir Path directory;
  private ApiServer server;
  private final MutableClock clock = new MutableClock(NOW);

  @BeforeEach
  void start() throws Exception {
    server = new ApiServer();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  /** The second page when the request (its query or body) carries {@code token}, else the first. */
  private static ApiServer.Answer paged(String token, String first, String second) {
    return exchange -> {
      String query = exchange.getRequestURI().getRawQuery();
      String body = (String) exchange.getAttribute(ApiServer.BODY);
      boolean next = (query != null && query.contains(token)) || body.contains(token);
      ok(next ? second : first).answer(exchange);
    };
  }

  private RecordingSink read(String yaml, Map<String, String> environment, String unit)
      throws Exception {
    return RestFixture.read(
        RestFixture.connection(yaml, environment), unit, Optional.empty(), clock);
  }

  // ---------------------------------------------------------------- gcp

  private String gcp(String unit) throws Exception {
    KeyPair keys = TestKeys.rsa();
    JwtTokenEndpoint tokens = new JwtTokenEndpoint(keys.getPublic(), "assertion", "ya29.gcp");
    server.on("/token", tokens.answer());
    Path key = TestKeys.privateKeyPem(keys, directory.resolve("sa.pem"));
    return """
        topic: gcp
        profile: gcp
        vars: {logging_url: "%s", scc_url: "%s", resource_name: projects/acme-prod,
               organization_id: "1234"}
        auth: {mode: jwt_bearer, token_url: "%s/token", issuer: reader@acme-prod.iam.example,
               private_key: "file:%s"}
        units: {%s: {enabled: true}}
        """
        .formatted(server.url(), server.url(), server.url(), key, unit);
  }

  static Stream<Arguments> gcpLoggingUnits() {
    return Stream.of(
        Arguments.of("admin_activity", "log_id(\\\"cloudaudit.googleapis.com/activity\\\")"),
        Arguments.of("data_access", "log_id(\\\"cloudaudit.googleapis.com/data_access\\\")"),
        Arguments.of("system_event", "log_id(\\\"cloudaudit.googleapis.com/system_event\\\")"),
        Arguments.of("policy_denied", "log_id(\\\"cloudaudit.googleapis.com/policy\\\")"),
        Arguments.of("vpc_flow_logs", "log_id(\\\"compute.googleapis.com/vpc_flows\\\")"),
        Arguments.of("dns_queries", "log_id(\\\"dns.googleapis.com/dns_queries\\\")"),
        Arguments.of(
            "storage_access",
            "resource.type=\\\"gcs_bucket\\\" AND log_id(\\\"cloudaudit.googleapis.com/data_access\\\")"),
        Arguments.of("cloud_logging", "severity >= WARNING"));
  }

  @ParameterizedTest
  @MethodSource("gcpLoggingUnits")
  void gcpLoggingUnitsListEntriesInTheWindowAndFollowNextPageToken(String unit, String filter)
      throws Exception {
    server.on(
        "/v2/entries:list",
        paged(
            "\"pageToken\":\"t2\"",
            "{\"entries\":[{\"insertId\":\"a1\",\"logName\":\"projects/acme-prod/logs/x\"}],"
                + "\"nextPageToken\":\"t2\"}",
            "{\"entries\":[{\"insertId\":\"a2\"}]}"));

    RecordingSink sink = read(gcp(unit), Map.of(), unit);

    assertThat(sink.records())
        .containsExactly(
            "{\"insertId\":\"a1\",\"logName\":\"projects/acme-prod/logs/x\"}",
            "{\"insertId\":\"a2\"}");
    assertThat(sink.checkpoint())
        .contains(new WindowMark(Instant.parse("2026-12-01T08:00:00.500Z")));
    List<ApiServer.Seen> pages =
        server.requests().stream().filter(r -> r.pathAndQuery().startsWith("/v2/")).toList();
    assertThat(pages).hasSize(2);
    String body =
        "{\"resourceNames\":[\"projects/acme-prod\"],\"filter\":\"("
            + filter
            + ") AND timestamp >= \\\"2026-12-01T07:00:00.500Z\\\""
            + " AND timestamp < \\\"2026-12-01T08:00:00.500Z\\\"\","
            + "\"orderBy\":\"timestamp asc\",\"pageSize\":1000";
    assertThat(pages.get(0).method()).isEqualTo("POST");
    assertThat(pages.get(0).body()).isEqualTo(body + "}");
    assertThat(pages.get(1).body()).isEqualTo(body + ",\"pageToken\":\"t2\"}");
    assertThat(pages)
        .allSatisfy(r -> assertThat(r.header("Authorization")).isEqualTo("Bearer ya29.gcp"));
  }

  @Test
  void gcpSccListsTheOrganisationsFindingsAndFollowsNextPageTokenInTheQuery() throws Exception {
    server.on(
        "/v1/organizations/1234/sources/-/findings",
        paged(
            "pageToken=f2",
            "{\"listFindingsResults\":[{\"finding\":{\"name\":\"organizations/1234/sources/9/findings/a\"}}],"
                + "\"nextPageToken\":\"f2\",\"totalSize\":2}",
            "{\"listFindingsResults\":[{\"finding\":{\"name\":\"organizations/1234/sources/9/findings/b\"}}],"
                + "\"totalSize\":2}"));

    RecordingSink sink = read(gcp("scc"), Map.of(), "scc");

    assertThat(sink.shape()).containsExactly("begin", "row", "row", "end");
    assertThat(server.paths())
        .containsSubsequence(
            "/v1/organizations/1234/sources/-/findings?pageSize=1000",
            "/v1/organizations/1234/sources/-/findings?pageSize=1000&pageToken=f2");
    assertThat(server.requests().get(1).method()).isEqualTo("GET");
    assertThat(server.requests().get(1).header("Authorization")).isEqualTo("Bearer ya29.gcp");
  }

  @Test
  void gcpPermissionDeniedIsNotRetriedAndQuotesGooglesMessage() throws Exception {
    server.on(
        "/v2/entries:list",
        json(
            403,
            "{\"error\":{\"code\":403,\"message\":\"Permission 'logging.logEntries.list' denied\","
                + "\"status\":\"PERMISSION_DENIED\"}}"));
    String yaml = gcp("admin_activity");

    assertThatThrownBy(() -> read(yaml, Map.of(), "admin_activity"))
        .hasMessageContaining("403")
        .hasMessageContaining("Permission 'logging.logEntries.list' denied")
        .hasMessageNotContaining("ya29.gcp");
    assertThat(server.paths().stream().filter(p -> p.startsWith("/v2/"))).hasSize(1);
  }

  // ---------------------------------------------------------------- aws

  private static final String AWS_SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";

  private String aws() {
    return """
        topic: aws
        profile: aws
        vars: {endpoint_url: "%s", region: eu-west-1, log_group_name: /aws/lambda/app}
        auth: {mode: sigv4, access_key_id: AKIDEXAMPLE, secret_access_key: env:AWS_SECRET,
               region: eu-west-1}
        """
        .formatted(server.url());
  }

  /**
   * unit, path, X-Amz-Target (null for REST-JSON), signing region/service, the first body, the
   * token field, the rows field, the row as the API writes it, the row as it lands.
   */
  static Stream<Arguments> awsUnits() {
    return Stream.of(
        Arguments.of(
            "cloudtrail",
            "/",
            "com.amazonaws.cloudtrail.v20131101.CloudTrail_20131101.LookupEvents",
            "eu-west-1/cloudtrail",
            "{\"StartTime\":1796108400,\"EndTime\":1796112000,\"MaxResults\":50",
            "NextToken",
            "Events",
            "{\"EventId\":\"e1\"}",
            "{\"EventId\":\"e1\"}"),
        Arguments.of(
            "securityhub",
            "/findings",
            null,
            "eu-west-1/securityhub",
            "{\"Filters\":{\"UpdatedAt\":[{\"Start\":\"2026-12-01T07:00:00.500Z\","
                + "\"End\":\"2026-12-01T08:00:00.500Z\"}]},\"MaxResults\":100",
            "NextToken",
            "Findings",
            "{\"Id\":\"f1\"}",
            "{\"Id\":\"f1\"}"),
        Arguments.of(
            "config",
            "/",
            "StarlingDoveService.SelectResourceConfig",
            "eu-west-1/config",
            "{\"Expression\":\"SELECT resourceId, resourceType, resourceName, awsRegion, accountId,"
                + " configurationItemCaptureTime, configuration\",\"Limit\":100",
            "NextToken",
            "Results",
            "\"{\\\"resourceId\\\":\\\"i-1\\\"}\"",
            "{\"resourceId\":\"i-1\"}"),
        Arguments.of(
            "cloudwatch_logs",
            "/",
            "Logs_20140328.FilterLogEvents",
            "eu-west-1/logs",
            "{\"logGroupName\":\"/aws/lambda/app\",\"startTime\":1796108400500,"
                + "\"endTime\":1796112000500,\"filterPattern\":\"\",\"limit\":10000",
            "nextToken",
            "events",
            "{\"eventId\":\"l1\",\"message\":\"hi\"}",
            "{\"eventId\":\"l1\",\"message\":\"hi\"}"),
        Arguments.of(
            "inspector",
            "/findings/list",
            null,
            "eu-west-1/inspector2",
            "{\"filterCriteria\":{\"lastObservedAt\":[{\"startInclusive\":1796108400,"
                + "\"endInclusive\":1796112000}]},\"maxResults\":100",
            "nextToken",
            "findings",
            "{\"findingArn\":\"arn:aws:inspector2:f1\"}",
            "{\"findingArn\":\"arn:aws:inspector2:f1\"}"),
        Arguments.of(
            "health",
            "/",
            "AWSHealth_20160804.DescribeEvents",
            "us-east-1/health",
            "{\"filter\":{\"lastUpdatedTimes\":[{\"from\":1796108400,\"to\":1796112000}]},"
                + "\"maxResults\":100",
            "nextToken",
            "events",
            "{\"arn\":\"arn:aws:health:e1\"}",
            "{\"arn\":\"arn:aws:health:e1\"}"));
  }

  @ParameterizedTest
  @MethodSource("awsUnits")
  void awsUnitsSignForTheirServiceSendTheWindowAndFollowTheToken(
      String unit,
      String path,
      String target,
      String scope,
      String body,
      String tokenField,
      String rowsField,
      String row,
      String landed)
      throws Exception {
    server.on(
        path,
        paged(
            "\"" + tokenField + "\":\"n2\"",
            "{\"" + rowsField + "\":[" + row + "],\"" + tokenField + "\":\"n2\"}",
            "{\"" + rowsField + "\":[]}"));

    RecordingSink sink = read(aws(), Map.of("AWS_SECRET", AWS_SECRET), unit);

    assertThat(sink.records()).containsExactly(landed);
    List<ApiServer.Seen> pages = server.requests();
    assertThat(pages).extracting(ApiServer.Seen::pathAndQuery).containsExactly(path, path);
    assertThat(pages).extracting(ApiServer.Seen::method).containsExactly("POST", "POST");
    assertThat(pages.get(0).body()).isEqualTo(body + "}");
    assertThat(pages.get(1).body()).isEqualTo(body + ",\"" + tokenField + "\":\"n2\"}");
    for (ApiServer.Seen page : pages) {
      assertThat(page.header("X-Amz-Target")).isEqualTo(target);
      assertThat(page.header("Content-Type"))
          .isEqualTo(target == null ? "application/json" : "application/x-amz-json-1.1");
      assertThat(
              page.headers().entrySet().stream()
                  .filter(h -> h.getKey().equalsIgnoreCase("Content-Type"))
                  .mapToInt(h -> h.getValue().size())
                  .sum())
          .isEqualTo(1);
      assertThat(page.header("Authorization"))
          .contains("Credential=AKIDEXAMPLE/20261201/" + scope + "/aws4_request")
          .isEqualTo(SigV4Check.expectedAuthorization(page, AWS_SECRET));
    }
  }

  @Test
  void awsThrottlingExceptionIsWaitedOutAndRetried() throws Exception {
    server.on(
        "/",
        json(
            400,
            "{\"__type\":\"com.amazonaws.cloudtrail.v20131101#ThrottlingException\","
                + "\"message\":\"Rate exceeded\"}"),
        ok("{\"Events\":[{\"EventId\":\"e1\"}]}"));

    RecordingSink sink = read(aws(), Map.of("AWS_SECRET", AWS_SECRET), "cloudtrail");

    assertThat(sink.records()).containsExactly("{\"EventId\":\"e1\"}");
    assertThat(server.requests()).hasSize(2);
  }

  @Test
  void awsAccessDeniedIsNotRetriedAndQuotesTheMessageWithoutTheKey() throws Exception {
    server.on(
        "/findings",
        json(
            403,
            "{\"__type\":\"AccessDeniedException\",\"message\":\"User is not authorized to"
                + " perform: securityhub:GetFindings\"}"));
    String yaml = aws();

    assertThatThrownBy(() -> read(yaml, Map.of("AWS_SECRET", AWS_SECRET), "securityhub"))
        .hasMessageContaining("403")
        .hasMessageContaining("User is not authorized to perform: securityhub:GetFindings")
        .hasMessageNotContaining(AWS_SECRET);
    assertThat(server.requests()).hasSize(1);
  }

  // ---------------------------------------------------------------- azure

  /** A token endpoint answering a token named after the scope asked for. */
  private final List<Map<String, String>> tokenForms =
      new java.util.concurrent.CopyOnWriteArrayList<>();

  private String azure() {
    server.on(
        "/tenant-1/oauth2/v2.0/token",
        exchange -> {
          Map<String, String> form =
              JwtTokenEndpoint.form((String) exchange.getAttribute(ApiServer.BODY));
          tokenForms.add(form);
          String token = form.get("scope").contains("graph") ? "graph-token" : "arm-token";
          ok("{\"access_token\":\"" + token + "\",\"expires_in\":3599,\"token_type\":\"Bearer\"}")
              .answer(exchange);
        });
    return """
        topic: azure
        profile: azure
        vars: {management_url: "%s", graph_url: "%s", subscription_id: sub-1,
               resource_group: rg-1, workspace_name: ws-1}
        auth: {mode: oauth2_client_credentials, token_url: "%s/tenant-1/oauth2/v2.0/token",
               client_id: app-1, client_secret: env:AZURE_SECRET}
        """
        .formatted(server.url(), server.url(), server.url());
  }

  /** unit, path, the first query, the next-link field, the token and scope it is sent with. */
  static Stream<Arguments> azureUnits() {
    String arm = "https://management.azure.com/.default";
    String graph = "https://graph.microsoft.com/.default";
    return Stream.of(
        Arguments.of(
            "activity_log",
            "/subscriptions/sub-1/providers/Microsoft.Insights/eventtypes/management/values",
            "api-version=2015-04-01&%24filter=eventTimestamp+ge+%272026-11-30T08%3A00%3A00Z%27"
                + "+and+eventTimestamp+le+%272026-12-01T08%3A00%3A00Z%27",
            "nextLink",
            "arm-token",
            arm),
        Arguments.of(
            "defender",
            "/subscriptions/sub-1/providers/Microsoft.Security/alerts",
            "api-version=2022-01-01",
            "nextLink",
            "arm-token",
            arm),
        Arguments.of(
            "sentinel",
            "/subscriptions/sub-1/resourceGroups/rg-1/providers/Microsoft.OperationalInsights"
                + "/workspaces/ws-1/providers/Microsoft.SecurityInsights/incidents",
            "api-version=2023-11-01",
            "nextLink",
            "arm-token",
            arm),
        Arguments.of(
            "entra_signins",
            "/v1.0/auditLogs/signIns",
            "%24filter=createdDateTime+ge+2026-12-01T07%3A00%3A00Z+and+createdDateTime+lt"
                + "+2026-12-01T08%3A00%3A00Z&%24top=100",
            "@odata.nextLink",
            "graph-token",
            graph),
        Arguments.of(
            "entra_directory_audits",
            "/v1.0/auditLogs/directoryAudits",
            "%24filter=activityDateTime+ge+2026-12-01T07%3A00%3A00Z+and+activityDateTime+lt"
                + "+2026-12-01T08%3A00%3A00Z&%24top=100",
            "@odata.nextLink",
            "graph-token",
            graph),
        Arguments.of(
            "entra_provisioning",
            "/v1.0/auditLogs/provisioning",
            "%24filter=activityDateTime+ge+2026-12-01T07%3A00%3A00Z+and+activityDateTime+lt"
                + "+2026-12-01T08%3A00%3A00Z&%24top=100",
            "@odata.nextLink",
            "graph-token",
            graph));
  }

  @ParameterizedTest
  @MethodSource("azureUnits")
  void azureUnitsAskTheirScopeSendTheirFilterAndFollowTheNextLink(
      String unit, String path, String query, String linkField, String token, String scope)
      throws Exception {
    String yaml = azure();
    String next = server.url() + path + "?" + query + "&%24skiptoken=s2";
    server.on(
        path,
        paged(
            "skiptoken=s2",
            "{\"value\":[{\"id\":\"a1\",\"eventDataId\":\"a1\"}],\""
                + linkField
                + "\":\""
                + next
                + "\"}",
            "{\"value\":[{\"id\":\"a2\",\"eventDataId\":\"a2\"}]}"));

    RecordingSink sink = read(yaml, Map.of("AZURE_SECRET", "s3cret"), unit);

    assertThat(sink.records())
        .containsExactly(
            "{\"id\":\"a1\",\"eventDataId\":\"a1\"}", "{\"id\":\"a2\",\"eventDataId\":\"a2\"}");
    List<ApiServer.Seen> pages =
        server.requests().stream().filter(r -> !r.pathAndQuery().contains("/oauth2/")).toList();
    assertThat(pages)
        .extracting(ApiServer.Seen::pathAndQuery)
        .containsExactly(path + "?" + query, path + "?" + query + "&%24skiptoken=s2");
    assertThat(pages)
        .allSatisfy(r -> assertThat(r.header("Authorization")).isEqualTo("Bearer " + token));
    assertThat(tokenForms).hasSize(1);
    assertThat(tokenForms.get(0))
        .containsEntry("grant_type", "client_credentials")
        .containsEntry("scope", scope);
  }

  @Test
  void azureGraph401IsTriedOnceWithAFreshTokenThenFailsQuotingGraphsMessage() throws Exception {
    String yaml = azure();
    server.on(
        "/v1.0/auditLogs/signIns",
        json(
            401,
            "{\"error\":{\"code\":\"InvalidAuthenticationToken\","
                + "\"message\":\"Access token validation failure.\"}}"));

    assertThatThrownBy(() -> read(yaml, Map.of("AZURE_SECRET", "s3cret"), "entra_signins"))
        .hasMessageContaining("401")
        .hasMessageContaining("Access token validation failure.")
        .hasMessageNotContaining("s3cret")
        .hasMessageNotContaining("graph-token");
    assertThat(server.paths().stream().filter(p -> p.startsWith("/v1.0/"))).hasSize(2);
  }
}
