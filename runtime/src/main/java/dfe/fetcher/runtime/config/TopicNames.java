package dfe.fetcher.runtime.config;

import dfe.fetcher.source.config.ConfigOrigin;
import dfe.fetcher.source.config.Problems;
import java.util.regex.Pattern;

/** Kafka's rules for topic names, and where they are reported. */
final class TopicNames {

  /** Kafka's limit on a topic name's length. */
  static final int MAX_TOPIC_LENGTH = 249;

  private static final Pattern TOPIC = Pattern.compile("[A-Za-z0-9._-]*");

  private TopicNames() {}

  /** A Kafka topic name, or (when {@code part}) a piece of one, which may be empty. */
  static void check(String topic, ConfigOrigin origin, String at, boolean part, Problems problems) {
    if (topic.isEmpty() && !part) {
      problems.add(origin, at, "must not be empty");
    } else if (!TOPIC.matcher(topic).matches()) {
      problems.add(
          origin, at, "may hold only letters, digits, '.', '_' and '-' (Kafka topic names)");
    } else if (topic.length() > MAX_TOPIC_LENGTH) {
      problems.add(origin, at, "must be at most " + MAX_TOPIC_LENGTH + " characters");
    }
  }
}
