package dfe.fetcher.file.dump;

import java.util.Locale;
import java.util.Optional;

/**
 * How a dump unit turns a file's bytes into records: the unit's {@code decoder} setting.
 *
 * <p>Whatever the choice, a file that starts with the gzip magic bytes ({@code 0x1f 0x8b}) is
 * decompressed first, whatever its name says; a file named {@code .gz} that is not gzip is read as
 * it is.
 */
public enum Decoder {
  /**
   * Chooses by the file name's extension, after dropping a {@code .gz} suffix, case-insensitively:
   * {@code .ndjson} and {@code .jsonl} are {@link #NDJSON}, {@code .json} is {@link #JSON_ARRAY},
   * {@code .csv} is {@link #CSV}. Any other extension fails that file.
   */
  AUTO("auto"),
  /** One JSON value per non-blank line, landed as the line's bytes. */
  NDJSON("ndjson"),
  /** The file is one JSON array; each element is one record. */
  JSON_ARRAY("json_array"),
  /** A header row, then one record per row: a JSON object of strings keyed by the header. */
  CSV("csv");

  private final String configName;

  Decoder(String configName) {
    this.configName = configName;
  }

  /**
   * The name the configuration uses: {@code auto}, {@code ndjson}, {@code json_array}, {@code csv}.
   */
  public String configName() {
    return configName;
  }

  /**
   * The decoder the configuration calls {@code name}.
   *
   * @throws IllegalArgumentException naming the accepted names when {@code name} is none of them
   */
  public static Decoder named(String name) {
    for (Decoder decoder : values()) {
      if (decoder.configName.equals(name)) {
        return decoder;
      }
    }
    throw new IllegalArgumentException(
        "unknown decoder \"" + name + "\"; expected one of auto, ndjson, json_array, csv");
  }

  /** The format to read {@code fileName} with; empty when {@link #AUTO} cannot tell. */
  Optional<RecordFormat> formatFor(String fileName) {
    return switch (this) {
      case AUTO -> formatByExtension(fileName);
      case NDJSON -> Optional.of(RecordFormat.NDJSON);
      case JSON_ARRAY -> Optional.of(RecordFormat.JSON_ARRAY);
      case CSV -> Optional.of(RecordFormat.CSV);
    };
  }

  private static Optional<RecordFormat> formatByExtension(String fileName) {
    String name = fileName.toLowerCase(Locale.ROOT);
    if (name.endsWith(".gz")) {
      name = name.substring(0, name.length() - ".gz".length());
    }
    if (name.endsWith(".ndjson") || name.endsWith(".jsonl")) {
      return Optional.of(RecordFormat.NDJSON);
    }
    if (name.endsWith(".json")) {
      return Optional.of(RecordFormat.JSON_ARRAY);
    }
    if (name.endsWith(".csv")) {
      return Optional.of(RecordFormat.CSV);
    }
    return Optional.empty();
  }
}
