package dfe.fetcher.rest.page;

import dfe.fetcher.core.row.SourceException;
import dfe.fetcher.source.config.Section;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * {@code offset}: {@code param} starts at 0 and advances by the rows received; {@code limit_param}
 * (when given) carries {@code page_size}. It ends:
 *
 * <ul>
 *   <li>with {@code total_at}, on the page that reaches the total the body gives (no request past
 *       it); an empty page before the total, or a total that is missing or not a count, fails the
 *       page;
 *   <li>with {@code short_page_ends: true} (which needs {@code limit_param}), on a page of fewer
 *       rows than {@code page_size}; a page of more rows than asked for fails, since the API then
 *       does not honour the limit;
 *   <li>always, on an empty page. A short page alone does not end it: APIs cap pages below the size
 *       asked for.
 * </ul>
 */
record OffsetPager(
    String param,
    Optional<String> limitParam,
    long pageSize,
    Optional<String> totalAt,
    boolean shortPageEnds)
    implements Pager {

  OffsetPager {
    Objects.requireNonNull(param, "param");
    Objects.requireNonNull(limitParam, "limitParam");
    Objects.requireNonNull(totalAt, "totalAt");
  }

  static Pager bind(Section paginate) {
    Optional<String> limitParam = paginate.string("limit_param");
    boolean shortPageEnds = paginate.bool("short_page_ends", false);
    if (shortPageEnds && limitParam.isEmpty() && paginate.node("limit_param").isEmpty()) {
      paginate.report(
          "short_page_ends",
          "needs limit_param: a page is short only against a limit the request sends");
    }
    return new OffsetPager(
        paginate.requiredString("param").orElse("offset"),
        limitParam,
        paginate.require("page_size") ? paginate.integer("page_size", 100, 1, 1_000_000) : 100,
        JsonPointerSetting.read(paginate, "total_at"),
        shortPageEnds);
  }

  @Override
  public Map<String, String> first() {
    return query(0);
  }

  @Override
  public Optional<NextPage> next(Page page) throws SourceException {
    long current = Long.parseLong(page.pagerQuery().get(param));
    long reached = current + page.rows();
    if (totalAt.isPresent()) {
      long total = RequiredValue.count(page, "total_at", totalAt.get());
      if (reached >= total) {
        return Optional.empty();
      }
      if (page.rows() == 0) {
        throw new SourceException(
            "paginate.total_at: the page at offset "
                + current
                + " is empty, but the total is "
                + total);
      }
    }
    if (page.rows() == 0) {
      return Optional.empty();
    }
    if (shortPageEnds) {
      if (page.rows() > pageSize) {
        throw new SourceException(
            "paginate.short_page_ends: the page holds "
                + page.rows()
                + " rows, more than page_size "
                + pageSize
                + ", so the API does not honour the limit and a short page cannot tell the end");
      }
      if (page.rows() < pageSize) {
        return Optional.empty();
      }
    }
    return Optional.of(new WithQuery(query(reached)));
  }

  private Map<String, String> query(long offset) {
    Map<String, String> query = new LinkedHashMap<>();
    query.put(param, Long.toString(offset));
    limitParam.ifPresent(name -> query.put(name, Long.toString(pageSize)));
    return query;
  }

  @Override
  public Map<String, String> bodyPointers() {
    return totalAt.map(pointer -> Map.of("total_at", pointer)).orElse(Map.of());
  }
}
