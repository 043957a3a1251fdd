package dfe.fetcher.source.config;

import java.util.ArrayList;
import java.util.List;

/**
 * Every secret setting one load bound, with where it is written, so a check can reveal each now and
 * report the ones that cannot be read at their place, all at once ({@code config-check}). A run
 * reveals secrets when it uses them, not through this. Not thread-safe: one load binds on one
 * thread.
 */
public final class BoundSecrets {

  /**
   * One secret setting.
   *
   * @param secret the bound value, never printed
   * @param origin where its spec is written
   * @param path its config path, e.g. {@code sources.rest.lab.auth.client_secret}
   */
  public record Entry(Secret secret, ConfigOrigin origin, String path) {}

  private final List<Entry> entries = new ArrayList<>();

  public void add(Secret secret, ConfigOrigin origin, String path) {
    entries.add(new Entry(secret, origin, path));
  }

  /** In the order they were bound. */
  public List<Entry> entries() {
    return List.copyOf(entries);
  }
}
