import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * The checker of the fault campaign (benchmarks/scripts/fault-campaign.sh): what landed on Kafka
 * against what the sources hold, after the fetcher was killed and restarted. Run on the fetcher
 * jar's class path (kafka-clients and Jackson are in it). Each check prints one line, {@code check:
 * ok ...} or {@code check: FAIL ...}, and the exit status is 1 when any failed.
 *
 * <pre>
 * dump BOOTSTRAP TOPIC VERIFY_JSON RUNS SOURCE...
 * </pre>
 *
 * Every snapshot the project's own {@code snapshots verify --format json} reported (VERIFY_JSON) is
 * judged: a complete one must hold exactly the records of one SOURCE file (one JSON value a line,
 * compared as JSON values, in any order, each as many times), every SOURCE must have such a
 * complete snapshot, no snapshot may be truncated or in conflict, and an open one must be the last
 * snapshot its store began within a run that was killed (RUNS: one line {@code START_MS END_MS
 * killed|stopped} per run of the fetcher): a kill cuts at most one dump of a store. A line {@code
 * START_MS END_MS fault} is a fault the service lived through (a broker stopped, a disk full): an
 * open snapshot begun while it lasted, or the last its store began before it, is explained by it.
 *
 * <pre>
 * tail BOOTSTRAP TOPIC STORE POINTER EXPECTED
 * </pre>
 *
 * Every line of EXPECTED must be, as text, the value at POINTER of at least one record on TOPIC
 * whose {@code _source_fetcher} is STORE.
 */
public class FaultCampaignCheck {

  private static final ObjectMapper JSON = new ObjectMapper();

  public static void main(String[] args) throws Exception {
    boolean ok =
        switch (args[0]) {
          case "dump" ->
              dump(
                  args[1],
                  args[2],
                  Path.of(args[3]),
                  Path.of(args[4]),
                  List.of(args).subList(5, args.length));
          case "tail" -> tail(args[1], args[2], args[3], args[4], Path.of(args[5]));
          default -> throw new IllegalArgumentException("no check named " + args[0]);
        };
    System.exit(ok ? 0 : 1);
  }

  enum RunKind {
    KILLED,
    STOPPED,
    FAULT
  }

  record Run(long start, long end, RunKind kind) {}

  record Snapshot(String id, String store, String status, long at) {}

  private static boolean dump(
      String bootstrap, String topic, Path verify, Path runsFile, List<String> sources)
      throws IOException {
    Map<String, Map<Long, String>> rows = new HashMap<>();
    Map<String, Long> begunAt = new HashMap<>();
    read(
        bootstrap,
        topic,
        frame -> {
          String id = frame.path("snapshot_id").asText();
          begunAt.putIfAbsent(id, Instant.parse(frame.path("snapshot_at").asText()).toEpochMilli());
          if (frame.path("kind").asText().equals("row")) {
            rows.computeIfAbsent(id, k -> new TreeMap<>())
                .put(frame.path("seq").asLong(), canonical(frame.get("record")));
          }
        });
    List<Snapshot> snapshots = new ArrayList<>();
    for (String line : Files.readAllLines(verify)) {
      if (line.isBlank()) {
        continue;
      }
      JsonNode report = JSON.readTree(line);
      String id = report.path("snapshot_id").asText();
      snapshots.add(
          new Snapshot(
              id,
              report.path("store").asText(),
              report.path("status").asText(),
              begunAt.getOrDefault(id, -1L)));
    }
    List<Run> runs = new ArrayList<>();
    for (String line : Files.readAllLines(runsFile)) {
      String[] parts = line.trim().split(" ");
      runs.add(
          new Run(
              Long.parseLong(parts[0]),
              Long.parseLong(parts[1]),
              RunKind.valueOf(parts[2].toUpperCase(java.util.Locale.ROOT))));
    }

    Map<List<String>, String> sourceBySet = new LinkedHashMap<>();
    for (String source : sources) {
      sourceBySet.put(canonical(Files.readAllLines(Path.of(source))), source);
    }
    Set<String> matched = new HashSet<>();
    List<String> problems = new ArrayList<>();
    int complete = 0;
    int open = 0;
    for (Snapshot snapshot : snapshots) {
      switch (snapshot.status()) {
        case "complete" -> {
          complete++;
          List<String> records =
              new ArrayList<>(rows.getOrDefault(snapshot.id(), Map.of()).values());
          records.sort(null);
          String source = sourceBySet.get(records);
          if (source == null) {
            problems.add(
                "complete snapshot "
                    + snapshot.id()
                    + " ("
                    + records.size()
                    + " rows) equals no source");
          } else {
            matched.add(source);
          }
        }
        case "open" -> {
          open++;
          String why = openExplained(snapshot, snapshots, runs);
          if (why != null) {
            problems.add("open snapshot " + snapshot.id() + " " + why);
          }
        }
        default -> problems.add(snapshot.status() + " snapshot " + snapshot.id());
      }
    }
    for (String source : sources) {
      if (!matched.contains(source)) {
        problems.add("no complete snapshot equals " + Path.of(source).getFileName());
      }
    }
    String figures =
        "topic=%s snapshots=%d complete=%d open=%d sources=%d"
            .formatted(topic, snapshots.size(), complete, open, sources.size());
    return report(figures, problems);
  }

  /** Null when a fault, a kill (or the final stop) explains the open snapshot, else why not. */
  private static String openExplained(Snapshot open, List<Snapshot> all, List<Run> runs) {
    for (Run fault : runs) {
      if (fault.kind() != RunKind.FAULT) {
        continue;
      }
      if (open.at() >= fault.start() && open.at() <= fault.end()) {
        return null;
      }
      boolean inProgressAtStart =
          open.at() < fault.start()
              && all.stream()
                  .noneMatch(
                      other ->
                          other.store().equals(open.store())
                              && other.at() > open.at()
                              && other.at() < fault.start());
      if (inProgressAtStart) {
        return null;
      }
    }
    for (Run run : runs) {
      if (run.kind() == RunKind.FAULT) {
        continue;
      }
      if (open.at() >= run.start() && open.at() <= run.end()) {
        for (Snapshot other : all) {
          if (other.store().equals(open.store())
              && other.at() > open.at()
              && other.at() <= run.end()) {
            return "was followed by snapshot " + other.id() + " in the same run: no kill cut it";
          }
        }
        return null;
      }
    }
    return "began outside every run (at " + open.at() + ")";
  }

  /** The lines as JSON values printed one way, in sorted order: a multiset of values. */
  private static List<String> canonical(List<String> lines) throws IOException {
    List<String> values = new ArrayList<>();
    for (String line : lines) {
      if (!line.isBlank()) {
        values.add(canonical(JSON.readTree(line)));
      }
    }
    values.sort(null);
    return values;
  }

  /** A JSON value printed with its object keys sorted and no spacing, so those do not matter. */
  private static String canonical(JsonNode value) {
    if (value.isObject()) {
      TreeMap<String, String> members = new TreeMap<>();
      value.properties().forEach(e -> members.put(e.getKey(), canonical(e.getValue())));
      StringBuilder out = new StringBuilder("{");
      members.forEach(
          (name, member) -> {
            if (out.length() > 1) {
              out.append(',');
            }
            out.append(quote(name)).append(':').append(member);
          });
      return out.append('}').toString();
    }
    if (value.isArray()) {
      List<String> elements = new ArrayList<>();
      value.forEach(element -> elements.add(canonical(element)));
      return "[" + String.join(",", elements) + "]";
    }
    return value.toString();
  }

  private static String quote(String name) {
    return com.fasterxml.jackson.databind.node.TextNode.valueOf(name).toString();
  }

  private static boolean tail(
      String bootstrap, String topic, String store, String pointer, Path expectedFile)
      throws IOException {
    Map<String, Integer> landed = new HashMap<>();
    read(
        bootstrap,
        topic,
        record -> {
          if (record.path("_source_fetcher").asText().equals(store)) {
            landed.merge(record.at(pointer).asText(), 1, Integer::sum);
          }
        });
    List<String> expected = Files.readAllLines(expectedFile);
    List<String> missing = new ArrayList<>();
    for (String key : expected) {
      if (!landed.containsKey(key)) {
        missing.add(key);
      }
    }
    long records = landed.values().stream().mapToLong(Integer::longValue).sum();
    List<String> problems = new ArrayList<>();
    if (!missing.isEmpty()) {
      problems.add(
          missing.size()
              + " of "
              + expected.size()
              + " never landed, first "
              + missing.subList(0, Math.min(5, missing.size())));
    }
    if (expected.isEmpty()) {
      problems.add("nothing was written to " + expectedFile + ": the check proves nothing");
    }
    String figures =
        "topic=%s store=%s expected=%d records=%d again=%d missing=%d"
            .formatted(
                topic,
                store,
                expected.size(),
                records,
                records - (expected.size() - missing.size()),
                missing.size());
    return report(figures, problems);
  }

  private static boolean report(String figures, List<String> problems) {
    if (problems.isEmpty()) {
      System.out.println("check: ok " + figures);
      return true;
    }
    System.out.println("check: FAIL " + figures + " problems=" + problems.size());
    problems.stream().limit(20).forEach(problem -> System.out.println("  " + problem));
    return false;
  }

  /** Every record of every partition of the topic, from the beginning to the end offsets now. */
  private static void read(String bootstrap, String topic, Consumer<JsonNode> each)
      throws IOException {
    Properties settings = new Properties();
    settings.put("bootstrap.servers", bootstrap);
    settings.put("allow.auto.create.topics", "false");
    settings.put("key.deserializer", ByteArrayDeserializer.class.getName());
    settings.put("value.deserializer", ByteArrayDeserializer.class.getName());
    settings.put("max.poll.records", "5000");
    settings.put("max.partition.fetch.bytes", String.valueOf(16 << 20));
    try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(settings)) {
      List<TopicPartition> partitions = new ArrayList<>();
      for (PartitionInfo info : consumer.partitionsFor(topic, Duration.ofSeconds(30))) {
        partitions.add(new TopicPartition(topic, info.partition()));
      }
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
      while (partitions.stream().anyMatch(p -> consumer.position(p) < ends.get(p))) {
        for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofSeconds(1))) {
          each.accept(JSON.readTree(record.value()));
        }
      }
    }
  }
}
