package dfe.fetcher.rest.construct;

import dfe.fetcher.rest.profile.Endpoint;
import java.util.Objects;

/**
 * One request of an endpoint's {@code prelude}: sent once per tick before the listing's first page
 * (Office 365's "start a subscription"), POST by default, its templates reading the connection's
 * {@code vars} and {@code unit.name} only. Its answer is not read: a 2xx, or a status its {@code
 * errors.ignore_status} lists (a subscription already started), lets the tick go on; any other
 * answer, after the retries a page gets, fails the tick before a page is requested. {@link
 * UnitReader} sends it through {@link dfe.fetcher.rest.page.Listing#sendUnread}.
 *
 * @param request the request, an endpoint of its own
 */
public record Prelude(Endpoint request) {

  public Prelude {
    Objects.requireNonNull(request, "request");
  }
}
