package dfe.fetcher.runtime.config;

import dfe.fetcher.source.SourceFamily;
import dfe.fetcher.source.config.BoundSecrets;
import dfe.fetcher.source.config.ConfigException;
import dfe.fetcher.source.config.ConfigOrigin;
import dfe.fetcher.source.config.ConfigProblem;
import dfe.fetcher.source.config.Problems;
import dfe.fetcher.source.config.Secret;
import dfe.fetcher.source.config.YamlNode;
import dfe.fetcher.source.config.YamlTreeReader;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Loads the YAML configuration strictly: unknown keys, wrong types, bad values, duplicate keys and
 * filters that do not compile are all refused, every one of them reported at once as {@code
 * FILE:LINE:COL: path.to.field: message}. Environment variables {@code DFE_FETCHER_<PATH>} override
 * the file and are checked the same way. Secrets are not resolved here (see {@link Secret}), and no
 * problem message holds the value of a secret setting.
 */
public final class ConfigLoader {

  /**
   * {@code DFE_FETCHER_*} variables that are not settings: the launcher's JVM options and class
   * path and class-data archive ({@code DFE_FETCHER_CDS}), the log level and format, and the
   * progress line's mode ({@code DFE_FETCHER_PROGRESS}, read by the command line). Every other
   * {@code DFE_FETCHER_*} variable must name a setting.
   */
  public static final Set<String> NOT_SETTINGS =
      Set.of(
          "DFE_FETCHER_JAVA_OPTS",
          "DFE_FETCHER_LOG_LEVEL",
          "DFE_FETCHER_LOG_FORMAT",
          "DFE_FETCHER_CLASSPATH",
          "DFE_FETCHER_CDS",
          "DFE_FETCHER_PROGRESS");

  private ConfigLoader() {}

  /**
   * The configuration in {@code file} with {@code environment}'s overrides applied.
   *
   * @param environment the process environment (or a stand-in): overrides are read from it, and
   *     {@code env:} secrets are revealed from it later
   * @param filters checks each connection's {@code filter:}
   * @throws ConfigException with every problem found, when there is any
   */
  public static FetcherConfig load(
      Path file, Map<String, String> environment, FilterCompiler filters) throws ConfigException {
    return load(file, environment, filters, SourceFamilies.ALL);
  }

  /**
   * {@link #load(Path, Map, FilterCompiler)}, and also what a run would only find when it starts or
   * ticks: every secret a run uses that cannot be read now, and a Kafka property the producer
   * refuses. Every problem is reported at once, each at its place ({@code config-check}).
   */
  public static FetcherConfig check(
      Path file, Map<String, String> environment, FilterCompiler filters) throws ConfigException {
    return load(file, environment, filters, SourceFamilies.ALL, true);
  }

  /** {@link #load(Path, Map, FilterCompiler)} with the source families given. */
  public static FetcherConfig load(
      Path file,
      Map<String, String> environment,
      FilterCompiler filters,
      List<SourceFamily> families)
      throws ConfigException {
    return load(file, environment, filters, families, false);
  }

  private static FetcherConfig load(
      Path file,
      Map<String, String> environment,
      FilterCompiler filters,
      List<SourceFamily> families,
      boolean checkNow)
      throws ConfigException {
    ConfigOrigin wholeFile = new ConfigOrigin.InFile(file, 0, 0);
    String text;
    try {
      text =
          StandardCharsets.UTF_8
              .newDecoder()
              .decode(ByteBuffer.wrap(Files.readAllBytes(file)))
              .toString();
    } catch (CharacterCodingException e) {
      throw new ConfigException(List.of(new ConfigProblem(wholeFile, "", "is not UTF-8 text")));
    } catch (IOException e) {
      throw new ConfigException(
          List.of(new ConfigProblem(wholeFile, "", "cannot read: " + describe(e))));
    }
    return bind(
        text,
        file,
        environment,
        true,
        filters,
        families,
        (root, problems) -> root,
        SecretsCheck.NONE,
        checkNow);
  }

  /**
   * What a runtime does to the whole tree before it is bound: reports what it refuses and returns
   * the tree to bind (with, say, the settings it implies).
   */
  @FunctionalInterface
  public interface TreeCheck {
    Optional<YamlNode> check(Optional<YamlNode> root, Problems problems);
  }

  /**
   * What a runtime checks of every secret setting a load bound (a runtime that shows its
   * configuration to others may refuse literal values), reporting at each one's place.
   */
  @FunctionalInterface
  public interface SecretsCheck {
    SecretsCheck NONE = (secrets, problems) -> {};

    void check(List<BoundSecrets.Entry> secrets, Problems problems);
  }

  /**
   * The configuration in {@code text}, as a runtime other than the standalone service reads it (a
   * Kafka Connect connector property): problems are reported against {@code name} ({@code
   * NAME:LINE:COL}), relative paths resolve against {@code name}'s directory, {@code environment}
   * reveals {@code env:} secrets but overrides nothing, and {@code check} refuses what that runtime
   * does not use.
   *
   * @throws ConfigException with every problem found, when there is any
   */
  public static FetcherConfig loadText(
      String text,
      Path name,
      Map<String, String> environment,
      FilterCompiler filters,
      TreeCheck check)
      throws ConfigException {
    return loadText(text, name, environment, filters, check, SecretsCheck.NONE);
  }

  /**
   * As {@link #loadText(String, Path, Map, FilterCompiler, TreeCheck)}, with {@code secrets}
   * judging every secret setting bound.
   */
  public static FetcherConfig loadText(
      String text,
      Path name,
      Map<String, String> environment,
      FilterCompiler filters,
      TreeCheck check,
      SecretsCheck secrets)
      throws ConfigException {
    return bind(text, name, environment, false, filters, SourceFamilies.ALL, check, secrets, false);
  }

  private static FetcherConfig bind(
      String text,
      Path file,
      Map<String, String> environment,
      boolean overrides,
      FilterCompiler filters,
      List<SourceFamily> families,
      TreeCheck check,
      SecretsCheck secretsCheck,
      boolean checkNow)
      throws ConfigException {
    ConfigOrigin wholeFile = new ConfigOrigin.InFile(file, 0, 0);
    Problems problems = new Problems();
    Map<String, String> variables = Map.copyOf(environment);
    Optional<YamlNode> root = new YamlTreeReader(file, problems).read(text);
    Optional<EnvironmentOverrides> applied = Optional.empty();
    if (overrides) {
      applied = Optional.of(new EnvironmentOverrides(NOT_SETTINGS, problems));
      root = applied.get().apply(root, wholeFile, variables);
      checkLogLevel(variables, problems);
    }
    root = check.check(root, problems);
    ConfigBinding binding = new ConfigBinding(file, variables, filters, families, problems);
    FetcherConfig config = binding.bind(root, wholeFile);
    secretsCheck.check(binding.secrets().entries(), problems);
    if (checkNow) {
      new RunReadiness(config, binding.secrets(), problems).check();
    }
    if (!problems.isEmpty()) {
      throw new ConfigException(problems.inReadingOrder());
    }
    applied.ifPresent(EnvironmentOverrides::logApplied);
    return config;
  }

  /** The levels {@code DFE_FETCHER_LOG_LEVEL} may name; logging would take any other as DEBUG. */
  static final List<String> LOG_LEVELS = List.of("TRACE", "DEBUG", "INFO", "WARN", "ERROR", "OFF");

  private static void checkLogLevel(Map<String, String> variables, Problems problems) {
    String level = variables.get("DFE_FETCHER_LOG_LEVEL");
    if (level != null && !LOG_LEVELS.contains(level.toUpperCase(Locale.ROOT))) {
      problems.add(
          new ConfigOrigin.InEnvironment("DFE_FETCHER_LOG_LEVEL"),
          "",
          "'" + level + "' is not a log level; one of " + String.join(", ", LOG_LEVELS));
    }
  }

  private static String describe(IOException e) {
    if (e instanceof NoSuchFileException) {
      return "no such file";
    }
    if (e instanceof AccessDeniedException) {
      return "permission denied";
    }
    return e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
  }
}
