package dfe.fetcher.runtime.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dfe.fetcher.core.envelope.UuidV7Generator;
import dfe.fetcher.core.oversize.OversizePolicy;
import dfe.fetcher.core.row.Mark;
import dfe.fetcher.core.row.Shape;
import dfe.fetcher.core.row.UnitSpec;
import dfe.fetcher.file.tail.FileTailSource;
import dfe.fetcher.file.tail.FileTailSpec;
import dfe.fetcher.runtime.cursor.FileCursorStore;
import dfe.fetcher.runtime.dlq.DeadLetterQueue;
import dfe.fetcher.runtime.metrics.FetcherMetrics;
import dfe.fetcher.runtime.tick.BatchLimits;
import dfe.fetcher.runtime.tick.BoundUnit;
import dfe.fetcher.runtime.tick.RowFilterStage;
import dfe.fetcher.runtime.tick.TickContext;
import dfe.fetcher.runtime.tick.TickOutcome;
import dfe.fetcher.runtime.tick.UnitRunner;
import dfe.fetcher.source.SourceMetrics;
import dfe.fetcher.testkit.LocalKafka;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A file tail unit landing on a real KRaft broker while the file is written and rotated: every line
 * arrives exactly once, in the order it was written.
 */
class KafkaFileTailTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String TOPIC = "logs_land";
  private static LocalKafka kafka;

  @TempDir Path directory;

  @BeforeAll
  static void startKafka() throws Exception {
    kafka = LocalKafka.start();
    kafka.createTopic(TOPIC, 1, Map.of());
    kafka.createTopic("dlq", 1, Map.of());
  }

  @AfterAll
  static void stopKafka() throws Exception {
    kafka.close();
  }

  private static void append(Path file, int from, int to) throws IOException {
    StringBuilder lines = new StringBuilder();
    for (int i = from; i < to; i++) {
      lines.append("{\"n\":").append(i).append("}\n");
    }
    Files.writeString(
        file, lines, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
  }

  @Test
  void linesAppendedAndRotatedWhileTailingLandOnKafkaOnceEachInOrder() throws Exception {
    Path log = Files.createDirectories(directory.resolve("logs")).resolve("app.log");
    KafkaTransport transport =
        new KafkaTransport(
            kafka.bootstrapServers(),
            Map.of(),
            OversizePolicy.DEFAULT.maxRecordBytes(),
            TopicCreation.OFF);
    UnitRunner runner =
        new UnitRunner(
            new TickContext(
                transport,
                Optional.of(new DeadLetterQueue("dlq", Clock.systemUTC())),
                OversizePolicy.DEFAULT,
                new BatchLimits(100, 1 << 20, 50),
                new FileCursorStore(directory.resolve("state"), Clock.systemUTC()),
                new FetcherMetrics(),
                Clock.systemUTC(),
                new UuidV7Generator(),
                () -> false));
    FileTailSpec spec = new FileTailSpec(List.of(log.toString()), directory);
    FileTailSource source =
        new FileTailSource(spec, Clock.systemUTC(), SourceMetrics.NONE, "logs.app");
    BoundUnit unit =
        new BoundUnit(
            new UnitSpec("logs", "app", Shape.TAIL, Optional.empty()),
            TOPIC,
            "logs",
            source,
            "test.logs.app",
            () -> RowFilterStage.KEEP_ALL,
            Optional.of(Mark.Kind.FILE_TAIL));
    List<TickOutcome> failures = new CopyOnWriteArrayList<>();
    ScheduledExecutorService ticks = Executors.newSingleThreadScheduledExecutor();
    try {
      ticks.scheduleWithFixedDelay(
          () -> {
            TickOutcome outcome = runner.runTick(unit);
            if (!(outcome instanceof TickOutcome.Succeeded)) {
              failures.add(outcome);
            }
          },
          0,
          20,
          TimeUnit.MILLISECONDS);
      for (int chunk = 0; chunk < 10; chunk++) {
        append(log, chunk * 100, chunk * 100 + 100);
        if (chunk == 4) {
          Files.move(log, directory.resolve("logs/app.log.1")); // rotate by rename mid-stream
        }
        if (chunk == 7) {
          Files.copy(log, directory.resolve("logs/app.log.2"));
          Files.write(log, new byte[0], StandardOpenOption.TRUNCATE_EXISTING); // copytruncate
        }
        int landedAtLeast = chunk * 100 + (chunk == 4 || chunk == 7 ? 100 : 0);
        await()
            .atMost(Duration.ofSeconds(30))
            .until(() -> numbers().size() >= Math.min(landedAtLeast, 800));
      }
      await().atMost(Duration.ofSeconds(30)).until(() -> numbers().size() >= 1000);
    } finally {
      ticks.shutdown();
      assertThat(ticks.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
      source.close();
      transport.close();
    }

    List<Integer> expected = new ArrayList<>();
    for (int i = 0; i < 1000; i++) {
      expected.add(i);
    }
    assertThat(failures).isEmpty();
    assertThat(numbers()).containsExactlyElementsOf(expected);
  }

  private static List<Integer> numbers() throws IOException {
    List<Integer> numbers = new ArrayList<>();
    for (ConsumerRecord<byte[], byte[]> record : kafka.readAll(TOPIC)) {
      JsonNode value = JSON.readTree(record.value());
      numbers.add(value.get("n").asInt());
    }
    return numbers;
  }
}
