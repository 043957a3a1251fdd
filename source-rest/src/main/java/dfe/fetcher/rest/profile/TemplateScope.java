package dfe.fetcher.rest.profile;

import dev.cel.common.types.CelType;
import dev.cel.common.types.SimpleType;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a template may read where it is used, each name with its CEL type: {@code vars.<name>}
 * (strings, or what an endpoint's computed variable yields), {@code unit.name}, and in a tail
 * endpoint {@code window.start} and {@code window.end} (timestamps).
 *
 * @param names every name that may be read, with its type, in the order they were defined
 * @param varsPath the instance's {@code vars}, where a missing variable is to be set
 * @param windowless why a name of the window may not be read here, for the message that refuses it
 */
public record TemplateScope(Map<String, CelType> names, String varsPath, String windowless) {

  public TemplateScope {
    names = Collections.unmodifiableMap(new LinkedHashMap<>(names));
  }

  public TemplateScope(Map<String, CelType> names, String varsPath) {
    this(names, varsPath, "which only a tail endpoint has");
  }

  /** This scope, saying {@code why} when a template reads the window it does not have. */
  public TemplateScope windowlessBecause(String why) {
    return new TemplateScope(names, varsPath, why);
  }

  /** The instance's variables (all strings) and the unit's name, with the window's bounds. */
  public static TemplateScope of(String varsPath, Iterable<String> vars, boolean window) {
    Map<String, CelType> names = new LinkedHashMap<>();
    vars.forEach(name -> names.put("vars." + name, SimpleType.STRING));
    names.put("unit.name", SimpleType.STRING);
    if (window) {
      names.put("window.start", SimpleType.TIMESTAMP);
      names.put("window.end", SimpleType.TIMESTAMP);
    }
    return new TemplateScope(names, varsPath);
  }

  /** This scope and {@code vars.<name>} of {@code type}. */
  public TemplateScope with(String name, CelType type) {
    Map<String, CelType> more = new LinkedHashMap<>(names);
    more.put("vars." + name, type);
    return new TemplateScope(more, varsPath, windowless);
  }

  /**
   * This scope and {@code name}, a value of {@code type} read as a whole ({@code ids}) or, for a
   * value of type {@code dyn}, by its fields too ({@code key.workspace_id}, {@code
   * item.contentUri}): a construct's current key, item or batch.
   */
  public TemplateScope withValue(String name, CelType type) {
    Map<String, CelType> more = new LinkedHashMap<>(names);
    more.put(name, type);
    return new TemplateScope(more, varsPath, windowless);
  }

  /**
   * Whether {@code name} may be read: a name defined here, or a field of a value defined here whole
   * ({@code key.workspace_id} of {@code key}).
   */
  public boolean defines(String name) {
    if (names.containsKey(name)) {
      return true;
    }
    int dot = name.indexOf('.');
    return dot > 0 && names.containsKey(name.substring(0, dot));
  }

  public boolean hasWindow() {
    return names.containsKey("window.start");
  }

  /** The variables defined, by name without {@code vars.}. */
  public List<String> vars() {
    return names.keySet().stream()
        .filter(name -> name.startsWith("vars."))
        .map(name -> name.substring("vars.".length()))
        .toList();
  }
}
