package dfe.fetcher.rest.page;

import com.fasterxml.jackson.databind.JsonNode;
import dfe.fetcher.core.envelope.RawRecord;
import dfe.fetcher.core.filter.FilterCompileException;
import dfe.fetcher.core.filter.FilterVerdict;
import dfe.fetcher.core.filter.RowFilter;
import dfe.fetcher.core.metrics.MetricNames;
import dfe.fetcher.core.row.Cancellation;
import dfe.fetcher.core.row.SourceException;
import dfe.fetcher.rest.RestConnection;
import dfe.fetcher.rest.http.ErrorText;
import dfe.fetcher.rest.http.RateLimit;
import dfe.fetcher.rest.http.Requester;
import dfe.fetcher.rest.http.Response;
import dfe.fetcher.rest.profile.Endpoint;
import dfe.fetcher.rest.profile.TemplateException;
import dfe.fetcher.rest.profile.TemplateValues;
import dfe.fetcher.rest.profile.TemplateWindow;
import dfe.fetcher.rest.profile.UriText;
import dfe.fetcher.rest.shape.RowShaper;
import dfe.fetcher.source.SourceMetrics;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/**
 * Reads one listing of an endpoint (a dump's whole store, or one window) page by page, handing each
 * row on as it is decoded. It ends when the pager says so, and fails, naming the page, when:
 *
 * <ul>
 *   <li>a request fails after its retries, or a body cannot be read or decoded (a body that broke
 *       off is not requested again: its first rows were handed on already);
 *   <li>the next request (a link, a token, a page) was already made in this listing, or a page
 *       holds the same rows as one read before in it under another URL ({@link PageContents}): a
 *       loop;
 *   <li>{@code max_pages} pages were read and the pager still has a next one: nothing the API says
 *       ({@code has_more}, totals) lifts the bound;
 *   <li>{@code fail_when} holds for a page, checked before any of its rows is handed on;
 *   <li>a page after the first answers a status of {@code errors.ignore_status}, which ends a
 *       listing normally, with no rows, only on its first request.
 * </ul>
 */
public final class Listing {

  /** Where a listing's rows go, with the page they came from. */
  @FunctionalInterface
  public interface RowsOut {
    /**
     * One element of a page as the decoder read it, before row shaping makes it its rows (which
     * follow through {@link #row}): what a construct reads of the element itself (a queue's ack id)
     * it reads here.
     *
     * @throws SourceException when the element cannot be used, naming its place, never its content
     */
    default void element(RawRecord element, String origin)
        throws SourceException, InterruptedException {}

    /**
     * One row, while its page's body is still being read.
     *
     * @throws SourceException when the row cannot be used (a construct's id missing), naming the
     *     row's place, never its content
     */
    void row(RawRecord record, String origin) throws SourceException, InterruptedException;

    /**
     * A page was read to its end and its body closed: what a construct sends for the page's rows
     * goes now, while the listing holds no request of the connection's budget.
     */
    default void pageRead() throws SourceException, InterruptedException {}
  }

  private final String source;
  private final RestConnection connection;
  private final String baseUrl;
  private final Endpoint endpoint;
  private final Requester requester;
  private final RateLimit rate;
  private final Optional<RowFilter> failWhen;
  private final SourceMetrics metrics;
  private final boolean wholeUrlPath;

  public Listing(
      String source,
      RestConnection connection,
      Endpoint endpoint,
      Requester requester,
      RateLimit rate,
      SourceMetrics metrics) {
    this(source, connection, endpoint, requester, rate, metrics, false);
  }

  /**
   * @param wholeUrlPath whether a {@code path} that renders as a whole {@code http} or {@code
   *     https} URL is requested as it is, not appended to {@code base_url} (a manifest item's
   *     {@code contentUri}); credentials then go to it only as they go to a {@code Link} target
   */
  public Listing(
      String source,
      RestConnection connection,
      Endpoint endpoint,
      Requester requester,
      RateLimit rate,
      SourceMetrics metrics,
      boolean wholeUrlPath) {
    this.wholeUrlPath = wholeUrlPath;
    this.source = source;
    this.connection = connection;
    this.baseUrl = connection.baseUrlOf(endpoint.unit());
    this.endpoint = endpoint;
    this.requester = requester;
    this.rate = rate;
    this.metrics = metrics;
    this.failWhen = endpoint.failWhen().map(Listing::compile);
  }

  private static RowFilter compile(String expression) {
    try {
      return RowFilter.compile(expression);
    } catch (FilterCompileException e) {
      throw new IllegalStateException("fail_when was checked at load: " + e.getMessage(), e);
    }
  }

  /**
   * What a listing read: its pages, and when {@code max_pages} pages were read with more to read,
   * why it was cut short (naming the next page).
   */
  public record Listed(int pages, Optional<String> cutShort) {}

  /**
   * Reads every page with the template values {@code window} adds ({@code window.start}, {@code
   * window.end}; none for a dump). A listing that reaches {@code max_pages} with more to read is
   * not a failure here: the rows of the pages read were handed on, and the answer says it was cut
   * short, so a window can commit what it read ({@code window.position_at}) or read a shorter
   * window.
   */
  public Listed readUpToMaxPages(
      Optional<TemplateWindow> window, RowsOut out, Cancellation cancellation)
      throws SourceException, InterruptedException {
    return readUpToMaxPages(window, Map.of(), out, cancellation);
  }

  /**
   * As {@link #readUpToMaxPages(Optional, RowsOut, Cancellation)}, with {@code bound} beside the
   * window's values: a construct's {@code key}, {@code item} or {@code ids}.
   */
  public Listed readUpToMaxPages(
      Optional<TemplateWindow> window,
      Map<String, Object> bound,
      RowsOut out,
      Cancellation cancellation)
      throws SourceException, InterruptedException {
    try {
      return readRendered(window, bound, out, cancellation);
    } catch (TemplateException e) {
      throw new SourceException(
          source + ": a template of " + endpoint.settingsPath() + ": " + e.getMessage(), e);
    }
  }

  /**
   * Sends the endpoint's first request once and reads none of its answer (a {@code prelude}'s): a
   * 2xx, or a status of its {@code errors.ignore_status}, is done with; any other answer fails as a
   * page's does, after the same retries.
   */
  public void sendUnread(Cancellation cancellation) throws SourceException, InterruptedException {
    sendUnread(Map.of(), cancellation);
  }

  /**
   * As {@link #sendUnread(Cancellation)}, with {@code bound} beside the connection's values: a
   * queue's {@code ack_ids}.
   */
  public void sendUnread(Map<String, Object> bound, Cancellation cancellation)
      throws SourceException, InterruptedException {
    Response response;
    try {
      TemplateValues values = endpoint.values(connection.vars(), Optional.empty(), bound);
      Map<String, String> headers = new LinkedHashMap<>();
      connection.headers().forEach((name, template) -> headers.put(name, template.render(values)));
      endpoint.headers().forEach((name, template) -> headers.put(name, template.render(values)));
      Optional<byte[]> body = endpoint.body().map(template -> template.render(values));
      response =
          requester.send(
              new Requester.Call(source, endpoint, uri(values, Map.of()), headers, body, rate),
              cancellation);
    } catch (TemplateException e) {
      throw new SourceException(
          source + ": a template of " + endpoint.settingsPath() + ": " + e.getMessage(), e);
    } catch (SourceException e) {
      throw new SourceException(source + ": " + e.getMessage(), e);
    }
    response.close();
  }

  private Listed readRendered(
      Optional<TemplateWindow> window,
      Map<String, Object> bound,
      RowsOut out,
      Cancellation cancellation)
      throws SourceException, InterruptedException {
    TemplateValues values = endpoint.values(connection.vars(), window, bound);
    RowShaper shaper = endpoint.rowShape().shaper(values, endpoint.maxPageBytes());
    Map<String, String> headers = new LinkedHashMap<>();
    connection.headers().forEach((name, template) -> headers.put(name, template.render(values)));
    endpoint.headers().forEach((name, template) -> headers.put(name, template.render(values)));
    Optional<byte[]> endpointBody = endpoint.body().map(template -> template.render(values));
    Optional<byte[]> body = endpointBody;
    Map<String, String> pagerQuery = endpoint.pager().first();
    URI uri = uri(values, pagerQuery);
    Set<String> requested = new HashSet<>();
    PageContents contents = new PageContents();
    List<String> pages = new ArrayList<>();
    for (int page = 1; ; page++) {
      String described = endpoint.method() + " " + requester.authorizer().describe(uri);
      pages.add(described);
      // A POST listing's cursor may go into the body alone: the same URL with another body is
      // another page.
      String request =
          uri + body.map(bytes -> "\n" + new String(bytes, StandardCharsets.UTF_8)).orElse("");
      if (!requested.add(request)) {
        throw new SourceException(
            source
                + ": pagination loops: page "
                + page
                + " would be "
                + described
                + (endpoint.pager().writesBody() ? " with the same body" : "")
                + " again, already requested in this "
                + (window.isEmpty() ? "dump" : "window"));
      }
      Response response;
      try {
        response =
            requester.send(
                new Requester.Call(source, endpoint, uri, headers, body, rate), cancellation);
      } catch (SourceException e) {
        throw new SourceException(source + ": " + e.getMessage(), e);
      }
      if (response.ignored()) {
        response.close();
        if (page == 1) {
          return new Listed(page, Optional.empty());
        }
        throw new SourceException(
            source
                + ": "
                + described
                + " answered "
                + response.status()
                + " on page "
                + page
                + ": errors.ignore_status makes only a listing's first page empty; a later page"
                + " answering it would cut the listing short, so it fails");
      }
      Pager.Page read;
      try (response;
          Cancellation.Registration cancel = cancellation.onCancel(response::close)) {
        read = page(response, pagerQuery, described, shaper, contents, out, cancellation);
      }
      metrics.increment(MetricNames.REST_PAGES, source, Map.of());
      OptionalInt earlier = contents.endPage(page);
      if (earlier.isPresent()) {
        throw new SourceException(
            source
                + ": pagination loops: page "
                + page
                + " ("
                + described
                + ") holds the same rows as page "
                + earlier.getAsInt()
                + " ("
                + pages.get(earlier.getAsInt() - 1)
                + ") under another URL; the listing went round, so this "
                + (window.isEmpty() ? "dump" : "window")
                + " is not complete");
      }
      out.pageRead();
      Optional<Pager.NextPage> next;
      try {
        next = endpoint.pager().next(read);
        if (next.isPresent()) {
          body = next.get().body(endpointBody);
        }
      } catch (SourceException e) {
        throw new SourceException(source + ": " + described + ": " + e.getMessage(), e);
      }
      if (next.isEmpty()) {
        return new Listed(page, Optional.empty());
      }
      if (page >= endpoint.maxPages()) {
        return new Listed(
            page,
            Optional.of(
                source
                    + ": reached max_pages "
                    + endpoint.maxPages()
                    + " with more to read (the next page: "
                    + describe(next.get(), values)
                    + "); cut short, not complete"));
      }
      pagerQuery = next.get().pagerQuery(pagerQuery);
      uri = next.get().uri(query -> uri(values, query));
    }
  }

  private Pager.Page page(
      Response response,
      Map<String, String> pagerQuery,
      String described,
      RowShaper shaper,
      PageContents contents,
      RowsOut out,
      Cancellation cancellation)
      throws SourceException, InterruptedException {
    long[] index = {0};
    PageDecoding.Page decoded;
    try {
      decoded =
          PageDecoding.decode(
              endpoint,
              endpoint.gzip() ? GzipMembers.detect(response.body()) : response.body(),
              described,
              tree -> checkFailWhen(tree, described),
              record -> {
                long row = index[0]++;
                contents.element(record);
                out.element(record, described + " row " + row);
                shaper.shape(
                    record,
                    described + ": row " + row,
                    shaped -> out.row(shaped, described + " row " + row));
              });
    } catch (GzipMembers.Corrupt e) {
      throw new SourceException(source + ": " + described + ": rows.gzip: " + e.getMessage(), e);
    } catch (IOException e) {
      cancellation.throwIfCancelled();
      throw new SourceException(
          source
              + ": "
              + described
              + (response.guard().stalled()
                  ? ": the body stalled for timeout_secs " + endpoint.timeoutSecs()
                  : Requester.isBadGzip(e)
                      ? ": " + Requester.failure(e)
                      : ": the body broke off: " + Requester.failure(e)),
          e);
    } catch (SourceException e) {
      throw new SourceException(source + ": " + e.getMessage(), e);
    }
    return new Pager.Page(
        response.uri(), pagerQuery, response.headers(), decoded.body(), decoded.rows());
  }

  private void checkFailWhen(JsonNode tree, String described) throws SourceException {
    if (failWhen.isEmpty()) {
      return;
    }
    byte[] wrapped;
    try {
      wrapped =
          PageDecoding.TREE.writeValueAsBytes(
              PageDecoding.TREE.createObjectNode().set("body", tree));
    } catch (IOException e) {
      throw new SourceException(described + ": the body cannot be re-read", e);
    }
    FilterVerdict verdict = failWhen.get().evaluate(wrapped);
    if (verdict == FilterVerdict.PASS) {
      String text = endpoint.errorAt().map(tree::at).map(ErrorText::quoted).orElse("");
      throw new SourceException(
          described
              + " answered 2xx, but fail_when holds ("
              + failWhen.get().expression()
              + ")"
              + text);
    }
  }

  private String describe(Pager.NextPage next, TemplateValues values) {
    return requester.authorizer().describe(next.uri(query -> uri(values, query)));
  }

  /**
   * base_url + path + the endpoint's query + the pager's, each value percent-encoded; with {@code
   * wholeUrlPath}, a path that renders as a whole URL instead of base_url + path.
   */
  private URI uri(TemplateValues values, Map<String, String> pagerQuery) {
    Map<String, String> query = new LinkedHashMap<>();
    endpoint.query().forEach((name, template) -> query.put(name, template.render(values)));
    query.putAll(pagerQuery);
    StringBuilder text;
    String separator = "?";
    Optional<URI> whole = wholeUrlPath ? WholeUrl.of(endpoint, values) : Optional.empty();
    if (whole.isPresent()) {
      text = new StringBuilder(whole.get().toString());
      separator = whole.get().getRawQuery() == null ? "?" : "&";
    } else {
      text = new StringBuilder(baseUrl).append(endpoint.path().render(values, UriText::pathValue));
    }
    for (Map.Entry<String, String> param : query.entrySet()) {
      text.append(separator)
          .append(URLEncoder.encode(param.getKey(), StandardCharsets.UTF_8))
          .append('=')
          .append(URLEncoder.encode(param.getValue(), StandardCharsets.UTF_8));
      separator = "&";
    }
    return URI.create(text.toString());
  }
}
