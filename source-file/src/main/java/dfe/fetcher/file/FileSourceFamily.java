package dfe.fetcher.file;

import dfe.fetcher.file.dump.Decoder;
import dfe.fetcher.file.dump.FileDumpSpec;
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
 * }</pre>
 *
 * Globs are checked by the matcher that runs them and made absolute against the configuration
 * file's directory.
 */
public final class FileSourceFamily implements SourceFamily {

  static final List<String> CONNECTION_KEYS = List.of("units");
  static final List<String> UNIT_KEYS = List.of("unit", "enabled", "row_key", "dump");
  static final List<String> DUMP_KEYS =
      List.of("paths", "decoder", "settle_secs", "on_bad_file", "follow_symlinks");

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
    return List.of(CONNECTION_KEYS, UNIT_KEYS, DUMP_KEYS);
  }

  @Override
  public SourceConnection bind(String id, Section connection, BindContext context) {
    return new FileConnection(
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
    unit.require("dump");
    return new FileUnit(
        name,
        enabled,
        rowKey,
        dump(unit.section("dump", DUMP_KEYS), baseDirectory),
        unit.originOf("unit"),
        unit.pathOf("unit"));
  }

  private static FileDumpSpec dump(Section dump, Path baseDirectory) {
    List<String> paths = new ArrayList<>();
    if (dump.require("paths")) {
      List<YamlNode> items = dump.list("paths").orElse(null);
      if (items != null && items.isEmpty()) {
        dump.report("paths", "needs at least one path");
      }
      for (int i = 0; items != null && i < items.size(); i++) {
        String at = dump.pathOf("paths") + "[" + i + "]";
        YamlNode item = items.get(i);
        dump.text(item, at)
            .flatMap(pattern -> glob(pattern, item, at, dump, baseDirectory))
            .ifPresent(paths::add);
      }
    }
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
      String pattern, YamlNode item, String at, Section dump, Path baseDirectory) {
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
          "names a directory, and a dump reads files: write a pattern for its files, e.g. "
              + pattern.replaceAll("/+$", "")
              + "/*.ndjson or "
              + pattern.replaceAll("/+$", "")
              + "/**");
      return Optional.empty();
    }
    return Optional.of(absolute);
  }
}
