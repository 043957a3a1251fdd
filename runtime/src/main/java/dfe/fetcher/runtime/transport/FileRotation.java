package dfe.fetcher.runtime.transport;

import java.time.Duration;
import java.util.Objects;

/**
 * When the file output closes a topic's live file ({@code <topic>.ndjson}) and starts a new one,
 * and which of the closed ("rotated") files it keeps. Rotation happens between batches, never
 * inside one: a batch always lands whole in one file.
 *
 * @param rotateBytes the live file is rotated before a batch that would take it past this many
 *     bytes (a batch larger than this lands alone in a file); 0 never rotates by size
 * @param rotateAge the live file is rotated before the first batch sent once its first line is this
 *     old; zero never rotates by age
 * @param retainFiles how many rotated files of a topic are kept, the newest; 0 keeps them all
 * @param retainAge a rotated file is deleted once the time in its name (when it was rotated) is
 *     this old; zero keeps them whatever their age
 */
public record FileRotation(
    long rotateBytes, Duration rotateAge, int retainFiles, Duration retainAge) {

  /** 256 MiB files, the 8 newest rotated files of each topic kept, no age limit. */
  public static final FileRotation DEFAULT =
      new FileRotation(256L * 1024 * 1024, Duration.ZERO, 8, Duration.ZERO);

  /** One file per topic that only grows, as before rotation existed. */
  public static final FileRotation NEVER = new FileRotation(0, Duration.ZERO, 0, Duration.ZERO);

  public FileRotation {
    Objects.requireNonNull(rotateAge, "rotateAge");
    Objects.requireNonNull(retainAge, "retainAge");
    if (rotateBytes < 0 || rotateAge.isNegative() || retainFiles < 0 || retainAge.isNegative()) {
      throw new IllegalArgumentException(
          "rotation limits must be 0 (off) or positive: rotate_bytes="
              + rotateBytes
              + " rotate_secs="
              + rotateAge.toSeconds()
              + " retain_files="
              + retainFiles
              + " retain_secs="
              + retainAge.toSeconds());
    }
  }

  /** Whether rotated files are ever deleted. */
  public boolean limitsRetention() {
    return retainFiles > 0 || !retainAge.isZero();
  }

  /** Whether the live file is ever rotated. */
  public boolean rotates() {
    return rotateBytes > 0 || !rotateAge.isZero();
  }
}
