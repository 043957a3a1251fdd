package dfe.fetcher.rest.page;

import dfe.fetcher.core.row.SourceException;
import dfe.fetcher.source.config.Section;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A pager with the end signals every pager but {@code none} takes, checked after each page before
 * the pager itself:
 *
 * <ul>
 *   <li>{@code has_more}: a JSON pointer to a boolean; {@code false} ends. Missing, null or not a
 *       boolean fails the page; {@code true} while the pager has no next page (no cursor, an empty
 *       page) fails it too, as the API contradicts itself.
 *   <li>{@code stop_when}: a CEL condition over the page ({@link StopWhen}); true ends.
 * </ul>
 *
 * @param pager the pager that says what to request next
 * @param hasMore the pointer of {@code has_more}
 * @param stopWhen the condition of {@code stop_when}
 */
record StoppingPager(Pager pager, Optional<String> hasMore, Optional<StopWhen> stopWhen)
    implements Pager {

  StoppingPager {
    Objects.requireNonNull(pager, "pager");
    Objects.requireNonNull(hasMore, "hasMore");
    Objects.requireNonNull(stopWhen, "stopWhen");
  }

  /** {@code pager} with the end signals {@code paginate} sets; {@code pager} itself when none. */
  static Pager around(Pager pager, Section paginate) {
    Optional<String> hasMore = JsonPointerSetting.read(paginate, "has_more");
    Optional<StopWhen> stopWhen = StopWhen.read(paginate);
    if (hasMore.isEmpty() && stopWhen.isEmpty()) {
      return pager;
    }
    return new StoppingPager(pager, hasMore, stopWhen);
  }

  @Override
  public Map<String, String> first() {
    return pager.first();
  }

  @Override
  public Optional<NextPage> next(Page page) throws SourceException {
    if (hasMore.isPresent() && !RequiredValue.bool(page, "has_more", hasMore.get())) {
      return Optional.empty();
    }
    if (stopWhen.isPresent() && stopWhen.get().holds(page)) {
      return Optional.empty();
    }
    Optional<NextPage> next = pager.next(page);
    if (next.isEmpty() && hasMore.isPresent()) {
      throw new SourceException(
          "paginate.has_more: "
              + hasMore.get()
              + " is true, but the page gives no next page"
              + (page.rows() == 0 ? " (it is empty)" : " (no cursor or link)"));
    }
    return next;
  }

  @Override
  public Map<String, String> bodyPointers() {
    Map<String, String> pointers = new LinkedHashMap<>(pager.bodyPointers());
    hasMore.ifPresent(pointer -> pointers.put("has_more", pointer));
    return pointers;
  }

  @Override
  public boolean readsBody() {
    return pager.readsBody()
        || hasMore.isPresent()
        || stopWhen.map(StopWhen::readsBody).orElse(false);
  }

  @Override
  public boolean writesBody() {
    return pager.writesBody();
  }
}
