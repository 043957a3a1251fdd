package dfe.fetcher.rest.page;

import dfe.fetcher.rest.profile.ConfigWord;
import java.util.List;
import java.util.Optional;

/** How a page's body becomes rows ({@code rows.decoder}). */
public enum Decoder implements ConfigWord {
  /** The body is a JSON array of objects, streamed element by element. */
  JSON_ARRAY("json_array", true),
  /** One JSON object a line, streamed line by line. */
  NDJSON("ndjson", true),
  /** A JSON document whose array at {@code rows.at} holds the rows; the page is held. */
  JSON_AT("json_at", false),
  /** The body, a JSON object, is one row; the page is held. */
  DOCUMENT("document", false),
  /** CSV with a header line, each row an object of strings, streamed. */
  CSV("csv", true);

  private final String configName;
  private final boolean streamed;

  Decoder(String configName, boolean streamed) {
    this.configName = configName;
    this.streamed = streamed;
  }

  @Override
  public String configName() {
    return configName;
  }

  /**
   * True when rows are decoded as the body arrives, so the page is never held: a pager or {@code
   * fail_when} cannot read its body then.
   */
  public boolean streamed() {
    return streamed;
  }

  public static Optional<Decoder> named(String name) {
    return ConfigWord.named(Decoder.class, name);
  }

  public static List<String> names() {
    return ConfigWord.names(Decoder.class);
  }
}
