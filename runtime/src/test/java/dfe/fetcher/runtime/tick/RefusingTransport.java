package dfe.fetcher.runtime.tick;

import dfe.fetcher.runtime.transport.OutboundRecord;
import dfe.fetcher.runtime.transport.SendResult;
import dfe.fetcher.runtime.transport.Transport;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;

/**
 * The real file transport in front of which a topic's size limit is played: records the predicate
 * picks are refused as too large (as Kafka's {@code RecordTooLargeException} would), the rest land.
 */
final class RefusingTransport implements Transport {

  private final Transport delegate;
  private final Predicate<OutboundRecord> refused;

  RefusingTransport(Transport delegate, Predicate<OutboundRecord> refused) {
    this.delegate = delegate;
    this.refused = refused;
  }

  static Predicate<OutboundRecord> kind(String kind) {
    return record -> EnrichmentStage.header(record, "dfe-kind").filter(kind::equals).isPresent();
  }

  @Override
  public CompletableFuture<SendResult> send(List<OutboundRecord> batch) {
    List<OutboundRecord> landing = new ArrayList<>();
    List<SendResult.Refused> refusals = new ArrayList<>();
    for (OutboundRecord record : batch) {
      if (refused.test(record)) {
        refusals.add(new SendResult.Refused(record, "RecordTooLargeException (test)"));
      } else {
        landing.add(record);
      }
    }
    if (landing.isEmpty()) {
      return CompletableFuture.completedFuture(new SendResult(refusals));
    }
    return delegate.send(landing).thenApply(result -> new SendResult(refusals));
  }

  @Override
  public boolean isReady() {
    return delegate.isReady();
  }

  @Override
  public void close() {
    delegate.close();
  }
}
