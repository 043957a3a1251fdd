package dfe.fetcher.file.tail;

/** Where a tail unit without any checkpoint starts in the files it finds on its first read. */
public enum ReadFrom {
  /** Every line already in the files lands. */
  BEGINNING("beginning"),
  /** Only what is written after the first read lands (from the last whole line on). */
  END("end");

  private final String configName;

  ReadFrom(String configName) {
    this.configName = configName;
  }

  public String configName() {
    return configName;
  }
}
