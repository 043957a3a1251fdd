package dfe.fetcher.config;

import java.util.Locale;

/** {@code dump.decoder} of a file unit: how a file's bytes become rows. */
public enum FileDecoder {
  /** Chosen per file by the file source from its name; the default. */
  AUTO,
  /** One JSON value per line. */
  NDJSON,
  /** One JSON array of records. */
  JSON_ARRAY,
  /** A header line, then one record per line; every value is a string. */
  CSV;

  /** The name used in the configuration file. */
  public String configName() {
    return name().toLowerCase(Locale.ROOT);
  }
}
