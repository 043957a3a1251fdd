package dfe.fetcher.source.config;

import java.nio.file.Path;
import java.util.Objects;

/** Where a setting came from: a place in the configuration file, or an environment variable. */
public sealed interface ConfigOrigin {

  /** {@code FILE:LINE:COL}, {@code FILE} for the file as a whole, or the environment variable. */
  String render();

  /**
   * A place in the configuration file.
   *
   * @param file the file as the caller named it
   * @param line 1-based; 0 when the problem concerns the file as a whole (it cannot be read)
   * @param column 1-based; 0 with line 0
   */
  record InFile(Path file, int line, int column) implements ConfigOrigin {
    public InFile {
      Objects.requireNonNull(file, "file");
    }

    @Override
    public String render() {
      return line == 0 ? file.toString() : file + ":" + line + ":" + column;
    }
  }

  /**
   * An environment variable that overrides the file ({@code DFE_FETCHER_<PATH>}). Only the name is
   * kept: the value may be a secret.
   */
  record InEnvironment(String variable) implements ConfigOrigin {
    public InEnvironment {
      Objects.requireNonNull(variable, "variable");
    }

    @Override
    public String render() {
      return "environment " + variable;
    }
  }
}
