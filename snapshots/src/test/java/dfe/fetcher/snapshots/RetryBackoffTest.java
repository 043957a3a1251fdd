package dfe.fetcher.snapshots;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import java.time.Duration;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.junit.jupiter.api.Test;

class RetryBackoffTest {

  @Test
  void theWaitDoublesPerAttemptUpToTheMax() {
    RetryBackoff backoff = new RetryBackoff(Duration.ofMillis(500), Duration.ofSeconds(3));

    assertThat(backoff.before(1)).isEqualTo(Duration.ofMillis(500));
    assertThat(backoff.before(2)).isEqualTo(Duration.ofSeconds(1));
    assertThat(backoff.before(3)).isEqualTo(Duration.ofSeconds(2));
    assertThat(backoff.before(4)).isEqualTo(Duration.ofSeconds(3));
    assertThat(backoff.before(1000)).isEqualTo(Duration.ofSeconds(3));
  }

  @Test
  void aLostConnectionOrAKafkaTimeoutIsRetriedAndAWrongPasswordOrMissingRightIsNot() {
    assertThat(RetryBackoff.retryable(new SQLException("I/O error", "08006"))).contains("database");
    assertThat(
            RetryBackoff.retryable(
                new ApplyCommand.StagingFailedException(
                    new SQLException("terminating connection", "57P01"))))
        .contains("database");
    assertThat(
            RetryBackoff.retryable(
                new KafkaApplyInput.ReadFailedException("t", new TimeoutException("t"))))
        .contains("kafka");
    assertThat(RetryBackoff.retryable(new SQLException("password", "28P01"))).isEmpty();
    assertThat(RetryBackoff.retryable(new SQLException("no table", "42P01"))).isEmpty();
    assertThat(
            RetryBackoff.retryable(
                new KafkaApplyInput.ReadFailedException("t", new TopicAuthorizationException("t"))))
        .isEmpty();
    assertThat(RetryBackoff.retryable(new KafkaApplyInput.ReadFailedException("no topic", null)))
        .isEmpty();
  }
}
