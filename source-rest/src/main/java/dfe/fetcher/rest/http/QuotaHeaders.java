package dfe.fetcher.rest.http;

import dfe.fetcher.source.SourceMetrics;
import java.net.http.HttpHeaders;
import java.time.Instant;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;

/**
 * A profile's {@code quota.headers}: the response headers that say how much of the API's quota is
 * left, how large it is and when it resets, each read from every answer (2xx or not) into its
 * {@link QuotaGauge} for the unit that asked. Only the header's number reaches the gauge, labelled
 * with the unit alone: never a credential, never a record's content.
 *
 * @param headers the header named for each gauge; a gauge left out is not set from here (the
 *     remaining gauge then comes from {@code X-RateLimit-Remaining} and its kin, as without a
 *     {@code quota})
 */
public record QuotaHeaders(Map<QuotaGauge, String> headers) {

  /** A profile without {@code quota}. */
  public static final QuotaHeaders NONE = new QuotaHeaders(Map.of());

  public QuotaHeaders {
    EnumMap<QuotaGauge, String> copy = new EnumMap<>(QuotaGauge.class);
    copy.putAll(headers);
    headers = Collections.unmodifiableMap(copy);
  }

  /** Whether the profile names a header for {@code gauge}. */
  public boolean names(QuotaGauge gauge) {
    return headers.containsKey(gauge);
  }

  /** Sets each named gauge of {@code source} whose header the answer carries as a number. */
  void report(HttpHeaders answer, Instant now, String source, SourceMetrics metrics) {
    headers.forEach(
        (gauge, name) -> {
          Optional<Double> value = answer.firstValue(name).flatMap(v -> gauge.value(v, now));
          value.ifPresent(v -> metrics.set(gauge.metric(), source, v));
        });
  }
}
