package dfe.fetcher.source;

import dfe.fetcher.source.config.ConfigOrigin;
import dfe.fetcher.source.config.Problems;
import dfe.fetcher.source.config.Secret;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What a family needs while binding, besides its section.
 *
 * @param baseDirectory the configuration file's directory: what relative paths resolve against
 * @param environment where {@code env:} secrets are looked up when revealed
 * @param problems where binding reports
 */
public record BindContext(Path baseDirectory, Map<String, String> environment, Problems problems) {

  public BindContext {
    Objects.requireNonNull(baseDirectory, "baseDirectory");
    environment = Map.copyOf(environment);
    Objects.requireNonNull(problems, "problems");
  }

  /**
   * A secret setting's value as a {@link Secret}: resolved each time it is revealed (so a rotated
   * file is read afresh), never printed. A spec that names nothing usable is reported.
   */
  public Optional<Secret> secret(String spec, ConfigOrigin origin, String at) {
    try {
      return Optional.of(Secret.parse(spec, at, environment, baseDirectory));
    } catch (IllegalArgumentException e) {
      problems.add(origin, at, e.getMessage());
      return Optional.empty();
    }
  }
}
