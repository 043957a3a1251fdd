package dfe.fetcher.rest;

import static dfe.fetcher.rest.ApiServer.ok;
import static org.assertj.core.api.Assertions.assertThat;

import dfe.fetcher.core.metrics.MetricNames;
import dfe.fetcher.core.row.Cancellation;
import dfe.fetcher.source.OpenConnection;
import dfe.fetcher.source.SourceMetrics;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code auth.allow_hosts}: credentials go to base_url's origin and the origins listed; a request
 * to any other goes without them, or is refused with {@code other_origins: refuse}, and is counted.
 */
class AllowHostsTest {

  private ApiServer api;
  private ApiServer uploads;
  private ApiServer cdn;

  @BeforeEach
  void start() throws Exception {
    api = new ApiServer();
    uploads = new ApiServer();
    cdn = new ApiServer();
    api.on("/assets", ok("[{\"id\":1}]", "Link", "<" + uploads.url() + "/p2>; rel=\"next\""));
    uploads.on("/p2", ok("[{\"id\":2}]", "Link", "<" + cdn.url() + "/p3>; rel=\"next\""));
    cdn.on("/p3", ok("[{\"id\":3}]"));
  }

  @AfterEach
  void stop() {
    api.close();
    uploads.close();
    cdn.close();
  }

  private RestConnection connection(String more) {
    return RestFixture.connection(
        """
        topic: lab
        auth: {mode: bearer, token: env:TOKEN, allow_hosts: ["%s"]%s}
        profile:
          base_url: "%s"
          endpoints:
            - {unit: assets, shape: dump, path: /assets, rows: {decoder: json_array},
               paginate: {type: link_header}}
        """
            .formatted(uploads.url(), more, api.url()),
        Map.of("TOKEN", "tok-1"));
  }

  private long readCountingWithheld(RestConnection connection, RecordingSink sink)
      throws Exception {
    try (OpenConnection open =
        RestFixture.open(connection, Clock.systemUTC(), SourceMetrics.NONE)) {
      open.source("assets").read(Optional.empty(), sink, new Cancellation());
      return ((OpenRestConnection) open).credentialsWithheld();
    }
  }

  @Test
  void anAllowedOriginGetsTheCredentialsAndAnyOtherGoesWithoutThemCounted() throws Exception {
    RecordingSink sink = new RecordingSink();

    long withheld = readCountingWithheld(connection(""), sink);

    assertThat(sink.records()).containsExactly("{\"id\":1}", "{\"id\":2}", "{\"id\":3}");
    assertThat(api.requests().get(0).header("Authorization")).isEqualTo("Bearer tok-1");
    assertThat(uploads.requests().get(0).header("Authorization")).isEqualTo("Bearer tok-1");
    assertThat(cdn.requests().get(0).header("Authorization")).isNull();
    assertThat(withheld).isEqualTo(1);
  }

  @Test
  void withOtherOriginsRefusedARequestToAnotherOriginFailsNamingItAndIsCounted() throws Exception {
    RecordingSink sink = new RecordingSink();

    long withheld = readCountingWithheld(connection(", other_origins: refuse"), sink);

    assertThat(sink.shape()).endsWith("abort");
    assertThat(sink.abortReason().orElseThrow())
        .contains(cdn.url() + "/p3")
        .contains("sources.rest.lab.auth.other_origins is refuse");
    assertThat(cdn.requests()).isEmpty();
    assertThat(withheld).isEqualTo(1);
  }

  @Test
  void eachRequestSentWithoutCredentialsIsCountedInTheUnitsMetric() throws Exception {
    RecordingMetrics metrics = new RecordingMetrics();

    try (OpenConnection open = RestFixture.open(connection(""), Clock.systemUTC(), metrics)) {
      open.source("assets").read(Optional.empty(), new RecordingSink(), new Cancellation());
    }

    assertThat(cdn.requests()).hasSize(1);
    assertThat(metrics.count(MetricNames.REST_CREDENTIALS_WITHHELD, "lab.assets")).isEqualTo(1);
  }

  @Test
  void anAllowedHostWithAPathIsReported() {
    assertThat(
            RestFixture.problems(
                """
                topic: lab
                auth: {mode: bearer, token: t, allow_hosts: ["https://uploads.example.com/v1"]}
                profile:
                  base_url: "http://127.0.0.1:1"
                  endpoints:
                    - {unit: assets, shape: dump, path: /assets, rows: {decoder: json_array}}
                """))
        .singleElement()
        .satisfies(
            p ->
                assertThat(p)
                    .contains("sources.rest.lab.auth.allow_hosts")
                    .contains("is not an origin"));
  }
}
