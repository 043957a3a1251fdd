package dfe.fetcher.runtime.config;

import static org.assertj.core.api.Assertions.assertThat;

import dfe.fetcher.file.FileConnection;
import dfe.fetcher.file.FileUnit;
import dfe.fetcher.source.config.ConfigException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The annotated {@code config.example.yaml} at the repository root is the reference of every
 * setting and runs as it is: it must load, mention every key there is and none that is not, and
 * read example data that exists.
 */
class ConfigExampleTest {

  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
  private static final Path EXAMPLE = ROOT.resolve("config.example.yaml");
  private static final Path REFERENCE = ROOT.resolve(Path.of("docs", "configuration.md"));

  /** A key, commented out or not: {@code key:} at the start of a line, maybe after {@code - }. */
  private static final Pattern KEY =
      Pattern.compile("^\\s*(?:#\\s*)?(?:-\\s+)?([a-z_]+):(?:\\s|$)");

  private static FetcherConfig loadExample(FilterCompiler filters) throws ConfigException {
    return ConfigLoader.load(EXAMPLE, Map.of(), filters);
  }

  private static Set<String> knownKeys() {
    return ConfigBinding.knownKeys(SourceFamilies.ALL).stream()
        .flatMap(List::stream)
        .collect(Collectors.toCollection(TreeSet::new));
  }

  private static Set<String> keysMentionedInTheExample(FetcherConfig config) throws IOException {
    Set<String> connectionIds =
        config.connections().stream().map(ConnectionConfig::id).collect(Collectors.toSet());
    Set<String> mentioned = new TreeSet<>();
    for (String line : Files.readAllLines(EXAMPLE)) {
      Matcher key = KEY.matcher(line);
      if (key.find() && !connectionIds.contains(key.group(1))) {
        mentioned.add(key.group(1));
      }
    }
    return mentioned;
  }

  @Test
  void theExampleLoadsWithoutAnyEnvironment() throws Exception {
    List<String> filtersChecked = new ArrayList<>();

    FetcherConfig config =
        loadExample(
            expression -> {
              filtersChecked.add(expression);
              return Optional.empty();
            });

    assertThat(config.connections())
        .extracting(ConnectionConfig::id)
        .containsExactly("inventory", "sites", "warehouse");
    assertThat(filtersChecked).containsExactly("record.alive == true", "record.alive == \"true\"");
  }

  @Test
  void theExampleRunsOnTheEmbeddedDefaultsAndNeverClashesOnAPort() throws Exception {
    FetcherConfig config = loadExample(expression -> Optional.empty());

    assertThat(config.output().type()).isEqualTo(OutputType.FILE);
    assertThat(config.output().fileDirectory()).isEqualTo(ROOT.resolve("landing"));
    assertThat(config.cursor().directory()).isEqualTo(ROOT.resolve("state"));
    assertThat(config.metrics()).isEqualTo(new MetricsConfig("127.0.0.1", 0));
    assertThat(config.output().kafka().properties()).isEmpty();
  }

  @Test
  void theCommentedRestExampleLoadsOnceUncommented(@TempDir Path dir) throws Exception {
    List<String> lines = Files.readAllLines(EXAMPLE);
    List<String> uncommented = new ArrayList<>();
    boolean inRest = false;
    for (String line : lines) {
      inRest |= line.equals("  # rest:");
      uncommented.add(inRest && line.startsWith("  # ") ? "  " + line.substring(4) : line);
    }
    Path copy = dir.resolve("config.yaml");
    Files.write(copy, uncommented);
    Files.createDirectories(dir.resolve("examples"));
    for (Path data : List.of(Path.of("examples"))) {
      copyTree(ROOT.resolve(data), dir.resolve(data));
    }

    FetcherConfig config = ConfigLoader.load(copy, Map.of(), expression -> Optional.empty());

    assertThat(config.connections())
        .extracting(ConnectionConfig::id)
        .containsExactly(
            "inventory",
            "sites",
            "warehouse",
            "github",
            "okta",
            "cmdb",
            "aws",
            "google",
            "okta-oauth",
            "portal",
            "intranet",
            "duo",
            "datadog",
            "lab");
  }

  @Test
  void theCommentedTailExampleLoadsOnceUncommented(@TempDir Path dir) throws Exception {
    List<String> uncommented = new ArrayList<>();
    boolean inTail = false;
    for (String line : Files.readAllLines(EXAMPLE)) {
      inTail = line.equals("    # \"logs\":") || (inTail && line.startsWith("    #"));
      uncommented.add(inTail ? "    " + line.substring(6) : line);
    }
    Path copy = dir.resolve("config.yaml");
    Files.write(copy, uncommented);
    copyTree(ROOT.resolve("examples"), dir.resolve("examples"));

    FetcherConfig config = ConfigLoader.load(copy, Map.of(), expression -> Optional.empty());

    ConnectionConfig logs =
        config.connections().stream().filter(c -> c.id().equals("logs")).findFirst().orElseThrow();
    FileUnit unit = ((FileConnection) logs.source()).fileUnits().get(0);
    assertThat(unit.tail()).isPresent();
    assertThat(unit.tail().get().multiline()).isPresent();
  }

  private static void copyTree(Path from, Path to) throws IOException {
    try (Stream<Path> files = Files.walk(from)) {
      for (Path file : files.toList()) {
        Path target = to.resolve(from.relativize(file).toString());
        if (Files.isDirectory(file)) {
          Files.createDirectories(target);
        } else {
          Files.copy(file, target, StandardCopyOption.REPLACE_EXISTING);
        }
      }
    }
  }

  @Test
  void everyKeyTheExampleMentionsIsKnown() throws Exception {
    Set<String> mentioned = keysMentionedInTheExample(loadExample(expression -> Optional.empty()));

    assertThat(mentioned).isNotEmpty().isSubsetOf(knownKeys());
  }

  @Test
  void theExampleMentionsEveryKeyThereIs() throws Exception {
    Set<String> mentioned = keysMentionedInTheExample(loadExample(expression -> Optional.empty()));

    assertThat(mentioned).containsAll(knownKeys());
  }

  @Test
  void theOperatorsReferenceDescribesEveryKeyThereIs() throws Exception {
    String reference = Files.readString(REFERENCE);

    assertThat(knownKeys()).allSatisfy(key -> assertThat(reference).contains("`" + key));
  }

  @Test
  void everyExampleUnitReadsAtLeastOneShippedFile() throws Exception {
    FetcherConfig config = loadExample(expression -> Optional.empty());
    List<Path> shipped;
    try (Stream<Path> files = Files.walk(ROOT.resolve("examples"))) {
      shipped = files.filter(Files::isRegularFile).toList();
    }

    for (ConnectionConfig connection : config.connections()) {
      if (!(connection.source() instanceof FileConnection files)) {
        continue;
      }
      for (FileUnit unit : files.fileUnits()) {
        if (unit.isTail()) {
          continue; // a tail follows files of the machine it runs on, not shipped ones
        }
        List<PathMatcher> globs =
            unit.dump().orElseThrow().paths().stream()
                .map(glob -> FileSystems.getDefault().getPathMatcher("glob:" + glob))
                .toList();
        assertThat(shipped)
            .as(connection.id() + "." + unit.unit())
            .anyMatch(file -> globs.stream().anyMatch(glob -> glob.matches(file)));
      }
    }
  }

  @Test
  void theExampleDataIncludesARealGzipFile() throws Exception {
    Path gzip = ROOT.resolve("examples/data/hosts/hosts-2026-05-02.ndjson.gz");

    try (InputStream in = new GZIPInputStream(Files.newInputStream(gzip))) {
      String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      assertThat(text.lines()).hasSizeGreaterThan(5).allMatch(line -> line.startsWith("{\"id\":"));
    }
  }
}
