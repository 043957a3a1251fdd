package dfe.fetcher.app.metrics;

import io.prometheus.metrics.instrumentation.jvm.JvmMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.DataPointSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.InfoSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.StateSetSnapshot;
import io.prometheus.metrics.model.snapshots.SummarySnapshot;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The families a Prometheus text exposition (format 0.0.4, what {@code /metrics} serves) holds:
 * each one's name as its {@code # TYPE} line gives it, its type, its help, and the label names its
 * samples carry ({@code le} and {@code quantile}, which the type implies, left out). A histogram's
 * or summary's {@code _bucket}, {@code _count}, {@code _sum} and {@code _created} samples count as
 * its own.
 */
public final class ExposedFamilies {

  /** One family as served. */
  public record Family(String name, String type, String help, Set<String> labels) {}

  private static final Pattern META = Pattern.compile("^# (TYPE|HELP) (\\S+) ?(.*)$");
  private static final Pattern SAMPLE =
      Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{(.*)})?\\s");
  private static final Pattern LABEL =
      Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"");
  private static final Set<String> IMPLIED = Set.of("le", "quantile");

  private ExposedFamilies() {}

  /** The families of {@code exposition}, in the order they are served. */
  public static Map<String, Family> parse(String exposition) {
    Map<String, String> types = new LinkedHashMap<>();
    Map<String, String> helps = new LinkedHashMap<>();
    Map<String, Set<String>> labels = new LinkedHashMap<>();
    for (String line : exposition.split("\n")) {
      Matcher meta = META.matcher(line);
      if (meta.matches()) {
        (meta.group(1).equals("TYPE") ? types : helps).put(meta.group(2), meta.group(3));
        labels.computeIfAbsent(meta.group(2), name -> new LinkedHashSet<>());
        continue;
      }
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      Matcher sample = SAMPLE.matcher(line);
      if (!sample.find()) {
        continue;
      }
      String family = familyOf(sample.group(1), types);
      Set<String> names = labels.computeIfAbsent(family, name -> new LinkedHashSet<>());
      if (sample.group(3) != null) {
        Matcher label = LABEL.matcher(sample.group(3));
        while (label.find()) {
          if (!IMPLIED.contains(label.group(1))) {
            names.add(label.group(1));
          }
        }
      }
    }
    Map<String, Family> families = new LinkedHashMap<>();
    labels.forEach(
        (name, names) ->
            families.put(
                name,
                new Family(
                    name,
                    types.getOrDefault(name, "untyped"),
                    helps.getOrDefault(name, ""),
                    Collections.unmodifiableSet(names))));
    return families;
  }

  /**
   * The families the Prometheus client's JVM instrumentation registers on this JVM (memory, buffer
   * pools, GC, threads, classes, compilation, runtime, and the process's CPU, memory and file
   * descriptors), named as the text format serves them. A family with no sample yet (the memory
   * pools' allocations appear after the first collection) is listed without labels.
   */
  public static Map<String, Family> jvm() {
    PrometheusRegistry registry = new PrometheusRegistry();
    JvmMetrics.builder().register(registry);
    Map<String, Family> families = new LinkedHashMap<>();
    for (MetricSnapshot snapshot : registry.scrape()) {
      String base = snapshot.getMetadata().getPrometheusName();
      String name = base;
      String type;
      if (snapshot instanceof CounterSnapshot) {
        name = base + "_total";
        type = "counter";
      } else if (snapshot instanceof InfoSnapshot) {
        name = base + "_info";
        type = "gauge";
      } else if (snapshot instanceof GaugeSnapshot || snapshot instanceof StateSetSnapshot) {
        type = "gauge";
      } else if (snapshot instanceof HistogramSnapshot) {
        type = "histogram";
      } else if (snapshot instanceof SummarySnapshot) {
        type = "summary";
      } else {
        type = "untyped";
      }
      Set<String> labels = new LinkedHashSet<>();
      for (DataPointSnapshot point : snapshot.getDataPoints()) {
        point.getLabels().forEach(label -> labels.add(label.getName()));
      }
      families.put(
          name,
          new Family(
              name,
              type,
              snapshot.getMetadata().getHelp() == null ? "" : snapshot.getMetadata().getHelp(),
              Collections.unmodifiableSet(labels)));
    }
    return families;
  }

  private static String familyOf(String sample, Map<String, String> types) {
    if (types.containsKey(sample)) {
      return sample;
    }
    for (String suffix :
        new String[] {"_bucket", "_count", "_sum", "_created", "_gsum", "_gcount"}) {
      if (sample.endsWith(suffix)) {
        String family = sample.substring(0, sample.length() - suffix.length());
        if (types.containsKey(family)) {
          return family;
        }
      }
    }
    return sample;
  }
}
