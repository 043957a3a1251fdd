package dfe.fetcher.runtime.config;

import java.util.Objects;

/**
 * {@code dlq}: the dead-letter topic for oversize rows and records the transport refuses.
 *
 * @param enabled when false, what would go to the DLQ is counted and dropped (default true)
 * @param topic used exactly as written, no suffix appended (default {@code dfe_fetcher_dlq})
 */
public record DlqConfig(boolean enabled, String topic) {

  public static final DlqConfig DEFAULT = new DlqConfig(true, "dfe_fetcher_dlq");

  public DlqConfig {
    Objects.requireNonNull(topic, "topic");
  }
}
