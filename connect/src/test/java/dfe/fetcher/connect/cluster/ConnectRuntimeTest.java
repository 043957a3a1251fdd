package dfe.fetcher.connect.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dfe.fetcher.connect.DfeSourceConnector;
import dfe.fetcher.core.checkpoint.MarkCodec;
import dfe.fetcher.core.envelope.Reassembler;
import dfe.fetcher.core.envelope.SnapshotStatus;
import dfe.fetcher.core.row.FileMark;
import dfe.fetcher.core.row.KeysetMark;
import dfe.fetcher.core.row.Mark;
import dfe.fetcher.snapshots.SnapshotsCommand;
import dfe.fetcher.snapshots.Terminal;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import javax.management.AttributeNotFoundException;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.connect.runtime.rest.entities.ConnectorOffset;
import org.apache.kafka.connect.runtime.rest.entities.ConnectorStateInfo;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The connector on two distributed workers and a real broker, at least once: file dumps, a
 * PostgreSQL dump store and tail store, and a REST dump land on the standalone service's topics
 * with the same keys and headers, every snapshot verifies complete (with {@code snapshots verify
 * --bootstrap-server} too), marks are committed as source offsets, and a worker taken down mid-dump
 * leaves that dump without an end while the unit, moved to the other worker, lands it whole.
 */
class ConnectRuntimeTest {

  private static final String PG = "jdbc:postgresql://127.0.0.1:5432/test";

  private static ConnectCluster cluster;
  private static GatedApi api;
  @TempDir static Path directory;
  private static final String SUFFIX =
      UUID.randomUUID().toString().replace("-", "").substring(0, 8);
  private static final String STOCK = "connect_stock_" + SUFFIX;
  private static final String MOVES = "connect_moves_" + SUFFIX;

  @BeforeAll
  static void start() throws Exception {
    cluster = ConnectCluster.start("dfe-alo", false);
    api = new GatedApi();
    api.failFlaky(); // its /flaky fails its second page at once
    sql(
        "CREATE TABLE " + STOCK + " (sku text PRIMARY KEY, quantity integer)",
        "INSERT INTO " + STOCK + " VALUES ('a', 1), ('b', 2), ('c', 3)",
        "CREATE TABLE " + MOVES + " (id integer PRIMARY KEY, delta integer)",
        "INSERT INTO " + MOVES + " SELECT g, g * 10 FROM generate_series(1, 5) g");
  }

  @AfterAll
  static void stop() throws Exception {
    if (cluster != null) {
      cluster.close();
    }
    if (api != null) {
      api.close();
    }
    sql("DROP TABLE IF EXISTS " + STOCK, "DROP TABLE IF EXISTS " + MOVES);
  }

  private static void sql(String... statements) throws Exception {
    try (Connection connection = DriverManager.getConnection(PG, "postgres", "");
        Statement statement = connection.createStatement()) {
      for (String sql : statements) {
        statement.execute(sql);
      }
    }
  }

  private static Map<String, String> connector(String yaml, int tasks) {
    Map<String, String> config = new HashMap<>();
    config.put("connector.class", DfeSourceConnector.class.getName());
    config.put("tasks.max", String.valueOf(tasks));
    config.put("dfe.config", yaml);
    config.put("key.converter", "org.apache.kafka.connect.storage.StringConverter");
    config.put("value.converter", "org.apache.kafka.connect.converters.ByteArrayConverter");
    return config;
  }

  private static String header(ConsumerRecord<byte[], byte[]> record, String name) {
    return new String(record.headers().lastHeader(name).value(), StandardCharsets.UTF_8);
  }

  private static Optional<Mark> committedMark(String connector, String store) {
    for (ConnectorOffset offset : cluster.connect().connectorOffsets(connector).offsets()) {
      if (store.equals(offset.partition().get("store")) && offset.offset() != null) {
        try {
          String document = (String) offset.offset().get("mark");
          return Optional.of(MarkCodec.decode(document.getBytes(StandardCharsets.UTF_8)));
        } catch (MarkCodec.UnreadableMarkException e) {
          throw new AssertionError(e);
        }
      }
    }
    return Optional.empty();
  }

  private static int verifyFromTopic(String topic) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    return SnapshotsCommand.run(
        new String[] {"verify", "--bootstrap-server", cluster.bootstrapServers(), "--topic", topic},
        new Terminal(
            new ByteArrayInputStream(new byte[0]),
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)));
  }

  @Test
  void everyFamilysUnitsLandCompleteAndTheirMarksBecomeSourceOffsets() throws Exception {
    Path files = Files.createDirectories(directory.resolve("hosts"));
    Files.writeString(files.resolve("a.ndjson"), "{\"id\":1}\n{\"id\":2}\n");
    Files.writeString(files.resolve("b.ndjson"), "{\"id\":3}\n");
    String yaml =
        """
        instance_id: alo
        sources:
          file:
            inv:
              topic: inv
              interval_secs: 3600
              units:
                - {unit: hosts, row_key: /id, dump: {paths: ["%s/*.ndjson"]}}
          db:
            pg:
              url: "%s"
              user: postgres
              topic: pg
              interval_secs: 1
              stores:
                - {unit: stock, shape: dump, query: "SELECT sku, quantity FROM %s", row_key: /sku}
                - {unit: moves, shape: tail, query: "SELECT id, delta FROM %s", key: [id],
                   row_key: /id, limit: 2}
          rest:
            api:
              topic: api
              interval_secs: 3600
              vars: {host: "%s"}
              profile:
                base_url: "{{ vars.host }}"
                endpoints:
                  - {unit: things, shape: dump, path: /flaky, row_key: /id,
                     rows: {decoder: json_array}, paginate: {type: link_header}}
        """
            .formatted(files, PG, STOCK, MOVES, api.url());
    cluster.createTopics("inv-hosts_land", "pg-stock_land", "pg_land", "api-things_land");

    cluster.connect().configureConnector("everything", connector(yaml, 2));
    List<ConnectorStateInfo.TaskState> tasks = cluster.runningTasks("everything", 2);
    assertThat(tasks).hasSize(2);

    await()
        .atMost(Duration.ofSeconds(60))
        .untilAsserted(
            () -> {
              assertThat(cluster.completeSnapshots("inv-hosts_land", false))
                  .containsExactlyInAnyOrder(
                      List.of("{\"id\":1}", "{\"id\":2}"), List.of("{\"id\":3}"));
              assertThat(cluster.completeSnapshots("pg-stock_land", false))
                  .first()
                  .isEqualTo(
                      List.of(
                          "{\"sku\":\"a\",\"quantity\":1}",
                          "{\"sku\":\"b\",\"quantity\":2}",
                          "{\"sku\":\"c\",\"quantity\":3}"));
              assertThat(cluster.completeSnapshots("api-things_land", false))
                  .contains(List.of("{\"id\":1}", "{\"id\":2}", "{\"id\":3}"));
              assertThat(cluster.readAll("pg_land", false)).hasSize(5);
            });

    for (ConsumerRecord<byte[], byte[]> record : cluster.readAll("inv-hosts_land", false)) {
      assertThat(new String(record.key(), StandardCharsets.UTF_8)).isEqualTo("inv.hosts");
      assertThat(header(record, "dfe-kind")).isIn("begin", "row", "end");
    }
    assertThat(cluster.readAll("pg_land", false))
        .extracting(record -> new String(record.key(), StandardCharsets.UTF_8))
        .containsExactly("1", "2", "3", "4", "5");
    for (String topic : List.of("inv-hosts_land", "pg-stock_land")) {
      assertThat(verifyFromTopic(topic)).as("snapshots verify of " + topic).isZero();
    }

    // The fetcher's own metrics, per task, over JMX beside Connect's.
    MBeanServer jmx = ManagementFactory.getPlatformMBeanServer();
    Set<ObjectName> beans =
        jmx.queryNames(
            new ObjectName("dfe.fetcher:type=connect-task,connector=\"everything\",*"), null);
    assertThat(beans).hasSize(2);
    double completeFileSnapshots = 0;
    for (ObjectName bean : beans) {
      try {
        completeFileSnapshots +=
            (Double)
                jmx.getAttribute(
                    bean, "dfe_fetcher_snapshots_total{status=\"complete\",store=\"inv.hosts\"}");
      } catch (AttributeNotFoundException notThisTask) {
        // The other task runs other units.
      }
    }
    assertThat(completeFileSnapshots).isEqualTo(2);

    // Marks reach Connect's offsets: the files landed, the last key read.
    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(
            () -> {
              assertThat(committedMark("everything", "pg.moves"))
                  .get()
                  .isInstanceOfSatisfying(
                      KeysetMark.class,
                      mark ->
                          assertThat(mark.values())
                              .containsExactly(new KeysetMark.IntegerValue(5)));
              assertThat(committedMark("everything", "inv.hosts"))
                  .get()
                  .isInstanceOf(FileMark.class);
            });

    // The tail goes on from its mark, and after its task restarts, from the committed offset.
    sql("INSERT INTO " + MOVES + " VALUES (6, 60)");
    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(
            () ->
                assertThat(committedMark("everything", "pg.moves"))
                    .get()
                    .isEqualTo(KeysetMark.of(new KeysetMark.IntegerValue(6))));
    cluster.connect().restartConnectorAndTasks("everything", false, true, false);
    cluster.runningTasks("everything", 2);
    sql("INSERT INTO " + MOVES + " VALUES (7, 70)");
    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(
            () ->
                assertThat(cluster.readAll("pg_land", false))
                    .extracting(record -> new String(record.key(), StandardCharsets.UTF_8))
                    .containsExactly("1", "2", "3", "4", "5", "6", "7"));
    // The files were not dumped again: their mark came back from the offsets.
    assertThat(cluster.completeSnapshots("inv-hosts_land", false)).hasSize(2);
    cluster.connect().deleteConnector("everything");
  }

  @Test
  void aWorkerTakenDownMidDumpLeavesNoEndAndTheMovedUnitLandsItWhole() throws Exception {
    Path files = Files.createDirectories(directory.resolve("moved"));
    Files.writeString(files.resolve("a.ndjson"), "{\"id\":1}\n");
    Files.writeString(files.resolve("b.ndjson"), "{\"id\":2}\n");
    String yaml =
        """
        instance_id: moved
        # Each frame handed over as it comes, so a dump held half way is on the topic.
        output: {batch: {max_rows: 1}}
        sources:
          file:
            files:
              topic: moved
              interval_secs: 3600
              units:
                - {unit: both, dump: {paths: ["%s/*.ndjson"]}}
          rest:
            api:
              topic: held
              interval_secs: 3600
              vars: {host: "%s"}
              profile:
                base_url: "{{ vars.host }}"
                endpoints:
                  - {unit: assets, shape: dump, path: /assets, row_key: /id,
                     rows: {decoder: json_array}, paginate: {type: link_header}}
        """
            .formatted(files, api.url());
    cluster.createTopics("held-assets_land", "moved-both_land");
    cluster.connect().configureConnector("moved", connector(yaml, 1));
    ConnectorStateInfo.TaskState task = cluster.runningTasks("moved", 1).get(0);
    await().atMost(Duration.ofSeconds(30)).until(() -> api.heldRequests() >= 1);
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> cluster.readAll("held-assets_land", false).size() >= 3);

    cluster.removeWorker(cluster.workerOf(task));
    api.open();

    await()
        .atMost(Duration.ofSeconds(60))
        .untilAsserted(
            () ->
                assertThat(cluster.completeSnapshots("held-assets_land", false))
                    .containsExactly(List.of("{\"id\":1}", "{\"id\":2}", "{\"id\":3}")));
    assertThat(cluster.statuses("held-assets_land", false))
        .as("the dump cut by the worker's stop has no end")
        .containsExactlyInAnyOrder(SnapshotStatus.OPEN, SnapshotStatus.COMPLETE);
    assertThat(cluster.runningTasks("moved", 1).get(0).workerId()).isNotEqualTo(task.workerId());
    // The files the first worker landed before it went down were committed, acknowledgement
    // first: the task on the other worker resumed from those offsets and dumped neither again.
    assertThat(cluster.completeSnapshots("moved-both_land", false))
        .containsExactlyInAnyOrder(List.of("{\"id\":1}"), List.of("{\"id\":2}"));
  }

  @Test
  void aRowTooLargeBecomesAStubAndItsDeadLetterIsARecordOfTheTask() throws Exception {
    Path files = Files.createDirectories(directory.resolve("big"));
    String big = "{\"id\":\"big\",\"blob\":\"" + "x".repeat(3000) + "\"}";
    Files.writeString(files.resolve("a.ndjson"), "{\"id\":\"a\"}\n" + big + "\n{\"id\":\"c\"}\n");
    String yaml =
        """
        instance_id: big
        oversize: {max_record_bytes: 1000, max_dlq_bytes: 100}
        dlq: {enabled: true, topic: big_dlq}
        sources:
          file:
            big:
              topic: big
              interval_secs: 3600
              units:
                - {unit: rows, row_key: /id, dump: {paths: ["%s/*.ndjson"]}}
        """
            .formatted(files);
    cluster.createTopics("big-rows_land", "big_dlq");
    cluster.connect().configureConnector("big", connector(yaml, 1));

    await()
        .atMost(Duration.ofSeconds(60))
        .until(() -> cluster.statuses("big-rows_land", false).contains(SnapshotStatus.COMPLETE));
    Reassembler reassembler = cluster.reassembled("big-rows_land", false);
    String id = reassembler.reports().get(0).snapshotId();
    assertThat(reassembler.reports().get(0).rowCount()).hasValue(3);
    assertThat(reassembler.stubKeys(id)).containsExactly(Map.entry(1L, Optional.of("big")));
    List<ConsumerRecord<byte[], byte[]>> dlq = cluster.readAll("big_dlq", false);
    assertThat(dlq).hasSize(1);
    String entry = new String(dlq.get(0).value(), StandardCharsets.UTF_8);
    assertThat(entry)
        .contains("\"store\":\"big.rows\"", "\"seq\":1", "\"destination\":\"big-rows_land\"");
    assertThat(new String(dlq.get(0).key(), StandardCharsets.UTF_8)).isEqualTo("big.rows");
    cluster.connect().deleteConnector("big");
  }
}
