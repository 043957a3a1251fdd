package dfe.fetcher.runtime.config;

import java.nio.file.Path;
import java.util.Objects;

/**
 * {@code cursor}: where checkpoints are kept.
 *
 * @param directory absolute; one JSON file per {@code <instance>.<connection>.<unit>} (default
 *     {@code ./state} next to the config file)
 */
public record CursorConfig(Path directory) {

  public CursorConfig {
    Objects.requireNonNull(directory, "directory");
  }
}
