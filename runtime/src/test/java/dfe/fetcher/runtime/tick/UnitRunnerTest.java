package dfe.fetcher.runtime.tick;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dfe.fetcher.core.envelope.Reassembler;
import dfe.fetcher.core.envelope.SnapshotReport;
import dfe.fetcher.core.envelope.SnapshotStatus;
import dfe.fetcher.core.filter.FilterVerdict;
import dfe.fetcher.core.metrics.MetricNames;
import dfe.fetcher.core.oversize.OversizePolicy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The tick with a scripted source and the real file transport and cursor store. */
class UnitRunnerTest {

  private static final String TOPIC = "inventory-hosts_land";
  private static final String STORE = "inventory.hosts";

  @TempDir Path directory;
  private Landing landing;

  @BeforeEach
  void setUp() {
    landing = new Landing(directory);
  }

  @Test
  void eachPartLandsAsOneCompleteSnapshotWithItsRowsInOrder() {
    ScriptedSource source =
        ScriptedSource.dump()
            .part(1, "{\"id\":\"a\"}", "{\"id\":\"b\"}", "{\"id\":\"c\"}", "{\"id\":\"d\"}")
            .part(2, "{\"id\":\"e\"}");

    TickOutcome outcome =
        landing.runner().runTick(Landing.dumpUnit(source, RowFilterStage.KEEP_ALL));

    assertThat(outcome).isEqualTo(new TickOutcome.Succeeded(2, 9));
    assertThat(landing.completeSnapshotRows(TOPIC))
        .containsExactly(
            List.of("{\"id\":\"a\"}", "{\"id\":\"b\"}", "{\"id\":\"c\"}", "{\"id\":\"d\"}"),
            List.of("{\"id\":\"e\"}"));
    assertThat(landing.cursors.load("test.inventory.hosts")).contains(ScriptedSource.mark(2));
    assertThat(landing.metrics.counterValue(MetricNames.SNAPSHOTS, STORE, "complete")).isEqualTo(2);
  }

  @Test
  void everyFrameIsEnrichedAndKeyedByStore() {
    ScriptedSource source = ScriptedSource.dump().part(1, "{\"id\":\"a\"}");
    landing.runner().runTick(Landing.dumpUnit(source, RowFilterStage.KEEP_ALL));

    List<JsonNode> frames = landing.jsonLines(TOPIC);
    assertThat(frames)
        .extracting(frame -> frame.get("kind").asText())
        .containsExactly("begin", "row", "end");
    for (JsonNode frame : frames) {
      assertThat(frame.get("_source").asText()).isEqualTo("inventory-hosts");
      assertThat(frame.get("_source_fetcher").asText()).isEqualTo(STORE);
      assertThat(frame.get("_timestamp_fetcher").isIntegralNumber()).isTrue();
      assertThat(frame.get("_timestamp_received").isIntegralNumber()).isTrue();
    }
  }

  @Test
  void aRowTheFilterDropsGivesItsSeqBack() {
    ScriptedSource source =
        ScriptedSource.dump()
            .part(
                1,
                "{\"id\":\"a\",\"alive\":true}",
                "{\"id\":\"b\",\"alive\":false}",
                "{\"id\":\"c\",\"alive\":true}");
    RowFilterStage aliveOnly =
        RowFilterStage.of(
            json -> !new String(json, StandardCharsets.UTF_8).contains("\"alive\":false"));

    landing.runner().runTick(Landing.dumpUnit(source, aliveOnly));

    assertThat(landing.completeSnapshotRows(TOPIC))
        .containsExactly(List.of("{\"id\":\"a\",\"alive\":true}", "{\"id\":\"c\",\"alive\":true}"));
    assertThat(landing.jsonLines(TOPIC))
        .filteredOn(frame -> frame.get("kind").asText().equals("row"))
        .extracting(frame -> frame.get("seq").asLong())
        .containsExactly(0L, 1L);
    assertThat(landing.metrics.counterValue(MetricNames.RECORDS_FILTERED, STORE)).isEqualTo(1);
  }

  /** Judges rows with a {@code deleted} field; cannot judge the others, as CEL cannot. */
  private static RowFilterStage notDeleted(FilterErrors onError) {
    return new RowFilterStage() {
      @Override
      public FilterVerdict judge(byte[] json) {
        String text = new String(json, StandardCharsets.UTF_8);
        if (!text.contains("\"deleted\"")) {
          return new FilterVerdict.DropError("no such key: deleted");
        }
        return text.contains("\"deleted\":true") ? FilterVerdict.DROP : FilterVerdict.PASS;
      }

      @Override
      public FilterErrors onError() {
        return onError;
      }
    };
  }

  private static ScriptedSource rowsWithAndWithoutTheField() {
    return ScriptedSource.dump()
        .part(
            1,
            "{\"id\":\"a\",\"deleted\":false}",
            "{\"id\":\"b\",\"deleted\":true}",
            "{\"id\":\"c\"}",
            "{\"id\":\"d\"}");
  }

  @Test
  void aRowTheFilterCannotJudgeLandsUnderKeepAndIsCounted() {
    TickOutcome outcome =
        landing
            .runner()
            .runTick(Landing.dumpUnit(rowsWithAndWithoutTheField(), notDeleted(FilterErrors.KEEP)));

    assertThat(landing.completeSnapshotRows(TOPIC))
        .containsExactly(
            List.of("{\"id\":\"a\",\"deleted\":false}", "{\"id\":\"c\"}", "{\"id\":\"d\"}"));
    assertThat(outcome).isEqualTo(new TickOutcome.Succeeded(1, 5, 1, 2));
    assertThat(landing.metrics.counterValue(MetricNames.FILTER_ERRORS, STORE)).isEqualTo(2);
    assertThat(landing.metrics.counterValue(MetricNames.RECORDS_FILTERED, STORE)).isEqualTo(1);
  }

  @Test
  void aRowTheFilterCannotJudgeIsDroppedUnderDropAndGivesItsSeqBack() {
    TickOutcome outcome =
        landing
            .runner()
            .runTick(Landing.dumpUnit(rowsWithAndWithoutTheField(), notDeleted(FilterErrors.DROP)));

    assertThat(landing.completeSnapshotRows(TOPIC))
        .containsExactly(List.of("{\"id\":\"a\",\"deleted\":false}"));
    assertThat(outcome).isEqualTo(new TickOutcome.Succeeded(1, 3, 3, 2));
    assertThat(landing.metrics.counterValue(MetricNames.FILTER_ERRORS, STORE)).isEqualTo(2);
    assertThat(landing.metrics.counterValue(MetricNames.RECORDS_FILTERED, STORE)).isEqualTo(3);
  }

  @Test
  void anOversizeRowBecomesAStubWithItsRowKeyAndADlqCopyCutAtMaxDlqBytes() throws Exception {
    landing.oversize = new OversizePolicy(40, 10);
    String big = "{\"id\":\"big-1\",\"blob\":\"" + "x".repeat(50) + "\"}";
    ScriptedSource source = ScriptedSource.dump().part(1, "{\"id\":\"a\"}", big, "{\"id\":\"c\"}");

    landing.runner().runTick(Landing.dumpUnit(source, RowFilterStage.KEEP_ALL));

    Reassembler reassembler = landing.reassembled(TOPIC);
    SnapshotReport report = reassembler.reports().get(0);
    assertThat(report.status()).isEqualTo(SnapshotStatus.COMPLETE);
    assertThat(report.stubs()).isEqualTo(1);
    assertThat(reassembler.stubKeys(report.snapshotId())).containsEntry(1L, Optional.of("big-1"));
    JsonNode stub =
        landing.jsonLines(TOPIC).stream()
            .filter(frame -> frame.get("kind").asText().equals("oversize"))
            .findFirst()
            .orElseThrow();
    assertThat(stub.get("bytes").asLong()).isEqualTo(big.length());

    List<JsonNode> dlq = landing.jsonLines(Landing.DLQ_TOPIC);
    assertThat(dlq).hasSize(1);
    JsonNode entry = dlq.get(0);
    assertThat(entry.get("reason").asText())
        .isEqualTo("row exceeds max_record_bytes (" + big.length() + " > 40)");
    assertThat(entry.get("service").asText()).isEqualTo("dfe-fetcher");
    assertThat(entry.get("store").asText()).isEqualTo(STORE);
    assertThat(entry.get("seq").asLong()).isEqualTo(1);
    assertThat(entry.get("destination").asText()).isEqualTo(TOPIC);
    assertThat(new String(Base64.getDecoder().decode(entry.get("payload").asText())))
        .isEqualTo(big.substring(0, 10));
    assertThat(landing.metrics.counterValue(MetricNames.SNAPSHOT_ROWS_OVERSIZE, STORE))
        .isEqualTo(1);
  }

  @Test
  void withTheDlqDisabledAnOversizeRowIsStillAStubAndItsCopyIsCountedAsDropped() {
    landing.oversize = new OversizePolicy(20, 10);
    landing.deadLettersEnabled = false;
    String big = "{\"id\":\"b\",\"blob\":\"" + "x".repeat(30) + "\"}";
    landing
        .runner()
        .runTick(Landing.dumpUnit(ScriptedSource.dump().part(1, big), RowFilterStage.KEEP_ALL));

    assertThat(landing.reassembled(TOPIC).reports().get(0).stubs()).isEqualTo(1);
    assertThat(landing.lines(Landing.DLQ_TOPIC)).isEmpty();
    assertThat(landing.metrics.counterValue(MetricNames.DLQ, STORE, "oversize_dropped"))
        .isEqualTo(1);
  }

  @Test
  void aRecordOfExactlyMaxRecordBytesIsSentAsARow() {
    String record = "{\"id\":\"exact\"}";
    landing.oversize = new OversizePolicy(record.length(), 10);
    landing
        .runner()
        .runTick(Landing.dumpUnit(ScriptedSource.dump().part(1, record), RowFilterStage.KEEP_ALL));
    assertThat(landing.completeSnapshotRows(TOPIC)).containsExactly(List.of(record));
    assertThat(landing.lines(Landing.DLQ_TOPIC)).isEmpty();
  }

  @Test
  void anEmptyPartLandsAsBeginAndEndWithRowCountZero() {
    landing
        .runner()
        .runTick(Landing.dumpUnit(ScriptedSource.dump().part(1), RowFilterStage.KEEP_ALL));
    assertThat(landing.jsonLines(TOPIC))
        .extracting(frame -> frame.get("kind").asText())
        .containsExactly("begin", "end");
    assertThat(landing.completeSnapshotRows(TOPIC)).containsExactly(List.of());
  }

  @Test
  void aTransportFailureMidDumpLandsNoEndAndLeavesTheCheckpointWhereItWas() {
    ScriptedSource source =
        ScriptedSource.dump()
            .part(1, "{\"id\":\"a\"}")
            .part(2, "{\"id\":\"b\"}", "{\"id\":\"c\"}", "{\"id\":\"d\"}", "{\"id\":\"e\"}");
    // Part 1 lands in two sends (begin and row, then end once they are acknowledged); part 2's
    // first batch (begin, b, c) lands, its second (d, e) fails, so its end is never sent.
    landing.transport.failAfter(3);

    TickOutcome outcome =
        landing.runner().runTick(Landing.dumpUnit(source, RowFilterStage.KEEP_ALL));

    assertThat(outcome).isInstanceOf(TickOutcome.Failed.class);
    assertThat(((TickOutcome.Failed) outcome).reason()).contains("landing failed");
    Reassembler reassembler = landing.reassembled(TOPIC);
    assertThat(reassembler.reports())
        .extracting(SnapshotReport::status)
        .containsExactly(SnapshotStatus.COMPLETE, SnapshotStatus.OPEN);
    assertThat(landing.cursors.load("test.inventory.hosts")).contains(ScriptedSource.mark(1));
    assertThat(landing.metrics.counterValue(MetricNames.SNAPSHOTS, STORE, "aborted")).isEqualTo(1);

    landing.transport.heal();
    landing.runner().runTick(Landing.dumpUnit(source, RowFilterStage.KEEP_ALL));
    List<SnapshotReport> reports = landing.reassembled(TOPIC).reports();
    assertThat(reports)
        .extracting(SnapshotReport::status)
        .containsOnly(SnapshotStatus.COMPLETE, SnapshotStatus.OPEN);
    assertThat(reports).filteredOn(r -> r.status() == SnapshotStatus.COMPLETE).hasSize(2);
    assertThat(landing.cursors.load("test.inventory.hosts")).contains(ScriptedSource.mark(2));
  }

  @Test
  void aSourceFailureKeepsEarlierPartsCommittedAndLandsNoEndForTheBadPart() {
    ScriptedSource source =
        ScriptedSource.dump()
            .part(1, "{\"id\":\"a\"}")
            .failingPart(2, 1, "{\"id\":\"b\"}", "{\"id\":\"c\"}");

    TickOutcome outcome =
        landing.runner().runTick(Landing.dumpUnit(source, RowFilterStage.KEEP_ALL));

    assertThat(outcome).isInstanceOf(TickOutcome.Failed.class);
    assertThat(((TickOutcome.Failed) outcome).reason()).contains("part-2:2: not valid JSON");
    assertThat(landing.cursors.load("test.inventory.hosts")).contains(ScriptedSource.mark(1));
    assertThat(landing.jsonLines(TOPIC))
        .filteredOn(frame -> frame.get("kind").asText().equals("end"))
        .hasSize(1);
  }

  @Test
  void stoppingLeavesTheOpenDumpWithoutAnEndAndKeepsTheAcknowledgedCheckpoint() {
    ScriptedSource source =
        ScriptedSource.dump().part(1, "{\"id\":\"a\"}").part(2, "{\"id\":\"b\"}");
    RowFilterStage stopAfterFirstPart =
        RowFilterStage.of(
            json -> {
              if (new String(json, StandardCharsets.UTF_8).contains("\"b\"")) {
                landing.stopping.set(true);
              }
              return true;
            });

    TickOutcome outcome = landing.runner().runTick(Landing.dumpUnit(source, stopAfterFirstPart));

    assertThat(outcome).isInstanceOf(TickOutcome.Stopped.class);
    assertThat(landing.cursors.load("test.inventory.hosts")).contains(ScriptedSource.mark(1));
    assertThat(landing.reassembled(TOPIC).reports())
        .extracting(SnapshotReport::status)
        .containsExactly(SnapshotStatus.COMPLETE);
  }

  @Test
  void anIncrementalOversizeRowGoesToTheDlqAndIsSkipped() {
    landing.oversize = new OversizePolicy(30, 5);
    String big = "{\"id\":\"x\",\"blob\":\"" + "y".repeat(40) + "\"}";
    ScriptedSource source = ScriptedSource.tail().part(1, "{\"id\":\"a\"}", big);

    landing.runner().runTick(Landing.tailUnit(source, RowFilterStage.KEEP_ALL));

    assertThat(landing.jsonLines("events_land"))
        .extracting(record -> record.get("id").asText())
        .containsExactly("a");
    List<JsonNode> dlq = landing.jsonLines(Landing.DLQ_TOPIC);
    assertThat(dlq).hasSize(1);
    assertThat(dlq.get(0).get("seq").isNull()).isTrue();
    assertThat(landing.cursors.load("test.events.feed")).contains(ScriptedSource.mark(1));
  }

  @Test
  void tailRecordsAreEnrichedAndFilteredOnTheRecord() {
    ScriptedSource source =
        ScriptedSource.tail()
            .part(1, "{\"id\":\"a\",\"n\":1}", "{\"id\":\"b\",\"n\":2}")
            .part(2, "{\"id\":\"c\",\"n\":3}");
    RowFilterStage noB =
        RowFilterStage.of(json -> !new String(json, StandardCharsets.UTF_8).contains("\"b\""));

    landing.runner().runTick(Landing.tailUnit(source, noB));

    List<JsonNode> landed = landing.jsonLines("events_land");
    assertThat(landed).extracting(record -> record.get("id").asText()).containsExactly("a", "c");
    assertThat(landed.get(0).get("_source_fetcher").asText()).isEqualTo("events.feed");
    assertThat(landing.cursors.load("test.events.feed")).contains(ScriptedSource.mark(2));
  }

  @Test
  void anIdleTickPublishesNothing() {
    ScriptedSource source = ScriptedSource.dump().part(1, "{\"id\":\"a\"}");
    landing.runner().runTick(Landing.dumpUnit(source, RowFilterStage.KEEP_ALL));
    int landed = landing.lines(TOPIC).size();

    TickOutcome second =
        landing.runner().runTick(Landing.dumpUnit(source, RowFilterStage.KEEP_ALL));

    assertThat(second).isEqualTo(new TickOutcome.Succeeded(0, 0));
    assertThat(landing.lines(TOPIC)).hasSize(landed);
  }
}
