package dfe.fetcher.source.config;

import java.util.Objects;

/**
 * One thing wrong with a configuration, rendered {@code FILE:LINE:COL: path.to.field: message}. The
 * message never holds the value of a secret setting.
 *
 * @param origin where the offending node is (or the variable that set it)
 * @param path the setting's path, e.g. {@code sources.file.inventory.units[0].unit}; empty for the
 *     document as a whole
 * @param message what is wrong, in terms the operator can act on
 */
public record ConfigProblem(ConfigOrigin origin, String path, String message) {

  public ConfigProblem {
    Objects.requireNonNull(origin, "origin");
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(message, "message");
  }

  public String render() {
    return origin.render() + ": " + (path.isEmpty() ? "" : path + ": ") + message;
  }

  @Override
  public String toString() {
    return render();
  }
}
