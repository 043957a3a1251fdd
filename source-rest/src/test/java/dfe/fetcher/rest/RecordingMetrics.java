package dfe.fetcher.rest;

import dfe.fetcher.source.SourceMetrics;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/** A source's metrics as a test reads them: every counter step, and each gauge's last value. */
final class RecordingMetrics implements SourceMetrics {

  final List<String> counted = new CopyOnWriteArrayList<>();
  final Map<String, Double> gauges = new ConcurrentHashMap<>();

  @Override
  public void increment(String name, String source, Map<String, String> labels) {
    counted.add(name + "{" + source + "}");
  }

  @Override
  public void observeSeconds(String name, String source, double seconds) {}

  @Override
  public void set(String name, String source, double value) {
    gauges.put(name + "{" + source + "}", value);
  }

  long count(String name, String source) {
    return counted.stream().filter(c -> c.equals(name + "{" + source + "}")).count();
  }
}
