package dfe.fetcher.file.tail;

/** How a tailed line becomes a record. */
public enum TailDecoder {
  /** Each line is one JSON value, landed as written (an object gets the file fields added). */
  NDJSON("ndjson"),
  /** Each line is text, landed as {@code {"message":"<the line>",...}}. */
  LINES("lines");

  private final String configName;

  TailDecoder(String configName) {
    this.configName = configName;
  }

  public String configName() {
    return configName;
  }
}
