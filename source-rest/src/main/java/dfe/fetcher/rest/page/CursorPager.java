package dfe.fetcher.rest.page;

import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.databind.JsonNode;
import dfe.fetcher.rest.http.HeaderNames;
import dfe.fetcher.source.config.Section;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * {@code cursor}: a token read from the body ({@code body:/pointer}) or a header ({@code
 * header:Name}) and sent as a query parameter; a missing, null or empty token ends.
 *
 * @param fromBody true for {@code body:}, false for {@code header:}
 * @param from the JSON pointer or header name
 * @param into the query parameter's name
 */
record CursorPager(boolean fromBody, String from, String into) implements Pager {

  CursorPager {
    Objects.requireNonNull(from, "from");
    Objects.requireNonNull(into, "into");
  }

  static Pager bind(Section paginate) {
    String from = paginate.requiredString("from").orElse("header:x");
    String into = paginate.requiredString("into").orElse("query:cursor");
    boolean fromBody = from.startsWith("body:");
    String where = from.substring(from.indexOf(':') + 1);
    if (paginate.node("from").isPresent()) {
      if (fromBody) {
        try {
          JsonPointer.compile(where);
        } catch (IllegalArgumentException e) {
          paginate.report("from", "body: needs a JSON pointer, e.g. body:/next");
        }
      } else if (!from.startsWith("header:") || !HeaderNames.isToken(where)) {
        paginate.report("from", "must be body:/pointer or header:Name, e.g. body:/next_cursor");
      }
    }
    if (paginate.node("into").isPresent()
        && (!into.startsWith("query:") || into.length() == "query:".length())) {
      paginate.report("into", "must be query:name, e.g. query:cursor");
    }
    return new CursorPager(
        fromBody, where, into.startsWith("query:") ? into.substring(6) : "cursor");
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
