package dfe.fetcher.rest.page;

import dfe.fetcher.rest.profile.ConfigWord;
import java.util.List;
import java.util.Optional;

/** How a page's body becomes rows ({@code rows.decoder}). */
public enum Decoder implements ConfigWord {
  /** The body is a JSON array of objects, streamed element by element. */
  JSON_ARRAY("json_array", false),
  /** One JSON object a line, streamed line by line. */
  NDJSON("ndjson", false),
  /**
   * A JSON document whose array at {@code rows.at} holds the rows, streamed element by element; the
   * rest of the body is kept (held whole with {@code fail_when}).
   */
  JSON_AT("json_at", true),
  /** The body, a JSON object, is one row; the page is held. */
  DOCUMENT("document", true),
  /** CSV with a header line, each row an object of strings, streamed. */
  CSV("csv", false),
  /** Text, one row a line (the line a string under {@code rows.field}), streamed. */
  LINES("lines", false),
  /**
   * The body is one JSON value: an array's elements are the rows, streamed as {@code json_array}'s
   * are; any other value is one row.
   */
  JSON("json", false),
  /**
   * An S3 ListObjectsV2 answer (XML), one item per object: what {@code lister: s3} reads its pages
   * with. Not a word {@code rows.decoder} takes.
   */
  S3_LIST_OBJECTS("s3_list_objects", true);

  private final String configName;
  private final boolean keepsBody;

  Decoder(String configName, boolean keepsBody) {
    this.configName = configName;
    this.keepsBody = keepsBody;
  }

  @Override
  public String configName() {
    return configName;
  }

  /**
   * True when a tree of the page's body is kept beside its rows ({@code json_at}'s without the rows
   * array): only then can a pager or {@code fail_when} read the body.
   */
  public boolean keepsBody() {
    return keepsBody;
  }

  /**
   * True when each element it reads is a JSON value that {@code rows.quoted} and {@code
   * rows.builder} can take; {@code csv} and {@code lines} read objects of strings.
   */
  public boolean readsJsonValues() {
    return this != CSV && this != LINES && this != S3_LIST_OBJECTS;
  }

  /** The decoder {@code rows.decoder} names {@code name}; a lister's is not one of them. */
  public static Optional<Decoder> named(String name) {
    return ConfigWord.named(Decoder.class, name).filter(decoder -> decoder != S3_LIST_OBJECTS);
  }

  /** The words {@code rows.decoder} takes. */
  public static List<String> names() {
    return ConfigWord.names(Decoder.class).stream()
        .filter(name -> !name.equals(S3_LIST_OBJECTS.configName))
        .toList();
  }
}
