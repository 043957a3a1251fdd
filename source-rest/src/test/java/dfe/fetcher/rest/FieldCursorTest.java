package dfe.fetcher.rest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import dfe.fetcher.core.row.Cancellation;
import dfe.fetcher.core.row.FieldCursorMark;
import dfe.fetcher.core.row.Mark;
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
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code window.cursor_at}: a record-field cursor against a local API that filters by a lower bound
 * only ({@code since}, inclusive), newest first, so every tick lists again what the last one
 * landed. What lands, what the checkpoint holds and which bound each request asks are asserted
 * exactly.
 */
class FieldCursorTest {

  private static final Instant T0 = Instant.parse("2026-12-01T08:00:00Z");

  @AutoClose private final ApiServer server = ApiServer.started();
  private final MutableClock clock = new MutableClock(T0);

  /** The API's events, each {"id", "at"}: answered when at >= since, newest first. */
  private final List<String[]> events = new CopyOnWriteArrayList<>();

  @BeforeEach
  void start() throws Exception {
    server.on("/events", this::answer);
  }

  private void answer(HttpExchange exchange) throws IOException {
    String raw = exchange.getRequestURI().getRawQuery();
    Instant since =
        raw == null
            ? Instant.EPOCH
            : Instant.parse(
                URLDecoder.decode(raw, StandardCharsets.UTF_8).replaceFirst("^since=", ""));
    List<String> rows = new ArrayList<>();
    for (String[] event : events) {
      if (!Instant.parse(event[1]).isBefore(since)) {
        rows.add(0, "{\"id\":\"" + event[0] + "\",\"at\":\"" + event[1] + "\"}");
      }
    }
    ApiServer.ok("{\"data\":[" + String.join(",", rows) + "]}").answer(exchange);
  }

  private void event(String id, Instant at) {
    events.add(new String[] {id, at.toString()});
  }

  private RestConnection events(String query, String rowKey, String window) {
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
              query: %s
              rows: {decoder: json_at, at: /data}
              %s
              max_pages: 1
              window: %s
        """
            .formatted(server.url(), query, rowKey, window));
  }

  private RestConnection sinceOnly(String window) {
    return events("{since: \"{{ window.start }}\"}", "row_key: /id", window);
  }

  private RecordingSink tick(OpenConnection open, Optional<Mark> checkpoint) throws Exception {
    RecordingSink sink = new RecordingSink();
    open.source("events").read(checkpoint, sink, new Cancellation());
    return sink;
  }

  private static String row(String id, Instant at) {
    return "{\"id\":\"" + id + "\",\"at\":\"" + at + "\"}";
  }

  @Test
  void aSinceOnlyApiListingAgainWhatLandedLandsOnlyWhatIsNewOrLate() throws Exception {
    Instant a = T0.minus(Duration.ofMinutes(30));
    Instant b = T0.plus(Duration.ofMinutes(1)); // past the window's end: such an API lists it
    event("a", a);
    event("b", b);
    event("old", T0.minus(Duration.ofHours(2)));
    RestConnection connection =
        sinceOnly("{format: rfc3339_secs, lookback: 1h, cursor_at: /at, cursor_lookback: 5m}");

    try (OpenConnection open = RestFixture.open(connection, clock, SourceMetrics.NONE)) {
      RecordingSink first = tick(open, Optional.empty());
      Instant c = T0.plus(Duration.ofMinutes(3));
      Instant late = b.minus(Duration.ofMinutes(2)); // indexed late, within the lookback
      Instant tooLate = b.minus(Duration.ofMinutes(10)); // older than the lookback: not asked
      event("c", c);
      event("late", late);
      event("too-late", tooLate);
      clock.advance(Duration.ofMinutes(5));
      RecordingSink second = tick(open, first.checkpoint());
      clock.advance(Duration.ofMinutes(5));
      RecordingSink third = tick(open, second.checkpoint());

      assertThat(first.records()).containsExactly(row("b", b), row("a", a));
      assertThat(first.shape()).containsExactly("row", "row", "advance");
      assertThat(first.checkpoint())
          .contains(new FieldCursorMark(b, List.of(new FieldCursorMark.Landed("b", b))));
      assertThat(second.records()).containsExactly(row("late", late), row("c", c));
      assertThat(second.checkpoint())
          .contains(
              new FieldCursorMark(
                  c,
                  List.of(
                      new FieldCursorMark.Landed("late", late),
                      new FieldCursorMark.Landed("b", b),
                      new FieldCursorMark.Landed("c", c))));
      assertThat(third.records()).isEmpty();
      assertThat(third.checkpoint()).isEqualTo(second.checkpoint());
    }
    assertThat(server.paths())
        .containsExactly(
            "/events?since=2026-12-01T07%3A00%3A00Z",
            "/events?since=2026-12-01T07%3A56%3A00Z", "/events?since=2026-12-01T07%3A58%3A00Z");
  }

  @Test
  void aRecordListedAgainWithALaterTimeIsAChangeAndLands() throws Exception {
    Instant first = T0.minus(Duration.ofMinutes(10));
    event("a", first);
    RestConnection connection = sinceOnly("{format: rfc3339_secs, lookback: 1h, cursor_at: /at}");

    try (OpenConnection open = RestFixture.open(connection, clock, SourceMetrics.NONE)) {
      RecordingSink one = tick(open, Optional.empty());
      events.clear();
      Instant updated = T0.minus(Duration.ofMinutes(1));
      event("a", updated);
      RecordingSink two = tick(open, one.checkpoint());

      assertThat(one.records()).containsExactly(row("a", first));
      assertThat(two.records()).containsExactly(row("a", updated));
      assertThat(two.checkpoint())
          .contains(
              new FieldCursorMark(updated, List.of(new FieldCursorMark.Landed("a", updated))));
    }
  }

  @Test
  void anApiWithNoTimeFilterAndNoRowKeyIsDedupedByTheRecordsDigest() throws Exception {
    event("a", T0.minus(Duration.ofMinutes(10)));
    event("b", T0.minus(Duration.ofMinutes(10)));
    RestConnection connection =
        events("{}", "", "{format: rfc3339_secs, lookback: 1h, cursor_at: /at}");

    try (OpenConnection open = RestFixture.open(connection, clock, SourceMetrics.NONE)) {
      RecordingSink one = tick(open, Optional.empty());
      event("c", T0.minus(Duration.ofMinutes(10))); // the same time as the greatest, not landed
      RecordingSink two = tick(open, one.checkpoint());

      assertThat(one.records()).hasSize(2);
      assertThat(two.records()).containsExactly(row("c", T0.minus(Duration.ofMinutes(10))));
      FieldCursorMark mark = (FieldCursorMark) two.checkpoint().orElseThrow();
      assertThat(mark.near()).hasSize(3).allMatch(l -> l.key().startsWith("sha256:"));
    }
    assertThat(server.paths()).containsExactly("/events", "/events");
  }

  @Test
  void aFirstTickWithNoRecordCommitsItsStartSoTheNextAsksFromThere() throws Exception {
    RestConnection connection =
        sinceOnly("{format: rfc3339_secs, lookback: 1h, cursor_at: /at, cursor_lookback: 5m}");

    try (OpenConnection open = RestFixture.open(connection, clock, SourceMetrics.NONE)) {
      RecordingSink one = tick(open, Optional.empty());
      clock.advance(Duration.ofHours(3));
      tick(open, one.checkpoint());

      assertThat(one.shape()).containsExactly("advance");
      assertThat(one.checkpoint())
          .contains(new FieldCursorMark(T0.minus(Duration.ofHours(1)), List.of()));
    }
    assertThat(server.paths())
        .containsExactly(
            "/events?since=2026-12-01T07%3A00%3A00Z", "/events?since=2026-12-01T06%3A55%3A00Z");
  }

  @Test
  void aRecordWithoutTheFieldFailsTheTickNamingItsPlaceAndAdvancesNothing() throws Exception {
    server.on("/events", ApiServer.ok("{\"data\":[{\"id\":\"a\",\"secret\":\"s3cr3t\"}]}"));
    RestConnection connection = sinceOnly("{format: rfc3339_secs, lookback: 1h, cursor_at: /at}");
    RecordingSink sink = new RecordingSink();

    try (OpenConnection open = RestFixture.open(connection, clock, SourceMetrics.NONE)) {
      assertThatThrownBy(
              () -> open.source("events").read(Optional.empty(), sink, new Cancellation()))
          .hasMessageStartingWith(
              "lab.events: sources.rest.lab.profile.endpoints[0].window.cursor_at:")
          .hasMessageContaining("a record (")
          .hasMessageContaining("has no text or whole number at /at")
          .hasMessageNotContaining("s3cr3t");
    }
    assertThat(sink.shape()).isEmpty();
  }

  @Test
  void aListingCutShortAtMaxPagesFailsTheTick() throws Exception {
    server.on(
        "/events",
        ApiServer.ok(
            "{\"data\":[" + row("a", T0) + "]}",
            "Link",
            "<" + server.url() + "/events?page=2>; rel=\"next\""));
    RestConnection connection =
        RestFixture.connection(
            """
            topic: lab
            profile:
              base_url: "%s"
              endpoints:
                - unit: events
                  shape: tail
                  path: /events
                  rows: {decoder: json_at, at: /data}
                  paginate: {type: link_header}
                  max_pages: 1
                  window: {format: rfc3339_secs, lookback: 1h, cursor_at: /at}
            """
                .formatted(server.url()));
    RecordingSink sink = new RecordingSink();

    try (OpenConnection open = RestFixture.open(connection, clock, SourceMetrics.NONE)) {
      assertThatThrownBy(
              () -> open.source("events").read(Optional.empty(), sink, new Cancellation()))
          .hasMessageContaining("max_pages")
          .hasMessageContaining("a record-field cursor commits only a listing read to its end");
    }
    assertThat(sink.shape()).doesNotContain("advance");
  }

  @Test
  void cursorAtIsRefusedBesidePositionAtOrStepAndItsLookbackAlone() {
    assertThat(
            RestFixture.problems(
                """
                topic: lab
                profile:
                  base_url: "http://127.0.0.1:1"
                  endpoints:
                    - unit: a
                      shape: tail
                      path: /a
                      rows: {decoder: json_array}
                      window: {format: rfc3339_secs, lookback: 1h, cursor_at: /at, position_at: /at, step: 10m}
                    - unit: b
                      shape: tail
                      path: /b
                      query: {since: "{{ window.start }}"}
                      rows: {decoder: json_array}
                      window: {format: rfc3339_secs, lookback: 1h, cursor_lookback: 5m}
                """))
        .anySatisfy(p -> assertThat(p).contains("cursor_at: does not combine with position_at"))
        .anySatisfy(p -> assertThat(p).contains("cursor_at: does not combine with step"))
        .anySatisfy(p -> assertThat(p).contains("cursor_lookback: is read only with cursor_at"))
        .hasSize(3);
  }
}
