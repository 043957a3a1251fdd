package dfe.fetcher.app.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dfe.fetcher.core.envelope.Reassembler;
import dfe.fetcher.core.envelope.SnapshotReport;
import dfe.fetcher.core.envelope.SnapshotStatus;
import dfe.fetcher.testkit.LocalKafka;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * A resumable PostgreSQL dump ({@code resume: by_key}) run by {@code dfe-fetcher run --once} as a
 * child process and killed with SIGKILL at seeded points, then run again until it finishes: one
 * complete snapshot, every seq exactly once on the topic, and far fewer rows read than two dumps.
 *
 * <p>{@code -Ddfe.resume.rows}, {@code .kills}, {@code .seed}, {@code .chunk_rows} and {@code
 * .kill_at} (a fraction: one kill there) size the campaign; {@code
 * benchmarks/scripts/dump-resume.sh} runs it with 1,000,000 rows and prints the figures.
 */
class DumpResumeKillTest {

  private static final String URL = "jdbc:postgresql://127.0.0.1:5432/test";
  private static final String TABLE = "dump_resume_kill";
  private static final String TOPIC = "crm-accounts_land";
  private static final Pattern CHUNK = Pattern.compile("event=dump_chunk_read .* rows=(\\d+)");

  private static final int ROWS = Integer.getInteger("dfe.resume.rows", 100_000);
  private static final int CHUNK_ROWS = Integer.getInteger("dfe.resume.chunk_rows", ROWS / 20);
  private static final long SEED = Long.getLong("dfe.resume.seed", 20_261_202L);

  /** How long one run may take: generous, so a loaded machine slows the test but fails nothing. */
  private static final long RUN_SECONDS = Math.max(180, ROWS / 2_000);

  private static LocalKafka kafka;

  @TempDir Path directory;

  @BeforeAll
  static void start() throws Exception {
    kafka = LocalKafka.start();
    sql(
        "DROP TABLE IF EXISTS " + TABLE,
        "CREATE TABLE "
            + TABLE
            + " (id BIGINT PRIMARY KEY, name TEXT NOT NULL, amount NUMERIC(12,2),"
            + " at TIMESTAMPTZ NOT NULL)",
        "INSERT INTO "
            + TABLE
            + " SELECT i, 'account-' || i, i * 1.25, TIMESTAMPTZ '2026-01-01 00:00Z' + i *"
            + " INTERVAL '1 second' FROM generate_series(1, "
            + ROWS
            + ") AS s(i)",
        "ANALYZE " + TABLE);
  }

  @AfterAll
  static void stop() throws Exception {
    kafka.close();
    sql("DROP TABLE IF EXISTS " + TABLE);
  }

  @Test
  void killedAtSeveralPointsTheDumpEndsAsOneCompleteSnapshotWithEverySeqOnce() throws Exception {
    kafka.createTopic(TOPIC, 1, Map.of());
    Path config = config("by_key", TOPIC);
    List<Double> killPoints = killPoints();
    long started = System.nanoTime();
    long rowsRead = 0;
    int run = 0;
    for (double point : killPoints) {
      rowsRead += killWhenLanded(config, (long) (point * ROWS), run);
      // Rows change between the kill and the resume, behind the key, in the stretch that landed
      // unacknowledged and ahead: a seq that landed must never come again with another record.
      sql("UPDATE " + TABLE + " SET name = name || '*' WHERE id % 100 = " + run);
      run++;
    }
    rowsRead += runToTheEnd(config, run);
    double seconds = (System.nanoTime() - started) / 1e9;

    List<ConsumerRecord<byte[], byte[]>> landed = kafka.readAll(TOPIC);
    Reassembler reassembler = Reassembler.verifyOnly();
    for (ConsumerRecord<byte[], byte[]> record : landed) {
      reassembler.accept(record.value());
    }
    List<SnapshotReport> reports = reassembler.reports();
    assertThat(reports).hasSize(1);
    // Complete, not conflict: no seq landed twice with two different records.
    assertThat(reports.get(0).status()).as("%s", reports.get(0)).isEqualTo(SnapshotStatus.COMPLETE);
    assertThat(reports.get(0).rowCount()).hasValue(ROWS);
    Map<Long, Integer> bySeq = new HashMap<>();
    for (ConsumerRecord<byte[], byte[]> record : landed) {
      if (header(record, "dfe-kind").equals("row")) {
        bySeq.merge(Long.parseLong(header(record, "dfe-seq")), 1, Integer::sum);
      }
    }
    assertThat(bySeq).hasSize(ROWS);
    assertThat(bySeq.values()).containsOnly(1);
    // Each kill re-reads at most the chunk it cut and what was read but had not landed.
    long upperBound = rowsRead + (long) killPoints.size() * CHUNK_ROWS;
    assertThat(upperBound).isLessThan(ROWS + ROWS / 2L);
    System.out.printf(
        "dump-resume: mode=by_key rows=%d chunk_rows=%d kills=%s rows_read_at_most=%d"
            + " re_read_at_most=%d seconds=%.1f%n",
        ROWS, CHUNK_ROWS, killPoints, upperBound, upperBound - ROWS, seconds);
  }

  /**
   * The plain dump's figure for the comparison ({@code resume: none}, killed once at {@code
   * kill_at}): everything the killed run read is read again. Run by the benchmark script only.
   */
  @Test
  @EnabledIfSystemProperty(named = "dfe.resume.plain", matches = "true")
  void aPlainDumpKilledOnceReadsEverythingAgain() throws Exception {
    String topic = "crm-plain_land";
    kafka.createTopic(topic, 1, Map.of());
    Path config = config("none", topic);
    double point = Double.parseDouble(System.getProperty("dfe.resume.kill_at", "0.5"));
    long started = System.nanoTime();
    killWhenLandedOn(config, topic, (long) (point * ROWS), 0);
    runToTheEnd(config, 1);
    double seconds = (System.nanoTime() - started) / 1e9;
    long aborted = kafka.readAll(topic).size() - (ROWS + 2L);
    System.out.printf(
        "dump-resume: mode=none rows=%d kills=[%s] rows_read_at_least=%d re_read_at_least=%d"
            + " seconds=%.1f%n",
        ROWS, point, ROWS + aborted, aborted, seconds);
  }

  private List<Double> killPoints() {
    String at = System.getProperty("dfe.resume.kill_at");
    if (at != null) {
      return List.of(Double.parseDouble(at));
    }
    int kills = Integer.getInteger("dfe.resume.kills", 3);
    Random random = new Random(SEED);
    List<Double> points = new ArrayList<>();
    for (int i = 0; i < kills; i++) {
      // Spread over the dump, one in each equal stretch, so every kill cuts new ground.
      points.add((i + 0.1 + 0.8 * random.nextDouble()) / kills);
    }
    return points;
  }

  private long killWhenLanded(Path config, long frames, int run) throws Exception {
    return killWhenLandedOn(config, TOPIC, frames, run);
  }

  /** Starts a run, kills it with SIGKILL once {@code frames} frames are on the topic. */
  private long killWhenLandedOn(Path config, String topic, long frames, int run) throws Exception {
    Path log = directory.resolve("run-" + run + ".log");
    Process fetcher = start(config, log);
    try {
      await()
          .atMost(Duration.ofSeconds(RUN_SECONDS))
          .pollInterval(Duration.ofMillis(10))
          .until(() -> endOffset(topic) >= frames || !fetcher.isAlive());
      assertThat(fetcher.isAlive()).as("still running; log:%n%s", read(log)).isTrue();
    } finally {
      fetcher.destroyForcibly(); // SIGKILL: nothing is flushed, closed or committed
      assertThat(fetcher.waitFor(30, TimeUnit.SECONDS)).isTrue();
    }
    return rowsReadIn(log);
  }

  private long runToTheEnd(Path config, int run) throws Exception {
    Path log = directory.resolve("run-" + run + ".log");
    Process fetcher = start(config, log, "--once");
    try {
      assertThat(fetcher.waitFor(RUN_SECONDS, TimeUnit.SECONDS))
          .as("ended; log:%n%s", read(log))
          .isTrue();
    } finally {
      fetcher.destroyForcibly();
    }
    assertThat(fetcher.exitValue()).as(read(log)).isZero();
    return rowsReadIn(log);
  }

  private Path config(String resume, String topic) throws Exception {
    String unit = topic.substring("crm-".length(), topic.length() - "_land".length());
    String chunk = resume.equals("by_key") ? ", key: [id], chunk_rows: " + CHUNK_ROWS : "";
    Path config = directory.resolve(unit + ".yaml");
    Files.writeString(
        config,
        """
        instance_id: kill
        output:
          type: kafka
          kafka: {bootstrap_servers: "%s"}
          batch: {max_rows: 1000}
        cursor: {directory: state}
        metrics: {address: "127.0.0.1:0"}
        sources:
          db:
            crm:
              url: %s
              user: postgres
              topic: crm
              stores:
                - {unit: %s, shape: dump, query: "SELECT * FROM %s", resume: %s%s}
        """
            .formatted(kafka.bootstrapServers(), URL, unit, TABLE, resume, chunk));
    return config;
  }

  private Process start(Path config, Path log, String... extra) throws Exception {
    return ChildFetcher.run(directory, config, log, List.of("-Xmx256m"), extra);
  }

  /** The rows of the chunks a run finished reading, as it logged them. */
  private static long rowsReadIn(Path log) throws Exception {
    long rows = 0;
    for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
      Matcher matcher = CHUNK.matcher(line);
      if (matcher.find()) {
        rows += Long.parseLong(matcher.group(1));
      }
    }
    return rows;
  }

  private static long endOffset(String topic) {
    Properties settings = new Properties();
    settings.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    settings.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
    settings.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
    try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(settings)) {
      TopicPartition partition = new TopicPartition(topic, 0);
      return consumer.endOffsets(List.of(partition), Duration.ofSeconds(10)).get(partition);
    }
  }

  private static String header(ConsumerRecord<byte[], byte[]> record, String name) {
    return new String(record.headers().lastHeader(name).value(), StandardCharsets.UTF_8);
  }

  private static String read(Path log) throws Exception {
    return Files.exists(log) ? Files.readString(log) : "(no log)";
  }

  private static void sql(String... statements) throws Exception {
    try (Connection connection = DriverManager.getConnection(URL, "postgres", "");
        Statement statement = connection.createStatement()) {
      for (String sql : statements) {
        statement.execute(sql);
      }
    }
  }
}
