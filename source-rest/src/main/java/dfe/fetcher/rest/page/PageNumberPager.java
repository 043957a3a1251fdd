package dfe.fetcher.rest.page;

import com.fasterxml.jackson.databind.JsonNode;
import dfe.fetcher.source.config.Section;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * {@code page_number}: {@code param} counts from {@code start}; an empty page ends, and so does the
 * page numbered the value at {@code total_pages_at} when it is given.
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
  public Optional<NextPage> next(Page page) {
    if (page.rows() == 0) {
      return Optional.empty();
    }
    long current = Long.parseLong(page.pagerQuery().get(param));
    if (totalPagesAt.isPresent()) {
      JsonNode total = page.body().map(body -> body.at(totalPagesAt.get())).orElse(null);
      if (total != null && total.canConvertToLong() && current - start + 1 >= total.asLong()) {
        return Optional.empty();
      }
    }
    return Optional.of(new WithQuery(Map.of(param, Long.toString(current + 1))));
  }

  @Override
  public boolean readsBody() {
    return totalPagesAt.isPresent();
  }
}
