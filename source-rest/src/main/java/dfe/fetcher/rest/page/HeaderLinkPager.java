package dfe.fetcher.rest.page;

import dfe.fetcher.core.row.SourceException;
import dfe.fetcher.rest.http.HeaderNames;
import dfe.fetcher.source.config.Section;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * {@code header_link}: the next page's URL is the value of the response header {@code header}
 * (Office 365's {@code NextPageUri}), absolute or relative to the page's URL, requested as it is
 * (credentials only to their origins, as for a {@code Link} header). No such header, or an empty
 * one, ends; a value that is not an http(s) URL with a host fails the page. It reads no body, so it
 * pages a streamed decoder ({@code json_array}) too.
 *
 * @param header the response header holding the next page's URL
 */
record HeaderLinkPager(String header) implements Pager {

  HeaderLinkPager {
    Objects.requireNonNull(header, "header");
  }

  static Pager bind(Section paginate) {
    Optional<String> header = paginate.requiredString("header");
    if (header.isPresent() && !HeaderNames.isToken(header.get())) {
      paginate.report("header", "is not a header name, e.g. NextPageUri");
    }
    return new HeaderLinkPager(header.orElse("Link"));
  }

  @Override
  public Map<String, String> first() {
    return Map.of();
  }

  @Override
  public Optional<NextPage> next(Page page) throws SourceException {
    Optional<String> value = page.headers().firstValue(header).map(String::strip);
    if (value.isEmpty() || value.get().isEmpty()) {
      return Optional.empty();
    }
    URI next;
    try {
      next = page.uri().resolve(new URI(value.get()));
    } catch (URISyntaxException e) {
      throw new SourceException(
          "paginate.header: the "
              + header
              + " header is not a URL (at character "
              + e.getIndex()
              + ")");
    }
    String scheme = next.getScheme() == null ? "" : next.getScheme().toLowerCase(Locale.ROOT);
    if (!scheme.equals("http") && !scheme.equals("https") || next.getHost() == null) {
      throw new SourceException(
          "paginate.header: the " + header + " header is not an http or https URL with a host");
    }
    return Optional.of(new FollowLink(next));
  }
}
