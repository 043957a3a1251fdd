package dfe.fetcher.source.config;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

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

  /**
   * Binds each item of the required list {@code key} of {@code parent} (a connection's units or
   * stores, a profile's endpoints) with {@code bind}, reporting a unit name ({@code unit}) seen
   * twice in the list at the second.
   *
   * @param item what one entry is, for the message of an empty list: {@code unit}, {@code store}
   * @param scope what the list belongs to: {@code connection}, {@code profile}
   */
  public static <T> List<T> bindEach(
      Section parent,
      String key,
      String item,
      List<String> allowedKeys,
      String scope,
      Function<Section, T> bind,
      Function<T, String> unitName) {
    UnitNames names = new UnitNames(scope);
    List<T> bound = new ArrayList<>();
    for (Section entry : parent.requiredSections(key, item, allowedKeys)) {
      T value = bind.apply(entry);
      names.check(entry, "unit", unitName.apply(value));
      bound.add(value);
    }
    return bound;
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
