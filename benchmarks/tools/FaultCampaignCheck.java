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
import java.util.function.BiConsumer;
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
 * whose {@code _source_fetcher} is STORE; with the environment's CHECK_TAIL_ONCE=1 (an exactly-once
 * runtime) of exactly one.
 *
 * <p>dump and tail read a topic as a consumer does by default (read_uncommitted); with the
 * environment's CHECK_ISOLATION_LEVEL=read_committed they see only committed transactions.
 *
 * <pre>
 * checkpoints BOOTSTRAP TOPIC STORE KIND SNAPSHOTS [ARG...]
 * </pre>
 *
 * No checkpoint ahead of an acknowledgement: SNAPSHOTS is a directory of {@code NAME.json}, a
 * copy of the store's cursor file taken right after a run ended (kill N: {@code round-00N}; the
 * catch-up: {@code round-last}), and {@code NAME.ms}, the time it ended. Every record before the
 * checkpointed position must be on TOPIC (a record of STORE) with a Kafka timestamp (the
 * producer's send time) before that end: it was on the topic when the checkpoint was. KIND says
 * how a position is read: {@code keyset}, the events of a tail keyed on an id counted from 0
 * (every id up to the key); {@code window}, the local REST server's events, one every ARG ms
 * (every event whose time is before the window's end, and which the server made: a second ARG
 * names the file of the ids it made, once it stopped); {@code file_tail}, the files of directory
 * ARG (each entry's file found by its fingerprint, every line before its offset, by {@code
 * /message}).
 *
 * <p>With BOOTSTRAP {@code files}, TOPIC is a comma-separated list of files read in that order, one
 * message a line, instead of a topic: the file output's landing files, or what {@code follow} kept.
 *
 * <pre>
 * follow BOOTSTRAP OUT_DIR STOP_FILE TOPIC...
 * </pre>
 *
 * A consumer that follows each TOPIC from its beginning (waiting for it to exist) and appends every
 * message to OUT_DIR/TOPIC.ndjson, a line each, until STOP_FILE exists; then it reads on to the end
 * offsets of that moment and exits. What it kept is what a consumer saw, also of a topic that was
 * deleted later. A STOP_FILE there from the start reads what the topics hold now, and a topic that
 * does not exist yet is then an empty file.
 *
 * <pre>
 * serving BOOTSTRAP PHASES
 * </pre>
 *
 * The faults of the rest-faults family, one line of PHASES each: {@code ON_MS OFF_MS FAULT CUT
 * TARGETS SERVED}, TARGETS and SERVED comma lists of {@code TOPIC/STORE/dump|tail} (SERVED may be
 * {@code -}), CUT {@code cut} when a stop ended the fault. A served dump must have completed a
 * snapshot begun and ended while the fault was in force, a served tail must have landed a record
 * then: the process kept serving its other units. A target dump's first snapshot begun after the
 * fault must have its {@code end}, a target tail must land records after it: the unit recovered.
 * With CUT (ON: the server holds a page of the dump; OFF: the process exited on SIGTERM), no
 * snapshot of the target may end between ON and OFF: the cut dump lands no {@code end}. Each
 * phase's figures follow the check line.
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
          case "follow" ->
              follow(
                  args[1],
                  Path.of(args[2]),
                  Path.of(args[3]),
                  List.of(args).subList(4, args.length));
          case "serving" -> serving(args[1], Path.of(args[2]));
          case "checkpoints" ->
              checkpoints(
                  args[1],
                  args[2],
                  args[3],
                  args[4],
                  Path.of(args[5]),
                  List.of(args).subList(6, args.length));
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
            .formatted(place(bootstrap, topic), snapshots.size(), complete, open, sources.size());
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
    if ("1".equals(System.getenv("CHECK_TAIL_ONCE"))) {
      List<String> twice =
          expected.stream().filter(key -> landed.getOrDefault(key, 0) > 1).toList();
      if (!twice.isEmpty()) {
        problems.add(
            twice.size()
                + " landed more than once (exactly once), first "
                + twice.subList(0, Math.min(5, twice.size())));
      }
    }
    String figures =
        "topic=%s store=%s expected=%d records=%d again=%d missing=%d"
            .formatted(
                place(bootstrap, topic),
                store,
                expected.size(),
                records,
                records - (expected.size() - missing.size()),
                missing.size());
    return report(figures, problems);
  }

  /** The checkpoints copied after each kill against what the topic held at that kill. */
  private static boolean checkpoints(
      String bootstrap, String topic, String store, String kind, Path snapshots, List<String> args)
      throws IOException {
    String arg = args.isEmpty() ? "" : args.get(0);
    // window: the events the server made (it makes none after its stop, which a catch-up's
    // windows pass); no file: every event up to the window's end was made.
    long lastMade = Long.MAX_VALUE;
    if (kind.equals("window") && args.size() > 1) {
      lastMade =
          Files.readAllLines(Path.of(args.get(1))).stream()
              .filter(line -> !line.isBlank())
              .mapToLong(Long::parseLong)
              .max()
              .orElse(-1);
    }
    List<long[]> landed = new ArrayList<>(); // id or -1, timestamp
    Map<String, Long> firstLanded = new HashMap<>(); // a line's text: its first timestamp
    long[] origin = {Long.MIN_VALUE}; // the REST server's start: at - id * step
    read(
        bootstrap,
        topic,
        (record, timestamp) -> {
          if (!record.path("_source_fetcher").asText().equals(store)) {
            return;
          }
          if (kind.equals("file_tail")) {
            firstLanded.merge(record.path("message").asText(), timestamp, Math::min);
            return;
          }
          long id = record.path("id").asLong();
          landed.add(new long[] {id, timestamp});
          if (kind.equals("window") && origin[0] == Long.MIN_VALUE) {
            long at = Instant.parse(record.path("at").asText()).toEpochMilli();
            origin[0] = at - id * Long.parseLong(arg);
          }
        });
    List<String> problems = new ArrayList<>();
    int rounds = 0;
    int checked = 0;
    long positions = 0;
    List<Path> copies;
    try (var listing = Files.list(snapshots)) {
      copies = listing.filter(p -> p.getFileName().toString().endsWith(".json")).sorted().toList();
    }
    for (Path copy : copies) {
      String round = copy.getFileName().toString().replace(".json", "");
      rounds++;
      long killedAt = Long.parseLong(Files.readString(snapshots.resolve(round + ".ms")).trim());
      JsonNode mark = JSON.readTree(copy.toFile()).path("mark");
      checked++;
      switch (kind) {
        case "keyset" -> {
          long key = mark.path("values").path(0).path("value").asLong();
          positions += key + 1;
          Set<Long> before = new HashSet<>();
          for (long[] record : landed) {
            if (record[1] < killedAt) {
              before.add(record[0]);
            }
          }
          List<Long> missing = new ArrayList<>();
          for (long id = 0; id <= key && missing.size() < 5; id++) {
            if (!before.contains(id)) {
              missing.add(id);
            }
          }
          if (!missing.isEmpty()) {
            problems.add(round + ": checkpoint after key " + key + ", but ids " + missing
                + " were not on the topic at the kill");
          }
        }
        case "window" -> {
          long end = Instant.parse(mark.path("end").asText()).toEpochMilli();
          long step = Long.parseLong(arg);
          if (origin[0] == Long.MIN_VALUE) {
            problems.add(round + ": no event landed, so no event time is known");
            continue;
          }
          Set<Long> before = new HashSet<>();
          for (long[] record : landed) {
            if (record[1] < killedAt) {
              before.add(record[0]);
            }
          }
          List<Long> missing = new ArrayList<>();
          long ids = 0;
          for (long id = 0; origin[0] + id * step < end && id <= lastMade; id++) {
            ids++;
            if (!before.contains(id) && missing.size() < 5) {
              missing.add(id);
            }
          }
          positions += ids;
          if (!missing.isEmpty()) {
            problems.add(round + ": windows committed up to " + mark.path("end").asText()
                + ", but events " + missing + " were not on the topic at the kill");
          }
        }
        case "file_tail" -> {
          for (JsonNode entry : mark.path("files")) {
            String fingerprint = entry.path("fingerprint").asText();
            long offset = entry.path("offset").asLong();
            Path file = byFingerprint(Path.of(arg), fingerprint);
            if (file == null) {
              problems.add(round + ": no file of " + arg + " has fingerprint " + fingerprint);
              continue;
            }
            byte[] content = Files.readAllBytes(file);
            if (content.length < offset) {
              problems.add(
                  round + ": " + file + " is shorter than its checkpointed offset " + offset);
              continue;
            }
            String text =
                new String(content, 0, (int) offset, java.nio.charset.StandardCharsets.UTF_8);
            List<String> missing = new ArrayList<>();
            for (String line : text.split("\n")) {
              if (line.isEmpty()) {
                continue;
              }
              positions++;
              Long at = firstLanded.get(line);
              if ((at == null || at >= killedAt) && missing.size() < 3) {
                missing.add(line.length() > 20 ? line.substring(0, 20) + "..." : line);
              }
            }
            if (!missing.isEmpty()) {
              problems.add(round + ": " + file.getFileName() + " checkpointed at offset " + offset
                  + ", but lines " + missing + " were not on the topic at the kill");
            }
          }
        }
        default -> throw new IllegalArgumentException("no checkpoint kind " + kind);
      }
    }
    if (checked == 0) {
      problems.add("no checkpoint was copied into " + snapshots + ": the check proves nothing");
    }
    return report(
        "topic=%s store=%s kind=%s checkpoints=%d positions_checked=%d"
            .formatted(place(bootstrap, topic), store, kind, rounds, positions),
        problems);
  }

  /** The file of DIR whose bytes match a tail checkpoint's fingerprint, {@code checksum:S:E:D}. */
  private static Path byFingerprint(Path dir, String fingerprint) throws IOException {
    String[] parts = fingerprint.split(":");
    int start = Integer.parseInt(parts[1]);
    int end = Integer.parseInt(parts[2]);
    String digest = parts[3];
    try (var listing = Files.list(dir)) {
      for (Path file : listing.sorted().toList()) {
        byte[] content = Files.readAllBytes(file);
        if (content.length < end) {
          continue;
        }
        try {
          byte[] sha =
              java.security.MessageDigest.getInstance("SHA-256")
                  .digest(java.util.Arrays.copyOfRange(content, start, end));
          if (java.util.HexFormat.of().formatHex(sha, 0, 8).equals(digest)) {
            return file;
          }
        } catch (java.security.NoSuchAlgorithmException e) {
          throw new IllegalStateException(e);
        }
      }
    }
    return null;
  }

  /** The topic, or for files the last one's name and how many were read. */
  private static String place(String bootstrap, String topic) {
    if (!bootstrap.equals("files")) {
      return topic;
    }
    String[] files = topic.split(",");
    return Path.of(files[files.length - 1]).getFileName() + "(" + files.length + " files)";
  }

  record Unit(String topic, String store, boolean dump) {
    static List<Unit> list(String text) {
      List<Unit> units = new ArrayList<>();
      if (!text.equals("-")) {
        for (String unit : text.split(",")) {
          String[] parts = unit.split("/");
          units.add(new Unit(parts[0], parts[1], parts[2].equals("dump")));
        }
      }
      return units;
    }
  }

  record Phase(
      long on, long off, String fault, boolean cut, List<Unit> targets, List<Unit> served) {}

  /** A dump's snapshot as its frames say: when it began and, once its end landed, when it ended. */
  record Landed(String id, String store, long begun, Long ended) {}

  private static boolean serving(String bootstrap, Path phasesFile) throws IOException {
    List<Phase> phases = new ArrayList<>();
    for (String line : Files.readAllLines(phasesFile)) {
      if (!line.isBlank()) {
        String[] parts = line.trim().split(" ");
        phases.add(
            new Phase(
                Long.parseLong(parts[0]),
                Long.parseLong(parts[1]),
                parts[2],
                parts[3].equals("cut"),
                Unit.list(parts[4]),
                Unit.list(parts[5])));
      }
    }
    Map<String, List<Landed>> snapshots = new HashMap<>(); // by store, in the order begun
    Map<String, List<Long>> records = new HashMap<>(); // a tail store's records' timestamps
    Set<String> topics = new HashSet<>();
    for (Phase phase : phases) {
      for (Unit unit : concat(phase.targets(), phase.served())) {
        if (!topics.add(unit.topic() + "/" + unit.dump())) {
          continue;
        }
        if (unit.dump()) {
          Map<String, Landed> byId = new LinkedHashMap<>();
          read(
              bootstrap,
              unit.topic(),
              frame -> {
                String id = frame.path("snapshot_id").asText();
                Landed seen =
                    byId.computeIfAbsent(
                        id,
                        k ->
                            new Landed(
                                id,
                                frame.path("store").asText(),
                                Instant.parse(frame.path("snapshot_at").asText()).toEpochMilli(),
                                null));
                if (frame.path("kind").asText().equals("end")) {
                  byId.put(
                      id,
                      new Landed(
                          id,
                          seen.store(),
                          seen.begun(),
                          Instant.parse(frame.path("completed_at").asText()).toEpochMilli()));
                }
              });
          for (Landed landed : byId.values()) {
            snapshots.computeIfAbsent(landed.store(), k -> new ArrayList<>()).add(landed);
          }
          snapshots
              .values()
              .forEach(list -> list.sort((a, b) -> Long.compare(a.begun(), b.begun())));
        } else {
          read(
              bootstrap,
              unit.topic(),
              (record, timestamp) ->
                  records
                      .computeIfAbsent(
                          record.path("_source_fetcher").asText(), k -> new ArrayList<>())
                      .add(timestamp));
        }
      }
    }
    List<String> problems = new ArrayList<>();
    List<String> figures = new ArrayList<>();
    for (Phase phase : phases) {
      String name = phase.fault() + " " + phase.on() + ".." + phase.off();
      StringBuilder line =
          new StringBuilder("  phase " + phase.fault() + " " + (phase.off() - phase.on()) + "ms:");
      for (Unit unit : phase.targets()) {
        if (unit.dump()) {
          List<Landed> all = snapshots.getOrDefault(unit.store(), List.of());
          long ended =
              all.stream().filter(s -> within(s.begun(), phase) && s.ended() != null).count();
          long unended =
              all.stream().filter(s -> within(s.begun(), phase) && s.ended() == null).count();
          line.append(" target ")
              .append(unit.store())
              .append(" complete=")
              .append(ended)
              .append(" unended=")
              .append(unended);
          Landed next = all.stream().filter(s -> s.begun() > phase.off()).findFirst().orElse(null);
          if (next == null || next.ended() == null) {
            problems.add(
                name
                    + ": "
                    + unit.store()
                    + "'s first snapshot after the fault "
                    + (next == null ? "never began" : next.id() + " has no end"));
          }
          if (phase.cut()) {
            // From ON (the server holds a page of the dump) to OFF (the process has exited), the
            // held dump is the store's only one in flight: no end may land then.
            Landed cut = null;
            for (Landed s : all) {
              if (s.ended() != null && within(s.ended(), phase)) {
                problems.add(
                    name
                        + ": "
                        + unit.store()
                        + "'s snapshot "
                        + s.id()
                        + " ended while the stop cut its dump");
              }
              if (s.begun() <= phase.on()) {
                cut = s;
              }
            }
            line.append(
                cut != null && cut.ended() == null
                    ? " cut=" + cut.id() + " (open on the topic)"
                    : " cut=none (nothing of the cut dump on the topic)");
          }
        } else {
          List<Long> times = records.getOrDefault(unit.store(), List.of());
          long during = times.stream().filter(t -> within(t, phase)).count();
          long after = times.stream().filter(t -> t > phase.off()).count();
          line.append(" target ").append(unit.store()).append(" records=").append(during);
          if (after == 0) {
            problems.add(name + ": " + unit.store() + " landed nothing after the fault");
          }
        }
      }
      for (Unit unit : phase.served()) {
        if (unit.dump()) {
          long complete =
              snapshots.getOrDefault(unit.store(), List.of()).stream()
                  .filter(
                      s -> s.begun() >= phase.on() && s.ended() != null && s.ended() <= phase.off())
                  .count();
          line.append(" served ").append(unit.store()).append(" complete=").append(complete);
          if (complete == 0) {
            problems.add(
                name + ": " + unit.store() + " completed no snapshot while the fault was in force");
          }
        } else {
          long during =
              records.getOrDefault(unit.store(), List.of()).stream()
                  .filter(t -> within(t, phase))
                  .count();
          line.append(" served ").append(unit.store()).append(" records=").append(during);
          if (during == 0) {
            problems.add(
                name + ": " + unit.store() + " landed no record while the fault was in force");
          }
        }
      }
      figures.add(line.toString());
    }
    boolean ok = report("phases=%d".formatted(phases.size()), problems);
    figures.forEach(System.out::println);
    return ok;
  }

  private static boolean within(long millis, Phase phase) {
    return millis >= phase.on() && millis <= phase.off();
  }

  private static List<Unit> concat(List<Unit> a, List<Unit> b) {
    List<Unit> all = new ArrayList<>(a);
    all.addAll(b);
    return all;
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

  /**
   * Every record of every partition of the topic, from the beginning to the end offsets now; with
   * {@code bootstrap} "files", every line of the files {@code topic} lists.
   */
  private static void read(String bootstrap, String topic, Consumer<JsonNode> each)
      throws IOException {
    read(bootstrap, topic, (value, timestamp) -> each.accept(value));
  }

  /** As {@link #read(String, String, Consumer)}, with each record's Kafka timestamp (ms). */
  private static void read(String bootstrap, String topic, BiConsumer<JsonNode, Long> each)
      throws IOException {
    if (bootstrap.equals("files")) {
      for (String file : topic.split(",")) {
        for (String line : Files.readAllLines(Path.of(file))) {
          if (!line.isBlank()) {
            each.accept(JSON.readTree(line), -1L);
          }
        }
      }
      return;
    }
    Properties settings = new Properties();
    settings.put("bootstrap.servers", bootstrap);
    settings.put("allow.auto.create.topics", "false");
    settings.put("key.deserializer", ByteArrayDeserializer.class.getName());
    settings.put("value.deserializer", ByteArrayDeserializer.class.getName());
    settings.put("max.poll.records", "5000");
    settings.put("max.partition.fetch.bytes", String.valueOf(16 << 20));
    // What a read_committed consumer sees, when the campaign asks (a family landing through
    // transactions); else every record, as a consumer by default.
    String isolation = System.getenv("CHECK_ISOLATION_LEVEL");
    if (isolation != null && !isolation.isEmpty()) {
      settings.put("isolation.level", isolation);
    }
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
          each.accept(JSON.readTree(record.value()), record.timestamp());
        }
      }
    }
  }

  private static boolean follow(String bootstrap, Path outDir, Path stopFile, List<String> topics)
      throws IOException, InterruptedException {
    Properties settings = new Properties();
    settings.put("bootstrap.servers", bootstrap);
    settings.put("allow.auto.create.topics", "false");
    settings.put("auto.offset.reset", "earliest");
    settings.put("key.deserializer", ByteArrayDeserializer.class.getName());
    settings.put("value.deserializer", ByteArrayDeserializer.class.getName());
    Files.createDirectories(outDir);
    Map<String, java.io.Writer> out = new HashMap<>();
    for (String topic : topics) {
      out.put(
          topic,
          Files.newBufferedWriter(
              outDir.resolve(topic + ".ndjson"),
              java.nio.file.StandardOpenOption.CREATE,
              java.nio.file.StandardOpenOption.APPEND));
    }
    try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(settings)) {
      List<TopicPartition> partitions = new ArrayList<>();
      // Listed at least once, so a STOP_FILE there from the start reads what the topics hold now.
      boolean listedOnce = false;
      while (partitions.isEmpty() && (!listedOnce || !Files.exists(stopFile))) {
        listedOnce = true;
        try {
          Map<String, List<PartitionInfo>> listed = consumer.listTopics(Duration.ofSeconds(5));
          if (listed.keySet().containsAll(topics)) {
            for (String topic : topics) {
              for (PartitionInfo info : listed.get(topic)) {
                partitions.add(new TopicPartition(topic, info.partition()));
              }
            }
          }
        } catch (org.apache.kafka.common.errors.TimeoutException e) {
          // The broker is not answering yet: ask again.
        }
        if (partitions.isEmpty()) {
          Thread.sleep(100);
        }
      }
      if (partitions.isEmpty()) {
        return true;
      }
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      Map<TopicPartition, Long> ends = null;
      while (ends == null || behind(consumer, partitions, ends)) {
        if (ends == null && Files.exists(stopFile)) {
          try {
            ends = consumer.endOffsets(partitions, Duration.ofSeconds(30));
          } catch (org.apache.kafka.common.errors.TimeoutException e) {
            continue;
          }
        }
        for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
          java.io.Writer writer = out.get(record.topic());
          writer.write(new String(record.value(), java.nio.charset.StandardCharsets.UTF_8));
          writer.write('\n');
        }
        for (java.io.Writer writer : out.values()) {
          writer.flush();
        }
      }
    } finally {
      for (java.io.Writer writer : out.values()) {
        writer.close();
      }
    }
    return true;
  }

  private static boolean behind(
      KafkaConsumer<byte[], byte[]> consumer,
      List<TopicPartition> partitions,
      Map<TopicPartition, Long> ends) {
    return partitions.stream().anyMatch(p -> consumer.position(p) < ends.get(p));
  }
}
