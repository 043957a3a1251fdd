package dfe.fetcher.connect;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/** The plugin's version, as the build wrote it. */
final class Versions {

  static final String VERSION = read();

  private Versions() {}

  private static String read() {
    try (InputStream in = Versions.class.getResourceAsStream("/dfe-fetcher-connect.properties")) {
      Properties properties = new Properties();
      if (in != null) {
        properties.load(in);
      }
      return properties.getProperty("version", "unknown");
    } catch (IOException e) {
      return "unknown";
    }
  }
}
