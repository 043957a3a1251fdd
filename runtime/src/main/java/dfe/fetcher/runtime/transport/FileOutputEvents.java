package dfe.fetcher.runtime.transport;

/**
 * What the file output tells about its files, for metrics. Called under the topic file's lock, on
 * the sending thread: implementations are thread-safe and never block.
 */
public interface FileOutputEvents {

  /** Tells nothing: for tests and runtimes without metrics. */
  FileOutputEvents NONE =
      new FileOutputEvents() {
        @Override
        public void topicOpened(String topic) {}

        @Override
        public void rotated(String topic) {}

        @Override
        public void deleted(String topic) {}
      };

  /** The transport opened {@code topic}'s file for the first time: its series start at zero. */
  void topicOpened(String topic);

  /** {@code topic}'s live file was rotated (closed whole and renamed). */
  void rotated(String topic);

  /** Retention deleted one of {@code topic}'s rotated files. */
  void deleted(String topic);
}
