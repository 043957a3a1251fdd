package dfe.fetcher.rest;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import dfe.fetcher.core.row.Cancellation;
import dfe.fetcher.core.row.Mark;
import dfe.fetcher.core.row.WindowMark;
import dfe.fetcher.source.OpenConnection;
import dfe.fetcher.source.SourceMetrics;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A window holding more records than {@code max_pages} pages: successive ticks make progress and
 * every record lands at least once, whether the API takes only a lower bound (GitHub's {@code
 * since}, ordered by it) or both bounds.
 */
class WindowLargerThanMaxPagesTest {

  private static final Instant NOW = Instant.parse("2026-12-01T08:00:00Z");
  private static final int RECORDS = 95;
  private static final int PAGE_SIZE = 10;

  private ApiServer server;
  private final MutableClock clock = new MutableClock(NOW);

  /** Record {@code i} was updated at {@code updated.get(i)}; two records share each second. */
  private final List<Instant> updated = new ArrayList<>();

  @BeforeEach
  void start() throws Exception {
    server = new ApiServer();
    Instant first = NOW.minus(Duration.ofHours(2));
    for (int i = 0; i < RECORDS; i++) {
      updated.add(first.plusSeconds(i / 2));
    }
    server.on("/repos/acme/fetcher/issues", this::answer);
    server.on("/events", this::answer);
  }

  @AfterEach
  void stop() {
    server.close();
  }

  /**
   * GitHub's list: {@code since} inclusive, {@code until} (when sent) exclusive, ordered by update
   * time, {@code per_page} a page, the next page in a {@code Link} header.
   */
  private void answer(HttpExchange exchange) throws IOException {
    Map<String, String> query = query(exchange.getRequestURI().getRawQuery());
    Instant since = Instant.parse(query.get("since"));
    Instant until = query.containsKey("until") ? Instant.parse(query.get("until")) : Instant.MAX;
    int perPage = Integer.parseInt(query.get("per_page"));
    int page = Integer.parseInt(query.getOrDefault("page", "1"));
    List<String> matching = new ArrayList<>();
    for (int i = 0; i < updated.size(); i++) {
      Instant at = updated.get(i);
      if (!at.isBefore(since) && at.isBefore(until)) {
        matching.add("{\"id\":" + i + ",\"updated_at\":\"" + at + "\"}");
      }
    }
    int from = Math.min(matching.size(), (page - 1) * perPage);
    int to = Math.min(matching.size(), page * perPage);
    List<String> headers = new ArrayList<>();
    if (to < matching.size()) {
      query.put("page", Integer.toString(page + 1));
      StringBuilder next = new StringBuilder(server.url() + exchange.getRequestURI().getRawPath());
      String separator = "?";
      for (Map.Entry<String, String> param : query.entrySet()) {
        next.append(separator).append(param.getKey()).append('=').append(param.getValue());
        separator = "&";
      }
      headers.add("Link");
      headers.add("<" + next + ">; rel=\"next\"");
    }
    ApiServer.ok(
            "[" + String.join(",", matching.subList(from, to)) + "]",
            headers.toArray(String[]::new))
        .answer(exchange);
  }

  private static Map<String, String> query(String raw) {
    Map<String, String> query = new TreeMap<>();
    for (String part : raw.split("&")) {
      int equals = part.indexOf('=');
      query.put(
          part.substring(0, equals),
          URLDecoder.decode(part.substring(equals + 1), StandardCharsets.UTF_8));
    }
    return query;
  }

  private static Set<Integer> ids(RecordingSink sink) {
    Set<Integer> ids = new HashSet<>();
    for (String record : sink.records()) {
      ids.add(Integer.parseInt(record.substring(6, record.indexOf(','))));
    }
    return ids;
  }

  /** Ticks until a tick ends at the window's end, each tick from the mark the last committed. */
  private Set<Integer> tickUntilCaughtUp(OpenConnection open, String unit, Instant end)
      throws Exception {
    Set<Integer> landed = new HashSet<>();
    Optional<Mark> checkpoint = Optional.empty();
    for (int tick = 1; tick <= 20; tick++) {
      RecordingSink sink = new RecordingSink();
      open.source(unit).read(checkpoint, sink, new Cancellation());
      landed.addAll(ids(sink));
      Optional<Mark> committed = sink.checkpoint();
      assertThat(committed).as("tick %d commits a mark", tick).isPresent();
      if (checkpoint.isPresent()) {
        assertThat(((WindowMark) committed.get()).end())
            .as("tick %d moves on", tick)
            .isAfter(((WindowMark) checkpoint.get()).end());
      }
      checkpoint = committed;
      if (checkpoint.get().equals(new WindowMark(end))) {
        return landed;
      }
    }
    throw new AssertionError("20 ticks did not catch up; at " + checkpoint);
  }

  @Test
  void aSinceOnlyWindowOverMaxPagesCommitsTheLastRecordsTimeAndTheNextTickGoesOn()
      throws Exception {
    RestConnection connection =
        RestFixture.connection(
            """
            topic: github
            profile: github-issues
            vars: {api_url: "%s", owner: acme, repo: fetcher}
            auth: {mode: none}
            units: {issues: {max_pages: 3, lookback: 3h, query: {per_page: "%d"}}}
            """
                .formatted(server.url(), PAGE_SIZE));

    try (OpenConnection open = RestFixture.open(connection, clock, SourceMetrics.NONE)) {
      Set<Integer> landed = tickUntilCaughtUp(open, "issues", NOW);

      assertThat(landed).hasSize(RECORDS);
    }
  }

  @Test
  void aBoundedWindowOverMaxPagesIsHalvedUntilItFits() throws Exception {
    RestConnection connection =
        RestFixture.connection(
            """
            topic: lab
            profile:
              base_url: "%s"
              retry: {max_retries: 0}
              endpoints:
                - unit: events
                  shape: tail
                  path: /events
                  query: {since: "{{ window.start }}", until: "{{ window.end }}", per_page: "%d"}
                  rows: {decoder: json_array}
                  paginate: {type: link_header}
                  max_pages: 3
                  window: {format: rfc3339_secs, lookback: 3h}
            """
                .formatted(server.url(), PAGE_SIZE));

    try (OpenConnection open = RestFixture.open(connection, clock, SourceMetrics.NONE)) {
      Set<Integer> landed = tickUntilCaughtUp(open, "events", NOW);

      assertThat(landed).hasSize(RECORDS);
    }
  }
}
