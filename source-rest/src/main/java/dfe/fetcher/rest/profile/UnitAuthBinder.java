package dfe.fetcher.rest.profile;

import dfe.fetcher.rest.auth.UnitAuth;
import dfe.fetcher.source.config.Section;
import java.util.Optional;

/**
 * Binds an endpoint's {@code auth}: what its unit asks of the instance's credentials beyond what
 * every unit gets ({@link UnitAuth}), e.g. an AWS API's signing name or a Graph token's scope.
 */
final class UnitAuthBinder {

  private UnitAuthBinder() {}

  static UnitAuth bind(Section endpoint) {
    if (endpoint.node("auth").isEmpty()) {
      return UnitAuth.NONE;
    }
    Section auth = endpoint.section("auth", ProfileKeys.UNIT_AUTH_KEYS);
    Optional<String> service = word(auth, "service", "an AWS signing name, e.g. cloudtrail");
    Optional<String> region = word(auth, "region", "an AWS region name, e.g. us-east-1");
    Optional<String> scope = auth.string("scope");
    if (scope.filter(String::isBlank).isPresent()) {
      auth.report("scope", "must not be empty; leave it out to use the instance's scope");
    }
    return new UnitAuth(service, region, scope.filter(s -> !s.isBlank()));
  }

  private static Optional<String> word(Section auth, String key, String what) {
    Optional<String> value = auth.string(key);
    if (value.isPresent() && !value.get().matches("[a-z0-9][a-z0-9-]*")) {
      auth.report(key, "must be " + what + " (lower-case letters, digits, '-')");
      return Optional.empty();
    }
    return value;
  }
}
