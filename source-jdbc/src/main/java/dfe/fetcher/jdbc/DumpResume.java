package dfe.fetcher.jdbc;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * How a dump store's snapshot survives a failed or killed tick ({@code resume:}): not at all (the
 * next tick dumps again into a new snapshot), or by key (the dump reads in key order in chunks, and
 * the next tick continues the same snapshot after the last key that landed).
 */
public enum DumpResume {
  NONE("none"),
  BY_KEY("by_key");

  private final String configName;

  DumpResume(String configName) {
    this.configName = configName;
  }

  public String configName() {
    return configName;
  }

  static Optional<DumpResume> named(String name) {
    return Arrays.stream(values()).filter(mode -> mode.configName.equals(name)).findFirst();
  }

  static List<String> names() {
    return Arrays.stream(values()).map(DumpResume::configName).toList();
  }
}
