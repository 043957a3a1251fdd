package dfe.fetcher.connect;

import dfe.fetcher.core.checkpoint.MarkCodec;
import dfe.fetcher.core.row.Mark;
import dfe.fetcher.runtime.transport.OutboundRecord;
import dfe.fetcher.runtime.transport.SendResult;
import dfe.fetcher.runtime.transport.Transport;
import dfe.fetcher.runtime.transport.TransportException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.header.ConnectHeaders;
import org.apache.kafka.connect.source.SourceRecord;
import org.apache.kafka.connect.source.TransactionContext;

/**
 * The tick's transport inside a Connect task: batches become {@link SourceRecord}s in a bounded
 * queue that {@link #poll} drains for the worker, whose producer lands them.
 *
 * <ul>
 *   <li>Records: the same topic, key (as a string), value (bytes) and {@code dfe-*} headers as the
 *       standalone Kafka output. Source partition {@code {"store": <store>}}; source offset {@code
 *       {"mark": <the mark as MarkCodec writes it>}}: the last mark sent for the store, and on the
 *       last record of a batch that carries a mark, that mark; and {@code "tick_started_ms"}, when
 *       the tick began that last reached a settled point (a part's end, a mark), riding as the mark
 *       does: the last record of a batch that ends a part or carries a mark gets the running tick's
 *       time, earlier ones the time before, so a tick cut half way (a worker lost mid-dump) never
 *       says its unit ticked. Connect commits a partition's offset only once the record carrying it
 *       and every earlier record of the partition are acknowledged, which is the rule the
 *       standalone cursor store follows.
 *   <li>Acknowledgements, at least once: a batch is acknowledged when the worker has called {@code
 *       commitRecord} for each of its records (the producer acknowledged it); a record the worker
 *       dropped (a transform, {@code errors.tolerance=all}) is reported refused.
 *   <li>Exactly once ({@code transactions} given): a batch is acknowledged once the worker has
 *       taken it from {@link #poll} (the worker acknowledges records only when their transaction
 *       commits, which comes after the snapshot's end). A part that ends, or a mark, ends the
 *       transaction; a part abandoned aborts it.
 * </ul>
 */
final class ConnectTransport implements Transport {

  /** Source partition key. */
  static final String STORE = "store";

  /** Source offset key. */
  static final String MARK = "mark";

  /**
   * Source offset key: when the tick that sent the record began (epoch milliseconds), for a task
   * that starts to tick the unit when it is due ({@link LastTicks}).
   */
  static final String TICK_STARTED = "tick_started_ms";

  /** Records in the queue at most; a sender waits for room, checking for stop. */
  static final int QUEUE_CAPACITY = 8192;

  private final Optional<TransactionContext> transactions;
  private final Clock clock;
  private final BlockingQueue<Entry> queue = new LinkedBlockingQueue<>(QUEUE_CAPACITY);
  private final Map<String, Map<String, Object>> sentOffsets = new ConcurrentHashMap<>();
  private final Map<String, Long> tickStarts = new ConcurrentHashMap<>();
  private final Map<String, Long> settledTickStarts = new ConcurrentHashMap<>();
  private final Map<Pending, Boolean> outstanding = new ConcurrentHashMap<>();
  private volatile boolean stopped;
  private boolean sentSinceBoundary;

  /** What the queue holds: records and the transaction boundaries between them. */
  private sealed interface Entry {}

  private record Outbound(Record record) implements Entry {}

  private enum Boundary implements Entry {
    COMMIT,
    ABORT
  }

  /** A record that knows its batch, so {@code commitRecord} can acknowledge it. */
  static final class Record extends SourceRecord {
    private final Pending batch;
    private final OutboundRecord outbound;

    Record(
        Map<String, ?> partition,
        Map<String, ?> offset,
        OutboundRecord outbound,
        ConnectHeaders headers,
        Pending batch) {
      super(
          partition,
          offset,
          outbound.topic(),
          null,
          Schema.OPTIONAL_STRING_SCHEMA,
          outbound.key().map(key -> new String(key, StandardCharsets.UTF_8)).orElse(null),
          Schema.BYTES_SCHEMA,
          outbound.value(),
          null,
          headers);
      this.batch = batch;
      this.outbound = outbound;
    }
  }

  /** A batch waiting for its records' acknowledgements. */
  private final class Pending {
    private final CompletableFuture<SendResult> done = new CompletableFuture<>();
    private int waiting;
    private final List<SendResult.Refused> refused = new ArrayList<>();

    Pending(int records) {
      this.waiting = records;
    }

    synchronized void acknowledged(Record record, boolean landed) {
      if (!landed) {
        refused.add(
            new SendResult.Refused(
                record.outbound,
                "the worker dropped the record (a transform filtered it, or errors.tolerance=all"
                    + " passed over a failed send)"));
      }
      if (--waiting == 0) {
        outstanding.remove(this);
        done.complete(new SendResult(refused));
      }
    }
  }

  /**
   * @param transactions the task's transaction context when the worker runs it exactly once
   */
  ConnectTransport(Optional<TransactionContext> transactions, Clock clock) {
    this.transactions = transactions;
    this.clock = clock;
  }

  /** The offset records of {@code store} carry until a batch brings a newer mark. */
  void startAt(String store, Optional<Map<String, Object>> offset) {
    if (offset.isPresent()) {
      sentOffsets.put(store, offset.get());
    } else {
      sentOffsets.remove(store);
    }
  }

  /** The records {@code store} sends from now on belong to a tick that began at {@code millis}. */
  void tickStarted(String store, long millis) {
    tickStarts.put(store, millis);
  }

  /**
   * {@code markOffset} (or none) with the time a tick of the store began: the running tick's on a
   * record that settles it, else the last settled tick's, if one is known.
   */
  private Map<String, Object> offsetFor(
      String store, Map<String, Object> markOffset, boolean settles) {
    Long started = settles ? tickStarts.get(store) : settledTickStarts.get(store);
    if (started == null) {
      return markOffset;
    }
    Map<String, Object> offset = new HashMap<>();
    if (markOffset != null) {
      offset.putAll(markOffset);
    }
    offset.put(TICK_STARTED, started);
    return offset;
  }

  static Map<String, Object> partitionOf(String store) {
    return Map.of(STORE, store);
  }

  static Map<String, Object> offsetOf(Mark mark, Clock clock) {
    return Map.of(
        MARK, new String(MarkCodec.encode(mark, clock.instant()), StandardCharsets.UTF_8));
  }

  @Override
  public CompletableFuture<SendResult> send(List<OutboundRecord> batch) {
    return send(new UnitBatch("", batch, Optional.empty(), false));
  }

  @Override
  public CompletableFuture<SendResult> send(UnitBatch batch) {
    if (stopped) {
      return CompletableFuture.failedFuture(new TransportException("the task is stopping", null));
    }
    List<OutboundRecord> records = batch.records();
    Pending pending = new Pending(records.size());
    Map<String, Object> partition = batch.store().isEmpty() ? null : partitionOf(batch.store());
    Optional<Map<String, Object>> newer = batch.markAfter().map(mark -> offsetOf(mark, clock));
    try {
      if (!records.isEmpty()) {
        outstanding.put(pending, Boolean.TRUE);
      }
      // The record the mark covers last carries it (and settles the tick); the records after it in
      // the batch carry it too, as every later record does. Exactly once, the transaction ends at
      // that record: a record past the mark committed with it would be read again after a task
      // move. A mark that covers none of the records ends the transaction before them.
      int covers = newer.isPresent() ? batch.markCovers() : records.size();
      if (newer.isPresent() && covers == 0) {
        sentOffsets.put(batch.store(), newer.get());
        commitIfTransactional();
      }
      for (int i = 0; i < records.size(); i++) {
        boolean atMark = newer.isPresent() && i == covers - 1;
        boolean settles = atMark || (i == records.size() - 1 && batch.endsPart());
        Map<String, Object> offset =
            partition == null
                ? null
                : offsetFor(
                    batch.store(), atMark ? newer.get() : sentOffsets.get(batch.store()), settles);
        OutboundRecord outbound = records.get(i);
        ConnectHeaders headers = new ConnectHeaders();
        outbound.headers().forEach(header -> headers.addString(header.name(), header.value()));
        put(new Outbound(new Record(partition, offset, outbound, headers, pending)));
        Long started = tickStarts.get(batch.store());
        if (settles && started != null) {
          settledTickStarts.put(batch.store(), started);
        }
        if (atMark) {
          sentOffsets.put(batch.store(), newer.get());
          commitIfTransactional();
        }
      }
      if (batch.endsPart()) {
        commitIfTransactional();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      pending.done.completeExceptionally(new TransportException("interrupted while queued", e));
    } catch (TransportException e) {
      pending.done.completeExceptionally(e);
    }
    if (records.isEmpty()) {
      pending.done.complete(SendResult.ALL_ACKNOWLEDGED);
    }
    return pending.done;
  }

  @Override
  public void abandoned(String store) {
    if (transactions.isEmpty()) {
      return;
    }
    // A tick that ends on an interrupt abandons its part with the flag set: the abort must still
    // reach the queue, or the half dump would join the next transaction.
    boolean interrupted = Thread.interrupted();
    try {
      boundary(Boundary.ABORT);
    } catch (InterruptedException e) {
      interrupted = true;
    } catch (TransportException e) {
      // Stopping: the worker's producer aborts what its transaction holds.
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** Exactly once, a commit boundary after what was queued since the last one. */
  private void commitIfTransactional() throws InterruptedException {
    if (transactions.isPresent()) {
      boundary(Boundary.COMMIT);
    }
  }

  /** A boundary after what was queued since the last one; none when nothing was. */
  private synchronized void boundary(Boundary boundary) throws InterruptedException {
    if (sentSinceBoundary) {
      put(boundary);
      sentSinceBoundary = false;
    }
  }

  private void put(Entry entry) throws InterruptedException {
    while (!queue.offer(entry, 100, TimeUnit.MILLISECONDS)) {
      if (stopped) {
        throw new TransportException("the task is stopping", null);
      }
    }
    if (entry instanceof Outbound) {
      synchronized (this) {
        sentSinceBoundary = true;
      }
    }
  }

  /**
   * Up to {@code max} records for the worker, waiting up to {@code waitMillis} for the first; null
   * when none came. Stops at a transaction boundary and asks the worker to commit or abort there.
   */
  List<SourceRecord> poll(int max, long waitMillis) throws InterruptedException {
    List<SourceRecord> records = new ArrayList<>();
    Entry entry = queue.poll(waitMillis, TimeUnit.MILLISECONDS);
    while (entry != null) {
      if (entry instanceof Boundary boundary) {
        TransactionContext context = transactions.orElseThrow();
        SourceRecord last = records.isEmpty() ? null : records.get(records.size() - 1);
        if (boundary == Boundary.COMMIT) {
          if (last == null) {
            context.commitTransaction();
          } else {
            context.commitTransaction(last);
          }
        } else if (last == null) {
          context.abortTransaction();
        } else {
          context.abortTransaction(last);
        }
        break;
      }
      records.add(((Outbound) entry).record());
      if (records.size() >= max) {
        break;
      }
      entry = queue.poll();
    }
    if (transactions.isPresent()) {
      // Exactly once: the worker acknowledges records only once their transaction commits, so a
      // batch counts as landed when the worker took it; a failed send fails the transaction.
      for (SourceRecord record : records) {
        ((Record) record).batch.acknowledged((Record) record, true);
      }
    }
    return records.isEmpty() ? null : records;
  }

  /**
   * The worker's {@code commitRecord}: the producer acknowledged the record (metadata null:
   * dropped).
   */
  void committed(SourceRecord record, RecordMetadata metadata) {
    if (transactions.isEmpty() && record instanceof Record ours) {
      ours.batch.acknowledged(ours, metadata != null);
    }
  }

  /** Exactly once, a transaction commits the offset of its last record: marks go with theirs. */
  @Override
  public boolean needsMarksWithTheirRecords() {
    return transactions.isPresent();
  }

  @Override
  public boolean isReady() {
    return !stopped;
  }

  /** Fails every batch still waiting and drops what the worker has not taken. */
  @Override
  public void close() {
    stopped = true;
    queue.clear();
    TransportException stopping = new TransportException("the task stopped", null);
    outstanding.keySet().forEach(pending -> pending.done.completeExceptionally(stopping));
    outstanding.clear();
  }
}
