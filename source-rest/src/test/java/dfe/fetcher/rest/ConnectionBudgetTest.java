package dfe.fetcher.rest;

import static dfe.fetcher.rest.ApiServer.ok;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dfe.fetcher.core.row.Cancellation;
import dfe.fetcher.source.OpenConnection;
import dfe.fetcher.source.SourceMetrics;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * An instance's {@code rate} and {@code max_concurrent_requests} hold for all its units together,
 * as the server sees it: the arrival times of their requests and how many it held at once.
 */
class ConnectionBudgetTest {

  private ApiServer server;
  private CapturedLogs logs;
  private final ConcurrentLinkedQueue<Long> arrivals = new ConcurrentLinkedQueue<>();
  private final AtomicInteger inFlight = new AtomicInteger();
  private final AtomicInteger mostInFlight = new AtomicInteger();
  private final CountDownLatch release = new CountDownLatch(1);

  @BeforeEach
  void start() throws Exception {
    server = new ApiServer();
    logs = new CapturedLogs();
  }

  @AfterEach
  void stop() {
    release.countDown();
    logs.close();
    server.close();
  }

  private RestConnection twoUnits(String budget) {
    return RestFixture.connection(
        """
        topic: lab
        %s
        profile:
          base_url: "%s"
          endpoints:
            - {unit: a, shape: dump, path: /a, rows: {decoder: json_array},
               paginate: {type: link_header}}
            - {unit: b, shape: dump, path: /b, rows: {decoder: json_array},
               paginate: {type: link_header}}
        """
            .formatted(budget, server.url()));
  }

  /** Records when each request arrived, then answers as {@code answer} does. */
  private ApiServer.Answer timed(ApiServer.Answer answer) {
    return exchange -> {
      arrivals.add(System.nanoTime());
      answer.answer(exchange);
    };
  }

  /** Counts the requests held at once while {@code release} holds them back. */
  private ApiServer.Answer held(String body) {
    return exchange -> {
      mostInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
      try {
        if (!release.await(30, TimeUnit.SECONDS)) {
          throw new IOException("not released");
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } finally {
        inFlight.decrementAndGet();
      }
      ok(body).answer(exchange);
    };
  }

  /** Three pages on {@code path}: {@code path}, {@code path}/2, {@code path}/3. */
  private void threePages(String path) {
    server.on(
        path, timed(ok("[{\"id\":1}]", "Link", "<" + server.url() + path + "/2>; rel=\"next\"")));
    server.on(
        path + "/2",
        timed(ok("[{\"id\":2}]", "Link", "<" + server.url() + path + "/3>; rel=\"next\"")));
    server.on(path + "/3", timed(ok("[{\"id\":3}]")));
  }

  private static CompletableFuture<Object> readInBackground(
      OpenConnection open, String unit, RecordingSink sink, Cancellation cancellation) {
    return CompletableFuture.supplyAsync(
        () -> {
          try {
            open.source(unit).read(Optional.empty(), sink, cancellation);
            return sink;
          } catch (Exception e) {
            return e;
          }
        });
  }

  /** The gaps between consecutive arrivals, in milliseconds, in the order they came. */
  private List<Long> gapsMillis() {
    List<Long> sorted = arrivals.stream().sorted().toList();
    List<Long> gaps = new ArrayList<>();
    for (int i = 1; i < sorted.size(); i++) {
      gaps.add(TimeUnit.NANOSECONDS.toMillis(sorted.get(i) - sorted.get(i - 1)));
    }
    return gaps;
  }

  @Test
  void twoUnitsTogetherStayUnderTheConnectionsRate() throws Exception {
    threePages("/a");
    threePages("/b");
    RestConnection connection = twoUnits("rate: {requests_per_sec: 5, burst: 1}");
    RecordingSink a = new RecordingSink();
    RecordingSink b = new RecordingSink();

    try (OpenConnection open =
        RestFixture.open(connection, Clock.systemUTC(), SourceMetrics.NONE)) {
      CompletableFuture<Object> readA = readInBackground(open, "a", a, new Cancellation());
      CompletableFuture<Object> readB = readInBackground(open, "b", b, new Cancellation());
      assertThat(readA.get(20, TimeUnit.SECONDS)).isSameAs(a);
      assertThat(readB.get(20, TimeUnit.SECONDS)).isSameAs(b);
    }

    assertThat(a.shape()).containsExactly("begin", "row", "row", "row", "end");
    assertThat(b.shape()).containsExactly("begin", "row", "row", "row", "end");
    assertThat(arrivals).hasSize(6);
    // One request per 200 ms for both units together (1 s for the six; unbudgeted, they take a
    // few ms), with slack for a first request that waits for its connection to open.
    List<Long> gaps = gapsMillis();
    assertThat(gaps.stream().mapToLong(Long::longValue).sum()).isGreaterThanOrEqualTo(700);
    for (int i = 0; i + 1 < gaps.size(); i++) {
      assertThat(gaps.get(i) + gaps.get(i + 1)).as("gaps " + gaps).isGreaterThanOrEqualTo(250);
    }
  }

  @Test
  void aBurstGoesAtOnceAndTheRestAtTheRate() throws Exception {
    threePages("/a");
    threePages("/b");
    // 0.5 a second: spaced out, the six requests would take 10 s; a burst of 4 sends four at once.
    RestConnection connection = twoUnits("rate: {requests_per_sec: 0.5, burst: 4}");
    Cancellation cancellation = new Cancellation();

    try (OpenConnection open =
        RestFixture.open(connection, Clock.systemUTC(), SourceMetrics.NONE)) {
      readInBackground(open, "a", new RecordingSink(), cancellation);
      readInBackground(open, "b", new RecordingSink(), cancellation);
      await().atMost(Duration.ofSeconds(10)).until(() -> arrivals.size() == 4);
      List<Long> gaps = gapsMillis();
      cancellation.cancel("stopping");

      assertThat(gaps.stream().mapToLong(Long::longValue).sum()).isLessThan(1500);
    }
    assertThat(arrivals).hasSize(4);
  }

  @Test
  void twoUnitsTogetherNeverHoldMoreThanMaxConcurrentRequests() throws Exception {
    server.on("/a", held("[{\"id\":1}]"));
    server.on("/b", held("[{\"id\":2}]"));
    RestConnection connection = twoUnits("max_concurrent_requests: 1");
    RecordingSink a = new RecordingSink();
    RecordingSink b = new RecordingSink();

    try (OpenConnection open =
        RestFixture.open(connection, Clock.systemUTC(), SourceMetrics.NONE)) {
      CompletableFuture<Object> readA = readInBackground(open, "a", a, new Cancellation());
      await().atMost(Duration.ofSeconds(10)).until(() -> server.paths().size() == 1);
      CompletableFuture<Object> readB = readInBackground(open, "b", b, new Cancellation());
      await()
          .atMost(Duration.ofSeconds(10))
          .until(
              () ->
                  logs.texts().stream()
                      .anyMatch(
                          line ->
                              line.startsWith(
                                  "event=rest_request_queued unit=lab.b connection=lab")));
      assertThat(server.paths()).containsExactly("/a");
      release.countDown();

      assertThat(readA.get(20, TimeUnit.SECONDS)).isSameAs(a);
      assertThat(readB.get(20, TimeUnit.SECONDS)).isSameAs(b);
    }

    assertThat(server.paths()).containsExactly("/a", "/b");
    assertThat(mostInFlight).hasValue(1);
    assertThat(a.shape()).containsExactly("begin", "row", "end");
    assertThat(b.shape()).containsExactly("begin", "row", "end");
  }

  @Test
  void aStopWhileWaitingForASlotEndsTheReadAtOnce() throws Exception {
    server.on("/a", held("[]"));
    server.on("/b", held("[]"));
    RestConnection connection = twoUnits("max_concurrent_requests: 1");
    Cancellation stopB = new Cancellation();

    try (OpenConnection open =
        RestFixture.open(connection, Clock.systemUTC(), SourceMetrics.NONE)) {
      readInBackground(open, "a", new RecordingSink(), new Cancellation());
      await().atMost(Duration.ofSeconds(10)).until(() -> server.paths().size() == 1);
      CompletableFuture<Object> readB = readInBackground(open, "b", new RecordingSink(), stopB);
      await()
          .atMost(Duration.ofSeconds(10))
          .until(() -> logs.texts().stream().anyMatch(l -> l.contains("rest_request_queued")));
      stopB.cancel("stopping");

      assertThat(readB.get(5, TimeUnit.SECONDS)).isInstanceOf(InterruptedException.class);
      assertThat(server.paths()).containsExactly("/a");
      release.countDown();
    }
  }
}
