package dfe.fetcher.rest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import dfe.fetcher.core.row.Cancellation;
import dfe.fetcher.core.row.Mark;
import dfe.fetcher.core.row.SourceException;
import dfe.fetcher.core.row.WindowMark;
import dfe.fetcher.source.OpenConnection;
import dfe.fetcher.source.SourceMetrics;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class WindowsTest {

  private static final Instant T0 = Instant.parse("2026-12-01T08:00:00.250Z");

  private ApiServer server;
  private final MutableClock clock = new MutableClock(T0);

  /** The API's events: each {"id", "at"}, answered when since <= at < until. */
  private final List<Instant> events = new CopyOnWriteArrayList<>();

  private volatile boolean failing;

  @BeforeEach
  void start() throws Exception {
    server = new ApiServer();
    server.on("/events", this::answer);
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private void answer(HttpExchange exchange) throws IOException {
    if (failing) {
      ApiServer.json(500, "{}").answer(exchange);
      return;
    }
    String query =
        URLDecoder.decode(exchange.getRequestURI().getRawQuery(), StandardCharsets.UTF_8);
    Instant since = instant(param(query, "since"));
    Instant until = instant(param(query, "until"));
    List<String> rows = new ArrayList<>();
    for (int i = 0; i < events.size(); i++) {
      Instant at = events.get(i);
      if (!at.isBefore(since) && at.isBefore(until)) {
        rows.add("{\"id\":" + i + ",\"at\":\"" + at + "\"}");
      }
    }
    ApiServer.ok("{\"data\":[" + String.join(",", rows) + "]}").answer(exchange);
  }

  private static Instant instant(String text) {
    return text.matches("\\d+") ? Instant.ofEpochSecond(Long.parseLong(text)) : Instant.parse(text);
  }

  private static String param(String query, String name) {
    for (String part : query.split("&")) {
      if (part.startsWith(name + "=")) {
        return part.substring(name.length() + 1);
      }
    }
    throw new IllegalArgumentException(name);
  }

  private RestConnection events(String window) {
    return RestFixture.connection(
        """
        topic: lab
        profile:
          base_url: "%s"
          retry: {max_retries: 0}
          endpoints:
            - unit: events
              shape: tail
              path: /events
              query: {since: "{{ window.start }}", until: "{{ window.end }}"}
              rows: {decoder: json_at, at: /data}
              window: %s
        """
            .formatted(server.url(), window));
  }

  private RecordingSink tick(OpenConnection open, Optional<Mark> checkpoint) throws Exception {
    RecordingSink sink = new RecordingSink();
    open.source("events").read(checkpoint, sink, new Cancellation());
    return sink;
  }

  private List<String> windowsRequested() {
    return server.paths().stream()
        .map(p -> URLDecoder.decode(p.substring(p.indexOf('?') + 1), StandardCharsets.UTF_8))
        .toList();
  }

  @Test
  void twoTicksWithNewDataBetweenThemMissNothingAndRepeatNothing() throws Exception {
    events.add(T0.minus(Duration.ofMinutes(90))); // before the first window
    events.add(T0.minus(Duration.ofMinutes(30)));
    RestConnection connection = events("{format: rfc3339_millis, lookback: 1h}");

    try (OpenConnection open = RestFixture.open(connection, clock, SourceMetrics.NONE)) {
      RecordingSink first = tick(open, Optional.empty());
      events.add(T0.plus(Duration.ofSeconds(10)));
      events.add(T0.minusMillis(1)); // late, but inside the first window's bounds: already asked
      clock.advance(Duration.ofMinutes(5));
      RecordingSink second = tick(open, first.checkpoint());

      assertThat(first.shape()).containsExactly("row", "advance");
      assertThat(first.records()).containsExactly("{\"id\":1,\"at\":\"2026-12-01T07:30:00.250Z\"}");
      assertThat(first.checkpoint()).contains(new WindowMark(T0));
      assertThat(second.records())
          .containsExactly("{\"id\":2,\"at\":\"2026-12-01T08:00:10.250Z\"}");
      assertThat(second.checkpoint()).contains(new WindowMark(T0.plus(Duration.ofMinutes(5))));
    }
    assertThat(windowsRequested())
        .containsExactly(
            "since=2026-12-01T07:00:00.250Z&until=2026-12-01T08:00:00.250Z",
            "since=2026-12-01T08:00:00.250Z&until=2026-12-01T08:05:00.250Z");
  }

  @Test
  void anEmptyWindowStillAdvances() throws Exception {
    try (OpenConnection open =
        RestFixture.open(
            events("{format: rfc3339_secs, lookback: 10m}"), clock, SourceMetrics.NONE)) {
      RecordingSink sink = tick(open, Optional.empty());

      assertThat(sink.shape()).containsExactly("advance");
      assertThat(sink.checkpoint()).contains(new WindowMark(Instant.parse("2026-12-01T08:00:00Z")));
    }
    assertThat(windowsRequested())
        .containsExactly("since=2026-12-01T07:50:00Z&until=2026-12-01T08:00:00Z");
  }

  @Test
  void aRestartResumesFromTheCheckpoint() throws Exception {
    Optional<Mark> committed;
    try (OpenConnection open =
        RestFixture.open(
            events("{format: rfc3339_secs, lookback: 1h}"), clock, SourceMetrics.NONE)) {
      committed = tick(open, Optional.empty()).checkpoint();
    }
    clock.advance(Duration.ofMinutes(1));
    try (OpenConnection restarted =
        RestFixture.open(
            events("{format: rfc3339_secs, lookback: 1h}"), clock, SourceMetrics.NONE)) {
      tick(restarted, committed);
    }

    assertThat(windowsRequested())
        .containsExactly(
            "since=2026-12-01T07:00:00Z&until=2026-12-01T08:00:00Z",
            "since=2026-12-01T08:00:00Z&until=2026-12-01T08:01:00Z");
  }

  @Test
  void aFailedWindowCommitsNothingAndIsFetchedAgain() throws Exception {
    events.add(T0.minus(Duration.ofMinutes(1)));
    try (OpenConnection open =
        RestFixture.open(
            events("{format: rfc3339_secs, lookback: 1h}"), clock, SourceMetrics.NONE)) {
      failing = true;
      RecordingSink failed = new RecordingSink();
      assertThatThrownBy(
              () -> open.source("events").read(Optional.empty(), failed, new Cancellation()))
          .isInstanceOf(SourceException.class)
          .hasMessageContaining("answered 500");
      assertThat(failed.checkpoint()).isEmpty();

      failing = false;
      RecordingSink again = tick(open, failed.checkpoint());
      assertThat(again.records()).hasSize(1);
    }
    assertThat(windowsRequested())
        .containsExactly(
            "since=2026-12-01T07:00:00Z&until=2026-12-01T08:00:00Z",
            "since=2026-12-01T07:00:00Z&until=2026-12-01T08:00:00Z");
  }

  @Test
  void stepCutsALongWindowIntoSeveralEachCommittedAndSettleStaysBehindNow() throws Exception {
    try (OpenConnection open =
        RestFixture.open(
            events("{format: epoch_secs, lookback: 150m, step: 1h, settle: 30m}"),
            clock,
            SourceMetrics.NONE)) {
      RecordingSink sink = tick(open, Optional.empty());

      assertThat(sink.shape()).containsExactly("advance", "advance");
    }
    long end = T0.minus(Duration.ofMinutes(30)).getEpochSecond();
    long start = T0.minus(Duration.ofMinutes(150)).getEpochSecond();
    assertThat(server.paths())
        .containsExactly(
            "/events?since=" + start + "&until=" + (start + 3600),
            "/events?since=" + (start + 3600) + "&until=" + end);
  }

  /** A tail unit paging {@code /pages} by its {@code Link} headers, with {@code setting} added. */
  private RestConnection linkPagedWindow(String setting) {
    return RestFixture.connection(
        """
        topic: lab
        profile:
          base_url: "%s"
          endpoints:
            - unit: events
              shape: tail
              path: /pages
              query: {since: "{{ window.start }}"}
              rows: {decoder: json_at, at: /data}
              paginate: {type: link_header}
              window: {format: epoch_secs, lookback: 1h}
              %s
        """
            .formatted(server.url(), setting));
  }

  @Test
  void aWindowCutAtMaxPagesFailsTheTickAndCommitsNothing() throws Exception {
    // A new row on each page (the same page again would be a loop, which fails first).
    server.on(
        "/pages",
        exchange -> {
          long n = System.nanoTime();
          ApiServer.ok(
                  "{\"data\":[{\"id\":" + n + "}]}", "Link", "</pages?n=" + n + ">; rel=\"next\"")
              .answer(exchange);
        });
    RestConnection connection = linkPagedWindow("max_pages: 2");
    RecordingSink sink = new RecordingSink();

    try (OpenConnection open = RestFixture.open(connection, clock, SourceMetrics.NONE)) {
      assertThatThrownBy(
              () -> open.source("events").read(Optional.empty(), sink, new Cancellation()))
          .isInstanceOf(SourceException.class)
          .hasMessageContaining("reached max_pages 2 with more to read");
    }
    assertThat(sink.shape()).containsExactly("row", "row");
    assertThat(sink.checkpoint()).isEmpty();
  }

  @Test
  void aWindowWhosePagesGoRoundUnderNewUrlsFailsAndCommitsNothing() throws Exception {
    server.on(
        "/pages",
        exchange ->
            ApiServer.ok(
                    "{\"data\":[{\"id\":1}]}",
                    "Link",
                    "</pages?n=" + System.nanoTime() + ">; rel=\"next\"")
                .answer(exchange));
    RestConnection connection = linkPagedWindow("");
    RecordingSink sink = new RecordingSink();

    try (OpenConnection open = RestFixture.open(connection, clock, SourceMetrics.NONE)) {
      assertThatThrownBy(
              () -> open.source("events").read(Optional.empty(), sink, new Cancellation()))
          .isInstanceOf(SourceException.class)
          .hasMessageContaining("pagination loops: page 2 (GET " + server.url() + "/pages?n=")
          .hasMessageContaining(
              "holds the same rows as page 1 (GET " + server.url() + "/pages?since=")
          .hasMessageEndingWith(
              "under another URL; the listing went round, so this window is not complete");
    }
    assertThat(sink.shape()).containsExactly("row", "row");
    assertThat(sink.checkpoint()).isEmpty();
    assertThat(server.requests()).hasSize(2);
  }
}
