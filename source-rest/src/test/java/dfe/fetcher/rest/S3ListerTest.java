package dfe.fetcher.rest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dfe.fetcher.core.row.Cancellation;
import dfe.fetcher.core.row.Mark;
import dfe.fetcher.core.row.WindowMark;
import dfe.fetcher.source.OpenConnection;
import dfe.fetcher.source.SourceMetrics;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code lister: s3}: a local S3 answering ListObjectsV2 and GetObject as AWS documents them, every
 * request's SigV4 signature recomputed there; the objects past the checkpoint are read oldest
 * first, one record per row with the object's bucket, key and size, each object committed once its
 * rows are.
 */
class S3ListerTest {

  private static final String KEY_ID = "AKIDEXAMPLE";
  private static final String SECRET = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY";
  private static final Map<String, String> ENV =
      Map.of("AWS_KEY", KEY_ID, "AWS_SECRET", SECRET, "WRONG_SECRET", "not/the+secret");
  private static final Instant NOW = Instant.parse("2026-12-01T09:00:00Z");
  private static final Instant START = NOW.minus(Duration.ofHours(24));

  private S3Server s3;

  @BeforeEach
  void start() throws IOException {
    s3 = new S3Server(KEY_ID, SECRET, "eu-west-1");
  }

  @AfterEach
  void stop() {
    s3.close();
  }

  private static Instant at(String time) {
    return Instant.parse("2026-12-01T" + time + "Z");
  }

  /**
   * One tail unit listing bucket {@code logs} under {@code app/}, its objects read with {@code
   * rows}.
   */
  private RestConnection connection(String rows, String manifestExtra) {
    return connection(rows, manifestExtra, "AWS_SECRET", "tail");
  }

  private RestConnection connection(
      String rows, String manifestExtra, String secretVar, String shape) {
    return RestFixture.connection(
        """
        topic: lab
        auth: {mode: sigv4, access_key_id: env:AWS_KEY, secret_access_key: env:%s,
               region: eu-west-1, service: s3}
        profile:
          base_url: "%s"
          retry: {max_retries: 0}
          endpoints:
            - unit: logs
              shape: %s
              path: /logs
              query: {list-type: "2", prefix: "app/", max-keys: "1000"}
              lister: s3
        %s
              construct:
                manifest:
                  item_request:
                    path: "/{{ item.bucket }}/{{ item.path }}"
                    rows: %s
                  add_fields:
                    _object: {bucket: "{{ item.bucket }}", key: "{{ item.key }}", size: "{{ item.size }}"}
        %s
        """
            .formatted(
                secretVar,
                s3.url(),
                shape,
                shape.equals("tail") ? "      window: {format: rfc3339_secs, lookback: 24h}" : "",
                rows,
                manifestExtra.indent(10).stripTrailing()),
        ENV);
  }

  private RecordingSink tick(RestConnection connection, Optional<Mark> checkpoint)
      throws Exception {
    return RestFixture.read(connection, "logs", checkpoint, new MutableClock(NOW));
  }

  private static String fields(String key, int size) {
    return ",\"_object\":{\"bucket\":\"logs\",\"key\":\"" + key + "\",\"size\":" + size + "}}";
  }

  @Test
  void listsAcrossPagesAndReadsTheObjectsOldestFirstWithTheirBucketKeyAndSize() throws Exception {
    s3.pageSize(2)
        .put("logs", "app/a.json", "{\"n\":3}\n", at("08:30:00"))
        .put("logs", "app/b.json", "{\"n\":1}\n{\"n\":2}\n", at("08:10:00"))
        .put("logs", "app/c d+e.json", "{\"n\":5}\n", at("08:50:00"))
        .put("logs", "app/dir/", "", at("08:00:00"))
        .put("logs", "app/z.json", "{\"n\":4}\n", at("08:40:00"))
        .put("logs", "other/x.json", "{\"n\":0}\n", at("08:20:00"));

    RecordingSink sink = tick(connection("{decoder: ndjson}", ""), Optional.empty());

    assertThat(sink.records())
        .containsExactly(
            "{\"n\":1" + fields("app/b.json", 16),
            "{\"n\":2" + fields("app/b.json", 16),
            "{\"n\":3" + fields("app/a.json", 8),
            "{\"n\":4" + fields("app/z.json", 8),
            "{\"n\":5" + fields("app/c d+e.json", 8));
    assertThat(sink.shape())
        .containsExactly(
            "row", "row", "advance", "row", "advance", "row", "advance", "row", "advance",
            "advance");
    assertThat(sink.checkpoint()).contains(new WindowMark(NOW));
    assertThat(s3.refused()).isEmpty();
    List<String> listings =
        s3.requests().stream().filter(request -> request.contains("list-type")).toList();
    assertThat(listings).hasSize(3);
    assertThat(listings.get(0)).isEqualTo("GET /logs?list-type=2&prefix=app%2F&max-keys=1000");
    assertThat(listings.get(1)).contains("&continuation-token=");
    assertThat(s3.objectsRead())
        .containsExactly(
            "logs/app/b.json", "logs/app/a.json", "logs/app/z.json", "logs/app/c d+e.json");
  }

  @Test
  void onlyObjectsModifiedInTheWindowPastTheCheckpointAreRead() throws Exception {
    s3.put("logs", "app/old.json", "{\"n\":0}\n", at("07:00:00"))
        .put("logs", "app/new.json", "{\"n\":1}\n", at("08:00:00"))
        .put("logs", "app/late.json", "{\"n\":9}\n", NOW)
        .put("logs", "app/ancient.json", "{\"n\":8}\n", START.minusSeconds(1));

    RecordingSink sink =
        tick(connection("{decoder: ndjson}", ""), Optional.of(new WindowMark(at("07:30:00"))));

    assertThat(sink.records()).containsExactly("{\"n\":1" + fields("app/new.json", 8));
    assertThat(s3.objectsRead()).containsExactly("logs/app/new.json");
    assertThat(sink.checkpoint()).contains(new WindowMark(NOW));
  }

  @Test
  void aTickThatFailsHalfWayResumesAtTheFailingObjectWithoutRereadingTheOnesBefore()
      throws Exception {
    s3.put("logs", "app/1.json", "{\"n\":1}\n", at("08:01:00"))
        .put("logs", "app/2.json", "{\"n\":2}\n", at("08:02:00"))
        .put("logs", "app/3.json", "{\"n\":3}\n", at("08:03:00"))
        .failNext("logs", "app/2.json", 1);
    RestConnection connection = connection("{decoder: ndjson}", "");
    RecordingSink first = new RecordingSink();

    assertThatThrownBy(
            () -> {
              try (OpenConnection open =
                  RestFixture.open(connection, new MutableClock(NOW), SourceMetrics.NONE)) {
                open.source("logs").read(Optional.empty(), first, new Cancellation());
              }
            })
        .hasMessageContaining("GET " + s3.url() + "/logs/app/2.json")
        .hasMessageContaining("answered 500");
    assertThat(first.records()).containsExactly("{\"n\":1" + fields("app/1.json", 8));
    assertThat(first.shape()).containsExactly("row", "advance");
    assertThat(first.checkpoint())
        .contains(
            new WindowMark(
                START, Optional.of(new WindowMark.Item("app/1.json", "2026-12-01T08:01:00.000Z"))));

    RecordingSink second = tick(connection, first.checkpoint());

    assertThat(second.records())
        .containsExactly(
            "{\"n\":2" + fields("app/2.json", 8), "{\"n\":3" + fields("app/3.json", 8));
    assertThat(second.checkpoint()).contains(new WindowMark(NOW));
    assertThat(s3.objectsRead())
        .containsExactly(
            "logs/app/1.json", "logs/app/2.json", "logs/app/2.json", "logs/app/3.json");
  }

  @Test
  void maxItemsReadsTheOldestAndTheNextTickGoesOnAfterTheLastOneRead() throws Exception {
    s3.put("logs", "app/a.json", "{\"n\":3}\n", at("08:03:00"))
        .put("logs", "app/b.json", "{\"n\":1}\n", at("08:01:00"))
        .put("logs", "app/c.json", "{\"n\":2}\n", at("08:02:00"));
    RestConnection connection = connection("{decoder: ndjson}", "max_items: 2");

    RecordingSink first = tick(connection, Optional.empty());
    RecordingSink second = tick(connection, first.checkpoint());

    assertThat(first.records())
        .containsExactly(
            "{\"n\":1" + fields("app/b.json", 8), "{\"n\":2" + fields("app/c.json", 8));
    assertThat(first.checkpoint())
        .contains(
            new WindowMark(
                START, Optional.of(new WindowMark.Item("app/c.json", "2026-12-01T08:02:00.000Z"))));
    assertThat(second.records()).containsExactly("{\"n\":3" + fields("app/a.json", 8));
    assertThat(second.checkpoint()).contains(new WindowMark(NOW));
  }

  @Test
  void gzipObjectsOfOneMemberOrSeveralAreInflatedAndAPlainOneIsReadAsItIs() throws Exception {
    byte[] several = concat(gzip("{\"n\":2}\n"), gzip("{\"n\":3}\n{\"n\":4}\n"));
    s3.put("logs", "app/one.json.gz", gzip("{\"n\":1}\n"), at("08:01:00"))
        .put("logs", "app/several.json.gz", several, at("08:02:00"))
        .put("logs", "app/plain.json", "{\"n\":5}\n", at("08:03:00"));

    RecordingSink sink = tick(connection("{decoder: ndjson, gzip: true}", ""), Optional.empty());

    assertThat(sink.records())
        .containsExactly(
            "{\"n\":1" + fields("app/one.json.gz", gzip("{\"n\":1}\n").length),
            "{\"n\":2" + fields("app/several.json.gz", several.length),
            "{\"n\":3" + fields("app/several.json.gz", several.length),
            "{\"n\":4" + fields("app/several.json.gz", several.length),
            "{\"n\":5" + fields("app/plain.json", 8));
  }

  @Test
  void bytesAfterTheLastGzipMemberFailTheTickNamingTheObject() throws Exception {
    s3.put(
        "logs",
        "app/broken.json.gz",
        concat(gzip("{\"n\":1}\n"), "trailing".getBytes(StandardCharsets.UTF_8)),
        at("08:01:00"));

    RecordingSink sink = new RecordingSink();
    assertThatThrownBy(() -> read(connection("{decoder: ndjson, gzip: true}", ""), sink))
        .hasMessage(
            "lab.logs: GET "
                + s3.url()
                + "/logs/app/broken.json.gz: rows.gzip: the bytes after gzip member 1 are not"
                + " another gzip member");
    assertThat(sink.checkpoint()).isEmpty();
  }

  @Test
  void aGzipMemberCutShortFailsTheTickNamingTheObject() throws Exception {
    byte[] whole = gzip("{\"n\":1}\n{\"n\":2}\n");
    byte[] cut = java.util.Arrays.copyOf(whole, whole.length - 4);
    s3.put("logs", "app/cut.json.gz", cut, at("08:01:00"));

    RecordingSink sink = new RecordingSink();
    assertThatThrownBy(() -> read(connection("{decoder: ndjson, gzip: true}", ""), sink))
        .hasMessage(
            "lab.logs: GET "
                + s3.url()
                + "/logs/app/cut.json.gz: rows.gzip: gzip member 1 ends within its trailer");
    assertThat(sink.checkpoint()).isEmpty();
  }

  @Test
  void eachDecoderReadsTheObjectsRows() throws Exception {
    s3.put("logs", "app/1.json", "[{\"n\":1},{\"n\":2}]", at("08:01:00"))
        .put("logs", "app/2.json", "{\"n\":3}", at("08:02:00"));
    assertThat(tick(connection("{decoder: json}", ""), Optional.empty()).records())
        .containsExactly(
            "{\"n\":1" + fields("app/1.json", 17),
            "{\"n\":2" + fields("app/1.json", 17),
            "{\"n\":3" + fields("app/2.json", 7));
    s3.close();

    s3 = new S3Server(KEY_ID, SECRET, "eu-west-1");
    s3.put("logs", "app/1.txt", gzip("first line\r\n\nsecond\n"), at("08:01:00"));
    assertThat(tick(connection("{decoder: lines, gzip: true}", ""), Optional.empty()).records())
        .containsExactly(
            "{\"line\":\"first line\""
                + fields("app/1.txt", gzip("first line\r\n\nsecond\n").length),
            "{\"line\":\"second\"" + fields("app/1.txt", gzip("first line\r\n\nsecond\n").length));
    s3.close();

    s3 = new S3Server(KEY_ID, SECRET, "eu-west-1");
    s3.put("logs", "app/1.csv", "host,port\nweb,443\n\"db, main\",5432\n", at("08:01:00"));
    assertThat(tick(connection("{decoder: csv}", ""), Optional.empty()).records())
        .containsExactly(
            "{\"host\":\"web\",\"port\":\"443\"" + fields("app/1.csv", 34),
            "{\"host\":\"db, main\",\"port\":\"5432\"" + fields("app/1.csv", 34));
  }

  @Test
  void anObjectThatIsNotJsonFailsTheTickNamingBucketAndKey() throws Exception {
    s3.put("logs", "app/good.json", "{\"n\":1}\n", at("08:01:00"))
        .put("logs", "app/bad.json", "{\"n\":2}\nnot json at all\n", at("08:02:00"));

    RecordingSink sink = new RecordingSink();
    assertThatThrownBy(() -> read(connection("{decoder: ndjson}", ""), sink))
        .hasMessageStartingWith("lab.logs: GET " + s3.url() + "/logs/app/bad.json: line 2");
    assertThat(sink.checkpoint())
        .contains(
            new WindowMark(
                START,
                Optional.of(new WindowMark.Item("app/good.json", "2026-12-01T08:01:00.000Z"))));
  }

  @Test
  void s3ErrorsReachTheMessageByCodeAndMessageWithoutKeys() throws Exception {
    s3.bucket("logs").deny("logs");
    assertThatThrownBy(() -> read(connection("{decoder: ndjson}", ""), new RecordingSink()))
        .hasMessageContaining("GET " + s3.url() + "/logs?list-type=2")
        .hasMessageContaining("answered 403: \"AccessDenied: Access Denied\"");
    s3.close();

    s3 = new S3Server(KEY_ID, SECRET, "eu-west-1");
    assertThatThrownBy(() -> read(connection("{decoder: ndjson}", ""), new RecordingSink()))
        .hasMessageContaining(
            "answered 404: \"NoSuchBucket: The specified bucket does not exist\"");
    s3.close();

    s3 = new S3Server(KEY_ID, SECRET, "eu-west-1");
    s3.bucket("logs");
    Throwable refused =
        org.assertj.core.api.Assertions.catchThrowable(
            () ->
                read(
                    connection("{decoder: ndjson}", "", "WRONG_SECRET", "tail"),
                    new RecordingSink()));
    assertThat(refused)
        .hasMessageContaining(
            "answered 403: \"SignatureDoesNotMatch: The request signature we calculated does not"
                + " match the signature you provided.\"");
    assertThat(refused.getMessage())
        .doesNotContain(KEY_ID)
        .doesNotContain("StringToSign")
        .doesNotContain("AWS4-HMAC-SHA256")
        .doesNotContain("not/the+secret")
        .doesNotContain(SECRET);
    assertThat(s3.refused()).hasSize(1);
  }

  @Test
  void aListingLongerThanMaxPagesFailsTheTickAndReadsNoObject() throws Exception {
    s3.pageSize(1)
        .put("logs", "app/a.json", "{\"n\":1}\n", at("08:01:00"))
        .put("logs", "app/b.json", "{\"n\":2}\n", at("08:02:00"))
        .put("logs", "app/c.json", "{\"n\":3}\n", at("08:03:00"));
    RestConnection connection =
        RestFixture.connection(
            ("topic: lab\n"
                    + "auth: {mode: sigv4, access_key_id: env:AWS_KEY, secret_access_key:"
                    + " env:AWS_SECRET, region: eu-west-1, service: s3}\n"
                    + "profile:\n"
                    + "  base_url: \"%s\"\n"
                    + "  retry: {max_retries: 0}\n"
                    + "  endpoints:\n"
                    + "    - unit: logs\n"
                    + "      shape: tail\n"
                    + "      path: /logs\n"
                    + "      query: {list-type: \"2\", prefix: \"app/\"}\n"
                    + "      lister: s3\n"
                    + "      max_pages: 2\n"
                    + "      window: {format: rfc3339_secs, lookback: 24h}\n"
                    + "      construct:\n"
                    + "        manifest:\n"
                    + "          item_request:\n"
                    + "            path: \"/{{ item.bucket }}/{{ item.path }}\"\n"
                    + "            rows: {decoder: ndjson}\n")
                .formatted(s3.url()),
            ENV);
    RecordingSink sink = new RecordingSink();

    assertThatThrownBy(() -> read(connection, sink))
        .hasMessageStartingWith("lab.logs: reached max_pages 2 with more to read")
        .hasMessageEndingWith(
            "; a lister reads no object of a listing it could not finish (one on a page not read"
                + " may be older than those read): raise max_pages or narrow the prefix");
    assertThat(sink.records()).isEmpty();
    assertThat(sink.checkpoint()).isEmpty();
    assertThat(s3.objectsRead()).isEmpty();
  }

  @Test
  void anEmptyBucketLandsNothingAndTheWindowAdvances() throws Exception {
    s3.bucket("logs");

    RecordingSink sink = tick(connection("{decoder: ndjson}", ""), Optional.empty());

    assertThat(sink.records()).isEmpty();
    assertThat(sink.shape()).containsExactly("advance");
    assertThat(sink.checkpoint()).contains(new WindowMark(NOW));
    assertThat(s3.requests()).containsExactly("GET /logs?list-type=2&prefix=app%2F&max-keys=1000");
  }

  @Test
  void aDumpReadsEveryObjectListedOldestFirst() throws Exception {
    s3.put("logs", "app/a.json", "{\"n\":2}\n", at("08:02:00"))
        .put("logs", "app/b.json", "{\"n\":1}\n", START.minus(Duration.ofDays(30)));

    RecordingSink sink =
        RestFixture.read(connection("{decoder: ndjson}", "", "AWS_SECRET", "dump"), "logs");

    assertThat(sink.records())
        .containsExactly(
            "{\"n\":1" + fields("app/b.json", 8), "{\"n\":2" + fields("app/a.json", 8));
    assertThat(sink.shape()).containsExactly("begin", "row", "row", "end");
  }

  @Test
  void mistakesBesideAListerAreReportedAtTheirPlaces() {
    String base =
        """
        topic: lab
        profile:
          base_url: "http://127.0.0.1:1"
          endpoints:
            - unit: logs
              shape: tail
              path: /logs
              query: {list-type: "2"}
              window: {format: rfc3339_secs, lookback: 24h}
        """;
    String manifest =
        "      construct:\n"
            + "        manifest:\n"
            + "          item_request: {path: \"/{{ item.bucket }}/{{ item.path }}\","
            + " rows: {decoder: ndjson}}\n";

    assertThat(RestFixture.problems(base + "      lister: gcs\n" + manifest))
        .containsExactly(
            "config.yaml:10:15: sources.rest.lab.profile.endpoints[0].lister: unknown lister"
                + " 'gcs'; one of s3");
    assertThat(RestFixture.problems(base + "      lister: s3\n"))
        .singleElement()
        .asString()
        .contains("endpoints[0].lister: lists objects for a construct.manifest to read");
    assertThat(
            RestFixture.problems(
                base + "      lister: s3\n      rows: {decoder: json_array}\n" + manifest))
        .singleElement()
        .asString()
        .contains("endpoints[0].rows: does not apply beside lister: s3");
    assertThat(
            RestFixture.problems(
                base
                    + "      lister: s3\n"
                    + manifest
                    + "          key: \"{{ item.etag }}\"\n"
                    + "          position: \"{{ item.last_modified }}\"\n"))
        .singleElement()
        .asString()
        .contains(
            "construct.manifest.key: beside lister: s3 must be \"{{ item.key }}\" or left out");
    assertThat(
            RestFixture.problems(
                base
                    + "      lister: s3\n"
                    + manifest
                    + "          key: \"{{ item.key }}\"\n"
                    + "          position: \"{{ item.last_modified }}\"\n"))
        .isEmpty();
  }

  private static void read(RestConnection connection, RecordingSink sink) throws Exception {
    try (OpenConnection open =
        RestFixture.open(connection, new MutableClock(NOW), SourceMetrics.NONE)) {
      open.source("logs").read(Optional.empty(), sink, new Cancellation());
    }
  }

  private static byte[] gzip(String text) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (GZIPOutputStream zip = new GZIPOutputStream(out)) {
      zip.write(text.getBytes(StandardCharsets.UTF_8));
    }
    return out.toByteArray();
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] both = new byte[a.length + b.length];
    System.arraycopy(a, 0, both, 0, a.length);
    System.arraycopy(b, 0, both, a.length, b.length);
    return both;
  }
}
