package dfe.fetcher.connect;

import static org.assertj.core.api.Assertions.assertThat;

import dfe.fetcher.core.checkpoint.MarkCodec;
import dfe.fetcher.core.row.Mark;
import dfe.fetcher.core.row.WindowMark;
import dfe.fetcher.runtime.transport.OutboundRecord;
import dfe.fetcher.runtime.transport.SendResult;
import dfe.fetcher.runtime.transport.Transport.UnitBatch;
import dfe.fetcher.runtime.transport.TransportException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.source.SourceRecord;
import org.apache.kafka.connect.source.TransactionContext;
import org.junit.jupiter.api.Test;

/**
 * The transport between the tick and the worker, driven as the worker drives it: {@code poll} hands
 * records over, {@code commitRecord} acknowledges them, and (exactly once) the transaction context
 * is asked to commit or abort at the boundaries.
 */
class ConnectTransportTest {

  private static final Clock CLOCK =
      Clock.fixed(Instant.parse("2026-12-01T00:00:00Z"), ZoneOffset.UTC);
  private static final String STORE = "files.inventory";
  private static final Mark OLD = new WindowMark(Instant.parse("2026-11-01T00:00:00Z"));
  private static final Mark NEW = new WindowMark(Instant.parse("2026-11-02T00:00:00Z"));

  private static OutboundRecord frame(String value) {
    return new OutboundRecord(
        "inv-a_land",
        Optional.of(STORE.getBytes(StandardCharsets.UTF_8)),
        value.getBytes(StandardCharsets.UTF_8),
        List.of(new OutboundRecord.Header("dfe-kind", "row")));
  }

  private static RecordMetadata metadata() {
    return new RecordMetadata(new TopicPartition("inv-a_land", 0), 0, 0, 0, 0, 0);
  }

  private static Mark markOf(SourceRecord record) throws Exception {
    Object document = record.sourceOffset().get(ConnectTransport.MARK);
    return MarkCodec.decode(((String) document).getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void recordsCarryTopicKeyValueAndHeadersAsTheKafkaOutputWritesThem() throws Exception {
    ConnectTransport transport = new ConnectTransport(Optional.empty(), CLOCK);
    transport.send(new UnitBatch(STORE, List.of(frame("{\"a\":1}")), Optional.empty(), false));

    SourceRecord record = transport.poll(10, 1000).get(0);

    assertThat(record.topic()).isEqualTo("inv-a_land");
    assertThat(record.key()).isEqualTo(STORE);
    assertThat((byte[]) record.value()).asString(StandardCharsets.UTF_8).isEqualTo("{\"a\":1}");
    assertThat(record.headers().lastWithName("dfe-kind").value()).isEqualTo("row");
    assertThat(record.kafkaPartition()).as("the producer partitions by key").isNull();
    assertThat(record.sourcePartition()).isEqualTo(Map.of("store", STORE));
  }

  @Test
  void theNewMarkRidesOnlyOnTheBatchsLastRecordAndEarlierOnesKeepTheOldOne() throws Exception {
    ConnectTransport transport = new ConnectTransport(Optional.empty(), CLOCK);
    transport.startAt(STORE, Optional.of(ConnectTransport.offsetOf(OLD, CLOCK)));
    transport.send(
        new UnitBatch(
            STORE, List.of(frame("1"), frame("2"), frame("end")), Optional.of(NEW), true));
    transport.send(new UnitBatch(STORE, List.of(frame("next")), Optional.empty(), false));

    List<SourceRecord> records = transport.poll(10, 1000);

    assertThat(records).hasSize(4);
    assertThat(markOf(records.get(0))).isEqualTo(OLD);
    assertThat(markOf(records.get(1))).isEqualTo(OLD);
    assertThat(markOf(records.get(2))).isEqualTo(NEW);
    assertThat(markOf(records.get(3))).as("later records keep the newer mark").isEqualTo(NEW);
  }

  @Test
  void aUnitWithoutACheckpointSendsNoOffsetUntilItHasAMark() throws Exception {
    ConnectTransport transport = new ConnectTransport(Optional.empty(), CLOCK);
    transport.send(new UnitBatch(STORE, List.of(frame("1")), Optional.empty(), true));

    assertThat(transport.poll(10, 1000).get(0).sourceOffset()).isNull();
  }

  @Test
  void aBatchIsAcknowledgedOnlyWhenTheWorkerCommittedEveryRecordOfIt() throws Exception {
    ConnectTransport transport = new ConnectTransport(Optional.empty(), CLOCK);
    CompletableFuture<SendResult> sent =
        transport.send(
            new UnitBatch(STORE, List.of(frame("1"), frame("2")), Optional.empty(), false));
    List<SourceRecord> records = transport.poll(10, 1000);

    assertThat(sent).as("polled is not acknowledged").isNotDone();
    transport.committed(records.get(1), metadata());
    assertThat(sent).isNotDone();
    transport.committed(records.get(0), metadata());
    assertThat(sent.get().refused()).isEmpty();
  }

  @Test
  void aRecordTheWorkerDroppedIsReportedRefused() throws Exception {
    ConnectTransport transport = new ConnectTransport(Optional.empty(), CLOCK);
    CompletableFuture<SendResult> sent =
        transport.send(
            new UnitBatch(STORE, List.of(frame("1"), frame("2")), Optional.empty(), false));
    List<SourceRecord> records = transport.poll(10, 1000);
    transport.committed(records.get(0), metadata());
    transport.committed(records.get(1), null);

    assertThat(sent.get().refused())
        .singleElement()
        .satisfies(
            refused -> {
              assertThat(refused.record().value()).asString(StandardCharsets.UTF_8).isEqualTo("2");
              assertThat(refused.error()).contains("dropped");
            });
  }

  @Test
  void stoppingFailsWhatWaitsAndRefusesNewBatches() {
    ConnectTransport transport = new ConnectTransport(Optional.empty(), CLOCK);
    CompletableFuture<SendResult> waiting =
        transport.send(new UnitBatch(STORE, List.of(frame("1")), Optional.empty(), false));

    transport.close();

    assertThat(waiting).isCompletedExceptionally();
    assertThat(transport.send(new UnitBatch(STORE, List.of(frame("2")), Optional.empty(), false)))
        .failsWithin(Duration.ofSeconds(1))
        .withThrowableOfType(ExecutionException.class)
        .withCauseInstanceOf(TransportException.class);
  }

  /** Records what the task asked of the worker's transaction. */
  private static final class RecordingTransactions implements TransactionContext {
    final List<String> asked = new ArrayList<>();

    @Override
    public void commitTransaction() {
      asked.add("commit batch");
    }

    @Override
    public void commitTransaction(SourceRecord record) {
      asked.add("commit after " + new String((byte[]) record.value(), StandardCharsets.UTF_8));
    }

    @Override
    public void abortTransaction() {
      asked.add("abort batch");
    }

    @Override
    public void abortTransaction(SourceRecord record) {
      asked.add("abort after " + new String((byte[]) record.value(), StandardCharsets.UTF_8));
    }
  }

  @Test
  void exactlyOnceASnapshotIsOneTransactionCommittedAtItsEnd() throws Exception {
    RecordingTransactions transactions = new RecordingTransactions();
    ConnectTransport transport = new ConnectTransport(Optional.of(transactions), CLOCK);
    transport.send(
        new UnitBatch(STORE, List.of(frame("begin"), frame("r0")), Optional.empty(), false));
    transport.send(
        new UnitBatch(STORE, List.of(frame("r1"), frame("end")), Optional.empty(), true));
    transport.send(new UnitBatch(STORE, List.of(frame("begin2")), Optional.empty(), false));

    List<SourceRecord> first = transport.poll(100, 1000);

    assertThat(first).as("a poll stops at the boundary").hasSize(4);
    assertThat(transactions.asked).containsExactly("commit after end");
    assertThat(transport.poll(100, 1000)).hasSize(1);
  }

  @Test
  void exactlyOnceATransactionEndsAtTheLastRecordItsMarkCoversNotAtTheBatchsEnd() throws Exception {
    // A file tail marks every thousandth line: the records after the mark in the same batch must
    // not be committed with it, or a task that takes the unit over reads them again.
    RecordingTransactions transactions = new RecordingTransactions();
    ConnectTransport transport = new ConnectTransport(Optional.of(transactions), CLOCK);
    transport.startAt(STORE, Optional.of(ConnectTransport.offsetOf(OLD, CLOCK)));
    transport.send(
        new UnitBatch(
            STORE, List.of(frame("l1"), frame("l2"), frame("l3")), Optional.of(NEW), false, 2));

    List<SourceRecord> first = transport.poll(100, 1000);
    List<SourceRecord> second = transport.poll(100, 1000);

    assertThat(first).hasSize(2);
    assertThat(markOf(first.get(0))).isEqualTo(OLD);
    assertThat(markOf(first.get(1))).isEqualTo(NEW);
    assertThat(transactions.asked).containsExactly("commit after l2");
    assertThat(second).hasSize(1);
    assertThat(markOf(second.get(0))).isEqualTo(NEW);
  }

  @Test
  void exactlyOnceAMarkThatCoversNoneOfItsRecordsCommitsBeforeThem() throws Exception {
    RecordingTransactions transactions = new RecordingTransactions();
    ConnectTransport transport = new ConnectTransport(Optional.of(transactions), CLOCK);
    transport.startAt(STORE, Optional.of(ConnectTransport.offsetOf(OLD, CLOCK)));
    transport.send(new UnitBatch(STORE, List.of(frame("l1")), Optional.empty(), false));
    transport.send(new UnitBatch(STORE, List.of(frame("l2")), Optional.of(NEW), false, 0));

    List<SourceRecord> first = transport.poll(100, 1000);
    List<SourceRecord> second = transport.poll(100, 1000);

    assertThat(first).hasSize(1);
    assertThat(markOf(first.get(0))).isEqualTo(OLD);
    assertThat(transactions.asked).containsExactly("commit after l1");
    assertThat(second).hasSize(1);
    assertThat(markOf(second.get(0))).as("the records after a mark carry it").isEqualTo(NEW);
  }

  @Test
  void exactlyOnceABatchCountsAsLandedOnceTheWorkerTookIt() throws Exception {
    ConnectTransport transport =
        new ConnectTransport(Optional.of(new RecordingTransactions()), CLOCK);
    CompletableFuture<SendResult> sent =
        transport.send(new UnitBatch(STORE, List.of(frame("r0")), Optional.empty(), false));
    assertThat(sent).isNotDone();

    transport.poll(100, 1000);

    assertThat(sent).isCompleted();
  }

  @Test
  void exactlyOnceAnAbandonedPartAbortsItsTransactionAndAnEmptyOneAsksNothing() throws Exception {
    RecordingTransactions transactions = new RecordingTransactions();
    ConnectTransport transport = new ConnectTransport(Optional.of(transactions), CLOCK);
    transport.send(
        new UnitBatch(STORE, List.of(frame("begin"), frame("r0")), Optional.empty(), false));
    transport.abandoned(STORE);
    transport.abandoned(STORE);
    transport.send(new UnitBatch(STORE, List.of(), Optional.empty(), true));

    assertThat(transport.poll(100, 1000)).hasSize(2);
    assertThat(transport.poll(100, 100)).isNull();
    assertThat(transactions.asked).containsExactly("abort after r0");
  }

  @Test
  void exactlyOnceABoundaryAfterRecordsAlreadyTakenEndsTheNextBatch() throws Exception {
    RecordingTransactions transactions = new RecordingTransactions();
    ConnectTransport transport = new ConnectTransport(Optional.of(transactions), CLOCK);
    transport.send(new UnitBatch(STORE, List.of(frame("r0")), Optional.empty(), false));
    assertThat(transport.poll(100, 1000)).hasSize(1);

    transport.send(new UnitBatch(STORE, List.of(), Optional.of(NEW), false));

    assertThat(transport.poll(100, 1000)).isNull();
    assertThat(transactions.asked).containsExactly("commit batch");
  }

  @Test
  void exactlyOnceAnAbortAskedWithTheInterruptFlagSetStillReachesTheWorker() throws Exception {
    RecordingTransactions transactions = new RecordingTransactions();
    ConnectTransport transport = new ConnectTransport(Optional.of(transactions), CLOCK);
    transport.send(new UnitBatch(STORE, List.of(frame("r0")), Optional.empty(), false));

    Thread.currentThread().interrupt();
    transport.abandoned(STORE);
    assertThat(Thread.interrupted()).as("the interrupt is kept for the caller").isTrue();

    assertThat(transport.poll(100, 1000)).hasSize(1);
    assertThat(transactions.asked).containsExactly("abort after r0");
  }
}
