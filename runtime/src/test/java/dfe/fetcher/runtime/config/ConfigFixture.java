package dfe.fetcher.runtime.config;

import dfe.fetcher.source.config.ConfigException;
import dfe.fetcher.source.config.ConfigProblem;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A configuration file in a test's directory, loaded with a fake filter compiler that refuses any
 * expression containing {@code ((}. Problems come back rendered with the directory cut off, so a
 * test reads {@code config.yaml:3:5: path: message}.
 */
final class ConfigFixture {

  static final FilterCompiler FAKE_FILTERS =
      expression ->
          expression.contains("((")
              ? Optional.of("unbalanced parentheses at '(('")
              : Optional.empty();

  private final Path directory;

  ConfigFixture(Path directory) {
    this.directory = directory;
  }

  Path directory() {
    return directory;
  }

  Path write(String name, String yaml) {
    Path file = directory.resolve(name);
    try {
      Files.createDirectories(file.getParent());
      Files.writeString(file, yaml);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return file;
  }

  FetcherConfig load(String yaml) throws ConfigException {
    return load(yaml, Map.of());
  }

  FetcherConfig load(String yaml, Map<String, String> environment) throws ConfigException {
    return ConfigLoader.load(write("config.yaml", yaml), environment, FAKE_FILTERS);
  }

  List<String> problems(String yaml) {
    return problems(yaml, Map.of());
  }

  /** The rendered problems of a configuration that must be refused. */
  List<String> problems(String yaml, Map<String, String> environment) {
    try {
      load(yaml, environment);
    } catch (ConfigException e) {
      return e.problems().stream().map(ConfigProblem::render).map(this::relative).toList();
    }
    throw new AssertionError("the configuration loaded, but it should have been refused");
  }

  String relative(String text) {
    return text.replace(directory + "/", "");
  }
}
