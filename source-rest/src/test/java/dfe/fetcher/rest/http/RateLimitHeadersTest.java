package dfe.fetcher.rest.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpHeaders;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RateLimitHeadersTest {

  private static final Instant NOW = Instant.parse("2026-12-01T08:00:00Z");

  private static RateLimitHeaders read(String... namesAndValues) {
    Map<String, List<String>> map = new LinkedHashMap<>();
    for (int i = 0; i + 1 < namesAndValues.length; i += 2) {
      map.put(namesAndValues[i], List.of(namesAndValues[i + 1]));
    }
    return RateLimitHeaders.read(HttpHeaders.of(map, (name, value) -> true), NOW);
  }

  @Test
  void aLargeResetIsEpochSecondsAndASmallOneSecondsFromNow() {
    assertThat(read("x-ratelimit-remaining", "0", "x-ratelimit-reset", "1796112030").waitFrom(NOW))
        .hasValue(new RateLimitHeaders.Wait(Duration.ofSeconds(30), "X-RateLimit-Reset"));
    assertThat(read("RateLimit-Remaining", "0", "RateLimit-Reset", "42").waitFrom(NOW))
        .hasValue(new RateLimitHeaders.Wait(Duration.ofSeconds(42), "RateLimit-Reset"));
  }

  @Test
  void aResetWithQuotaLeftIsNoWait() {
    RateLimitHeaders headers = read("X-Rate-Limit-Remaining", "3", "X-Rate-Limit-Reset", "60");

    assertThat(headers.remaining()).hasValue(3);
    assertThat(headers.exhausted()).isFalse();
    assertThat(headers.waitFrom(NOW)).isEmpty();
  }

  @Test
  void retryAfterWinsOverAReset() {
    assertThat(
            read("Retry-After", "5", "X-RateLimit-Remaining", "0", "X-RateLimit-Reset", "600")
                .waitFrom(NOW))
        .hasValue(new RateLimitHeaders.Wait(Duration.ofSeconds(5), "Retry-After"));
  }

  @Test
  void anHttpDateInThePastIsNoWaitAndGarbageIsNoHeader() {
    String past =
        DateTimeFormatter.RFC_1123_DATE_TIME.format(NOW.minusSeconds(10).atZone(ZoneOffset.UTC));

    assertThat(read("Retry-After", past).retryAfter()).hasValue(Duration.ZERO);
    assertThat(read("Retry-After", "tomorrow").retryAfter()).isEmpty();
    assertThat(read("Retry-After", "-1").retryAfter()).isEmpty();
    assertThat(read("X-RateLimit-Remaining", "-1").remaining()).isEmpty();
    assertThat(read("X-RateLimit-Remaining", "0", "X-RateLimit-Reset", "soon").waitFrom(NOW))
        .isEmpty();
  }
}
