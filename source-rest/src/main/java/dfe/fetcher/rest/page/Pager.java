package dfe.fetcher.rest.page;

import com.fasterxml.jackson.databind.JsonNode;
import dfe.fetcher.core.row.SourceException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpHeaders;
import java.nio.charset.StandardCharsets;
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
 *       itself on that request, the headers, the row count, and the body's tree ({@code json_at}'s
 *       without its rows array, which is streamed). The body is there whenever {@link #readsBody}
 *       is true: binding refuses such a pager on a decoder that keeps no body, and a pointer of
 *       {@link #bodyPointers} into {@code json_at}'s rows.
 *   <li>The listing checks what no API answer may lift: that no request (its URL and body) is made
 *       twice in a listing (a loop) and that {@code max_pages} is not passed.
 * </ul>
 *
 * <p>What it must do with an answer it cannot trust (a value it reads is missing where the API
 * always sends it, of the wrong type, or contradicting the page): throw, naming the setting and the
 * problem, never the value. Ending the listing instead would land a partial dump as complete. A
 * value the pager documents as the end (a missing cursor) ends it.
 *
 * <p>What it must not do: keep state between calls (what it needs to go on is in the page, e.g. its
 * own parameters) or do I/O.
 */
public interface Pager {

  /** {@code none}: one page, for a request that pages no further (a construct's keys request). */
  static Pager none() {
    return new SinglePage();
  }

  /** The query parameters the pager adds to the first request. */
  Map<String, String> first();

  /**
   * The request after {@code page}, or empty when the listing ended.
   *
   * @throws SourceException when the page cannot be trusted to say where the listing goes on
   */
  Optional<NextPage> next(Page page) throws SourceException;

  /**
   * The JSON pointers into the page's body the pager reads, each with its setting's key (for
   * messages at load).
   */
  default Map<String, String> bodyPointers() {
    return Map.of();
  }

  /** Whether the pager reads the page's body (so the decoder must keep it). */
  default boolean readsBody() {
    return !bodyPointers().isEmpty();
  }

  /** Whether the pager writes into the request's JSON body (so the method must be POST). */
  default boolean writesBody() {
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

    /**
     * The next request's JSON body, {@code endpoint} the endpoint's own (rendered).
     *
     * @throws SourceException when the pager's value has no place in that body
     */
    default Optional<byte[]> body(Optional<byte[]> endpoint) throws SourceException {
      return endpoint;
    }
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

  /**
   * The endpoint's request again with {@code segment} appended to its path as one more segment
   * (percent-encoded), its query as on the first page.
   */
  record WithPathSegment(String segment) implements NextPage {

    @Override
    public Map<String, String> pagerQuery(Map<String, String> last) {
      return Map.of();
    }

    @Override
    public URI uri(Function<Map<String, String>, URI> endpoint) {
      URI first = endpoint.apply(Map.of());
      String encoded = URLEncoder.encode(segment, StandardCharsets.UTF_8).replace("+", "%20");
      String path =
          first.getRawPath().endsWith("/") ? first.getRawPath() : first.getRawPath() + "/";
      return URI.create(
          first.getScheme()
              + "://"
              + first.getRawAuthority()
              + path
              + encoded
              + (first.getRawQuery() == null ? "" : "?" + first.getRawQuery()));
    }
  }

  /**
   * The endpoint's request again with the string {@code value} set at {@code pointer} of its JSON
   * body (objects on the way created), a POST listing's cursor; with {@code alone}, of an empty
   * body instead.
   */
  record WithBodyField(String pointer, String value, boolean alone) implements NextPage {

    WithBodyField(String pointer, String value) {
      this(pointer, value, false);
    }

    @Override
    public Map<String, String> pagerQuery(Map<String, String> last) {
      return Map.of();
    }

    @Override
    public URI uri(Function<Map<String, String>, URI> endpoint) {
      return endpoint.apply(Map.of());
    }

    @Override
    public Optional<byte[]> body(Optional<byte[]> endpoint) throws SourceException {
      // alone: the body is the token and nothing else (paginate.into: body_replace:).
      return Optional.of(JsonBodyField.set(alone ? Optional.empty() : endpoint, pointer, value));
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
