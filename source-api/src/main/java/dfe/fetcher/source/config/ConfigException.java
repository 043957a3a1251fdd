package dfe.fetcher.source.config;

import java.util.List;
import java.util.stream.Collectors;

/**
 * A configuration that cannot be used, with every problem found in it (not just the first), in file
 * order, then the environment overrides' problems by variable name. The message is the rendered
 * problems, one a line, and never holds a secret.
 */
public final class ConfigException extends Exception {

  private static final long serialVersionUID = 1L;

  private final transient List<ConfigProblem> problems;

  public ConfigException(List<ConfigProblem> problems) {
    super(problems.stream().map(ConfigProblem::render).collect(Collectors.joining("\n")));
    if (problems.isEmpty()) {
      throw new IllegalArgumentException("a ConfigException needs at least one problem");
    }
    this.problems = List.copyOf(problems);
  }

  public List<ConfigProblem> problems() {
    return problems;
  }
}
