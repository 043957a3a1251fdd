package dfe.fetcher.runtime.config;

import dfe.fetcher.core.row.Mark;
import dfe.fetcher.core.row.Shape;
import dfe.fetcher.runtime.tick.FilterErrors;
import dfe.fetcher.source.BindContext;
import dfe.fetcher.source.SourceConnection;
import dfe.fetcher.source.SourceFamily;
import dfe.fetcher.source.SourceUnit;
import dfe.fetcher.source.config.ConfigOrigin;
import dfe.fetcher.source.config.Names;
import dfe.fetcher.source.config.Problems;
import dfe.fetcher.source.config.Section;
import dfe.fetcher.source.config.YamlNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Binds {@code sources}: every family's connection ids are checked for clashes, the settings every
 * connection has ({@link SourceFamily#COMMON_CONNECTION_KEYS}) are bound here, and the rest of each
 * connection is handed to its family. A reserved family name this build does not read is refused.
 */
final class SourcesBinding {

  private static final int MAX_INT = Integer.MAX_VALUE;

  private final List<SourceFamily> families;
  private final BindContext context;
  private final FilterCompiler filters;
  private final Problems problems;

  SourcesBinding(
      List<SourceFamily> families, BindContext context, FilterCompiler filters, Problems problems) {
    this.families = families;
    this.context = context;
    this.filters = filters;
    this.problems = problems;
  }

  /** {@code sources}' keys: the families this build reads, and the ones it refuses. */
  static List<String> keys(List<SourceFamily> families) {
    List<String> keys = new ArrayList<>();
    families.forEach(family -> keys.add(family.name()));
    SourceFamilies.PLANNED.stream().filter(name -> !keys.contains(name)).forEach(keys::add);
    return keys;
  }

  /**
   * Binds every connection. {@code dlqTopic} is where dead letters go: no unit may land there, and
   * no two units may land on one topic (their frames would mix, and a consumer could not tell one
   * store's snapshots from the other's by topic).
   */
  List<ConnectionConfig> bind(Section sources, OutputConfig output, String dlqTopic) {
    Map<String, String> idsSeen = new HashMap<>();
    List<String> known = families.stream().map(SourceFamily::name).toList();
    for (String family : keys(families)) {
      if (!known.contains(family)) {
        sources
            .entry(family)
            .ifPresent(
                entry ->
                    problems.add(
                        entry.keyOrigin(),
                        sources.pathOf(family),
                        "is not supported by this build yet; only "
                            + listed(known.stream().map(k -> "sources." + k).toList())
                            + (known.size() == 1 ? " is" : " are")));
      }
    }
    List<ConnectionConfig> connections = new ArrayList<>();
    for (String name : keys(families)) {
      Optional<SourceFamily> family =
          families.stream().filter(f -> f.name().equals(name)).findFirst();
      String familyPath = sources.pathOf(name);
      for (YamlNode.Entry entry : sources.namedEntries(name).orElse(List.of())) {
        String id = entry.key();
        String at = Section.join(familyPath, id);
        Names.check(id, entry.keyOrigin(), at, problems);
        String firstUse = idsSeen.putIfAbsent(id, at + " (" + entry.keyOrigin().render() + ")");
        if (firstUse != null) {
          problems.add(
              entry.keyOrigin(),
              at,
              "connection id '"
                  + id
                  + "' is already used by "
                  + firstUse
                  + "; ids must be unique across "
                  + SourcesBinding.listed(
                      keys(families).stream().map(k -> "sources." + k).toList()));
        }
        if (family.isPresent()) {
          connections.add(connection(family.get(), id, entry, at, output));
        }
      }
    }
    checkTopicsAreOwnedOnce(connections, output, dlqTopic);
    checkResumableDumpsReadBack(connections, output);
    return connections;
  }

  /**
   * A resumable dump ({@code resume: by_key}) continues after what actually landed, which only the
   * Kafka output can read back (a landing file's frames carry no row key, and changing the frame
   * format is not ours to do): on the file output it is refused rather than risk a seq that landed
   * being numbered again for a changed row.
   */
  private void checkResumableDumpsReadBack(
      List<ConnectionConfig> connections, OutputConfig output) {
    if (output.type() == OutputType.KAFKA) {
      return;
    }
    for (ConnectionConfig connection : connections) {
      for (SourceUnit unit : connection.source().units()) {
        if (unit.markKind().equals(Optional.of(Mark.Kind.DUMP_RESUME))) {
          problems.add(
              unit.origin(),
              unit.settingPath("resume"),
              "resume: by_key needs output.type: kafka: a resumed snapshot continues after the"
                  + " frames that landed, which are read back from the store's partition; the "
                  + output.type().configName()
                  + " output cannot be read back");
        }
      }
    }
  }

  /**
   * A dump owns its topic alone: its frames would mix with another's, and a consumer tells one
   * store's snapshots from another's by topic. Tail units may share a topic (two tail stores of one
   * connection do, on {@code <topic><suffix>}): each record names its unit in {@code
   * _source_fetcher}. Nothing lands on the DLQ's topic. A disabled unit (or a unit of a disabled
   * connection) lands nothing, so it owns no topic and is never refused here: it is checked when it
   * is enabled.
   */
  private void checkTopicsAreOwnedOnce(
      List<ConnectionConfig> connections, OutputConfig output, String dlqTopic) {
    Map<String, String> owners = new HashMap<>();
    Set<String> sharedByTails = new HashSet<>();
    owners.put(dlqTopic, "dlq.topic");
    Set<String> stores = new HashSet<>();
    for (ConnectionConfig connection : connections) {
      if (connection.topic().isEmpty() || !connection.enabled()) {
        continue;
      }
      for (SourceUnit unit : connection.source().units()) {
        if (!unit.enabled()) {
          continue;
        }
        if (!stores.add(connection.id() + "." + unit.unit())) {
          continue; // a duplicate unit name, which its family reports
        }
        String topic = output.topicOf(connection.topic(), unit.unit(), unit.shape());
        String owner = unit.path() + " (" + unit.origin().render() + ")";
        String first = owners.putIfAbsent(topic, owner);
        boolean tail = unit.shape() == Shape.TAIL;
        if (first == null) {
          if (tail) {
            sharedByTails.add(topic);
          }
        } else if (!(tail && sharedByTails.contains(topic))) {
          problems.add(
              unit.origin(),
              unit.path(),
              "lands on topic '"
                  + topic
                  + "', already used by "
                  + first
                  + (tail || sharedByTails.contains(topic)
                      ? "; a dump needs a topic of its own"
                      : "")
                  + "; give one of them another topic or unit name");
        }
      }
    }
  }

  /** {@code a, b and c}. */
  static String listed(List<String> items) {
    if (items.size() < 2) {
      return String.join("", items);
    }
    return String.join(", ", items.subList(0, items.size() - 1))
        + " and "
        + items.get(items.size() - 1);
  }

  private ConnectionConfig connection(
      SourceFamily family, String id, YamlNode.Entry entry, String at, OutputConfig output) {
    List<String> allowed = new ArrayList<>(SourceFamily.COMMON_CONNECTION_KEYS);
    allowed.addAll(family.connectionKeys());
    Section connection =
        Section.of(Optional.of(entry.value()), entry.keyOrigin(), at, allowed, problems);
    Optional<String> topicValue = connection.requiredString("topic");
    String topic = topicValue.orElse("");
    if (topicValue.isPresent()) { // a value of the wrong type is reported once, as that
      TopicNames.check(
          topic, connection.originOf("topic"), connection.pathOf("topic"), false, problems);
    }
    OptionalLong interval = connection.integer("interval_secs", 1, MAX_INT);
    boolean enabled = connection.bool("enabled", true);
    Optional<String> filter = connection.string("filter");
    filter.ifPresent(
        expression ->
            checkFilter(expression, connection.originOf("filter"), connection.pathOf("filter")));
    FilterErrors onError = filterErrors(connection);
    SourceConnection bound = family.bind(id, connection, context);
    if (!topic.isEmpty()) {
      for (SourceUnit unit : bound.units()) {
        checkTopicLength(output.topicOf(topic, unit.unit(), unit.shape()), unit);
      }
    }
    return new ConnectionConfig(
        family.name(),
        id,
        topic,
        interval.isPresent() ? OptionalInt.of((int) interval.getAsLong()) : OptionalInt.empty(),
        enabled,
        filter,
        onError,
        bound);
  }

  private static FilterErrors filterErrors(Section connection) {
    String name = connection.string("filter_errors", FilterErrors.KEEP.configName());
    for (FilterErrors value : FilterErrors.values()) {
      if (value.configName().equals(name)) {
        return value;
      }
    }
    connection.report(
        "filter_errors", "unknown value '" + name + "'; one of keep (the default), drop");
    return FilterErrors.KEEP;
  }

  private void checkTopicLength(String unitTopic, SourceUnit unit) {
    if (unitTopic.length() > TopicNames.MAX_TOPIC_LENGTH) {
      problems.add(
          unit.origin(),
          unit.path(),
          "lands on topic '"
              + unitTopic
              + "', "
              + unitTopic.length()
              + " characters; Kafka allows "
              + TopicNames.MAX_TOPIC_LENGTH);
    }
  }

  private void checkFilter(String expression, ConfigOrigin origin, String at) {
    if (expression.isBlank()) {
      problems.add(origin, at, "must not be empty; leave filter out to land every row");
      return;
    }
    try {
      filters
          .problem(expression)
          .ifPresent(problem -> problems.add(origin, at, "does not compile: " + problem));
    } catch (RuntimeException e) {
      problems.add(
          origin,
          at,
          "could not be checked: " + e.getClass().getSimpleName() + ": " + e.getMessage());
    }
  }
}
