package dfe.fetcher.snapshots;

import java.sql.SQLException;
import java.time.Duration;
import java.util.Optional;
import org.apache.kafka.common.errors.RetriableException;

/**
 * How {@code apply --follow} waits before it reads again after a failure a retry may fix: {@code
 * first}, doubled per attempt, never more than {@code max}.
 *
 * @param first the wait after the first failure
 * @param max the longest wait; a run that lasted longer than this before failing starts again from
 *     {@code first}
 */
record RetryBackoff(Duration first, Duration max) {

  /** The back-off of {@code apply --follow}. */
  static final RetryBackoff FOLLOW =
      new RetryBackoff(Duration.ofMillis(500), Duration.ofSeconds(30));

  RetryBackoff {
    if (first.isNegative() || first.isZero() || max.compareTo(first) < 0) {
      throw new IllegalArgumentException(
          "back-off: first " + first + " must be positive and not above max " + max);
    }
  }

  /** The wait before attempt {@code attempt} (1 the first retry). */
  Duration before(int attempt) {
    Duration wait = first;
    for (int i = 1; i < attempt && wait.compareTo(max) < 0; i++) {
      wait = wait.multipliedBy(2);
    }
    return wait.compareTo(max) > 0 ? max : wait;
  }

  /**
   * What failed, {@code database} or {@code kafka}, when {@code failure} is one a retry may fix: a
   * lost or refused connection, a server shutting down or out of resources, a serialisation
   * failure, or a Kafka error Kafka itself calls retriable (a timeout, a leader moving). Empty for
   * what a retry cannot fix: a wrong password, a missing table or privilege, an offset retention
   * deleted, an unknown topic.
   */
  static Optional<String> retryable(Throwable failure) {
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      if (cause instanceof SQLException sql) {
        return transientState(sql) ? Optional.of("database") : Optional.empty();
      }
      if (cause instanceof RetriableException) {
        return Optional.of("kafka");
      }
    }
    return Optional.empty();
  }

  private static boolean transientState(SQLException e) {
    for (SQLException sql = e; sql != null; sql = sql.getNextException()) {
      String state = sql.getSQLState() == null ? "" : sql.getSQLState();
      if (state.startsWith("08") // connection exception
          || state.startsWith("53") // insufficient resources
          || state.startsWith("57P") // the server shutting down or starting
          || state.startsWith("58") // system error (I/O)
          || state.equals("40001") // serialization failure
          || state.equals("40P01") // deadlock
          || state.equals("55P03")) { // lock not available
        return true;
      }
    }
    return false;
  }
}
