package dfe.fetcher.rest.page;

import dfe.fetcher.source.config.Section;
import java.util.Map;
import java.util.Optional;

/** {@code none}: one page. */
record SinglePage() implements Pager {

  static Pager bind(Section paginate) {
    return new SinglePage();
  }

  @Override
  public Map<String, String> first() {
    return Map.of();
  }

  @Override
  public Optional<NextPage> next(Page page) {
    return Optional.empty();
  }
}
