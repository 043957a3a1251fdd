package dfe.fetcher.rest.page;

import dfe.fetcher.rest.profile.ConfigWord;
import dfe.fetcher.rest.profile.SectionVariant;
import dfe.fetcher.source.config.Section;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The pagers {@code paginate.type} names: the one place a pager is registered, with the keys it
 * takes under {@code paginate} and its binder. A new pager is a class implementing {@link Pager}
 * and one entry here.
 */
public enum PagerType implements SectionVariant {
  NONE("none", List.of(), SinglePage::bind),
  LINK_HEADER("link_header", ends(), LinkHeaderPager::bind),
  JSON_LINK("json_link", ends("next_at"), JsonLinkPager::bind),
  HEADER_LINK("header_link", ends("header"), HeaderLinkPager::bind),
  CURSOR("cursor", ends("from", "into", "join"), CursorPager::bind),
  PAGE_NUMBER("page_number", ends("param", "start", "total_pages_at"), PageNumberPager::bind),
  OFFSET(
      "offset",
      ends("param", "limit_param", "page_size", "total_at", "short_page_ends"),
      OffsetPager::bind);

  /** Binds one pager from its {@code paginate} section, as {@link Pager} states. */
  @FunctionalInterface
  interface Binder {
    Pager bind(Section paginate);
  }

  private final String configName;
  private final List<String> keys;
  private final Binder binder;

  PagerType(String configName, List<String> keys, Binder binder) {
    this.configName = configName;
    this.keys = keys;
    this.binder = binder;
  }

  @Override
  public String configName() {
    return configName;
  }

  /** The keys under {@code paginate} this pager takes, beside {@code type}. */
  @Override
  public List<String> keys() {
    return keys;
  }

  /** The pager from {@code paginate}, every problem reported there. */
  public Pager bind(Section paginate) {
    Pager pager = binder.bind(paginate);
    return keys.contains("has_more") ? StoppingPager.around(pager, paginate) : pager;
  }

  /** A pager's own keys, then the end signals. */
  private static List<String> ends(String... own) {
    List<String> keys = new ArrayList<>(List.of(own));
    keys.addAll(List.of("has_more", "stop_when"));
    return List.copyOf(keys);
  }

  public static Optional<PagerType> named(String name) {
    return ConfigWord.named(PagerType.class, name);
  }

  public static List<String> names() {
    return ConfigWord.names(PagerType.class);
  }

  /** Every key {@code paginate} takes: {@code type}, then each one's in the order registered. */
  public static List<String> sectionKeys() {
    return SectionVariant.sectionKeys(PagerType.class, "type");
  }
}
