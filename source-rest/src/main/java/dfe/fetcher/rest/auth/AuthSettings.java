package dfe.fetcher.rest.auth;

import dfe.fetcher.source.BindContext;
import dfe.fetcher.source.config.Secret;
import dfe.fetcher.source.config.Section;
import java.net.URI;
import java.net.URISyntaxException;
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

  private static final URI INVALID = URI.create("http://invalid/");

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

  /** The secret at {@code key} when it is given, as {@link #secret(String, Secret.Characters)}. */
  Optional<Secret> optionalSecret(String key, Secret.Characters characters) {
    return auth.node(key).isPresent() ? Optional.of(secret(key, characters)) : Optional.empty();
  }

  /**
   * The http or https URL at {@code key} (the instance's, else the profile's), reported when it is
   * not one; {@code http://invalid/} stands in then so binding goes on.
   */
  Optional<URI> url(String key) {
    Optional<String> text = string(key);
    if (text.isEmpty()) {
      return Optional.empty();
    }
    try {
      URI uri = new URI(text.get());
      if (uri.getHost() == null
          || uri.getScheme() == null
          || !(uri.getScheme().equalsIgnoreCase("https")
              || uri.getScheme().equalsIgnoreCase("http"))) {
        auth.report(key, "must be an http or https URL");
        return Optional.of(INVALID);
      }
      return Optional.of(uri);
    } catch (URISyntaxException e) {
      auth.report(key, "is not a URL: " + e.getReason());
      return Optional.of(INVALID);
    }
  }

  /** As {@link #url}, reported as required for {@code mode} when absent. */
  URI requiredUrl(String key, AuthMode mode) {
    Optional<URI> url = url(key);
    if (url.isEmpty()) {
      auth.report(key, "is required for " + mode.configName());
    }
    return url.orElse(INVALID);
  }

  /** The instance's {@code key}, reported as required for {@code mode} when absent. */
  String required(String key, AuthMode mode) {
    Optional<String> value = string(key);
    if (value.isEmpty() && auth.node(key).isEmpty()) {
      auth.report(key, "is required for " + mode.configName());
    }
    return value.orElse("");
  }
}
