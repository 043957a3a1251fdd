package dfe.fetcher.runtime.tick;

import dfe.fetcher.runtime.transport.OutboundRecord;
import dfe.fetcher.runtime.transport.SendResult;
import dfe.fetcher.runtime.transport.Transport;
import dfe.fetcher.runtime.transport.TransportException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * A transport whose batches are acknowledged, refused or failed by the test, in whatever order it
 * likes: for the acknowledgement pipeline's ordering and failure behaviour, which no real output
 * can be made to show on demand. Batches it is told to acknowledge at once complete on send.
 */
final class HandCompletedTransport implements Transport {

  /** One batch as sent, and its pending acknowledgement. */
  record Sent(List<OutboundRecord> batch, CompletableFuture<SendResult> acknowledgement) {
    void acknowledge() {
      acknowledgement.complete(SendResult.ALL_ACKNOWLEDGED);
    }

    void refuse(int index, String error) {
      acknowledgement.complete(
          new SendResult(List.of(new SendResult.Refused(batch.get(index), error))));
    }

    void fail(String error) {
      acknowledgement.completeExceptionally(new TransportException(error, null));
    }
  }

  final List<Sent> sent = new ArrayList<>();

  /** Every batch as the pipeline handed it over, empty ones (a mark or a part's end) included. */
  final List<UnitBatch> unitBatches = new ArrayList<>();

  private boolean acknowledgeOnSend;
  private boolean needsMarksWithTheirRecords;

  /** From now on every batch is acknowledged as it is sent. */
  HandCompletedTransport acknowledgingOnSend() {
    acknowledgeOnSend = true;
    return this;
  }

  @Override
  public synchronized CompletableFuture<SendResult> send(List<OutboundRecord> batch) {
    Sent one = new Sent(List.copyOf(batch), new CompletableFuture<>());
    sent.add(one);
    if (acknowledgeOnSend) {
      one.acknowledge();
    }
    return one.acknowledgement();
  }

  /** Asks, as an exactly-once Connect task does, that marks come with the records they cover. */
  HandCompletedTransport needingMarksWithTheirRecords() {
    needsMarksWithTheirRecords = true;
    return this;
  }

  @Override
  public boolean needsMarksWithTheirRecords() {
    return needsMarksWithTheirRecords;
  }

  @Override
  public CompletableFuture<SendResult> send(UnitBatch batch) {
    synchronized (this) {
      unitBatches.add(batch);
    }
    return Transport.super.send(batch);
  }

  synchronized Sent batch(int index) {
    return sent.get(index);
  }

  @Override
  public boolean isReady() {
    return true;
  }

  @Override
  public void close() {}
}
