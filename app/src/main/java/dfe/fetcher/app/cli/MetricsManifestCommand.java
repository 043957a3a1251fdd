package dfe.fetcher.app.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dfe.fetcher.app.metrics.ExposedFamilies;
import dfe.fetcher.runtime.metrics.MetricManifest;
import dfe.fetcher.runtime.metrics.MetricManifest.Series;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code dfe-fetcher metrics-manifest}: every series the fetcher serves, with its type, labels and
 * meaning. Needs no configuration and starts nothing.
 */
@Command(
    name = "metrics-manifest",
    mixinStandardHelpOptions = true,
    description = {
      "Prints every series the fetcher serves on /metrics (run) and snapshots apply serves on its"
          + " --metrics-address: name, type, label names, the process serving it, and its meaning;"
          + " the JVM's and the process's series as the Prometheus client's JVM instrumentation"
          + " names them on this JVM.",
      "Exit 0."
    })
final class MetricsManifestCommand implements Callable<Integer> {

  /** One line of the manifest. */
  record Entry(String name, String type, List<String> labels, String servedBy, String meaning) {}

  @ParentCommand private DfeFetcher root;

  @Option(
      names = "--format",
      paramLabel = "table|json",
      defaultValue = "table",
      description = "table (default) or json: one array of {name,type,labels,served_by,meaning}")
  private Format format;

  enum Format {
    table,
    json
  }

  @Override
  public Integer call() throws Exception {
    PrintStream out = root.terminal().out();
    List<Entry> entries = entries();
    switch (format) {
      case table -> {
        TextTable table = new TextTable("SERIES", "TYPE", "LABELS", "SERVED BY", "MEANING");
        for (Entry entry : entries) {
          table.add(
              entry.name(),
              entry.type(),
              entry.labels().isEmpty() ? "-" : String.join(",", entry.labels()),
              entry.servedBy(),
              entry.meaning());
        }
        table.print(out);
      }
      case json -> {
        ObjectMapper json = new ObjectMapper();
        ArrayNode array = json.createArrayNode();
        for (Entry entry : entries) {
          ObjectNode node = array.addObject();
          node.put("name", entry.name());
          node.put("type", entry.type());
          ArrayNode labels = node.putArray("labels");
          entry.labels().forEach(labels::add);
          node.put("served_by", entry.servedBy());
          node.put("meaning", entry.meaning());
        }
        out.println(json.writeValueAsString(array));
      }
    }
    out.flush();
    return 0;
  }

  /** The fetcher's own series, then the JVM's, then those of {@code snapshots apply}. */
  static List<Entry> entries() {
    List<Entry> entries = new ArrayList<>();
    for (Series series : MetricManifest.SERVICE) {
      entries.add(of(series, "run"));
    }
    for (ExposedFamilies.Family family : ExposedFamilies.jvm().values()) {
      entries.add(
          new Entry(
              family.name(),
              family.type(),
              List.copyOf(family.labels()),
              "run",
              family.help() + " (JVM instrumentation)"));
    }
    for (Series series : MetricManifest.APPLY) {
      entries.add(of(series, "snapshots apply"));
    }
    return entries;
  }

  private static Entry of(Series series, String servedBy) {
    return new Entry(
        series.name(), series.type().wireName(), series.labels(), servedBy, series.meaning());
  }
}
