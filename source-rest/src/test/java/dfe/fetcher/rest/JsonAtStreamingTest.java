package dfe.fetcher.rest;

import static dfe.fetcher.rest.ApiServer.ok;
import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import dfe.fetcher.core.row.Cancellation;
import dfe.fetcher.core.row.Row;
import dfe.fetcher.source.OpenConnection;
import dfe.fetcher.source.SourceMetrics;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code json_at} streams: each row of the array at {@code rows.at} is handed on as it is read,
 * bounded by {@code max_page_bytes} alone, while the rest of the body (before or after the rows) is
 * kept for the pager, bounded too.
 */
class JsonAtStreamingTest {

  private ApiServer server;

  @BeforeEach
  void start() throws Exception {
    server = new ApiServer();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private RestConnection dump(String rows, String more) {
    return RestFixture.connection(
        """
        topic: lab
        profile:
          base_url: "%s"
          endpoints:
            - unit: assets
              shape: dump
              path: /assets
              rows: %s
        %s
        """
            .formatted(server.url(), rows, more.indent(6)));
  }

  private static void write(OutputStream out, String text) throws IOException {
    out.write(text.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void aRowIsHandedOnBeforeTheRestOfTheBodyHasArrived() throws Exception {
    CountDownLatch firstRow = new CountDownLatch(1);
    AtomicBoolean sawTheRowFirst = new AtomicBoolean();
    server.on(
        "/assets",
        (HttpExchange exchange) -> {
          exchange.getResponseHeaders().add("Content-Type", "application/json");
          exchange.sendResponseHeaders(200, 0);
          try (OutputStream out = exchange.getResponseBody()) {
            write(out, "{\"data\":[{\"id\":1},");
            out.flush();
            try {
              // A held page would only be decoded once the body ended: the wait would time out.
              sawTheRowFirst.set(firstRow.await(20, TimeUnit.SECONDS));
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
            write(out, "{\"id\":2}],\"next\":null}");
          }
        });
    RecordingSink sink =
        new RecordingSink() {
          @Override
          public void row(Row row) {
            super.row(row);
            firstRow.countDown();
          }
        };

    try (OpenConnection open =
        RestFixture.open(
            dump(
                "{decoder: json_at, at: /data}",
                "paginate: {type: cursor, from: \"body:/next\", into: \"query:c\"}"),
            Clock.systemUTC(),
            SourceMetrics.NONE)) {
      open.source("assets").read(Optional.empty(), sink, new Cancellation());
    }

    assertThat(sawTheRowFirst).isTrue();
    assertThat(sink.records()).containsExactly("{\"id\":1}", "{\"id\":2}");
    assertThat(sink.shape()).endsWith("end");
  }

  @Test
  void aPageFarLongerThanMaxPageBytesLandsWhenEachRowFitsAndItsCursorComesAfterTheRows()
      throws Exception {
    String padding = "x".repeat(100);
    StringBuilder first = new StringBuilder("{\"meta\":{\"count\":200},\"data\":[");
    for (int i = 0; i < 200; i++) {
      first.append(i == 0 ? "" : ",").append("{\"id\":").append(i).append(",\"p\":\"");
      first.append(padding).append("\"}");
    }
    first.append("],\"next\":\"c2\"}");
    server.on(
        "/assets",
        (HttpExchange exchange) ->
            (exchange.getRequestURI().getRawQuery() == null
                    ? ok(first.toString())
                    : ok("{\"data\":[{\"id\":200}],\"next\":null}"))
                .answer(exchange));

    RecordingSink sink =
        RestFixture.read(
            dump(
                "{decoder: json_at, at: /data}",
                "max_page_bytes: 1024\n"
                    + "paginate: {type: cursor, from: \"body:/next\", into: \"query:c\"}"),
            "assets");

    assertThat(first.length()).isGreaterThan(20 * 1024);
    assertThat(sink.rowCount()).isEqualTo(201);
    assertThat(sink.records().get(199)).isEqualTo("{\"id\":199,\"p\":\"" + padding + "\"}");
    assertThat(sink.shape()).endsWith("end");
    assertThat(server.paths()).containsExactly("/assets", "/assets?c=c2");
  }

  @Test
  void rowsDeeperInTheBodyKeepTheirNumbersExactAndTheFieldsAroundThemFeedThePager()
      throws Exception {
    server.on(
        "/assets",
        (HttpExchange exchange) ->
            (exchange.getRequestURI().getRawQuery() == null
                    ? ok(
                        "{\"result\":{\"before\":[1,{\"a\":true}],\"items\":[{\"id\":1,\"price\":1.50,"
                            + "\"big\":123456789012345678901234567890,\"tags\":[\"a\",null]}],"
                            + "\"page\":{\"has_more\":true,\"next\":\"n2\"}}}")
                    : ok("{\"result\":{\"page\":{\"has_more\":false},\"items\":[{\"id\":2}]}}"))
                .answer(exchange));

    RecordingSink sink =
        RestFixture.read(
            dump(
                "{decoder: json_at, at: /result/items}",
                "paginate: {type: cursor, from: \"body:/result/page/next\", into: \"query:c\","
                    + " has_more: /result/page/has_more}"),
            "assets");

    assertThat(sink.records())
        .containsExactly(
            "{\"id\":1,\"price\":1.50,\"big\":123456789012345678901234567890,"
                + "\"tags\":[\"a\",null]}",
            "{\"id\":2}");
    assertThat(sink.shape()).endsWith("end");
    assertThat(server.paths()).containsExactly("/assets", "/assets?c=n2");
  }

  @Test
  void stopWhenSeesTheBodyWithoutItsRows() throws Exception {
    server.on("/assets", ok("{\"items\":[{\"id\":1}],\"last\":true}"));

    RecordingSink sink =
        RestFixture.read(
            dump(
                "{decoder: json_at, at: /items}",
                "paginate: {type: page_number, param: p, stop_when: \"!has(body.items) &&"
                    + " body.last && rows == 1\"}"),
            "assets");

    assertThat(sink.shape()).containsExactly("begin", "row", "end");
    assertThat(server.paths()).containsExactly("/assets?p=1");
  }

  @Test
  void withFailWhenThePageIsHeldYetThePagerSeesTheSameBodyWithoutItsRows() throws Exception {
    server.on("/assets", ok("{\"ok\":true,\"items\":[{\"id\":1}],\"last\":true}"));

    RecordingSink sink =
        RestFixture.read(
            dump(
                "{decoder: json_at, at: /items}",
                "fail_when: \"body.ok == false\"\n"
                    + "paginate: {type: page_number, param: p, stop_when: \"!has(body.items) &&"
                    + " body.last\"}"),
            "assets");

    assertThat(sink.shape()).containsExactly("begin", "row", "end");
    assertThat(server.paths()).containsExactly("/assets?p=1");
  }

  @Test
  void aRowLongerThanMaxPageBytesFailsBeforeTheServerHasSentIt() throws Exception {
    AtomicLong sent = new AtomicLong();
    long huge = 50L * 1024 * 1024;
    server.on(
        "/assets",
        (HttpExchange exchange) -> {
          exchange.getResponseHeaders().add("Content-Type", "application/json");
          exchange.sendResponseHeaders(200, 0);
          byte[] field = new byte[1000];
          Arrays.fill(field, (byte) 'x');
          try (OutputStream out = exchange.getResponseBody()) {
            write(out, "{\"data\":[{\"id\":1},{\"id\":2");
            for (long i = 0; sent.get() < huge; i++) {
              write(out, ",\"f" + i + "\":\"");
              out.write(field);
              write(out, "\"");
              sent.addAndGet(field.length + 10);
            }
            write(out, "}]}");
          } catch (IOException hungUp) {
            // The client failed the page and closed the body: what it asked for.
          }
        });

    RecordingSink sink =
        RestFixture.read(
            dump("{decoder: json_at, at: /data}", "max_page_bytes: 1048576"), "assets");
    long sentWhenFailed = sent.get();

    assertThat(sink.shape()).containsExactly("begin", "row", "abort");
    assertThat(sink.abortReason())
        .hasValue(
            "lab.assets: GET "
                + server.url()
                + "/assets: /data/1 is longer than max_page_bytes 1048576");
    assertThat(sentWhenFailed).isLessThan(huge / 2);
  }

  @Test
  void aBodyBesideTheRowsLongerThanMaxPageBytesFailsThePage() throws Exception {
    server.on(
        "/assets",
        ok(
            "{\"data\":[{\"id\":1}],\"included\":["
                + "{\"k\":\"vvvvvvvvvv\"},".repeat(200)
                + "1]}"));

    RecordingSink sink =
        RestFixture.read(dump("{decoder: json_at, at: /data}", "max_page_bytes: 1024"), "assets");

    assertThat(sink.shape()).containsExactly("begin", "row", "abort");
    assertThat(sink.abortReason())
        .hasValue(
            "lab.assets: GET "
                + server.url()
                + "/assets: the body outside /data (rows.at) is longer than max_page_bytes 1024");
  }

  @Test
  void bodiesThatAreNotWhatJsonAtReadsFailNamingThePlace() throws Exception {
    Map<String, String> answers =
        Map.of(
            "{\"data\":{\"id\":1}}", ": /data is not a JSON array (rows.at)",
            "{\"data\":[{\"id\":1},2]}", ": /data/1 is not a JSON object",
            "{\"data\":[{\"id\":1}]} {\"x\":1}", ": text follows the JSON document",
            "{\"data\":[{\"id\":1},{\"id\":", ": not valid JSON after 1 rows, at byte 24",
            "", ": the body is empty, not JSON");
    for (Map.Entry<String, String> answer : answers.entrySet()) {
      server.on("/assets", ok(answer.getKey()));

      RecordingSink sink = RestFixture.read(dump("{decoder: json_at, at: /data}", ""), "assets");

      assertThat(sink.shape()).as(answer.getKey()).endsWith("abort").doesNotContain("end");
      assertThat(sink.abortReason())
          .as(answer.getKey())
          .hasValue("lab.assets: GET " + server.url() + "/assets" + answer.getValue());
    }
  }
}
