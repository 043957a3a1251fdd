package dfe.fetcher.rest.page;

import dfe.fetcher.core.row.SourceException;
import dfe.fetcher.source.config.Section;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * {@code page_number}: {@code param} counts from {@code start}; an empty page ends. With {@code
 * total_pages_at}, the page numbered the total the body gives ends (no request past it); an empty
 * page before it, or a total that is missing or not a count, fails the page.
 */
record PageNumberPager(String param, long start, Optional<String> totalPagesAt) implements Pager {

  PageNumberPager {
    Objects.requireNonNull(param, "param");
    Objects.requireNonNull(totalPagesAt, "totalPagesAt");
  }

  static Pager bind(Section paginate) {
    return new PageNumberPager(
        paginate.requiredString("param").orElse("page"),
        paginate.integer("start", 1, 0, 1_000_000),
        JsonPointerSetting.read(paginate, "total_pages_at"));
  }

  @Override
  public Map<String, String> first() {
    return Map.of(param, Long.toString(start));
  }

  @Override
  public Optional<NextPage> next(Page page) throws SourceException {
    long current = Long.parseLong(page.pagerQuery().get(param));
    if (totalPagesAt.isPresent()) {
      long total = RequiredValue.count(page, "total_pages_at", totalPagesAt.get());
      long read = current - start + 1;
      if (read >= total) {
        return Optional.empty();
      }
      if (page.rows() == 0) {
        throw new SourceException(
            "paginate.total_pages_at: page "
                + current
                + " is empty, but the body gives "
                + total
                + " pages");
      }
    }
    if (page.rows() == 0) {
      return Optional.empty();
    }
    return Optional.of(new WithQuery(Map.of(param, Long.toString(current + 1))));
  }

  @Override
  public Map<String, String> bodyPointers() {
    return totalPagesAt.map(pointer -> Map.of("total_pages_at", pointer)).orElse(Map.of());
  }
}
