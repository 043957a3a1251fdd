package dfe.fetcher.rest;

import static dfe.fetcher.rest.ApiServer.json;
import static dfe.fetcher.rest.ApiServer.ok;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

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
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.junit.jupiter.api.AutoClose;
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
  @AutoClose private final ApiServer server = ApiServer.started();
  private final MutableClock clock = new MutableClock(NOW);

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
            "{\"Code\":\"AccessDeniedException\",\"Message\":\"User is not authorized to"
                + " perform: securityhub:GetFindings\"}"));
    String yaml = aws();

    assertThatThrownBy(() -> read(yaml, Map.of("AWS_SECRET", AWS_SECRET), "securityhub"))
        .hasMessageContaining("403")
        .hasMessageContaining("User is not authorized to perform: securityhub:GetFindings")
        .hasMessageNotContaining(AWS_SECRET);
    assertThat(server.requests()).hasSize(1);
  }

  @Test
  void awsGuarddutyListsEachDetectorsFindingIdsAndGetsThemFiftyAtATime() throws Exception {
    server.on("/detector", ok("{\"detectorIds\":[\"12abc34d567e8fa901bc2d34e56789f0\"]}"));
    String findings = "/detector/12abc34d567e8fa901bc2d34e56789f0/findings";
    server.on(
        findings,
        paged(
            "\"nextToken\":\"g2\"",
            "{\"findingIds\":[\"f1\",\"f2\"],\"nextToken\":\"g2\"}",
            "{\"findingIds\":[\"f3\"]}"));
    server.on(
        findings + "/get",
        ok(
            "{\"findings\":[{\"Id\":\"f1\",\"Severity\":5},{\"Id\":\"f2\",\"Severity\":2},"
                + "{\"Id\":\"f3\",\"Severity\":8}]}"));

    RecordingSink sink = read(aws(), Map.of("AWS_SECRET", AWS_SECRET), "guardduty");

    assertThat(sink.shape()).containsExactly("begin", "row", "row", "row", "end");
    assertThat(sink.records())
        .containsExactly(
            "{\"Id\":\"f1\",\"Severity\":5}",
            "{\"Id\":\"f2\",\"Severity\":2}",
            "{\"Id\":\"f3\",\"Severity\":8}");
    List<ApiServer.Seen> requests = server.requests();
    assertThat(requests)
        .extracting(ApiServer.Seen::method, ApiServer.Seen::pathAndQuery, ApiServer.Seen::body)
        .containsExactly(
            tuple("GET", "/detector", ""),
            tuple("POST", findings, "{\"maxResults\":50}"),
            tuple("POST", findings, "{\"maxResults\":50,\"nextToken\":\"g2\"}"),
            tuple("POST", findings + "/get", "{\"findingIds\":[\"f1\",\"f2\",\"f3\"]}"));
    for (ApiServer.Seen request : requests) {
      assertThat(request.header("Authorization"))
          .contains("Credential=AKIDEXAMPLE/20261201/eu-west-1/guardduty/aws4_request")
          .isEqualTo(SigV4Check.expectedAuthorization(request, AWS_SECRET));
    }
  }

  @Test
  void awsGuarddutyThrottledGetFindingsIsWaitedOutAndABadRequestFailsTheDump() throws Exception {
    server.on("/detector", ok("{\"detectorIds\":[\"d1\"]}"));
    server.on("/detector/d1/findings", ok("{\"findingIds\":[\"f1\"]}"));
    server.on(
        "/detector/d1/findings/get",
        json(
            429,
            "{\"__type\":\"TooManyRequestsException\",\"message\":\"Rate exceeded\"}",
            "Retry-After",
            "0"),
        json(
            400,
            "{\"__type\":\"BadRequestException\",\"message\":\"The request is rejected because"
                + " an invalid or out-of-range value is specified\"}"));

    RecordingSink sink = read(aws(), Map.of("AWS_SECRET", AWS_SECRET), "guardduty");

    assertThat(sink.shape()).containsExactly("begin", "abort");
    assertThat(sink.abortReason())
        .hasValueSatisfying(
            reason ->
                assertThat(reason)
                    .contains("400")
                    .contains("an invalid or out-of-range value is specified")
                    .doesNotContain(AWS_SECRET));
    assertThat(server.paths())
        .containsExactly(
            "/detector",
            "/detector/d1/findings",
            "/detector/d1/findings/get",
            "/detector/d1/findings/get");
  }

  private String awsCloudWatchMetrics() {
    return """
        topic: aws
        profile: aws
        vars:
          endpoint_url: "%s"
          region: eu-west-1
          metric_filters: >-
            [{"Namespace": "AWS/EC2", "MetricName": "CPUUtilization"}, {"Namespace": "AWS/Lambda"}]
        auth: {mode: sigv4, access_key_id: AKIDEXAMPLE, secret_access_key: env:AWS_SECRET,
               region: eu-west-1}
        units: {cloudwatch_metrics: {enabled: true}}
        """
        .formatted(server.url());
  }

  private static String ec2Cpu(String instance) {
    return "{\"Namespace\":\"AWS/EC2\",\"MetricName\":\"CPUUtilization\",\"Dimensions\":"
        + "[{\"Name\":\"InstanceId\",\"Value\":\""
        + instance
        + "\"}]}";
  }

  /** Answers CloudWatch's JSON 1.0 calls by their X-Amz-Target and a part of the body. */
  private static ApiServer.Answer cloudWatch(
      List<Map.Entry<String, ApiServer.Answer>> byTargetAndBody) {
    return exchange -> {
      String target = exchange.getRequestHeaders().getFirst("X-Amz-Target");
      String body = (String) exchange.getAttribute(ApiServer.BODY);
      for (Map.Entry<String, ApiServer.Answer> answer : byTargetAndBody) {
        String[] parts = answer.getKey().split(" ", 2);
        if (target.endsWith("." + parts[0]) && body.contains(parts[1])) {
          answer.getValue().answer(exchange);
          return;
        }
      }
      json(400, "{\"__type\":\"InvalidParameterValue\",\"message\":\"unexpected\"}")
          .answer(exchange);
    };
  }

  @Test
  void awsCloudWatchMetricsListsEachFiltersMetricsAndLandsEveryDatapointOfTheWindow()
      throws Exception {
    String queries =
        "\"MetricDataQueries\":[{\"Id\":\"m0\",\"Label\":\"AWS/EC2 CPUUtilization"
            + " InstanceId=i-1\",\"MetricStat\":{\"Metric\":"
            + ec2Cpu("i-1")
            + ",\"Period\":300,\"Stat\":\"Average\"}},{\"Id\":\"m1\",\"Label\":\"AWS/EC2"
            + " CPUUtilization InstanceId=i-2\",\"MetricStat\":{\"Metric\":"
            + ec2Cpu("i-2")
            + ",\"Period\":300,\"Stat\":\"Average\"}}]";
    server.on(
        "/",
        cloudWatch(
            List.of(
                Map.entry(
                    "ListMetrics \"NextToken\":\"l2\"",
                    ok("{\"Metrics\":[" + ec2Cpu("i-2") + "]}")),
                Map.entry(
                    "ListMetrics \"MetricName\":\"CPUUtilization\"",
                    ok("{\"Metrics\":[" + ec2Cpu("i-1") + "],\"NextToken\":\"l2\"}")),
                Map.entry("ListMetrics \"AWS/Lambda\"", ok("{\"Metrics\":[]}")),
                Map.entry(
                    "GetMetricData \"NextToken\":\"d2\"",
                    ok(
                        "{\"MetricDataResults\":[{\"Id\":\"m1\",\"Label\":\"AWS/EC2 CPUUtilization"
                            + " InstanceId=i-2\",\"StatusCode\":\"Complete\",\"Timestamps\":"
                            + "[1796108700],\"Values\":[0.0]}],\"Messages\":[]}")),
                Map.entry(
                    "GetMetricData MetricDataQueries",
                    ok(
                        "{\"MetricDataResults\":[{\"Id\":\"m0\",\"Label\":\"AWS/EC2"
                            + " CPUUtilization InstanceId=i-1\",\"StatusCode\":\"Complete\","
                            + "\"Timestamps\":[1796108400,1796108700],\"Values\":[1.5,2.25]}],"
                            + "\"NextToken\":\"d2\",\"Messages\":[]}")))));

    RecordingSink sink =
        read(awsCloudWatchMetrics(), Map.of("AWS_SECRET", AWS_SECRET), "cloudwatch_metrics");

    String i1 =
        "\"Id\":\"m0\",\"Label\":\"AWS/EC2 CPUUtilization InstanceId=i-1\",\"StatusCode\":\"Complete\"";
    assertThat(sink.records())
        .containsExactly(
            "{" + i1 + ",\"Timestamp\":1796108400,\"Value\":1.5}",
            "{" + i1 + ",\"Timestamp\":1796108700,\"Value\":2.25}",
            "{\"Id\":\"m1\",\"Label\":\"AWS/EC2 CPUUtilization InstanceId=i-2\","
                + "\"StatusCode\":\"Complete\",\"Timestamp\":1796108700,\"Value\":0.0}");
    assertThat(sink.checkpoint()).contains(new WindowMark(Instant.parse("2026-12-01T08:00:00Z")));
    List<ApiServer.Seen> requests = server.requests();
    String getData =
        "{\"StartTime\":1796108400,\"EndTime\":1796112000,\"ScanBy\":\"TimestampAscending\","
            + queries;
    assertThat(requests)
        .extracting(r -> r.header("X-Amz-Target"), ApiServer.Seen::body)
        .containsExactly(
            tuple(
                "GraniteServiceVersion20100801.ListMetrics",
                "{\"Namespace\":\"AWS/EC2\",\"MetricName\":\"CPUUtilization\",\"Dimensions\":null}"),
            tuple(
                "GraniteServiceVersion20100801.ListMetrics",
                "{\"Namespace\":\"AWS/EC2\",\"MetricName\":\"CPUUtilization\",\"Dimensions\":null,"
                    + "\"NextToken\":\"l2\"}"),
            tuple("GraniteServiceVersion20100801.GetMetricData", getData + "}"),
            tuple(
                "GraniteServiceVersion20100801.GetMetricData", getData + ",\"NextToken\":\"d2\"}"),
            tuple(
                "GraniteServiceVersion20100801.ListMetrics",
                "{\"Namespace\":\"AWS/Lambda\",\"MetricName\":null,\"Dimensions\":null}"));
    for (ApiServer.Seen request : requests) {
      assertThat(request.method()).isEqualTo("POST");
      assertThat(request.pathAndQuery()).isEqualTo("/");
      assertThat(request.header("Content-Type")).isEqualTo("application/x-amz-json-1.0");
      assertThat(request.header("Authorization"))
          .contains("Credential=AKIDEXAMPLE/20261201/eu-west-1/monitoring/aws4_request")
          .isEqualTo(SigV4Check.expectedAuthorization(request, AWS_SECRET));
    }
  }

  @Test
  void awsCloudWatchMetricsThrottledGetMetricDataIsWaitedOutAndRetried() throws Exception {
    server.on(
        "/",
        exchange -> {
          String target = exchange.getRequestHeaders().getFirst("X-Amz-Target");
          String body = (String) exchange.getAttribute(ApiServer.BODY);
          if (target.endsWith("ListMetrics")) {
            ok(body.contains("AWS/EC2") ? "{\"Metrics\":[" + ec2Cpu("i-1") + "]}" : "{}")
                .answer(exchange);
          } else if (getMetricDataCalls++ == 0) {
            json(
                    400,
                    "{\"__type\":\"com.amazonaws.monitoring#ThrottlingException\","
                        + "\"message\":\"Rate exceeded\"}")
                .answer(exchange);
          } else {
            ok("{\"MetricDataResults\":[{\"Id\":\"m0\",\"StatusCode\":\"Complete\","
                    + "\"Timestamps\":[1796108400],\"Values\":[7]}]}")
                .answer(exchange);
          }
        });

    RecordingSink sink =
        read(awsCloudWatchMetrics(), Map.of("AWS_SECRET", AWS_SECRET), "cloudwatch_metrics");

    assertThat(sink.records())
        .containsExactly(
            "{\"Id\":\"m0\",\"StatusCode\":\"Complete\",\"Timestamp\":1796108400,\"Value\":7}");
    assertThat(server.requests())
        .extracting(r -> r.header("X-Amz-Target"))
        .containsExactly(
            "GraniteServiceVersion20100801.ListMetrics",
            "GraniteServiceVersion20100801.GetMetricData",
            "GraniteServiceVersion20100801.GetMetricData",
            "GraniteServiceVersion20100801.ListMetrics");
  }

  @Test
  void awsCloudWatchMetricsInvalidQueryIsNotRetriedAndFailsTheWindowQuotingIt() throws Exception {
    server.on(
        "/",
        cloudWatch(
            List.of(
                Map.entry("ListMetrics AWS/EC2", ok("{\"Metrics\":[" + ec2Cpu("i-1") + "]}")),
                Map.entry(
                    "GetMetricData MetricDataQueries",
                    json(
                        400,
                        "{\"__type\":\"InvalidParameterValue\",\"message\":\"The value 7 for"
                            + " parameter Period is not valid.\"}")))));
    String yaml = awsCloudWatchMetrics();

    assertThatThrownBy(() -> read(yaml, Map.of("AWS_SECRET", AWS_SECRET), "cloudwatch_metrics"))
        .hasMessageContaining("400")
        .hasMessageContaining("The value 7 for parameter Period is not valid.")
        .hasMessageNotContaining(AWS_SECRET);
    assertThat(server.requests())
        .extracting(r -> r.header("X-Amz-Target"))
        .containsExactly(
            "GraniteServiceVersion20100801.ListMetrics",
            "GraniteServiceVersion20100801.GetMetricData");
  }

  private int getMetricDataCalls;

  // ---------------------------------------------------------------- azure

  /** A token endpoint answering a token named after the scope asked for. */
  private final List<Map<String, String>> tokenForms = new CopyOnWriteArrayList<>();

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

  /** The azure instance with two Log Analytics queries, their tokens named after the scope. */
  private String azureLogAnalytics() {
    server.on(
        "/tenant-1/oauth2/v2.0/token",
        exchange -> {
          Map<String, String> form =
              JwtTokenEndpoint.form((String) exchange.getAttribute(ApiServer.BODY));
          tokenForms.add(form);
          ok("{\"access_token\":\"la-token\",\"expires_in\":3599,\"token_type\":\"Bearer\"}")
              .answer(exchange);
        });
    return """
        topic: azure
        profile: azure
        vars:
          log_analytics_url: "%s"
          log_analytics_queries: >-
            [{"workspace_id": "ws-1", "kql": "SigninLogs | project TimeGenerated, UserPrincipalName"},
             {"workspace_id": "ws-2", "kql": "AuditLogs | project TimeGenerated, OperationName"}]
        auth: {mode: oauth2_client_credentials, token_url: "%s/tenant-1/oauth2/v2.0/token",
               client_id: app-1, client_secret: env:AZURE_SECRET}
        units: {log_analytics: {enabled: true}}
        """
        .formatted(server.url(), server.url());
  }

  private static String table(String... columnsThenRows) {
    return "{\"tables\":[{\"name\":\"PrimaryResult\",\"columns\":["
        + columnsThenRows[0]
        + "],\"rows\":["
        + columnsThenRows[1]
        + "]}]}";
  }

  @Test
  void azureLogAnalyticsRunsEachQueryOverTheWindowFiveMinutesBehindAndLandsItsTableAsObjects()
      throws Exception {
    String yaml = azureLogAnalytics();
    server.on(
        "/v1/workspaces/ws-1/query",
        ok(
            table(
                "{\"name\":\"TimeGenerated\",\"type\":\"datetime\"},"
                    + "{\"name\":\"UserPrincipalName\",\"type\":\"string\"}",
                "[\"2026-12-01T07:10:00Z\",\"ada@acme.example\"],"
                    + "[\"2026-12-01T07:20:00Z\",\"bob@acme.example\"]")));
    server.on(
        "/v1/workspaces/ws-2/query",
        ok(
            table(
                "{\"name\":\"TimeGenerated\",\"type\":\"datetime\"},"
                    + "{\"name\":\"OperationName\",\"type\":\"string\"}",
                "[\"2026-12-01T07:30:00Z\",\"Add user\"]")));

    RecordingSink sink = read(yaml, Map.of("AZURE_SECRET", "s3cret"), "log_analytics");

    assertThat(sink.records())
        .containsExactly(
            "{\"TimeGenerated\":\"2026-12-01T07:10:00Z\",\"UserPrincipalName\":\"ada@acme.example\"}",
            "{\"TimeGenerated\":\"2026-12-01T07:20:00Z\",\"UserPrincipalName\":\"bob@acme.example\"}",
            "{\"TimeGenerated\":\"2026-12-01T07:30:00Z\",\"OperationName\":\"Add user\"}");
    assertThat(sink.checkpoint()).contains(new WindowMark(Instant.parse("2026-12-01T07:55:00Z")));
    List<ApiServer.Seen> queries =
        server.requests().stream().filter(r -> !r.pathAndQuery().contains("/oauth2/")).toList();
    assertThat(queries)
        .extracting(ApiServer.Seen::method, ApiServer.Seen::pathAndQuery, ApiServer.Seen::body)
        .containsExactly(
            tuple(
                "POST",
                "/v1/workspaces/ws-1/query",
                "{\"query\":\"SigninLogs | project TimeGenerated, UserPrincipalName\","
                    + "\"timespan\":\"2026-12-01T07:00:00Z/2026-12-01T07:55:00Z\"}"),
            tuple(
                "POST",
                "/v1/workspaces/ws-2/query",
                "{\"query\":\"AuditLogs | project TimeGenerated, OperationName\","
                    + "\"timespan\":\"2026-12-01T07:00:00Z/2026-12-01T07:55:00Z\"}"));
    assertThat(queries)
        .allSatisfy(r -> assertThat(r.header("Authorization")).isEqualTo("Bearer la-token"));
    assertThat(tokenForms)
        .singleElement()
        .satisfies(
            form ->
                assertThat(form)
                    .containsEntry("grant_type", "client_credentials")
                    .containsEntry("scope", "https://api.loganalytics.io/.default"));
  }

  @Test
  void azureLogAnalyticsPartialResultFailsTheWindowWithItsMessage() throws Exception {
    String yaml = azureLogAnalytics();
    server.on(
        "/v1/workspaces/ws-1/query",
        ok(
            "{\"tables\":[{\"name\":\"PrimaryResult\",\"columns\":[{\"name\":\"x\","
                + "\"type\":\"long\"}],\"rows\":[[1]]}],\"error\":{\"code\":\"PartialError\","
                + "\"message\":\"There were some errors when processing your query.\"}}"));

    assertThatThrownBy(() -> read(yaml, Map.of("AZURE_SECRET", "s3cret"), "log_analytics"))
        .hasMessageContaining("There were some errors when processing your query.")
        .hasMessageNotContaining("la-token");
    assertThat(server.paths()).doesNotContain("/v1/workspaces/ws-2/query");
  }

  @Test
  void azureLogAnalyticsBadQueryIsNotRetriedAndAThrottleIsWaitedOut() throws Exception {
    String yaml = azureLogAnalytics();
    server.on(
        "/v1/workspaces/ws-1/query",
        json(
            429,
            "{\"error\":{\"code\":\"ThrottledError\",\"message\":\"Too many requests\"}}",
            "Retry-After",
            "0"),
        ok(table("{\"name\":\"x\",\"type\":\"long\"}", "[1]")));
    server.on(
        "/v1/workspaces/ws-2/query",
        json(
            400,
            "{\"error\":{\"code\":\"BadArgumentError\",\"message\":\"Failed to resolve table"
                + " expression named 'AuditLogs'\"}}"));

    assertThatThrownBy(() -> read(yaml, Map.of("AZURE_SECRET", "s3cret"), "log_analytics"))
        .hasMessageContaining("400")
        .hasMessageContaining("Failed to resolve table expression named 'AuditLogs'");
    assertThat(server.paths())
        .containsExactly(
            "/tenant-1/oauth2/v2.0/token",
            "/v1/workspaces/ws-1/query",
            "/v1/workspaces/ws-1/query",
            "/v1/workspaces/ws-2/query");
  }

  // ---------------------------------------------------------------- runzero

  private String runzero() {
    return """
        topic: runzero
        profile: runzero
        vars: {console_url: "%s"}
        auth: {mode: bearer, token: env:RUNZERO_EXPORT_TOKEN}
        """
        .formatted(server.url());
  }

  static Stream<Arguments> runzeroUnits() {
    return Stream.of(
        Arguments.of("assets", "{\"id\":\"a1\",\"addresses\":[\"10.0.0.1\"]}"),
        Arguments.of("sites", "{\"id\":\"s1\",\"name\":\"Primary\"}"),
        Arguments.of("certificates", "{\"id\":\"c1\",\"subject\":\"CN=x\"}"),
        Arguments.of("services", "{\"service_id\":\"v1\",\"service_port\":443}"),
        Arguments.of("software", "{\"software_id\":\"w1\",\"software_product\":\"openssh\"}"),
        Arguments.of(
            "vulnerabilities", "{\"vulnerability_id\":\"u1\",\"vulnerability_cve\":\"CVE-1\"}"),
        Arguments.of("findings", "{\"finding_code\":\"rz-f1\",\"name\":\"x\"}"),
        Arguments.of("tasks", "{\"id\":\"t1\",\"status\":\"processed\"}"),
        Arguments.of("users", "{\"id\":\"p1\",\"name\":\"ann\"}"),
        Arguments.of("groups", "{\"id\":\"g1\",\"name\":\"admins\"}"),
        Arguments.of("wireless", "{\"id\":\"n1\",\"essid\":\"corp\"}"));
  }

  /** runZero's exports are one streamed body each: no pages to follow. */
  @ParameterizedTest
  @MethodSource("runzeroUnits")
  void runzeroUnitsStreamTheirJsonLinesExportAsOneDump(String unit, String row) throws Exception {
    server.on(
        "/api/v1.0/export/org/" + unit + ".jsonl",
        ApiServer.send(
            200,
            "application/x-ndjson",
            (row + "\n" + row.replaceFirst("1\"", "2\"") + "\n").getBytes(StandardCharsets.UTF_8)));

    RecordingSink sink = read(runzero(), Map.of("RUNZERO_EXPORT_TOKEN", "ET1"), unit);

    assertThat(sink.shape()).containsExactly("begin", "row", "row", "end");
    assertThat(sink.records()).containsExactly(row, row.replaceFirst("1\"", "2\""));
    assertThat(server.paths()).containsExactly("/api/v1.0/export/org/" + unit + ".jsonl");
    assertThat(server.requests().get(0).method()).isEqualTo("GET");
    assertThat(server.requests().get(0).header("Authorization")).isEqualTo("Bearer ET1");
  }

  @Test
  void runzeroRefusedTokenIsNotRetriedAndQuotesTheError() throws Exception {
    server.on("/api/v1.0/export/org/assets.jsonl", json(401, "{\"error\":\"invalid token\"}"));

    RecordingSink sink = read(runzero(), Map.of("RUNZERO_EXPORT_TOKEN", "ET1"), "assets");

    assertThat(sink.shape()).containsExactly("begin", "abort");
    assertThat(sink.abortReason())
        .hasValueSatisfying(
            reason ->
                assertThat(reason).contains("401").contains("invalid token").doesNotContain("ET1"));
    assertThat(server.requests()).hasSize(1);
  }

  // ------------------------------------------- github, slack, cloudflare, datadog, bitwarden, ...

  /**
   * One GET unit: the instance, its unit, the path it asks for, the first page's query and the
   * second's (the provider's token followed), the two pages as the provider writes them, the rows,
   * and a header the credential travels in with its value.
   */
  record GetCase(
      String name,
      String yaml,
      Map<String, String> environment,
      String unit,
      String path,
      String firstQuery,
      ApiServer.Answer first,
      String secondPath,
      String secondQuery,
      ApiServer.Answer second,
      List<String> rows,
      String authHeader,
      String authValue) {
    @Override
    public String toString() {
      return name;
    }
  }

  private void serve(GetCase c) {
    if (c.path().equals(c.secondPath())) {
      server.on(
          c.path(),
          ApiServer.byQuery(Map.of(c.firstQuery(), c.first(), c.secondQuery(), c.second())));
    } else {
      server.on(c.path(), ApiServer.byQuery(Map.of(c.firstQuery(), c.first())));
      server.on(c.secondPath(), ApiServer.byQuery(Map.of(c.secondQuery(), c.second())));
    }
  }

  private List<GetCase> getCases() throws Exception {
    String url = server.url();
    String github =
        "phrase=created%3A2026-12-01T07%3A00%3A00%2B00%3A00..2026-12-01T08%3A00%3A00%2B00%3A00"
            + "&include=all&order=asc&per_page=100";
    String slack = "oldest=1796108400&latest=1796112000&limit=200";
    String cloudflare =
        "since=2026-12-01T07%3A00%3A00Z&before=2026-12-01T08%3A00%3A00Z&direction=asc&per_page=100";
    String datadog =
        "filter%5Bfrom%5D=2026-12-01T07%3A00%3A00.500Z&filter%5Bto%5D=2026-12-01T08%3A00%3A00.500Z"
            + "&filter%5Bquery%5D=*&sort=timestamp&page%5Blimit%5D=100";
    String bitwarden = "start=2026-12-01T07%3A00%3A00Z&end=2026-12-01T08%3A00%3A00Z";
    String datadogYaml =
        """
        topic: datadog
        profile: datadog
        vars: {api_url: "%s"}
        auth: {mode: headers, headers: {DD-API-KEY: env:DD_API_KEY, DD-APPLICATION-KEY: env:DD_APP_KEY}}
        """;
    Map<String, String> datadogEnv = Map.of("DD_API_KEY", "dd-api", "DD_APP_KEY", "dd-app");
    return List.of(
        new GetCase(
            "github audit_log",
            """
            topic: github
            profile: github
            vars: {api_url: "%s", scope_path: orgs/acme}
            auth: {mode: bearer, token: env:GITHUB_TOKEN}
            """
                .formatted(url),
            Map.of("GITHUB_TOKEN", "ghp_audit"),
            "audit_log",
            "/orgs/acme/audit-log",
            github,
            ok(
                "[{\"_document_id\":\"d1\",\"action\":\"repo.create\"}]",
                "Link",
                "<" + url + "/orgs/acme/audit-log?" + github + "&after=MS42>; rel=\"next\""),
            "/orgs/acme/audit-log",
            github + "&after=MS42",
            ok("[{\"_document_id\":\"d2\",\"action\":\"org.invite_member\"}]"),
            List.of(
                "{\"_document_id\":\"d1\",\"action\":\"repo.create\"}",
                "{\"_document_id\":\"d2\",\"action\":\"org.invite_member\"}"),
            "Authorization",
            "Bearer ghp_audit"),
        new GetCase(
            "slack audit_logs",
            """
            topic: slack
            profile: slack
            vars: {api_url: "%s"}
            auth: {mode: bearer, token: env:SLACK_TOKEN}
            """
                .formatted(url),
            Map.of("SLACK_TOKEN", "xoxp-1"),
            "audit_logs",
            "/audit/v1/logs",
            slack,
            ok(
                "{\"entries\":[{\"id\":\"e1\",\"action\":\"user_login\"}],"
                    + "\"response_metadata\":{\"next_cursor\":\"dXNlcjpVMEc5V0ZYTlo=\"}}"),
            "/audit/v1/logs",
            slack + "&cursor=dXNlcjpVMEc5V0ZYTlo%3D",
            ok(
                "{\"entries\":[{\"id\":\"e2\",\"action\":\"file_downloaded\"}],"
                    + "\"response_metadata\":{\"next_cursor\":\"\"}}"),
            List.of(
                "{\"id\":\"e1\",\"action\":\"user_login\"}",
                "{\"id\":\"e2\",\"action\":\"file_downloaded\"}"),
            "Authorization",
            "Bearer xoxp-1"),
        new GetCase(
            "cloudflare audit_logs",
            """
            topic: cloudflare
            profile: cloudflare
            vars: {api_url: "%s", account_id: acc1}
            auth: {mode: bearer, token: env:CF_TOKEN}
            """
                .formatted(url),
            Map.of("CF_TOKEN", "cf-1"),
            "audit_logs",
            "/accounts/acc1/audit_logs",
            cloudflare + "&page=1",
            ok(
                "{\"success\":true,\"errors\":[],\"messages\":[],\"result\":[{\"id\":\"l1\"}],"
                    + "\"result_info\":{\"page\":1,\"per_page\":1,\"count\":1,\"total_count\":2}}"),
            "/accounts/acc1/audit_logs",
            cloudflare + "&page=2",
            ok(
                "{\"success\":true,\"errors\":[],\"messages\":[],\"result\":[{\"id\":\"l2\"}],"
                    + "\"result_info\":{\"page\":2,\"per_page\":100,\"count\":1,\"total_count\":101}}"),
            List.of("{\"id\":\"l1\"}", "{\"id\":\"l2\"}"),
            "Authorization",
            "Bearer cf-1"),
        new GetCase(
            "datadog audit_events",
            datadogYaml.formatted(url),
            datadogEnv,
            "audit_events",
            "/api/v2/audit/events",
            datadog,
            ok(
                "{\"data\":[{\"id\":\"AQ1\",\"type\":\"audit\"}],"
                    + "\"meta\":{\"page\":{\"after\":\"eyJhZnRlciI6IkFRMSJ9\"}},\"links\":{}}"),
            "/api/v2/audit/events",
            datadog + "&page%5Bcursor%5D=eyJhZnRlciI6IkFRMSJ9",
            ok("{\"data\":[{\"id\":\"AQ2\",\"type\":\"audit\"}],\"meta\":{\"page\":{}}}"),
            List.of("{\"id\":\"AQ1\",\"type\":\"audit\"}", "{\"id\":\"AQ2\",\"type\":\"audit\"}"),
            "DD-APPLICATION-KEY",
            "dd-app"),
        new GetCase(
            "datadog security_signals",
            datadogYaml.formatted(url),
            datadogEnv,
            "security_signals",
            "/api/v2/security_monitoring/signals",
            datadog,
            ok(
                "{\"data\":[{\"id\":\"S1\",\"type\":\"signal\"}],"
                    + "\"meta\":{\"page\":{\"after\":\"c2\"}}}"),
            "/api/v2/security_monitoring/signals",
            datadog + "&page%5Bcursor%5D=c2",
            ok("{\"data\":[{\"id\":\"S2\",\"type\":\"signal\"}],\"meta\":{\"page\":{}}}"),
            List.of("{\"id\":\"S1\",\"type\":\"signal\"}", "{\"id\":\"S2\",\"type\":\"signal\"}"),
            "DD-API-KEY",
            "dd-api"),
        new GetCase(
            "bitwarden events",
            """
            topic: bitwarden
            profile: bitwarden
            vars: {api_url: "%s"}
            auth: {mode: oauth2_client_credentials, token_url: "%s/connect/token",
                   client_id: organization.o1, client_secret: env:BW_SECRET,
                   client_auth: client_secret_post}
            """
                .formatted(url, url),
            Map.of("BW_SECRET", "bw-secret"),
            "events",
            "/public/events",
            bitwarden,
            ok(
                "{\"object\":\"list\",\"data\":[{\"object\":\"event\",\"type\":1000,\"itemId\":\"i1\"}],"
                    + "\"continuationToken\":\"ct2\"}"),
            "/public/events",
            bitwarden + "&continuationToken=ct2",
            ok(
                "{\"object\":\"list\",\"data\":[{\"object\":\"event\",\"type\":1001}],"
                    + "\"continuationToken\":null}"),
            List.of(
                "{\"object\":\"event\",\"type\":1000,\"itemId\":\"i1\"}",
                "{\"object\":\"event\",\"type\":1001}"),
            "Authorization",
            "Bearer bw-token"));
  }

  static Stream<Arguments> getCaseIndexes() {
    return Stream.of(0, 1, 2, 3, 4, 5).map(Arguments::of);
  }

  @ParameterizedTest
  @MethodSource("getCaseIndexes")
  void getUnitsSendTheWindowInTheProvidersFormatAndFollowItsToken(int index) throws Exception {
    server.on(
        "/connect/token",
        exchange -> {
          tokenForms.add(JwtTokenEndpoint.form((String) exchange.getAttribute(ApiServer.BODY)));
          ok("{\"access_token\":\"bw-token\",\"expires_in\":3600,\"token_type\":\"Bearer\"}")
              .answer(exchange);
        });
    GetCase c = getCases().get(index);
    serve(c);

    RecordingSink sink = read(c.yaml(), c.environment(), c.unit());

    assertThat(sink.records()).as(c.name()).containsExactlyElementsOf(c.rows());
    List<ApiServer.Seen> pages =
        server.requests().stream().filter(r -> !r.pathAndQuery().startsWith("/connect/")).toList();
    assertThat(pages)
        .extracting(ApiServer.Seen::pathAndQuery)
        .containsExactly(c.path() + "?" + c.firstQuery(), c.secondPath() + "?" + c.secondQuery());
    assertThat(pages).extracting(ApiServer.Seen::method).containsOnly("GET");
    assertThat(pages)
        .allSatisfy(r -> assertThat(r.header(c.authHeader())).isEqualTo(c.authValue()));
    if (c.unit().equals("events")) {
      assertThat(tokenForms)
          .singleElement()
          .satisfies(
              form ->
                  assertThat(form)
                      .containsEntry("grant_type", "client_credentials")
                      .containsEntry("scope", "api.organization")
                      .containsEntry("client_id", "organization.o1")
                      .containsEntry("client_secret", "bw-secret"));
    }
  }

  @Test
  void githubForbiddenIsNotRetriedAndQuotesGithubsMessage() throws Exception {
    GetCase c = getCases().get(0);
    server.on(
        c.path(),
        json(
            403,
            "{\"message\":\"Must have admin rights to Organization.\","
                + "\"documentation_url\":\"https://docs.github.com/rest\"}"));

    assertThatThrownBy(() -> read(c.yaml(), c.environment(), c.unit()))
        .hasMessageContaining("403")
        .hasMessageContaining("Must have admin rights to Organization.")
        .hasMessageNotContaining("ghp_audit");
    assertThat(server.requests()).hasSize(1);
  }

  @Test
  void slackOkFalseAnsweredWith200FailsTheTickWithSlacksError() throws Exception {
    GetCase c = getCases().get(1);
    server.on(c.path(), ok("{\"ok\":false,\"error\":\"invalid_auth\"}"));

    assertThatThrownBy(() -> read(c.yaml(), c.environment(), c.unit()))
        .hasMessageContaining("invalid_auth")
        .hasMessageNotContaining("xoxp-1");
    assertThat(sinkless()).isEmpty();
  }

  @Test
  void cloudflareSuccessFalseFailsTheTickWithTheFirstErrorsMessage() throws Exception {
    GetCase c = getCases().get(2);
    server.on(
        c.path(),
        ok(
            "{\"success\":false,\"errors\":[{\"code\":10000,\"message\":\"Authentication error\"}],"
                + "\"messages\":[],\"result\":null}"));

    assertThatThrownBy(() -> read(c.yaml(), c.environment(), c.unit()))
        .hasMessageContaining("Authentication error")
        .hasMessageNotContaining("cf-1");
    assertThat(server.requests()).hasSize(1);
  }

  @Test
  void datadogForbiddenIsNotRetriedAndQuotesTheError() throws Exception {
    GetCase c = getCases().get(3);
    server.on(c.path(), json(403, "{\"errors\":[\"Forbidden\"]}"));

    assertThatThrownBy(() -> read(c.yaml(), c.environment(), c.unit()))
        .hasMessageContaining("403")
        .hasMessageContaining("Forbidden")
        .hasMessageNotContaining("dd-app")
        .hasMessageNotContaining("dd-api");
    assertThat(server.requests()).hasSize(1);
  }

  @Test
  void bitwardenTooManyRequestsIsWaitedOutAndRetried() throws Exception {
    GetCase c = getCases().get(5);
    server.on("/connect/token", ok("{\"access_token\":\"bw-token\",\"expires_in\":3600}"));
    server.on(
        c.path(),
        json(429, "{\"message\":\"Too many requests\"}", "Retry-After", "0"),
        ok("{\"object\":\"list\",\"data\":[{\"type\":1000}],\"continuationToken\":null}"));

    RecordingSink sink = read(c.yaml(), c.environment(), c.unit());

    assertThat(sink.records()).containsExactly("{\"type\":1000}");
    assertThat(server.paths().stream().filter(p -> p.startsWith("/public/"))).hasSize(2);
  }

  /** The requests besides the first one: a failing tick that sent one request sent no other. */
  private List<String> sinkless() {
    return server.paths().stream().skip(1).toList();
  }

  // ---------------------------------------------------------------- salesforce

  private JwtTokenEndpoint salesforceTokens;

  private String salesforce() throws Exception {
    KeyPair keys = TestKeys.rsa();
    salesforceTokens = new JwtTokenEndpoint(keys.getPublic(), "assertion", "00Dsf!token");
    server.on("/services/oauth2/token", salesforceTokens.answer());
    Path key = TestKeys.privateKeyPem(keys, directory.resolve("sf.pem"));
    return """
        topic: salesforce
        profile: salesforce
        vars: {instance_url: "%s"}
        auth: {mode: jwt_bearer, token_url: "%s/services/oauth2/token", issuer: 3MVG9consumer,
               subject: audit@acme.example, audience: "https://login.salesforce.com",
               private_key: "file:%s"}
        """
        .formatted(server.url(), server.url(), key);
  }

  static Stream<Arguments> salesforceUnits() {
    return Stream.of(
        Arguments.of(
            "setup_audit_trail",
            "SELECT Id, Action, Section, CreatedDate, CreatedById, CreatedBy.Username, Display,"
                + " DelegateUser, ResponsibleNamespacePrefix FROM SetupAuditTrail WHERE CreatedDate"
                + " >= 2026-12-01T07:00:00Z AND CreatedDate < 2026-12-01T08:00:00Z ORDER BY"
                + " CreatedDate ASC",
            "SetupAuditTrail"),
        Arguments.of(
            "login_history",
            "SELECT Id, UserId, LoginTime, LoginType, SourceIp, Status, Application, Browser,"
                + " Platform, LoginUrl, AuthenticationServiceId, LoginGeoId, CountryIso, TlsProtocol,"
                + " CipherSuite FROM LoginHistory WHERE LoginTime >= 2026-12-01T07:00:00Z AND"
                + " LoginTime < 2026-12-01T08:00:00Z ORDER BY LoginTime ASC",
            "LoginHistory"));
  }

  @ParameterizedTest
  @MethodSource("salesforceUnits")
  void salesforceUnitsQueryTheWindowWithSoqlAndFollowNextRecordsUrl(
      String unit, String soql, String type) throws Exception {
    String yaml = salesforce();
    String query = "q=" + URLEncoder.encode(soql, StandardCharsets.UTF_8);
    String record = "{\"attributes\":{\"type\":\"" + type + "\"},\"Id\":\"0Ym1\"}";
    server.on(
        "/services/data/v62.0/query",
        ApiServer.byQuery(
            Map.of(
                query,
                ok(
                    "{\"totalSize\":2,\"done\":false,\"nextRecordsUrl\":"
                        + "\"/services/data/v62.0/query/01gD0000002HU6KIAW-2000\",\"records\":["
                        + record
                        + "]}"))));
    server.on(
        "/services/data/v62.0/query/01gD0000002HU6KIAW-2000",
        ApiServer.byQuery(
            Map.of("", ok("{\"totalSize\":2,\"done\":true,\"records\":[{\"Id\":\"0Ym2\"}]}"))));

    RecordingSink sink = read(yaml, Map.of(), unit);

    assertThat(sink.records()).containsExactly(record, "{\"Id\":\"0Ym2\"}");
    List<ApiServer.Seen> pages =
        server.requests().stream().filter(r -> !r.pathAndQuery().contains("oauth2")).toList();
    assertThat(pages)
        .extracting(ApiServer.Seen::pathAndQuery)
        .containsExactly(
            "/services/data/v62.0/query?" + query,
            "/services/data/v62.0/query/01gD0000002HU6KIAW-2000");
    assertThat(pages)
        .allSatisfy(r -> assertThat(r.header("Authorization")).isEqualTo("Bearer 00Dsf!token"));
    assertThat(salesforceTokens.verified())
        .singleElement()
        .satisfies(
            claims -> {
              assertThat(claims.getIssuer()).isEqualTo("3MVG9consumer");
              assertThat(claims.getSubject()).isEqualTo("audit@acme.example");
              assertThat(claims.getAudience()).containsExactly("https://login.salesforce.com");
            });
  }

  @Test
  void salesforceMalformedQueryIsNotRetriedAndQuotesTheFirstErrorsMessage() throws Exception {
    String yaml = salesforce();
    server.on(
        "/services/data/v62.0/query",
        json(
            400, "[{\"message\":\"unexpected token: 'FROM'\",\"errorCode\":\"MALFORMED_QUERY\"}]"));

    assertThatThrownBy(() -> read(yaml, Map.of(), "login_history"))
        .hasMessageContaining("400")
        .hasMessageContaining("unexpected token: 'FROM'")
        .hasMessageNotContaining("00Dsf!token");
    assertThat(server.paths().stream().filter(p -> p.startsWith("/services/data/"))).hasSize(1);
  }

  // ---------------------------------------------------------------- google_workspace

  private JwtTokenEndpoint workspaceTokens;

  private String workspace(String unit) throws Exception {
    KeyPair keys = TestKeys.rsa();
    workspaceTokens = new JwtTokenEndpoint(keys.getPublic(), "assertion", "ya29.ws");
    server.on("/token", workspaceTokens.answer());
    Path key = TestKeys.privateKeyPem(keys, directory.resolve("ws.pem"));
    return """
        topic: workspace
        profile: google_workspace
        vars: {api_url: "%s"}
        auth: {mode: jwt_bearer, token_url: "%s/token", issuer: reports@acme.iam.example,
               subject: admin@acme.example, private_key: "file:%s"}
        """
        .formatted(server.url(), server.url(), key);
  }

  static Stream<Arguments> workspaceApplications() {
    return Stream.of(
            "access_evaluation access_transparency admin admin_data_action assignments calendar"
                + " chat chrome chrome_sync classroom cloud_search contacts context_aware_access"
                + " data_migration data_studio directory_sync drive gcp gemini_in_workspace_apps"
                + " gmail gplus graduation groups groups_enterprise jamboard keep ldap login meet"
                + " meet_hardware mobile profile rules saml takeout tasks token user_accounts vault"
                + " voice workspace_studio")
        .flatMap(names -> Stream.of(names.split(" ")))
        .map(Arguments::of);
  }

  @Test
  void workspaceShipsFortyOneApplications() {
    assertThat(workspaceApplications()).hasSize(41);
  }

  @ParameterizedTest
  @MethodSource("workspaceApplications")
  void workspaceUnitsListTheirApplicationsActivitiesAndFollowNextPageToken(String application)
      throws Exception {
    String yaml = workspace(application);
    String path = "/admin/reports/v1/activity/users/all/applications/" + application;
    String query =
        "customerId=my_customer&startTime=2026-12-01T07%3A00%3A00.500Z"
            + "&endTime=2026-12-01T08%3A00%3A00.500Z&maxResults=1000";
    String first =
        "{\"id\":{\"time\":\"2026-12-01T07:10:00.000Z\",\"uniqueQualifier\":\"1\","
            + "\"applicationName\":\""
            + application
            + "\"},\"events\":[{\"name\":\"e\"}]}";
    server.on(
        path,
        ApiServer.byQuery(
            Map.of(
                query,
                ok(
                    "{\"kind\":\"admin#reports#activities\",\"items\":["
                        + first
                        + "],\"nextPageToken\":\"A:1796108400:p2\"}"),
                query + "&pageToken=A%3A1796108400%3Ap2",
                ok("{\"kind\":\"admin#reports#activities\"}"))));

    RecordingSink sink = read(yaml, Map.of(), application);

    assertThat(sink.records()).containsExactly(first);
    assertThat(server.paths().stream().filter(p -> p.startsWith("/admin/")))
        .containsExactly(path + "?" + query, path + "?" + query + "&pageToken=A%3A1796108400%3Ap2");
    assertThat(server.requests().stream().filter(r -> r.pathAndQuery().startsWith("/admin/")))
        .allSatisfy(r -> assertThat(r.header("Authorization")).isEqualTo("Bearer ya29.ws"));
    assertThat(workspaceTokens.verified())
        .singleElement()
        .satisfies(
            claims -> {
              assertThat(claims.getSubject()).isEqualTo("admin@acme.example");
              assertThat(claims.getStringClaim("scope"))
                  .isEqualTo("https://www.googleapis.com/auth/admin.reports.audit.readonly");
            });
  }

  @Test
  void workspaceNotAuthorizedIsNotRetriedAndQuotesGooglesMessage() throws Exception {
    String yaml = workspace("login");
    server.on(
        "/admin/reports/v1/activity/users/all/applications/login",
        json(
            403,
            "{\"error\":{\"code\":403,\"message\":\"Not Authorized to access this resource/api\","
                + "\"status\":\"PERMISSION_DENIED\"}}"));

    assertThatThrownBy(() -> read(yaml, Map.of(), "login"))
        .hasMessageContaining("403")
        .hasMessageContaining("Not Authorized to access this resource/api")
        .hasMessageNotContaining("ya29.ws");
    assertThat(server.paths().stream().filter(p -> p.startsWith("/admin/"))).hasSize(1);
  }

  // ---------------------------------------------------------------- okta

  private String okta() {
    return """
        topic: okta
        profile: okta
        vars: {org_url: "%s"}
        auth: {mode: api_key, key: env:OKTA_API_TOKEN}
        """
        .formatted(server.url());
  }

  @Test
  void oktaSystemLogReadsTheSettledWindowAndFollowsTheNextLink() throws Exception {
    String query =
        "since=2026-12-01T07%3A00%3A00.500Z&until=2026-12-01T07%3A59%3A00.500Z"
            + "&sortOrder=ASCENDING&limit=1000";
    server.on(
        "/api/v1/logs",
        ApiServer.byQuery(
            Map.of(
                query,
                ok(
                    "[{\"uuid\":\"e1\",\"eventType\":\"user.session.start\"}]",
                    "Link",
                    "<" + server.url() + "/api/v1/logs?after=e1&" + query + ">; rel=\"next\""),
                "after=e1&" + query,
                ok("[{\"uuid\":\"e2\",\"eventType\":\"user.session.end\"}]"))));

    RecordingSink sink = read(okta(), Map.of("OKTA_API_TOKEN", "00abc"), "system_log");

    assertThat(sink.records())
        .containsExactly(
            "{\"uuid\":\"e1\",\"eventType\":\"user.session.start\"}",
            "{\"uuid\":\"e2\",\"eventType\":\"user.session.end\"}");
    assertThat(server.paths())
        .containsExactly("/api/v1/logs?" + query, "/api/v1/logs?after=e1&" + query);
    assertThat(server.requests())
        .allSatisfy(r -> assertThat(r.header("Authorization")).isEqualTo("SSWS 00abc"));
  }

  @Test
  void oktaInvalidTokenIsNotRetriedAndQuotesTheErrorSummary() throws Exception {
    server.on(
        "/api/v1/logs",
        json(401, "{\"errorCode\":\"E0000011\",\"errorSummary\":\"Invalid token provided\"}"));
    String yaml = okta();

    assertThatThrownBy(() -> read(yaml, Map.of("OKTA_API_TOKEN", "00abc"), "system_log"))
        .hasMessageContaining("401")
        .hasMessageContaining("Invalid token provided")
        .hasMessageNotContaining("00abc");
    assertThat(server.requests()).hasSize(1);
  }

  // ---------------------------------------------------------------- duo

  private String duo() {
    return """
        topic: duo
        profile: duo
        vars: {api_host: "%s"}
        auth: {mode: signature, preset: duo, integration_key: DIWJ8X6AEYOR5OMC6TQ1,
               secret_key: literal:Zh5eGmUq9zpfQnyUIu5OL9iWoMMv5ZNmk3zLJ4Ep}
        """
        .formatted(server.url());
  }

  @Test
  void duoAuthenticationLogsSignEachRequestAndSendNextOffsetCommaJoined() throws Exception {
    String query = "mintime=1796108400500&maxtime=1796111880500&limit=1000&sort=ts%3Aasc";
    server.on(
        "/admin/v2/logs/authentication",
        ApiServer.byQuery(
            Map.of(
                query,
                ok(
                    "{\"stat\":\"OK\",\"response\":{\"authlogs\":[{\"txid\":\"t1\",\"result\":"
                        + "\"success\"}],\"metadata\":{\"next_offset\":[\"1796108500000\",\"t1\"],"
                        + "\"total_objects\":2}}}"),
                query + "&next_offset=1796108500000%2Ct1",
                ok(
                    "{\"stat\":\"OK\",\"response\":{\"authlogs\":[{\"txid\":\"t2\",\"result\":"
                        + "\"denied\"}],\"metadata\":{\"total_objects\":2}}}"))));

    RecordingSink sink = read(duo(), Map.of(), "authentication_logs");

    assertThat(sink.records())
        .containsExactly(
            "{\"txid\":\"t1\",\"result\":\"success\"}", "{\"txid\":\"t2\",\"result\":\"denied\"}");
    assertThat(server.paths())
        .containsExactly(
            "/admin/v2/logs/authentication?" + query,
            "/admin/v2/logs/authentication?" + query + "&next_offset=1796108500000%2Ct1");
    for (ApiServer.Seen seen : server.requests()) {
      assertThat(seen.header("Authorization")).isEqualTo(SignatureTest.expected(seen, 5));
    }
  }

  @Test
  void duoFailAnswerIsNotRetriedAndQuotesDuosMessage() throws Exception {
    server.on(
        "/admin/v2/logs/authentication",
        json(
            401,
            "{\"code\":40103,\"message\":\"Invalid signature in request credentials\","
                + "\"stat\":\"FAIL\"}"));
    String yaml = duo();

    assertThatThrownBy(() -> read(yaml, Map.of(), "authentication_logs"))
        .hasMessageContaining("401")
        .hasMessageContaining("Invalid signature in request credentials")
        .hasMessageNotContaining("Zh5eGmUq9zpfQnyUIu5OL9iWoMMv5ZNmk3zLJ4Ep");
    assertThat(server.requests()).hasSize(1);
  }

  @Test
  void duoStatFailAnsweredWith200FailsTheTick() throws Exception {
    server.on(
        "/admin/v2/logs/authentication",
        ok("{\"code\":40002,\"message\":\"Invalid request parameters\",\"stat\":\"FAIL\"}"));
    String yaml = duo();

    assertThatThrownBy(() -> read(yaml, Map.of(), "authentication_logs"))
        .hasMessageContaining("Invalid request parameters");
    assertThat(server.requests()).hasSize(1);
  }

  // ---------------------------------------------------------------- onepassword

  private String onepassword() {
    return """
        topic: onepassword
        profile: onepassword
        vars: {api_url: "%s"}
        auth: {mode: bearer, token: env:OP_TOKEN}
        """
        .formatted(server.url());
  }

  static Stream<Arguments> onepasswordUnits() {
    return Stream.of(
        Arguments.of("signin_attempts", "/api/v2/signinattempts"),
        Arguments.of("item_usages", "/api/v2/itemusages"),
        Arguments.of("audit_events", "/api/v2/auditevents"));
  }

  @ParameterizedTest
  @MethodSource("onepasswordUnits")
  void onepasswordUnitsResetTheCursorToTheWindowThenSendTheCursorAlone(String unit, String path)
      throws Exception {
    server.on(
        path,
        paged(
            "{\"cursor\":\"c2\"}",
            "{\"cursor\":\"c2\",\"has_more\":true,\"items\":[{\"uuid\":\"u1\"}]}",
            "{\"cursor\":\"c3\",\"has_more\":false,\"items\":[{\"uuid\":\"u2\"}]}"));

    RecordingSink sink = read(onepassword(), Map.of("OP_TOKEN", "op-token"), unit);

    assertThat(sink.records()).containsExactly("{\"uuid\":\"u1\"}", "{\"uuid\":\"u2\"}");
    assertThat(server.requests())
        .extracting(ApiServer.Seen::method)
        .containsExactly("POST", "POST");
    assertThat(server.requests())
        .extracting(ApiServer.Seen::body)
        .containsExactly(
            "{\"limit\":1000,\"start_time\":\"2026-12-01T07:00:00.500Z\","
                + "\"end_time\":\"2026-12-01T08:00:00.500Z\"}",
            "{\"cursor\":\"c2\"}");
    assertThat(server.requests())
        .allSatisfy(r -> assertThat(r.header("Authorization")).isEqualTo("Bearer op-token"));
  }

  @Test
  void onepasswordUnauthorizedIsNotRetried() throws Exception {
    server.on("/api/v2/auditevents", json(401, "{\"Error\":{\"Message\":\"Unauthorized\"}}"));
    String yaml = onepassword();

    assertThatThrownBy(() -> read(yaml, Map.of("OP_TOKEN", "op-token"), "audit_events"))
        .hasMessageContaining("401")
        .hasMessageNotContaining("op-token");
    assertThat(server.requests()).hasSize(1);
  }

  // ---------------------------------------------------------------- probes

  /** The profiles that name a probe: the instance, the probe's path, the credential header. */
  static Stream<Arguments> probedProfiles() {
    return Stream.of(
        Arguments.of(
            "github",
            "vars: {api_url: \"%s\", scope_path: orgs/acme}\nauth: {mode: bearer, token: literal:t1}",
            "/rate_limit",
            "Bearer t1"),
        Arguments.of(
            "cloudflare",
            "vars: {api_url: \"%s\", account_id: a1}\nauth: {mode: bearer, token: literal:t1}",
            "/user/tokens/verify",
            "Bearer t1"),
        Arguments.of(
            "okta",
            "vars: {org_url: \"%s\"}\nauth: {mode: api_key, key: literal:t1}",
            "/api/v1/users/me",
            "SSWS t1"),
        Arguments.of(
            "onepassword",
            "vars: {api_url: \"%s\"}\nauth: {mode: bearer, token: literal:t1}",
            "/api/v2/auth/introspect",
            "Bearer t1"));
  }

  @Test
  void theAwsProbeCallsStsGetCallerIdentitySignedForSts() throws Exception {
    server.on("/", ok("{}"));
    RestConnection connection = RestFixture.connection(aws(), Map.of("AWS_SECRET", AWS_SECRET));

    Optional<ProbeOutcome> outcome = RestFixture.probe(connection);

    String path = "/?Action=GetCallerIdentity&Version=2011-06-15";
    assertThat(outcome).contains(RestFixture.answeredOk(server.url() + path));
    assertThat(server.requests())
        .singleElement()
        .satisfies(
            r -> {
              assertThat(r.method()).isEqualTo("GET");
              assertThat(r.pathAndQuery()).isEqualTo(path);
              assertThat(r.header("Authorization"))
                  .contains("/eu-west-1/sts/aws4_request")
                  .isEqualTo(SigV4Check.expectedAuthorization(r, AWS_SECRET));
            });
  }

  @Test
  void theAwsProbeGoesToTheRegionsStsHostWithoutAnEndpointUrl() throws Exception {
    RestConnection connection =
        RestFixture.connection(
            aws().replace("endpoint_url: \"" + server.url() + "\", ", ""),
            Map.of("AWS_SECRET", AWS_SECRET));

    assertThat(
            connection
                .probe()
                .orElseThrow()
                .baseUrl()
                .orElseThrow()
                .render(
                    dfe.fetcher.rest.profile.TemplateValues.of(connection.vars(), "cloudtrail")))
        .isEqualTo("https://sts.eu-west-1.amazonaws.com");
  }

  @Test
  void theAzureProbeListsSubscriptionsWithAResourceManagerTokenWhateverTheFirstUnit()
      throws Exception {
    String yaml = azure() + "units: {activity_log: {enabled: false}, defender: {enabled: false}}\n";
    server.on("/subscriptions", ok("{\"value\":[]}"));
    RestConnection connection = RestFixture.connection(yaml, Map.of("AZURE_SECRET", "s3cret"));

    Optional<ProbeOutcome> outcome = RestFixture.probe(connection);

    String path = "/subscriptions?api-version=2022-12-01";
    assertThat(outcome).contains(RestFixture.answeredOk(server.url() + path));
    assertThat(server.requests())
        .filteredOn(r -> !r.pathAndQuery().contains("/oauth2/"))
        .singleElement()
        .satisfies(
            r -> {
              assertThat(r.pathAndQuery()).isEqualTo(path);
              assertThat(r.header("Authorization")).isEqualTo("Bearer arm-token");
            });
    assertThat(tokenForms)
        .singleElement()
        .satisfies(
            form ->
                assertThat(form).containsEntry("scope", "https://management.azure.com/.default"));
  }

  @ParameterizedTest
  @MethodSource("probedProfiles")
  void theProbeOfAProfileAsksItsCheapestCallWithTheCredential(
      String profile, String instance, String path, String authorization) throws Exception {
    server.on(path, ok("{}"));
    RestConnection connection =
        RestFixture.connection(
            "topic: x\nprofile: " + profile + "\n" + instance.formatted(server.url()) + "\n");

    Optional<ProbeOutcome> outcome = RestFixture.probe(connection);

    assertThat(outcome).contains(RestFixture.answeredOk(server.url() + path));
    assertThat(server.requests())
        .singleElement()
        .satisfies(
            r -> {
              assertThat(r.pathAndQuery()).isEqualTo(path);
              assertThat(r.header("Authorization")).isEqualTo(authorization);
            });
  }
}
