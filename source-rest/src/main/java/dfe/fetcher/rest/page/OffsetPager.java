package dfe.fetcher.rest.page;

import dfe.fetcher.source.config.Section;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * {@code offset}: {@code param} starts at 0 and advances by the rows received; {@code limit_param}
 * (when given) carries {@code page_size}. An empty page ends, a short one does not (APIs cap pages
 * below the size asked for).
 */
record OffsetPager(String param, Optional<String> limitParam, long pageSize) implements Pager {

  OffsetPager {
    Objects.requireNonNull(param, "param");
    Objects.requireNonNull(limitParam, "limitParam");
  }

  static Pager bind(Section paginate) {
    return new OffsetPager(
        paginate.requiredString("param").orElse("offset"),
        paginate.string("limit_param"),
        paginate.require("page_size") ? paginate.integer("page_size", 100, 1, 1_000_000) : 100);
  }

  @Override
  public Map<String, String> first() {
    return query(0);
  }

  @Override
  public Optional<NextPage> next(Page page) {
    if (page.rows() == 0) {
      return Optional.empty();
    }
    long current = Long.parseLong(page.pagerQuery().get(param));
    return Optional.of(new WithQuery(query(current + page.rows())));
  }

  private Map<String, String> query(long offset) {
    Map<String, String> query = new LinkedHashMap<>();
    query.put(param, Long.toString(offset));
    limitParam.ifPresent(name -> query.put(name, Long.toString(pageSize)));
    return query;
  }
}
