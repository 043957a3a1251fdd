package dfe.fetcher.rest.auth;

import dfe.fetcher.source.BindContext;
import dfe.fetcher.source.config.Secret;
import dfe.fetcher.source.config.Section;
import java.util.Objects;
import java.util.Optional;

/**
 * What a mode's binder reads.
 *
 * @param auth the instance's {@code auth}, where problems are reported
 * @param profileAuth the profile's {@code auth}: defaults for {@code header}, {@code prefix},
 *     {@code query_param}, {@code token_url} and {@code scope}
 * @param context resolves secret specs
 */
public record AuthSettings(Section auth, Section profileAuth, BindContext context) {

  public AuthSettings {
    Objects.requireNonNull(auth, "auth");
    Objects.requireNonNull(profileAuth, "profileAuth");
    Objects.requireNonNull(context, "context");
  }

  /** The instance's {@code key}, else the profile's default. */
  Optional<String> string(String key) {
    return auth.string(key).or(() -> profileAuth.string(key));
  }

  /**
   * The secret spec at {@code key}, required; one missing or naming nothing is reported, and stands
   * as an empty secret so binding goes on.
   */
  Secret secret(String key) {
    return secret(key, Secret.Characters.ANY);
  }

  /** As {@link #secret(String)}, for a value that must hold only {@code characters}. */
  Secret secret(String key, Secret.Characters characters) {
    return auth.requiredString(key)
        .flatMap(spec -> context.secret(spec, auth.originOf(key), auth.pathOf(key), characters))
        .orElse(Secret.literal(auth.pathOf(key), ""));
  }
}
