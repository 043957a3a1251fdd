package dfe.fetcher.app.top;

import java.util.Map;
import java.util.Objects;

/**
 * One sample of the Prometheus text format: {@code name{label="value",...} value}.
 *
 * @param name the series name as written ({@code dfe_fetcher_records_total})
 * @param labels its labels, in the order written
 * @param value its value ({@code NaN} and infinities included)
 */
public record MetricSample(String name, Map<String, String> labels, double value) {

  public MetricSample {
    Objects.requireNonNull(name, "name");
    labels = Map.copyOf(labels);
  }

  /** The value of {@code label}, or {@code null} when the sample has none. */
  public String label(String label) {
    return labels.get(label);
  }
}
