package dfe.fetcher.connect.plugin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dfe.fetcher.core.envelope.InvalidFrameException;
import dfe.fetcher.core.envelope.Reassembler;
import dfe.fetcher.core.envelope.SnapshotReport;
import dfe.fetcher.core.envelope.SnapshotStatus;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.connect.util.clusters.EmbeddedKafkaCluster;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The plugin as an operator installs it: the directory {@code connect} packages, on the {@code
 * plugin.path} of a Connect worker in a process of its own ({@code ConnectStandalone}) whose
 * classpath is Connect's and a logging binding, nothing of the fetcher. The worker finds the
 * connector in the plugin directory, loads it in the directory's own class loader, and lands a file
 * dump a consumer verifies complete.
 */
class PluginInstallIT {

  @TempDir Path directory;
  private EmbeddedKafkaCluster kafka;
  private Process worker;
  private Path workerLog;

  @BeforeEach
  void startKafka() {
    kafka = new EmbeddedKafkaCluster(1, new Properties());
    kafka.start();
  }

  @AfterEach
  void stop() throws Exception {
    if (worker != null) {
      worker.destroy();
      if (!worker.waitFor(30, TimeUnit.SECONDS)) {
        worker.destroyForcibly();
      }
    }
    kafka.stop();
  }

  private String workerOutput() throws Exception {
    return workerLog == null || !Files.exists(workerLog) ? "" : Files.readString(workerLog);
  }

  @Test
  void aWorkerLoadsThePluginFromItsDirectoryAndLandsACompleteDump() throws Exception {
    Path pluginPath = Path.of(System.getProperty("dfe.plugin.path")).toAbsolutePath();
    assertThat(pluginPath.resolve("dfe-fetcher-connect")).isDirectory();
    assertThat(pluginPath.resolve("dfe-fetcher-connect").toFile().list())
        .as("what the worker provides is not shipped")
        .noneMatch(jar -> jar.startsWith("kafka-clients") || jar.startsWith("connect-api"))
        .noneMatch(jar -> jar.startsWith("slf4j-api") || jar.startsWith("logback"));
    assertThat(pluginPath.resolve("dfe-fetcher-connect").toFile().list())
        .as("the standalone command and the consumer side are not shipped")
        .noneMatch(jar -> jar.startsWith("picocli") || jar.startsWith("app-"))
        .noneMatch(jar -> jar.startsWith("prometheus-metrics-exporter-httpserver"))
        .noneMatch(jar -> jar.startsWith("snapshots-"))
        .anyMatch(jar -> jar.startsWith("runtime-"));
    String classpath = Files.readString(Path.of(System.getProperty("dfe.worker.classpath"))).trim();
    assertThat(classpath).doesNotContain("dfe" + File.separator + "fetcher");

    Path data = Files.createDirectories(directory.resolve("hosts"));
    Files.writeString(data.resolve("a.ndjson"), "{\"id\":1}\n{\"id\":2}\n");
    Path yaml = directory.resolve("fetcher.yaml");
    Files.writeString(
        yaml,
        """
        sources:
          file:
            inv:
              topic: inv
              interval_secs: 3600
              units:
                - {unit: hosts, row_key: /id, dump: {paths: ["%s/*.ndjson"]}}
        """
            .formatted(data));
    kafka.createTopic("inv-hosts_land", 1);

    Path workerProperties = directory.resolve("worker.properties");
    Files.writeString(
        workerProperties,
        String.join(
            "\n",
            "bootstrap.servers=" + kafka.bootstrapServers(),
            "listeners=http://127.0.0.1:0",
            "plugin.path=" + pluginPath,
            "offset.storage.file.filename=" + directory.resolve("offsets"),
            "offset.flush.interval.ms=500",
            "key.converter=org.apache.kafka.connect.storage.StringConverter",
            "value.converter=org.apache.kafka.connect.converters.ByteArrayConverter",
            ""));
    Path connectorProperties = directory.resolve("connector.properties");
    Files.writeString(
        connectorProperties,
        String.join(
            "\n",
            "name=inventory",
            "connector.class=dfe.fetcher.connect.DfeSourceConnector",
            "tasks.max=1",
            "dfe.config.file=" + yaml,
            ""));
    Path logback = directory.resolve("logback.xml");
    try (var in = getClass().getResourceAsStream("/worker-logback.xml")) {
      Files.copy(in, logback);
    }
    workerLog = directory.resolve("worker.log");
    worker =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx512m",
                "-Dlogback.configurationFile=" + logback,
                "-cp",
                classpath,
                "org.apache.kafka.connect.cli.ConnectStandalone",
                workerProperties.toString(),
                connectorProperties.toString())
            .redirectErrorStream(true)
            .redirectOutput(workerLog.toFile())
            .start();

    await()
        .atMost(Duration.ofSeconds(120))
        .pollInterval(Duration.ofSeconds(1))
        .failFast("the worker exited: see its log", () -> !worker.isAlive())
        .untilAsserted(
            () ->
                assertThat(statuses(kafka.consumeAll(10_000, "inv-hosts_land")))
                    .containsExactly(SnapshotStatus.COMPLETE));

    assertThat(workerOutput())
        .contains("Loading plugin from: " + pluginPath.resolve("dfe-fetcher-connect"))
        .contains("Added plugin 'dfe.fetcher.connect.DfeSourceConnector'")
        .contains("event=tick_done unit=inv.hosts parts=1 records=4");
  }

  private static List<SnapshotStatus> statuses(Iterable<ConsumerRecord<byte[], byte[]>> records)
      throws InvalidFrameException {
    Reassembler reassembler = Reassembler.verifyOnly();
    for (ConsumerRecord<byte[], byte[]> record : records) {
      reassembler.accept(record.value());
    }
    return reassembler.reports().stream().map(SnapshotReport::status).toList();
  }
}
