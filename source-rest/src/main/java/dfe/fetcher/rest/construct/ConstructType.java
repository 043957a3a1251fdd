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
 * manifest}) turns the listing's rows into requests whose rows land instead; a {@code queue}
 * acknowledges the listing's rows to their provider once they landed; a {@code fold} turns every
 * row one listing landed into the rows that land instead. Each of lookup, manifest and queue says
 * what becomes of the listing's rows, so an endpoint takes at most one of them ({@link
 * #exclusive}), and a keyset beside a second stage.
 */
public enum ConstructType implements ConfigWord {
  KEYSET("keyset", false, List.of("from", "request", "keys_at")),
  LOOKUP("lookup", true, List.of("id_at", "batch", "request")),
  MANIFEST("manifest", true, List.of("item_request", "max_items", "add_fields", "key", "position")),
  QUEUE("queue", true, List.of("ack_at", "ack_request", "ack_batch")),
  /** A word, not a section: the {@code FoldType} every row of one listing is folded with. */
  FOLD("fold", false, List.of());

  /** What a construct's own request takes (a keyset's, a lookup's, a manifest item's). */
  public static final List<String> REQUEST_KEYS =
      List.of(
          "method", "path", "query", "headers", "body", "rows", "paginate", "max_pages", "errors");

  /**
   * What a request whose answer gives no rows takes: a {@code prelude}'s, a keyset's keys request,
   * a queue's {@code ack_request}.
   */
  public static final List<String> PRELUDE_KEYS =
      List.of("method", "path", "query", "headers", "body", "errors");

  private final String configName;
  private final boolean exclusive;
  private final List<String> keys;

  ConstructType(String configName, boolean exclusive, List<String> keys) {
    this.configName = configName;
    this.exclusive = exclusive;
    this.keys = keys;
  }

  @Override
  public String configName() {
    return configName;
  }

  /**
   * Whether it says what becomes of the listing's rows (a second stage's land instead of them, a
   * queue acknowledges them): at most one such per endpoint.
   */
  public boolean exclusive() {
    return exclusive;
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
