package dfe.fetcher.rest.construct;

import dfe.fetcher.rest.profile.ConfigWord;
import java.util.List;
import java.util.Optional;

/**
 * The constructs {@code construct} names: the one place a construct is registered, with the keys it
 * takes. A new construct is a class and one entry here; its binder is the case of this enum's
 * switch in the profile's {@code ConstructBinder}, which the compiler holds to every entry.
 *
 * <p>{@code keyset} runs the listing once per key; a <b>second stage</b> ({@code lookup}, {@code
 * manifest}) turns the listing's rows into requests whose rows land instead. An endpoint takes at
 * most one second stage, and a keyset beside it.
 */
public enum ConstructType implements ConfigWord {
  KEYSET("keyset", false, List.of("from", "request", "keys_at")),
  LOOKUP("lookup", true, List.of("id_at", "batch", "request")),
  MANIFEST("manifest", true, List.of("item_request", "max_items", "add_fields", "key", "position"));

  /** What a construct's own request takes (a keyset's, a lookup's, a manifest item's). */
  public static final List<String> REQUEST_KEYS =
      List.of(
          "method", "path", "query", "headers", "body", "rows", "paginate", "max_pages", "errors");

  /** What a {@code prelude} request takes. */
  public static final List<String> PRELUDE_KEYS =
      List.of("method", "path", "query", "headers", "body", "errors");

  private final String configName;
  private final boolean secondStage;
  private final List<String> keys;

  ConstructType(String configName, boolean secondStage, List<String> keys) {
    this.configName = configName;
    this.secondStage = secondStage;
    this.keys = keys;
  }

  @Override
  public String configName() {
    return configName;
  }

  /** Whether its rows land instead of the listing's: at most one such per endpoint. */
  public boolean secondStage() {
    return secondStage;
  }

  /** The keys under {@code construct.<name>}. */
  public List<String> keys() {
    return keys;
  }

  public static Optional<ConstructType> named(String name) {
    return ConfigWord.named(ConstructType.class, name);
  }

  /** The keys {@code construct} takes: each construct's name. */
  public static List<String> names() {
    return ConfigWord.names(ConstructType.class);
  }
}
