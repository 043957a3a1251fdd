package dfe.fetcher.rest;

import static dfe.fetcher.rest.ApiServer.ok;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * {@code header_link}: the next page's URL is a response header's value (Office 365's {@code
 * NextPageUri}), absolute or relative, followed as a {@code Link} is; no such header or an empty
 * one ends, a value that is no http(s) URL fails the page, and a streamed decoder pages with it.
 */
class HeaderLinkPagerTest {

  @AutoClose private final ApiServer server = ApiServer.started();
  @AutoClose private final ApiServer other = ApiServer.started();

  private RestConnection dump() {
    return RestFixture.connection(
        """
        topic: lab
        auth: {mode: bearer, token: env:LAB_TOKEN}
        profile:
          base_url: "%s/v1"
          endpoints:
            - unit: blobs
              shape: dump
              path: /blobs
              query: {type: audit}
              rows: {decoder: json_array}
              paginate: {type: header_link, header: NextPageUri}
        """
            .formatted(server.url()),
        Map.of("LAB_TOKEN", "tok-1"));
  }

  @Test
  void followsAbsoluteAndRelativeUrlsUntilAPageWithoutTheHeader() throws Exception {
    server.on(
        "/v1/blobs",
        ApiServer.byQuery(
            Map.of(
                "type=audit",
                ok("[{\"n\":1}]", "NextPageUri", server.url() + "/v1/blobs?type=audit&page=2"),
                "type=audit&page=2",
                ok("[{\"n\":2}]", "NextPageUri", "blobs?type=audit&page=3"),
                "type=audit&page=3",
                ok("[{\"n\":3}]", "NextPageUri", ""))));

    RecordingSink sink = RestFixture.read(dump(), "blobs");

    assertThat(sink.records()).containsExactly("{\"n\":1}", "{\"n\":2}", "{\"n\":3}");
    assertThat(server.paths())
        .containsExactly(
            "/v1/blobs?type=audit", "/v1/blobs?type=audit&page=2", "/v1/blobs?type=audit&page=3");
    assertThat(server.requests())
        .allSatisfy(seen -> assertThat(seen.header("Authorization")).isEqualTo("Bearer tok-1"));
  }

  @Test
  void aUrlOnAnotherOriginIsFollowedWithoutTheCredentials() throws Exception {
    server.on("/v1/blobs", ok("[{\"n\":1}]", "NextPageUri", other.url() + "/page-2"));
    other.on("/page-2", ok("[{\"n\":2}]"));

    RecordingSink sink = RestFixture.read(dump(), "blobs");

    assertThat(sink.records()).containsExactly("{\"n\":1}", "{\"n\":2}");
    assertThat(other.requests().get(0).header("Authorization")).isNull();
  }

  @Test
  void aValueThatIsNoHttpUrlFailsThePageNamingTheHeader() throws Exception {
    server.on("/v1/blobs", ok("[{\"n\":1}]", "NextPageUri", "ftp://example.com/next"));

    RecordingSink sink = RestFixture.read(dump(), "blobs");

    assertThat(sink.shape()).containsExactly("begin", "row", "abort");
    assertThat(sink.abortReason())
        .hasValueSatisfying(
            reason ->
                assertThat(reason)
                    .contains(
                        "paginate.header: the NextPageUri header is not an http or https URL"));
  }

  @Test
  void theSameUrlHandedBackIsALoop() throws Exception {
    server.on("/v1/blobs", ok("[{\"n\":1}]", "NextPageUri", "/v1/blobs?type=audit"));

    RecordingSink sink = RestFixture.read(dump(), "blobs");

    assertThat(sink.abortReason())
        .hasValueSatisfying(reason -> assertThat(reason).contains("pagination loops"));
  }

  @Test
  void aPagerWithoutItsHeaderIsRefusedAtLoad() {
    assertThat(
            RestFixture.problems(
                """
                topic: lab
                profile:
                  base_url: https://api.example.com
                  endpoints:
                    - unit: blobs
                      shape: dump
                      path: /blobs
                      rows: {decoder: json_array}
                      paginate: {type: header_link}
                """))
        .containsExactly(
            "config.yaml:9:17: sources.rest.lab.profile.endpoints[0].paginate.header: is required");
  }
}
