package dfe.fetcher.runtime.tick;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dfe.fetcher.core.envelope.Reassembler;
import dfe.fetcher.core.envelope.SnapshotReport;
import dfe.fetcher.core.envelope.SnapshotStatus;
import dfe.fetcher.core.metrics.MetricNames;
import dfe.fetcher.core.oversize.OversizePolicy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the tick does with frames the destination refuses as too large. */
class RefusedFramesTest {

  private static final String TOPIC = "inventory-hosts_land";
  private static final String STORE = "inventory.hosts";
  private static final String KEY = "test.inventory.hosts";

  @TempDir Path directory;
  private Landing landing;

  @BeforeEach
  void setUp() {
    landing = new Landing(directory);
  }

  private TickOutcome runTwoParts() {
    ScriptedSource source =
        ScriptedSource.dump().part(1, "{\"id\":\"a\"}").part(2, "{\"id\":\"b\"}");
    return landing.runner().runTick(Landing.dumpUnit(source, RowFilterStage.KEEP_ALL));
  }

  @Test
  void aRefusedEndWithTheDlqDisabledFailsTheTickAndCommitsNoCheckpoint() {
    landing.deadLettersEnabled = false;
    landing.output = new RefusingTransport(landing.transport, RefusingTransport.kind("end"));

    TickOutcome outcome = runTwoParts();

    assertThat(outcome).isInstanceOf(TickOutcome.Failed.class);
    assertThat(((TickOutcome.Failed) outcome).reason()).contains("end frame", "was refused");
    assertThat(Files.exists(landing.cursors.fileOf(KEY))).isFalse();
    assertThat(landing.reassembled(TOPIC).reports())
        .singleElement()
        .extracting(SnapshotReport::status)
        .isEqualTo(SnapshotStatus.OPEN);
  }

  @Test
  void aRefusedEndWithTheDlqEnabledFailsTheTickTooAndSendsNoDeadLetter() {
    landing.output = new RefusingTransport(landing.transport, RefusingTransport.kind("end"));

    TickOutcome outcome = runTwoParts();

    assertThat(outcome).isInstanceOf(TickOutcome.Failed.class);
    assertThat(Files.exists(landing.cursors.fileOf(KEY))).isFalse();
    assertThat(landing.lines(Landing.DLQ_TOPIC)).isEmpty();
  }

  @Test
  void aRefusedRowBecomesAStubAtItsSeqSoTheSnapshotCompletesAndItsCopyGoesToTheDlq() {
    landing.output =
        new RefusingTransport(
            landing.transport,
            record ->
                RefusingTransport.kind("row").test(record)
                    && new String(record.value(), StandardCharsets.UTF_8)
                        .contains("\"id\":\"big\""));
    ScriptedSource source =
        ScriptedSource.dump()
            .part(1, "{\"id\":\"a\"}", "{\"id\":\"big\",\"x\":1}", "{\"id\":\"c\"}");

    TickOutcome outcome =
        landing.runner().runTick(Landing.dumpUnit(source, RowFilterStage.KEEP_ALL));

    assertThat(outcome).isInstanceOf(TickOutcome.Succeeded.class);
    Reassembler reassembler = landing.reassembled(TOPIC);
    SnapshotReport report = reassembler.reports().get(0);
    assertThat(report.status()).isEqualTo(SnapshotStatus.COMPLETE);
    assertThat(reassembler.stubKeys(report.snapshotId()))
        .containsExactly(Map.entry(1L, Optional.of("big")));
    JsonNode stub =
        landing.jsonLines(TOPIC).stream()
            .filter(frame -> frame.get("kind").asText().equals("oversize"))
            .findFirst()
            .orElseThrow();
    assertThat(stub.get("bytes").asLong()).isEqualTo("{\"id\":\"big\",\"x\":1}".length());
    List<JsonNode> dlq = landing.jsonLines(Landing.DLQ_TOPIC);
    assertThat(dlq)
        .singleElement()
        .satisfies(
            entry -> {
              assertThat(entry.get("seq").asLong()).isEqualTo(1);
              assertThat(entry.get("reason").asText()).startsWith("transport refused the record: ");
            });
    assertThat(landing.cursors.load(KEY)).contains(ScriptedSource.mark(1));
    assertThat(landing.metrics.counterValue(MetricNames.DLQ, STORE, "refused")).isEqualTo(1);
    // Rows and stubs add up to row_count: the refused row is counted once, as its stub.
    assertThat(landing.metrics.counterValue(MetricNames.SNAPSHOT_ROWS, STORE)).isEqualTo(2);
    assertThat(landing.metrics.counterValue(MetricNames.SNAPSHOT_ROWS_OVERSIZE, STORE))
        .isEqualTo(1);
  }

  @Test
  void aRefusedRowWithTheDlqDisabledStillBecomesAStubAndIsCountedDropped() {
    landing.deadLettersEnabled = false;
    landing.output =
        new RefusingTransport(
            landing.transport,
            record ->
                RefusingTransport.kind("row").test(record)
                    && new String(record.value(), StandardCharsets.UTF_8)
                        .contains("\"id\":\"big\""));
    ScriptedSource source = ScriptedSource.dump().part(1, "{\"id\":\"big\"}");

    landing.runner().runTick(Landing.dumpUnit(source, RowFilterStage.KEEP_ALL));

    assertThat(landing.reassembled(TOPIC).reports().get(0).status())
        .isEqualTo(SnapshotStatus.COMPLETE);
    assertThat(landing.metrics.counterValue(MetricNames.DLQ, STORE, "refused_dropped"))
        .isEqualTo(1);
  }

  @Test
  void aRefusedOversizeStubFailsTheTickAndCommitsNothing() {
    landing.oversize = new OversizePolicy(10, 4);
    landing.output = new RefusingTransport(landing.transport, RefusingTransport.kind("oversize"));
    ScriptedSource source =
        ScriptedSource.dump().part(1, "{\"id\":\"a\"}", "{\"id\":\"long enough to be a stub\"}");

    TickOutcome outcome =
        landing.runner().runTick(Landing.dumpUnit(source, RowFilterStage.KEEP_ALL));

    assertThat(outcome).isInstanceOf(TickOutcome.Failed.class);
    assertThat(((TickOutcome.Failed) outcome).reason()).contains("oversize stub at seq 1");
    assertThat(Files.exists(landing.cursors.fileOf(KEY))).isFalse();
    assertThat(landing.jsonLines(TOPIC))
        .extracting(frame -> frame.get("kind").asText())
        .doesNotContain("end");
  }
}
