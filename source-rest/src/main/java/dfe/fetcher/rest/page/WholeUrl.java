package dfe.fetcher.rest.page;

import dfe.fetcher.rest.profile.Endpoint;
import dfe.fetcher.rest.profile.TemplateException;
import dfe.fetcher.rest.profile.TemplateValues;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Optional;

/**
 * A request's {@code path} that renders as a whole URL (a manifest item's {@code contentUri}): used
 * as it is, once checked as a {@code Link} target is (an {@code http} or {@code https} URL with a
 * host and no user info). Where credentials go is then the {@link
 * dfe.fetcher.rest.auth.Authorizer}'s call, as for any URL: {@code base_url}'s origin and {@code
 * allow_hosts} get them, any other origin goes without (or is refused with {@code other_origins:
 * refuse}).
 */
final class WholeUrl {

  private WholeUrl() {}

  /**
   * The URL {@code endpoint}'s path renders as, or empty when it renders as a path.
   *
   * @throws TemplateException when it renders as a URL that cannot be requested, naming why, never
   *     the URL (it came from the API and may carry a signature)
   */
  static Optional<URI> of(Endpoint endpoint, TemplateValues values) {
    String rendered = endpoint.path().render(values);
    String lower = rendered.toLowerCase(Locale.ROOT);
    if (!lower.startsWith("http://") && !lower.startsWith("https://")) {
      return Optional.empty();
    }
    URI uri;
    try {
      uri = new URI(rendered);
    } catch (URISyntaxException e) {
      throw new TemplateException("path renders as a URL that does not parse: " + e.getReason());
    }
    if (uri.getHost() == null) {
      throw new TemplateException("path renders as a URL without a host");
    }
    if (uri.getRawUserInfo() != null) {
      throw new TemplateException("path renders as a URL holding user info, which is not sent");
    }
    return Optional.of(uri);
  }
}
