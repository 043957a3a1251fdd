package dfe.fetcher.rest.page;

import com.fasterxml.jackson.databind.JsonNode;
import dfe.fetcher.core.row.SourceException;
import dfe.fetcher.source.config.Section;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * {@code json_link}: the next page's URL at {@code next_at} of the body, absolute or relative to
 * the page's URL, requested as it is (credentials only to their origins, as for a {@code Link}
 * header). Nothing, null or an empty string there ends; a value that is not a string, or not an
 * http(s) URL, fails the page.
 *
 * @param nextAt the JSON pointer of the next page's URL
 */
record JsonLinkPager(String nextAt) implements Pager {

  JsonLinkPager {
    Objects.requireNonNull(nextAt, "nextAt");
  }

  static Pager bind(Section paginate) {
    paginate.require("next_at");
    return new JsonLinkPager(JsonPointerSetting.read(paginate, "next_at").orElse("/next"));
  }

  @Override
  public Map<String, String> first() {
    return Map.of();
  }

  @Override
  public Optional<NextPage> next(Page page) throws SourceException {
    JsonNode node = page.body().map(body -> body.at(nextAt)).orElse(null);
    if (node == null || node.isMissingNode() || node.isNull()) {
      return Optional.empty();
    }
    if (!node.isTextual()) {
      throw new SourceException(
          "paginate.next_at: " + nextAt + " is " + JsonKinds.of(node) + ", not a URL");
    }
    if (node.textValue().isEmpty()) {
      return Optional.empty();
    }
    URI next;
    try {
      next = page.uri().resolve(new URI(node.textValue()));
    } catch (URISyntaxException e) {
      throw new SourceException(
          "paginate.next_at: " + nextAt + " is not a URL (at character " + e.getIndex() + ")");
    }
    String scheme = next.getScheme() == null ? "" : next.getScheme().toLowerCase(Locale.ROOT);
    if (!scheme.equals("http") && !scheme.equals("https") || next.getHost() == null) {
      throw new SourceException(
          "paginate.next_at: " + nextAt + " is not an http or https URL with a host");
    }
    return Optional.of(new FollowLink(next));
  }

  @Override
  public Map<String, String> bodyPointers() {
    return Map.of("next_at", nextAt);
  }
}
