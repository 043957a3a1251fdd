package dfe.fetcher.rest.page;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.http.HttpHeaders;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * How an endpoint's listing goes on from one page to the next ({@code paginate}). A pager only says
 * what to request next; the page loop checks that nothing is requested twice and that {@code
 * max_pages} is not passed, whatever the API says.
 */
public sealed interface Pager {

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
  sealed interface NextPage {}

  /** An absolute URL the API handed over (a {@code Link} header), requested as it is. */
  record FollowLink(URI uri) implements NextPage {}

  /** The endpoint's request again, with these pager parameters. */
  record WithQuery(Map<String, String> query) implements NextPage {}

  /** {@code none}: one page. */
  record None() implements Pager {
    @Override
    public Map<String, String> first() {
      return Map.of();
    }

    @Override
    public Optional<NextPage> next(Page page) {
      return Optional.empty();
    }
  }

  /** {@code link_header}: RFC 8288 {@code Link: <url>; rel="next"}; no such link ends. */
  record LinkHeader() implements Pager {
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

  /**
   * {@code cursor}: a token read from the body ({@code body:/pointer}) or a header ({@code
   * header:Name}) and sent as a query parameter; a missing, null or empty token ends.
   *
   * @param fromBody true for {@code body:}, false for {@code header:}
   * @param from the JSON pointer or header name
   * @param into the query parameter's name
   */
  record Cursor(boolean fromBody, String from, String into) implements Pager {
    public Cursor {
      Objects.requireNonNull(from, "from");
      Objects.requireNonNull(into, "into");
    }

    @Override
    public Map<String, String> first() {
      return Map.of();
    }

    @Override
    public Optional<NextPage> next(Page page) {
      Optional<String> token;
      if (fromBody) {
        token =
            page.body()
                .map(body -> body.at(from))
                .filter(node -> node.isValueNode() && !node.isNull())
                .map(JsonNode::asText);
      } else {
        token = page.headers().firstValue(from);
      }
      return token.filter(t -> !t.isEmpty()).map(t -> new WithQuery(Map.of(into, t)));
    }

    @Override
    public boolean readsBody() {
      return fromBody;
    }
  }

  /**
   * {@code page_number}: {@code param} counts from {@code start}; an empty page ends, and so does
   * the page numbered the value at {@code total_pages_at} when it is given.
   */
  record PageNumber(String param, long start, Optional<String> totalPagesAt) implements Pager {
    public PageNumber {
      Objects.requireNonNull(param, "param");
      Objects.requireNonNull(totalPagesAt, "totalPagesAt");
    }

    @Override
    public Map<String, String> first() {
      return Map.of(param, Long.toString(start));
    }

    @Override
    public Optional<NextPage> next(Page page) {
      if (page.rows() == 0) {
        return Optional.empty();
      }
      long current = Long.parseLong(page.pagerQuery().get(param));
      if (totalPagesAt.isPresent()) {
        JsonNode total = page.body().map(body -> body.at(totalPagesAt.get())).orElse(null);
        if (total != null && total.canConvertToLong() && current - start + 1 >= total.asLong()) {
          return Optional.empty();
        }
      }
      return Optional.of(new WithQuery(Map.of(param, Long.toString(current + 1))));
    }

    @Override
    public boolean readsBody() {
      return totalPagesAt.isPresent();
    }
  }

  /**
   * {@code offset}: {@code param} starts at 0 and advances by the rows received; {@code
   * limit_param} (when given) carries {@code page_size}. An empty page ends, a short one does not
   * (APIs cap pages below the size asked for).
   */
  record Offset(String param, Optional<String> limitParam, long pageSize) implements Pager {
    public Offset {
      Objects.requireNonNull(param, "param");
      Objects.requireNonNull(limitParam, "limitParam");
    }

    @Override
    public Map<String, String> first() {
      return query(0);
    }

    @Override
    public Optional<NextPage> next(Page page) {
      if (page.rows() == 0) {
        return Optional.empty();
      }
      long current = Long.parseLong(page.pagerQuery().get(param));
      return Optional.of(new WithQuery(query(current + page.rows())));
    }

    private Map<String, String> query(long offset) {
      Map<String, String> query = new LinkedHashMap<>();
      query.put(param, Long.toString(offset));
      limitParam.ifPresent(name -> query.put(name, Long.toString(pageSize)));
      return query;
    }
  }

  /** The names {@code paginate.type} takes. */
  static List<String> names() {
    return List.of("none", "link_header", "cursor", "page_number", "offset");
  }
}
