package dfe.fetcher.rest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dfe.fetcher.core.row.Mark;
import dfe.fetcher.core.row.WindowMark;
import dfe.fetcher.source.ProbeOutcome;
import dfe.fetcher.source.SourceUnit;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The shipped {@code object_store} profile against a local S3 that answers ListObjectsV2 and
 * GetObject as AWS documents them and recomputes every request's SigV4 signature: each format unit
 * lists the prefix over several pages, reads the objects of the last 24 hours oldest first, decodes
 * them in its format and lands one row per record with {@code _dfe_fetcher_object}.
 */
class ObjectStoreProfileTest {

  private static final String KEY_ID = "AKIDEXAMPLE";
  private static final String SECRET = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY";
  private static final Instant NOW = Instant.parse("2026-12-01T09:00:00Z");
  private static final String FIRST_LISTING = "GET /logs?list-type=2&prefix=app%2F&max-keys=1000";

  private S3Server s3;

  @BeforeEach
  void start() throws IOException {
    s3 = new S3Server(KEY_ID, SECRET, "eu-west-1");
  }

  @AfterEach
  void stop() {
    s3.close();
  }

  private RestConnection store(String vars, String units) {
    return RestFixture.connection(
        """
        topic: objects
        profile: object_store
        vars: {endpoint_url: "%s", region: eu-west-1, %s}
        auth: {mode: sigv4, access_key_id: env:AWS_KEY, secret_access_key: env:AWS_SECRET,
               region: eu-west-1}
        %s
        """
            .formatted(s3.url(), vars, units),
        Map.of("AWS_KEY", KEY_ID, "AWS_SECRET", SECRET));
  }

  private static RecordingSink tick(RestConnection connection, String unit, Optional<Mark> at)
      throws Exception {
    return RestFixture.read(connection, unit, at, new MutableClock(NOW));
  }

  private static Instant at(String time) {
    return Instant.parse("2026-12-01T" + time + "Z");
  }

  private static byte[] gzip(String text) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (GZIPOutputStream out = new GZIPOutputStream(bytes)) {
      out.write(text.getBytes(StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }

  private static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  /** {@code fields} (an object's members, without braces) with the object's envelope after them. */
  private static String row(String fields, String bucket, String key, String time, int size) {
    return "{"
        + fields
        + ",\"_dfe_fetcher_object\":{\"provider\":\"s3\",\"bucket\":\""
        + bucket
        + "\",\"key\":\""
        + key
        + "\",\"last_modified\":\"2026-12-01T"
        + time
        + ".000Z\",\"size\":"
        + size
        + "}}";
  }

  /**
   * unit, the objects' extension, the older object's bytes and its rows' members, the newer
   * object's bytes and its rows' members.
   */
  static Stream<Arguments> units() {
    List<String> nRows = List.of("\"n\":1", "\"payload\":\"two\"");
    List<String> lineRows = List.of("\"line\":\"one\"", "\"line\":\"two\"");
    List<String> three = List.of("\"line\":\"three\"");
    return Stream.of(
        unit("json_gz", ".json.gz", gzip("{\"n\":1}\n\"two\"\n"), nRows, gzip("{\"n\":3}\n")),
        unit("jsonl", ".jsonl", utf8("{\"n\":1}\n\"two\"\n"), nRows, utf8("{\"n\":3}\n")),
        unit("json", ".json", utf8("[{\"n\":1},\"two\"]"), nRows, utf8("{\"n\":3}")),
        Arguments.of("text", ".log", utf8("one\r\ntwo\n"), lineRows, utf8("three\n"), three),
        Arguments.of("text_gz", ".log.gz", gzip("one\r\ntwo\n"), lineRows, gzip("three\n"), three));
  }

  /** A JSON unit's case, whose newer object holds the one row {@code {"n":3}}. */
  private static Arguments unit(
      String unit, String extension, byte[] older, List<String> olderRows, byte[] newer) {
    return Arguments.of(unit, extension, older, olderRows, newer, List.of("\"n\":3"));
  }

  @Test
  void theProfileShipsFiveFormatUnits() {
    assertThat(store("bucket: logs", "").units())
        .extracting(SourceUnit::unit)
        .containsExactly("json_gz", "jsonl", "json", "text", "text_gz");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("units")
  void aUnitListsThePrefixOverPagesAndReadsTheDayOfObjectsOldestFirstInItsFormat(
      String unit,
      String ext,
      byte[] older,
      List<String> olderRows,
      byte[] newer,
      List<String> newerRows)
      throws Exception {
    s3.pageSize(1)
        .put("logs", "app/a" + ext, newer, at("08:10:00"))
        .put("logs", "app/b" + ext, older, at("08:05:00"))
        .put("logs", "app/old" + ext, utf8("{\"n\":0}\n"), NOW.minus(Duration.ofHours(25)))
        .put("logs", "other/x" + ext, utf8("{\"n\":9}\n"), at("08:00:00"));

    RecordingSink sink = tick(store("bucket: logs, prefix: app/", ""), unit, Optional.empty());

    Stream<String> fromOlder =
        olderRows.stream().map(r -> row(r, "logs", "app/b" + ext, "08:05:00", older.length));
    Stream<String> fromNewer =
        newerRows.stream().map(r -> row(r, "logs", "app/a" + ext, "08:10:00", newer.length));
    assertThat(sink.records())
        .containsExactlyElementsOf(Stream.concat(fromOlder, fromNewer).toList());
    assertThat(s3.refused()).isEmpty();
    List<String> requests = s3.requests();
    assertThat(requests).hasSize(5);
    assertThat(requests.get(0)).isEqualTo(FIRST_LISTING);
    assertThat(requests.subList(1, 3))
        .allSatisfy(r -> assertThat(r).startsWith(FIRST_LISTING + "&continuation-token="));
    assertThat(requests.subList(3, 5))
        .containsExactly("GET /logs/app/b" + ext, "GET /logs/app/a" + ext);
    assertThat(sink.checkpoint()).contains(new WindowMark(NOW));
  }

  @Test
  void aTickAfterOneThatFailedReadsOnlyTheObjectsAfterTheLastOneCommitted() throws Exception {
    s3.put("logs", "app/1.jsonl", "{\"n\":1}\n", at("08:01:00"))
        .put("logs", "app/2.jsonl", "{\"n\":2}\n", at("08:02:00"));
    Mark afterFirst =
        new WindowMark(
            NOW.minus(Duration.ofHours(24)),
            Optional.of(new WindowMark.Item("app/1.jsonl", "2026-12-01T08:01:00.000Z")));

    RecordingSink sink =
        tick(store("bucket: logs, prefix: app/", ""), "jsonl", Optional.of(afterFirst));

    assertThat(sink.records())
        .containsExactly(row("\"n\":2", "logs", "app/2.jsonl", "08:02:00", 8));
    assertThat(s3.objectsRead()).containsExactly("logs/app/2.jsonl");
  }

  @Test
  void anInstanceNamesAUnitPerBucketAndPrefixAndOnlyThoseRun() throws Exception {
    s3.put("logs", "app/1.jsonl", "{\"n\":1}\n", at("08:01:00"))
        .put("lb-logs", "elb/1.log.gz", gzip("GET /health 200\n"), at("08:02:00"));
    RestConnection connection =
        store(
            "provider: minio",
            """
            units:
              app: {endpoint: jsonl, vars: {bucket: logs, prefix: app/}}
              load_balancer: {endpoint: text_gz, vars: {bucket: lb-logs, prefix: elb/}}
            """);

    RecordingSink app = tick(connection, "app", Optional.empty());
    RecordingSink balancer = tick(connection, "load_balancer", Optional.empty());

    assertThat(connection.units())
        .extracting(SourceUnit::unit)
        .containsExactly("app", "load_balancer");
    assertThat(app.records())
        .containsExactly(
            row("\"n\":1", "logs", "app/1.jsonl", "08:01:00", 8).replace("\"s3\"", "\"minio\""));
    assertThat(balancer.records())
        .containsExactly(
            row(
                    "\"line\":\"GET /health 200\"",
                    "lb-logs",
                    "elb/1.log.gz",
                    "08:02:00",
                    gzip("GET /health 200\n").length)
                .replace("\"s3\"", "\"minio\""));
    assertThat(s3.requests())
        .containsExactly(
            FIRST_LISTING,
            "GET /logs/app/1.jsonl",
            "GET /lb-logs?list-type=2&prefix=elb%2F&max-keys=1000",
            "GET /lb-logs/elb/1.log.gz");
  }

  @Test
  void aDeniedBucketIsNotRetriedAndQuotesS3sCodeWithoutTheKeys() {
    s3.bucket("logs").deny("logs");
    RestConnection connection = store("bucket: logs, prefix: app/", "");

    assertThatThrownBy(() -> tick(connection, "json", Optional.empty()))
        .hasMessageContaining("answered 403")
        .hasMessageContaining("AccessDenied: Access Denied")
        .hasMessageNotContaining(SECRET);
    assertThat(s3.requests()).containsExactly(FIRST_LISTING);
  }

  @Test
  void aSlowDownIsTriedAgainAndTheObjectLandsOnce() throws Exception {
    s3.put("logs", "app/1.log", "hello\n", at("08:01:00")).slowDownNext("logs", "app/1.log", 1);

    RecordingSink sink = tick(store("bucket: logs, prefix: app/", ""), "text", Optional.empty());

    assertThat(sink.records())
        .containsExactly(row("\"line\":\"hello\"", "logs", "app/1.log", "08:01:00", 6));
    assertThat(s3.objectsRead()).containsExactly("logs/app/1.log", "logs/app/1.log");
    assertThat(sink.checkpoint()).contains(new WindowMark(NOW));
  }

  @Test
  void theProbeListsOneKeyOfTheFirstUnitsBucketSigned() throws Exception {
    s3.put("logs", "app/1.log", "hello\n", at("08:01:00"));
    RestConnection connection =
        store("provider: s3", "units: {app: {endpoint: text, vars: {bucket: logs, prefix: app/}}}");

    Optional<ProbeOutcome> outcome = RestFixture.probe(connection);

    String probe = "/logs?list-type=2&prefix=app%2F&max-keys=1";
    assertThat(outcome).contains(RestFixture.answeredOk(s3.url() + probe));
    assertThat(s3.requests()).containsExactly("GET " + probe);
    assertThat(s3.refused()).isEmpty();
  }
}
