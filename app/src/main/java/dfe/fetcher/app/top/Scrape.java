package dfe.fetcher.app.top;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The samples of one read of {@code /metrics} and when it was read (this machine's clock).
 *
 * @param at when the answer arrived
 * @param samples every sample, as written
 */
public record Scrape(Instant at, List<MetricSample> samples) {

  public Scrape {
    samples = List.copyOf(samples);
  }

  /** The sum of {@code name}'s samples whose {@code label} is {@code unit}; empty when none. */
  public Optional<Double> sum(String name, String label, String unit) {
    double sum = 0;
    boolean found = false;
    for (MetricSample sample : samples) {
      if (sample.name().equals(name) && unit.equals(sample.label(label))) {
        sum += sample.value();
        found = true;
      }
    }
    return found ? Optional.of(sum) : Optional.empty();
  }

  /** The sample of {@code name} whose labels are exactly {@code label=unit} and {@code more}. */
  public Optional<Double> value(
      String name, String label, String unit, String otherLabel, String other) {
    for (MetricSample sample : samples) {
      if (sample.name().equals(name)
          && unit.equals(sample.label(label))
          && other.equals(sample.label(otherLabel))) {
        return Optional.of(sample.value());
      }
    }
    return Optional.empty();
  }
}
