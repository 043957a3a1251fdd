package dfe.fetcher.source;

import dfe.fetcher.source.config.BoundSecrets;
import dfe.fetcher.source.config.ConfigOrigin;
import dfe.fetcher.source.config.Problems;
import dfe.fetcher.source.config.Secret;
import dfe.fetcher.source.config.vault.VaultSecrets;
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
 * @param secrets where every secret bound is listed with its place, for a check that reveals them
 * @param vault what every {@code vault:} secret of this configuration is read through: one client,
 *     one login and one cache
 */
public record BindContext(
    Path baseDirectory,
    Map<String, String> environment,
    Problems problems,
    BoundSecrets secrets,
    VaultSecrets vault) {

  public BindContext {
    Objects.requireNonNull(baseDirectory, "baseDirectory");
    environment = Map.copyOf(environment);
    Objects.requireNonNull(problems, "problems");
    Objects.requireNonNull(secrets, "secrets");
    Objects.requireNonNull(vault, "vault");
  }

  /** Reading {@code vault:} secrets with the environment's {@code VAULT_*} and the default TTL. */
  public BindContext(
      Path baseDirectory,
      Map<String, String> environment,
      Problems problems,
      BoundSecrets secrets) {
    this(baseDirectory, environment, problems, secrets, new VaultSecrets(environment));
  }

  public BindContext(Path baseDirectory, Map<String, String> environment, Problems problems) {
    this(baseDirectory, environment, problems, new BoundSecrets());
  }

  /**
   * A secret setting's value as a {@link Secret}: resolved each time it is revealed (so a rotated
   * file is read afresh), never printed. A spec that names nothing usable is reported.
   */
  public Optional<Secret> secret(String spec, ConfigOrigin origin, String at) {
    return secret(spec, origin, at, Secret.Characters.ANY);
  }

  /**
   * As {@link #secret(String, ConfigOrigin, String)}, the value checked for {@code characters}
   * whenever it is revealed (by a run and by {@code config-check}).
   */
  public Optional<Secret> secret(
      String spec, ConfigOrigin origin, String at, Secret.Characters characters) {
    try {
      Secret secret =
          Secret.parse(spec, at, environment, baseDirectory, vault).requiring(characters);
      secrets.add(secret, origin, at);
      return Optional.of(secret);
    } catch (IllegalArgumentException e) {
      problems.add(origin, at, e.getMessage());
      return Optional.empty();
    }
  }
}
