package dfe.fetcher.file.tail;

/** How a tail unit tells one file from another whatever its name. */
public enum FingerprintStrategy {
  /**
   * A digest of the file's first bytes after an optional header: survives a copy, a move to another
   * file system and compression (a gzip file's bytes are its decompressed content).
   */
  CHECKSUM("checksum"),
  /**
   * The file system's device and inode, checked against a digest of the first bytes so a reused
   * inode is a new file, not the old one at its old offset.
   */
  DEVICE_AND_INODE("device_and_inode");

  private final String configName;

  FingerprintStrategy(String configName) {
    this.configName = configName;
  }

  public String configName() {
    return configName;
  }
}
