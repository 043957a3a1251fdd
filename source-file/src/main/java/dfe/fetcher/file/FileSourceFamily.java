package dfe.fetcher.file;

import dfe.fetcher.file.dump.Decoder;
import dfe.fetcher.file.dump.FileDumpSpec;
import dfe.fetcher.file.tail.FileTailSpec;
import dfe.fetcher.file.tail.FingerprintSpec;
import dfe.fetcher.file.tail.FingerprintStrategy;
import dfe.fetcher.file.tail.MultilineSpec;
import dfe.fetcher.file.tail.ReadFrom;
import dfe.fetcher.file.tail.TailDecoder;
import dfe.fetcher.source.BindContext;
import dfe.fetcher.source.SourceConnection;
import dfe.fetcher.source.SourceFamily;
import dfe.fetcher.source.config.Section;
import dfe.fetcher.source.config.UnitNames;
import dfe.fetcher.source.config.YamlNode;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Function;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * {@code sources.file}: connections whose units dump files.
 *
 * <pre>{@code
 * sources:
 *   file:
 *     <connection>:
 *       topic: ...                 # common connection keys, bound by the application
 *       units:
 *         - unit: <name>
 *           enabled: true
 *           row_key: /id
 *           dump: {paths: ["data/**\/*.ndjson"], decoder: auto,
 *                  settle_secs: 0, on_bad_file: stop, follow_symlinks: false}
 *         - unit: <name>             # or, instead of dump:
 *           tail: {paths: ["/var/log/app/*.log"], exclude: ["*.gz"], read_from: beginning,
 *                  decoder: ndjson, max_line_bytes: 102400,
 *                  multiline: {start: "^\\d{4}-", timeout_ms: 1000},
 *                  fingerprint: {strategy: checksum, bytes: 256, header_bytes: 0},
 *                  rotate_wait_secs: 10, ignore_older_secs: 86400, glob_interval_secs: 10,
 *                  max_open_files: 1024}
 * }</pre>
 *
 * Globs are checked by the matcher that runs them and made absolute against the configuration
 * file's directory.
 */
public final class FileSourceFamily implements SourceFamily {

  static final List<String> CONNECTION_KEYS = List.of("units");
  static final List<String> UNIT_KEYS = List.of("unit", "enabled", "row_key", "dump", "tail");
  static final List<String> DUMP_KEYS =
      List.of("paths", "decoder", "settle_secs", "on_bad_file", "follow_symlinks");
  static final List<String> TAIL_KEYS =
      List.of(
          "paths",
          "exclude",
          "read_from",
          "decoder",
          "max_line_bytes",
          "multiline",
          "fingerprint",
          "rotate_wait_secs",
          "ignore_older_secs",
          "glob_interval_secs",
          "max_open_files",
          "partial_line_timeout_secs");
  static final List<String> MULTILINE_KEYS = List.of("start", "continuation", "timeout_ms");
  static final List<String> FINGERPRINT_KEYS = List.of("strategy", "bytes", "header_bytes");

  @Override
  public String name() {
    return "file";
  }

  @Override
  public List<String> connectionKeys() {
    return CONNECTION_KEYS;
  }

  @Override
  public List<List<String>> knownKeys() {
    return List.of(
        CONNECTION_KEYS, UNIT_KEYS, DUMP_KEYS, TAIL_KEYS, MULTILINE_KEYS, FINGERPRINT_KEYS);
  }

  @Override
  public SourceConnection bind(String id, Section connection, BindContext context) {
    return new FileConnection(
        id,
        UnitNames.bindEach(
            connection,
            "units",
            "unit",
            UNIT_KEYS,
            "connection",
            unit -> unit(unit, context.baseDirectory()),
            FileUnit::unit));
  }

  private static FileUnit unit(Section unit, Path baseDirectory) {
    String name = unit.requiredName("unit");
    boolean enabled = unit.bool("enabled", true);
    Optional<String> rowKey = unit.rowKey("row_key");
    boolean isTail = unit.node("tail").isPresent();
    if (isTail && unit.node("dump").isPresent()) {
      unit.report("tail", "a unit either dumps its files or tails them: keep one of dump and tail");
    } else if (!isTail && unit.node("dump").isEmpty()) {
      unit.report("dump", "is required (or tail, for a unit that follows growing files)");
    }
    if (!isTail && unit.node("dump").isEmpty()) {
      // Reported above; a placeholder keeps binding going without a second problem about it.
      return new FileUnit(
          name,
          enabled,
          rowKey,
          Optional.of(
              new FileDumpSpec(List.of(baseDirectory.toString()), baseDirectory, Decoder.AUTO)),
          Optional.empty(),
          unit.originOf("unit"),
          unit.pathOf("unit"));
    }
    Optional<FileDumpSpec> dump =
        isTail
            ? Optional.empty()
            : Optional.of(dump(unit.section("dump", DUMP_KEYS), baseDirectory));
    Optional<FileTailSpec> tail =
        isTail
            ? Optional.of(tail(unit.section("tail", TAIL_KEYS), baseDirectory))
            : Optional.empty();
    return new FileUnit(
        name, enabled, rowKey, dump, tail, unit.originOf("unit"), unit.pathOf("unit"));
  }

  private static FileTailSpec tail(Section tail, Path baseDirectory) {
    List<String> paths = globs(tail, "paths", baseDirectory, true);
    List<String> exclude = new ArrayList<>();
    List<YamlNode> excluded = tail.list("exclude").orElse(List.of());
    for (int i = 0; i < excluded.size(); i++) {
      String at = tail.pathOf("exclude") + "[" + i + "]";
      YamlNode item = excluded.get(i);
      Optional<String> pattern = tail.text(item, at);
      if (pattern.isEmpty()) {
        continue;
      }
      if (pattern.get().isBlank()) {
        tail.report(item, at, "must not be empty");
        continue;
      }
      // A pattern without '/' is matched against file names; one with '/' against whole paths.
      String glob =
          pattern.get().contains("/")
              ? baseDirectory.resolve(pattern.get()).normalize().toString()
              : pattern.get();
      Optional<String> problem =
          FileDumpSpec.globProblem(
              glob, pattern.get().contains("/") ? baseDirectory : Path.of("/"));
      if (problem.isPresent()) {
        tail.report(item, at, "is not a valid glob: " + problem.get());
        continue;
      }
      exclude.add(glob);
    }
    ReadFrom readFrom =
        choice(tail, "read_from", ReadFrom.values(), ReadFrom::configName, ReadFrom.BEGINNING);
    TailDecoder decoder =
        choice(tail, "decoder", TailDecoder.values(), TailDecoder::configName, TailDecoder.NDJSON);
    int maxLineBytes =
        tail.smallInteger("max_line_bytes", FileTailSpec.DEFAULT_MAX_LINE_BYTES, 1, 1 << 30);
    Optional<MultilineSpec> multiline =
        tail.node("multiline").isPresent()
            ? multiline(tail.section("multiline", MULTILINE_KEYS))
            : Optional.empty();
    FingerprintSpec fingerprint = fingerprint(tail.section("fingerprint", FINGERPRINT_KEYS));
    Duration rotateWait =
        Duration.ofSeconds(
            tail.integer(
                "rotate_wait_secs", FileTailSpec.DEFAULT_ROTATE_WAIT.toSeconds(), 0, 86_400 * 7));
    OptionalLong ignoreOlder = tail.integer("ignore_older_secs", 1, Integer.MAX_VALUE);
    Duration globInterval =
        Duration.ofSeconds(
            tail.integer(
                "glob_interval_secs", FileTailSpec.DEFAULT_GLOB_INTERVAL.toSeconds(), 0, 86_400));
    int maxOpenFiles =
        tail.smallInteger("max_open_files", FileTailSpec.DEFAULT_MAX_OPEN_FILES, 1, 1_000_000);
    OptionalLong partialLineTimeout = tail.integer("partial_line_timeout_secs", 1, 86_400 * 7);
    if (paths.isEmpty()) {
      paths.add(baseDirectory.toString()); // reported; a placeholder keeps binding going
    }
    return new FileTailSpec(
        paths,
        exclude,
        baseDirectory,
        readFrom,
        decoder,
        maxLineBytes,
        multiline,
        fingerprint,
        rotateWait,
        ignoreOlder.isPresent()
            ? Optional.of(Duration.ofSeconds(ignoreOlder.getAsLong()))
            : Optional.empty(),
        globInterval,
        maxOpenFiles,
        partialLineTimeout.isPresent()
            ? Optional.of(Duration.ofSeconds(partialLineTimeout.getAsLong()))
            : Optional.empty());
  }

  private static Optional<MultilineSpec> multiline(Section multiline) {
    Optional<String> start = multiline.string("start");
    Optional<String> continuation = multiline.string("continuation");
    Duration timeout = Duration.ofMillis(multiline.integer("timeout_ms", 1000, 1, 3_600_000));
    if (start.isPresent() == continuation.isPresent()) {
      multiline.report(
          multiline.node("start").isPresent() ? "continuation" : "start",
          start.isPresent()
              ? "give one of start and continuation, not both"
              : "needs start (a pattern of the line an event starts with) or continuation (a"
                  + " pattern of the lines that continue one)");
      return Optional.empty();
    }
    String key = start.isPresent() ? "start" : "continuation";
    String pattern = start.orElseGet(continuation::get);
    try {
      Pattern.compile(pattern);
    } catch (PatternSyntaxException e) {
      multiline.report(
          key, "is not a valid regular expression: " + e.getDescription() + " at " + e.getIndex());
      return Optional.empty();
    }
    return Optional.of(
        new MultilineSpec(
            start.isPresent() ? MultilineSpec.Mode.START : MultilineSpec.Mode.CONTINUATION,
            pattern,
            timeout));
  }

  private static FingerprintSpec fingerprint(Section fingerprint) {
    FingerprintStrategy strategy =
        choice(
            fingerprint,
            "strategy",
            FingerprintStrategy.values(),
            FingerprintStrategy::configName,
            FingerprintStrategy.CHECKSUM);
    int bytes = fingerprint.smallInteger("bytes", FingerprintSpec.DEFAULT_BYTES, 1, 1 << 20);
    int headerBytes = fingerprint.smallInteger("header_bytes", 0, 0, 1 << 20);
    if (headerBytes > 0 && strategy == FingerprintStrategy.DEVICE_AND_INODE) {
      fingerprint.report(
          "header_bytes",
          "applies to strategy checksum only (device_and_inode checks the first bytes from the"
              + " start)");
    }
    return new FingerprintSpec(strategy, bytes, headerBytes);
  }

  /** The value of a closed vocabulary at {@code key}; {@code fallback} when absent or unknown. */
  private static <T> T choice(
      Section section, String key, T[] values, Function<T, String> name, T fallback) {
    Optional<String> written = section.string(key);
    if (written.isEmpty()) {
      return fallback;
    }
    for (T value : values) {
      if (name.apply(value).equals(written.get())) {
        return value;
      }
    }
    section.report(
        key,
        "unknown value '"
            + written.get()
            + "'; one of "
            + String.join(", ", Arrays.stream(values).map(name).toList()));
    return fallback;
  }

  /** The globs of the required list {@code key}, absolute, each checked by its matcher. */
  private static List<String> globs(
      Section section, String key, Path baseDirectory, boolean forTail) {
    List<String> paths = new ArrayList<>();
    if (section.require(key)) {
      List<YamlNode> items = section.list(key).orElse(null);
      if (items != null && items.isEmpty()) {
        section.report(key, "needs at least one path");
      }
      for (int i = 0; items != null && i < items.size(); i++) {
        String at = section.pathOf(key) + "[" + i + "]";
        YamlNode item = items.get(i);
        section
            .text(item, at)
            .flatMap(pattern -> glob(pattern, item, at, section, baseDirectory, forTail))
            .ifPresent(paths::add);
      }
    }
    return paths;
  }

  private static FileDumpSpec dump(Section dump, Path baseDirectory) {
    List<String> paths = globs(dump, "paths", baseDirectory, false);
    Decoder decoder = Decoder.AUTO;
    Optional<String> decoderName = dump.string("decoder");
    if (decoderName.isPresent()) {
      Optional<Decoder> named =
          Arrays.stream(Decoder.values())
              .filter(d -> d.configName().equals(decoderName.get()))
              .findFirst();
      if (named.isPresent()) {
        decoder = named.get();
      } else {
        dump.report(
            "decoder",
            "unknown decoder '"
                + decoderName.get()
                + "'; one of "
                + String.join(
                    ", ", Arrays.stream(Decoder.values()).map(Decoder::configName).toList()));
      }
    }
    Duration settle = Duration.ofSeconds(dump.integer("settle_secs", 0, 0, Integer.MAX_VALUE));
    FileDumpSpec.BadFilePolicy onBadFile = FileDumpSpec.BadFilePolicy.STOP;
    Optional<String> policyName = dump.string("on_bad_file");
    if (policyName.isPresent()) {
      Optional<FileDumpSpec.BadFilePolicy> named =
          Arrays.stream(FileDumpSpec.BadFilePolicy.values())
              .filter(p -> p.configName().equals(policyName.get()))
              .findFirst();
      if (named.isPresent()) {
        onBadFile = named.get();
      } else {
        dump.report("on_bad_file", "unknown policy '" + policyName.get() + "'; one of stop, skip");
      }
    }
    boolean followSymlinks = dump.bool("follow_symlinks", false);
    if (paths.isEmpty()) {
      // Reported above; a placeholder keeps the spec constructible so binding goes on.
      paths.add(baseDirectory.toString());
    }
    return new FileDumpSpec(paths, baseDirectory, decoder, settle, onBadFile, followSymlinks);
  }

  /** {@code pattern} made absolute against the config's directory, once the runner accepts it. */
  private static Optional<String> glob(
      String pattern, YamlNode item, String at, Section dump, Path baseDirectory, boolean forTail) {
    if (pattern.isBlank()) {
      dump.report(item, at, "must not be empty");
      return Optional.empty();
    }
    String absolute;
    try {
      absolute = baseDirectory.resolve(pattern).normalize().toString();
    } catch (InvalidPathException e) {
      dump.report(item, at, "is not a path: " + e.getReason());
      return Optional.empty();
    }
    Optional<String> problem = FileDumpSpec.globProblem(absolute, baseDirectory);
    if (problem.isPresent()) {
      dump.report(item, at, "is not a valid glob: " + problem.get());
      return Optional.empty();
    }
    if (FileDumpSpec.namesADirectory(absolute, baseDirectory)) {
      dump.report(
          item,
          at,
          "names a directory, and a "
              + (forTail ? "tail follows" : "dump reads")
              + " files: write a pattern for its files, e.g. "
              + pattern.replaceAll("/+$", "")
              + "/*.ndjson or "
              + pattern.replaceAll("/+$", "")
              + "/**");
      return Optional.empty();
    }
    return Optional.of(absolute);
  }
}
