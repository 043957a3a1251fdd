package dfe.fetcher.rest.page;

import dfe.fetcher.source.config.Section;
import java.util.Map;
import java.util.Optional;

/** {@code link_header}: RFC 8288 {@code Link: <url>; rel="next"}; no such link ends. */
record LinkHeaderPager() implements Pager {

  static Pager bind(Section paginate) {
    return new LinkHeaderPager();
  }

  @Override
  public Map<String, String> first() {
    return Map.of();
  }

  @Override
  public Optional<NextPage> next(Page page) {
    for (String header : page.headers().allValues("Link")) {
      Optional<String> next = LinkHeaders.next(header);
      if (next.isPresent()) {
        return Optional.of(new FollowLink(page.uri().resolve(next.get())));
      }
    }
    return Optional.empty();
  }
}
