package dfe.fetcher.rest.page;

import dfe.fetcher.rest.profile.ConfigWord;
import java.util.List;
import java.util.Optional;

/**
 * The object stores {@code lister} names: the one place a lister is registered. A lister stands in
 * for an endpoint's decoder and pager: its pages are the store's listing, each listed object one
 * item of the endpoint's {@code construct.manifest}, which reads the objects.
 */
public enum ListerType implements ConfigWord {
  /** S3 ListObjectsV2 ({@link S3ListObjects}). */
  S3("s3");

  private final String configName;

  ListerType(String configName) {
    this.configName = configName;
  }

  @Override
  public String configName() {
    return configName;
  }

  /** The decoder its pages are read with. */
  public Decoder decoder() {
    return Decoder.S3_LIST_OBJECTS;
  }

  /** The pager its pages follow each other with. */
  public Pager pager() {
    return S3ListObjects.PAGER;
  }

  public static Optional<ListerType> named(String name) {
    return ConfigWord.named(ListerType.class, name);
  }

  public static List<String> names() {
    return ConfigWord.names(ListerType.class);
  }
}
