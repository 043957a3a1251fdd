package dfe.fetcher.app.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dfe.fetcher.testkit.LocalKafka;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Queue;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A kill -9 campaign for tail units: a writer appends numbered lines to three files (one rotated by
 * rename, one by copytruncate, one never) while {@code dfe-fetcher run} follows them onto Kafka and
 * is killed with SIGKILL at seeded points and started again. Then every line the writer wrote must
 * be on the topic at least once, unaltered and whole, and each file's lines in the order they were
 * written, counted by first appearance (a line may land again after a kill, never be lost).
 *
 * <p>{@code -Ddfe.kill.rounds} (default 5, for CI; run the campaign with 20 or more), {@code
 * -Ddfe.kill.seed} and {@code -Ddfe.kill.lines_per_second} size it; a failure names the seed.
 */
class TailKillTest {

  private static final String TOPIC = "logs_land";
  private static final List<String> STREAMS = List.of("a", "b", "c");
  private static final int ROUNDS = Integer.getInteger("dfe.kill.rounds", 5);
  private static final long SEED = Long.getLong("dfe.kill.seed", System.nanoTime());
  private static final int LINES_PER_SECOND = Integer.getInteger("dfe.kill.lines_per_second", 600);
  private static final ObjectMapper JSON = new ObjectMapper();

  private static LocalKafka kafka;

  @TempDir Path directory;

  @BeforeAll
  static void start() throws Exception {
    kafka = LocalKafka.start();
  }

  @AfterAll
  static void stop() throws Exception {
    kafka.close();
  }

  @Test
  void killedAtSeededPointsTheTailLandsEveryLineAtLeastOnceInOrderPerFile() throws Exception {
    kafka.createTopic(TOPIC, 1, Map.of());
    Path logs = Files.createDirectories(directory.resolve("logs"));
    Path config = config();
    Random random = new Random(SEED);
    String seed = "seed " + SEED + " (-Ddfe.kill.seed=" + SEED + ")";
    System.out.printf("tail-kill: rounds=%d %s%n", ROUNDS, seed);

    Writer writer = new Writer(logs, new Random(random.nextLong()));
    Thread writing = new Thread(writer, "tail-kill-writer");
    writing.start();
    try {
      long landed = 0;
      for (int round = 0; round < ROUNDS; round++) {
        Path log = directory.resolve("run-" + round + ".log");
        Process fetcher = ChildFetcher.run(directory, config, log, List.of("-Xmx256m"));
        try {
          long before = landed;
          // Kill only once this run landed something, so every round cuts into live work.
          await()
              .atMost(Duration.ofSeconds(90))
              .pollInterval(Duration.ofMillis(20))
              .until(() -> endOffset() > before || !fetcher.isAlive());
          assertThat(fetcher.isAlive()).as("%s; log:%n%s", seed, read(log)).isTrue();
          // Rotate while the fetcher reads, so some kills fall just after a rotation.
          if (round % 3 == 1) {
            writer.rotations.add("rename");
          } else if (round % 3 == 2) {
            writer.rotations.add("copytruncate");
          }
          Thread.sleep(random.nextInt(1_500)); // a seeded kill point, not a wait for a condition
        } finally {
          fetcher.destroyForcibly(); // SIGKILL: nothing flushed, closed or committed
          assertThat(fetcher.waitFor(30, TimeUnit.SECONDS)).isTrue();
        }
        landed = endOffset();
      }
    } finally {
      writer.stop.set(true);
      writing.join(30_000);
    }
    assertThat(writer.failure.get()).as("the writer failed").isNull();
    assertThat(writer.rotated).as("both rotations happened").contains("rename", "copytruncate");

    Path log = directory.resolve("run-last.log");
    Process fetcher = ChildFetcher.run(directory, config, log, List.of("-Xmx256m"));
    try {
      await()
          .atMost(Duration.ofSeconds(90))
          .pollInterval(Duration.ofSeconds(1))
          .until(() -> firstAppearances(kafka.readAll(TOPIC)).equals(writer.written()));
    } catch (ConditionTimeoutException timeout) {
      // Fall through to the assertions below, which say what is missing.
    } finally {
      fetcher.destroyForcibly();
      fetcher.waitFor(30, TimeUnit.SECONDS);
    }
    List<ConsumerRecord<byte[], byte[]>> records = kafka.readAll(TOPIC);
    Map<String, List<Integer>> seen = firstAppearances(records);
    for (String stream : STREAMS) {
      int written = writer.count(stream);
      List<Integer> inOrder = new ArrayList<>();
      for (int n = 0; n < written; n++) {
        inOrder.add(n);
      }
      assertThat(seen.getOrDefault(stream, List.of()))
          .as("file %s, %d lines written, %s; last log:%n%s", stream, written, seed, read(log))
          .containsExactlyElementsOf(inOrder);
    }
    System.out.printf(
        "tail-kill: rounds=%d written=%s records=%d duplicates=%d %s%n",
        ROUNDS,
        writer.written().values().stream().mapToInt(List::size).sum(),
        records.size(),
        records.size() - writer.written().values().stream().mapToInt(List::size).sum(),
        seed);
  }

  /**
   * Each file's line numbers in the order they first landed; a record that is not a whole line as
   * written (split, altered, merged) fails here.
   */
  private static Map<String, List<Integer>> firstAppearances(
      List<ConsumerRecord<byte[], byte[]>> records) throws IOException {
    Map<String, List<Integer>> seen = new LinkedHashMap<>();
    Map<String, Set<Integer>> landed = new LinkedHashMap<>();
    for (ConsumerRecord<byte[], byte[]> record : records) {
      JsonNode value = JSON.readTree(record.value());
      String message = value.path("message").asText();
      String[] parts = message.split(" ", 3);
      if (parts.length != 3 || !message.equals(Writer.line(parts[0], Integer.parseInt(parts[1])))) {
        throw new AssertionError(
            "a line landed altered or split at offset " + record.offset() + ": " + value);
      }
      int n = Integer.parseInt(parts[1]);
      if (landed.computeIfAbsent(parts[0], s -> new HashSet<>()).add(n)) {
        seen.computeIfAbsent(parts[0], s -> new ArrayList<>()).add(n);
      }
    }
    return seen;
  }

  private Path config() throws IOException {
    Path config = directory.resolve("tail.yaml");
    Files.writeString(
        config,
        """
        instance_id: tailkill
        output:
          type: kafka
          kafka: {bootstrap_servers: "%s"}
          batch: {max_rows: 100}
        cursor: {directory: state}
        metrics: {address: "127.0.0.1:0"}
        sources:
          file:
            logs:
              topic: logs
              interval_secs: 1
              units:
                - unit: app
                  tail:
                    paths: ["logs/*.log*"]
                    decoder: lines
                    glob_interval_secs: 0
                    rotate_wait_secs: 2
        """
            .formatted(kafka.bootstrapServers()));
    return config;
  }

  private static long endOffset() {
    Properties settings = new Properties();
    settings.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    settings.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
    settings.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
    try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(settings)) {
      TopicPartition partition = new TopicPartition(TOPIC, 0);
      return consumer.endOffsets(List.of(partition), Duration.ofSeconds(10)).get(partition);
    }
  }

  private static String read(Path log) throws IOException {
    return Files.exists(log) ? Files.readString(log) : "(no log)";
  }

  /**
   * Appends {@code "<file> <n> <padding>"} lines to {@code a.log}, {@code b.log} and {@code c.log},
   * some in two writes so the follower sees partial lines, and rotates when asked: {@code a.log} by
   * rename to {@code a.log.<k>} (then a new {@code a.log}), {@code b.log} by copying it to {@code
   * b.log.<k>} and truncating it. No line is written between the copy and the truncation, so any
   * loss is the follower's.
   */
  private static final class Writer implements Runnable {

    final AtomicBoolean stop = new AtomicBoolean();
    final AtomicReference<Throwable> failure = new AtomicReference<>();
    final Queue<String> rotations = new ConcurrentLinkedQueue<>();
    final List<String> rotated = new CopyOnWriteArrayList<>();
    private final Map<String, Integer> counts = new ConcurrentHashMap<>();
    private final Path logs;
    private final Random random;

    Writer(Path logs, Random random) {
      this.logs = logs;
      this.random = random;
    }

    static String line(String stream, int n) {
      // Lengths vary with n, so lines cross read buffers and fingerprints at many points.
      return stream + " " + n + " " + "x".repeat(10 + (n * 37) % 90);
    }

    int count(String stream) {
      return counts.getOrDefault(stream, 0);
    }

    Map<String, List<Integer>> written() {
      Map<String, List<Integer>> written = new LinkedHashMap<>();
      for (String stream : STREAMS) {
        List<Integer> numbers = new ArrayList<>();
        for (int n = 0; n < count(stream); n++) {
          numbers.add(n);
        }
        if (!numbers.isEmpty()) {
          written.put(stream, numbers);
        }
      }
      return written;
    }

    @Override
    public void run() {
      long pauseNanos = 1_000_000_000L / LINES_PER_SECOND;
      try {
        while (!stop.get()) {
          String rotation = rotations.poll();
          if (rotation != null) {
            rotate(rotation);
          }
          String stream = STREAMS.get(random.nextInt(STREAMS.size()));
          int n = count(stream);
          byte[] bytes = (line(stream, n) + "\n").getBytes(StandardCharsets.UTF_8);
          Path file = logs.resolve(stream + ".log");
          if (random.nextInt(10) == 0) {
            int cut = 1 + random.nextInt(bytes.length - 1);
            append(file, bytes, 0, cut);
            Thread.sleep(random.nextInt(20)); // leave the partial line for a read to meet
            append(file, bytes, cut, bytes.length - cut);
          } else {
            append(file, bytes, 0, bytes.length);
          }
          counts.put(stream, n + 1);
          TimeUnit.NANOSECONDS.sleep(pauseNanos);
        }
      } catch (Throwable e) {
        failure.set(e);
      }
    }

    private void rotate(String rotation) throws IOException {
      String suffix = "." + (rotated.size() + 1);
      switch (rotation) {
        case "rename" ->
            Files.move(
                logs.resolve("a.log"),
                logs.resolve("a.log" + suffix),
                StandardCopyOption.ATOMIC_MOVE); // the next line creates a new a.log
        case "copytruncate" -> {
          Path file = logs.resolve("b.log");
          Files.copy(file, logs.resolve("b.log" + suffix));
          try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            channel.truncate(0);
          }
        }
        default -> throw new IllegalArgumentException("no rotation named " + rotation);
      }
      rotated.add(rotation);
    }

    private static void append(Path file, byte[] bytes, int from, int length) throws IOException {
      try (FileChannel channel =
          FileChannel.open(
              file,
              StandardOpenOption.CREATE,
              StandardOpenOption.WRITE,
              StandardOpenOption.APPEND)) {
        ByteBuffer buffer = ByteBuffer.wrap(bytes, from, length);
        while (buffer.hasRemaining()) {
          channel.write(buffer);
        }
      }
    }
  }
}
