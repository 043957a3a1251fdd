package dfe.fetcher.rest.profile;

import dfe.fetcher.rest.page.Pager;
import dfe.fetcher.rest.page.PagerType;
import dfe.fetcher.source.config.Section;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Binds an endpoint's {@code paginate}: the type among those {@link PagerType} registers, no key
 * the pager does not take, then the pager's own binder. An unknown type is reported naming it, and
 * the endpoint reads one page.
 */
final class PagerBinder {

  private PagerBinder() {}

  static Pager bind(Section paginate, Section endpoint) {
    String type = paginate.string("type", "none");
    if (endpoint.node("paginate").isPresent()) {
      paginate.require("type");
    }
    Optional<PagerType> named = PagerType.named(type);
    List<String> applies = new ArrayList<>(List.of("type"));
    if (named.isPresent()) {
      applies.addAll(named.get().keys());
    } else {
      paginate.report(
          "type", "unknown pager '" + type + "'; one of " + String.join(", ", PagerType.names()));
      applies = ProfileKeys.PAGINATE_KEYS;
    }
    for (String key : ProfileKeys.PAGINATE_KEYS) {
      if (!applies.contains(key) && paginate.node(key).isPresent()) {
        paginate.report(key, "does not apply to pager " + type);
      }
    }
    return named.orElse(PagerType.NONE).bind(paginate);
  }
}
