package dfe.fetcher.runtime.tick;

import dfe.fetcher.runtime.transport.OutboundRecord;
import dfe.fetcher.runtime.transport.SendResult;
import dfe.fetcher.runtime.transport.Transport;
import dfe.fetcher.runtime.transport.TransportException;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The real file transport with a switch that makes sends fail, as a full disk or a lost broker
 * would. A failing disk cannot be produced on demand here; everything else is real.
 */
final class ControllableTransport implements Transport {

  private final Transport delegate;
  private volatile int sendsBeforeFailure = Integer.MAX_VALUE;

  ControllableTransport(Transport delegate) {
    this.delegate = delegate;
  }

  /** The next {@code sends} batches land; every batch after them fails. */
  void failAfter(int sends) {
    sendsBeforeFailure = sends;
  }

  void heal() {
    sendsBeforeFailure = Integer.MAX_VALUE;
  }

  @Override
  public synchronized CompletableFuture<SendResult> send(List<OutboundRecord> batch) {
    if (sendsBeforeFailure <= 0) {
      return CompletableFuture.failedFuture(
          new TransportException("destination unreachable (test)", null));
    }
    sendsBeforeFailure--;
    return delegate.send(batch);
  }

  @Override
  public boolean isReady() {
    return sendsBeforeFailure > 0 && delegate.isReady();
  }

  @Override
  public void close() {
    delegate.close();
  }
}
