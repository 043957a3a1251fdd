package dfe.fetcher.snapshots.apply;

import dfe.fetcher.core.change.ChangeEvent;

/**
 * Where {@code apply} sends the changes of each snapshot it swaps in. {@link #flush} returns only
 * when every event published before it is durably accepted, and throws otherwise; the changes of a
 * committed swap stay in its {@link ChangeOutbox} until it has returned.
 */
public interface ChangePublisher extends AutoCloseable {

  /** Publishes nothing. */
  ChangePublisher NONE =
      new ChangePublisher() {
        @Override
        public void publish(ChangeEvent event) {}

        @Override
        public void flush() {}

        @Override
        public void close() {}
      };

  void publish(ChangeEvent event);

  /**
   * Waits for everything published so far.
   *
   * @throws ChangePublishingException when an event was not accepted
   */
  void flush();

  @Override
  void close();
}
