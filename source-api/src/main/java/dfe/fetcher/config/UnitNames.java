package dfe.fetcher.config;

import java.util.HashMap;
import java.util.Map;

/**
 * The unit names seen so far in one list of units (a connection's units, a profile's endpoints): a
 * name seen twice is reported at the second, naming where the first is.
 */
public final class UnitNames {

  private final String scope;
  private final Map<String, ConfigOrigin> first = new HashMap<>();

  /**
   * @param scope what the list belongs to, for the message: {@code connection}, {@code profile}
   */
  public UnitNames(String scope) {
    this.scope = scope;
  }

  /** Reports {@code name}, read from {@code key} of {@code unit}, when it was seen before. */
  public void check(Section unit, String key, String name) {
    if (name.isEmpty()) {
      return; // already reported as required or malformed
    }
    ConfigOrigin earlier = first.putIfAbsent(name, unit.originOf(key));
    if (earlier != null) {
      unit.report(
          key,
          "duplicate unit name '"
              + name
              + "' in this "
              + scope
              + " (first at "
              + earlier.render()
              + ")");
    }
  }
}
