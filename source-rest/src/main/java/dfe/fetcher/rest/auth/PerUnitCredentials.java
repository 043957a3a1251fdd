package dfe.fetcher.rest.auth;

import java.util.Map;
import java.util.Objects;

/**
 * An instance's credentials with what some units ask of their own ({@link UnitAuth}): behaves as
 * the instance's credentials, and {@link #of} gives each unit its narrowed credentials. Units whose
 * narrowed credentials are equal (the same scope, the same signing service) share one {@link
 * Authorizer} per origin, hence one token.
 */
public record PerUnitCredentials(Credentials credentials, Map<String, UnitAuth> units)
    implements ForwardingCredentials {

  public PerUnitCredentials {
    Objects.requireNonNull(credentials, "credentials");
    units = Map.copyOf(units);
  }

  /**
   * {@code credentials} with what {@code units} ask; the same credentials when none asks anything.
   */
  public static Credentials wrap(Credentials credentials, Map<String, UnitAuth> units) {
    return units.values().stream().allMatch(UnitAuth::isEmpty)
        ? credentials
        : new PerUnitCredentials(credentials, units);
  }

  /** The credentials {@code unit}'s requests carry. */
  public static Credentials of(Credentials credentials, String unit) {
    if (credentials instanceof PerUnitCredentials perUnit) {
      return perUnit.credentials().narrowed(perUnit.units().getOrDefault(unit, UnitAuth.NONE));
    }
    return credentials;
  }

  @Override
  public AuthReach reach() {
    return credentials.reach();
  }
}
