package dfe.fetcher.rest.page;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.http.HttpHeaders;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * How an endpoint's listing goes on from one page to the next ({@code paginate}): one
 * implementation per {@link PagerType}, each a value (a record) bound once per endpoint and shared
 * by every listing of it, every window and every tick.
 *
 * <p>What an implementation is handed and can rely on:
 *
 * <ul>
 *   <li>Its binder gets the endpoint's {@code paginate} section, already checked for keys that do
 *       not apply to its type. It reports every problem there and still returns a pager
 *       (placeholders for what is missing), so that binding goes on; it never throws for a bad
 *       configuration.
 *   <li>{@link #first} is called once per listing (a dump, or one window), before the first
 *       request; {@link #next} once after each page, when all its rows were handed on.
 *   <li>The {@link Page} holds all a pager may look at: the URI as requested, the parameters it set
 *       itself on that request, the headers, and the body's tree. The body is there whenever {@link
 *       #readsBody} is true: binding refuses such a pager on a decoder that streams.
 *   <li>The listing checks what no API answer may lift: that no request is made twice in a listing
 *       (a loop) and that {@code max_pages} is not passed. A pager only says what to request next.
 * </ul>
 *
 * <p>What it must not do: keep state between calls (what it needs to go on is in the page, e.g. its
 * own parameters), do I/O, or fail on an answer it does not understand: it ends the listing
 * instead.
 */
public interface Pager {

  /** The query parameters the pager adds to the first request. */
  Map<String, String> first();

  /** The request after {@code page}, or empty when the listing ended. */
  Optional<NextPage> next(Page page);

  /** Whether the pager reads the page's body (so the decoder must hold it). */
  default boolean readsBody() {
    return false;
  }

  /**
   * What the pager may look at of the page just read.
   *
   * @param uri the request's URI, without credentials
   * @param pagerQuery the parameters the pager set on that request
   * @param body the parsed body, when the decoder held it
   * @param rows how many rows the page held
   */
  record Page(
      URI uri,
      Map<String, String> pagerQuery,
      HttpHeaders headers,
      Optional<JsonNode> body,
      long rows) {}

  /** What to request next. */
  sealed interface NextPage {

    /** The pager's parameters on the next request, {@code last} those on the page just read. */
    Map<String, String> pagerQuery(Map<String, String> last);

    /** The next request's URI; {@code endpoint} makes the endpoint's with pager parameters. */
    URI uri(Function<Map<String, String>, URI> endpoint);
  }

  /** An absolute URL the API handed over (a {@code Link} header), requested as it is. */
  record FollowLink(URI uri) implements NextPage {

    @Override
    public Map<String, String> pagerQuery(Map<String, String> last) {
      return last;
    }

    @Override
    public URI uri(Function<Map<String, String>, URI> endpoint) {
      return uri;
    }
  }

  /** The endpoint's request again, with these pager parameters. */
  record WithQuery(Map<String, String> query) implements NextPage {

    @Override
    public Map<String, String> pagerQuery(Map<String, String> last) {
      return query;
    }

    @Override
    public URI uri(Function<Map<String, String>, URI> endpoint) {
      return endpoint.apply(query);
    }
  }
}
