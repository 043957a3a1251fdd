package dfe.fetcher.runtime.transport;

/**
 * How the fetcher creates missing topics, when it is asked to ({@code output.kafka.create_topics},
 * {@code partitions}, {@code replication_factor}).
 */
public record TopicCreation(boolean enabled, int partitions, short replicationFactor) {
  public static final TopicCreation OFF = new TopicCreation(false, 1, (short) -1);
}
