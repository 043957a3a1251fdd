package dfe.fetcher.core.change;

import java.util.Locale;

/** What happened to one key between two snapshots. */
public enum ChangeKind {
  /** The key is in the later snapshot only. */
  ADD,
  /** The key is in the earlier snapshot only. */
  REMOVE,
  /** The key is in both, with records that are different JSON values. */
  CHANGE;

  /** The lowercase name change events carry in {@code op}. */
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }
}
