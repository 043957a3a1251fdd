package dfe.fetcher.rest.auth;

import java.util.Objects;
import java.util.Optional;

/**
 * What one unit asks of the instance's credentials beyond what the instance gives every unit, an
 * endpoint's {@code auth}: the AWS signing {@code service} and {@code region} of its API ({@code
 * sigv4}), or the token {@code scope} it needs ({@code oauth2_client_credentials}, {@code
 * jwt_bearer}). A key the instance's mode does not take is not applied ({@link
 * Credentials#narrowed}): a profile that accepts several modes names what each needs.
 */
public record UnitAuth(Optional<String> service, Optional<String> region, Optional<String> scope) {

  /** A unit that asks nothing of its own. */
  public static final UnitAuth NONE =
      new UnitAuth(Optional.empty(), Optional.empty(), Optional.empty());

  public UnitAuth {
    Objects.requireNonNull(service, "service");
    Objects.requireNonNull(region, "region");
    Objects.requireNonNull(scope, "scope");
  }

  public boolean isEmpty() {
    return equals(NONE);
  }
}
