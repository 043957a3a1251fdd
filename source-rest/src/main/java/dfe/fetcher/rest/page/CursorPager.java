package dfe.fetcher.rest.page;

import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.databind.JsonNode;
import dfe.fetcher.core.row.SourceException;
import dfe.fetcher.rest.http.HeaderNames;
import dfe.fetcher.source.config.Section;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * {@code cursor}: a token read from the body ({@code body:/pointer}) or a header ({@code
 * header:Name}) and sent as a query parameter ({@code query:name}), as a string field of a POST
 * listing's JSON body ({@code body:/pointer}) or as one more segment of the path ({@code path}). A
 * missing, null or empty token ends; a token in the body that is neither a string nor a number (an
 * object, a list, a boolean) fails the page.
 *
 * @param fromBody true for {@code body:}, false for {@code header:}
 * @param from the JSON pointer or header name
 * @param into where the token goes
 * @param target the query parameter's name or the body's pointer; empty for {@code path}
 */
record CursorPager(boolean fromBody, String from, Into into, String target) implements Pager {

  /** Where the token goes on the next request. */
  enum Into {
    QUERY,
    BODY,
    PATH
  }

  CursorPager {
    Objects.requireNonNull(from, "from");
    Objects.requireNonNull(into, "into");
    Objects.requireNonNull(target, "target");
  }

  static Pager bind(Section paginate) {
    String from = paginate.requiredString("from").orElse("header:x");
    String into = paginate.requiredString("into").orElse("query:cursor");
    boolean fromBody = from.startsWith("body:");
    String where = from.substring(from.indexOf(':') + 1);
    if (paginate.node("from").isPresent()) {
      if (fromBody) {
        if (!isPointer(where) || where.isEmpty()) {
          paginate.report("from", "body: needs a JSON pointer, e.g. body:/next");
        }
      } else if (!from.startsWith("header:") || !HeaderNames.isToken(where)) {
        paginate.report("from", "must be body:/pointer or header:Name, e.g. body:/next_cursor");
      }
    }
    if (into.equals("path")) {
      return new CursorPager(fromBody, where, Into.PATH, "");
    }
    if (into.startsWith("body:")) {
      String pointer = into.substring("body:".length());
      if (!isPointer(pointer) || pointer.isEmpty()) {
        paginate.report(
            "into",
            "body: needs the JSON pointer of a field of the request body, e.g. body:/cursor");
      }
      return new CursorPager(fromBody, where, Into.BODY, pointer);
    }
    if (paginate.node("into").isPresent()
        && (!into.startsWith("query:") || into.length() == "query:".length())) {
      paginate.report(
          "into",
          "must be query:name, body:/pointer (a POST listing's JSON body) or path, e.g."
              + " query:cursor");
    }
    return new CursorPager(
        fromBody, where, Into.QUERY, into.startsWith("query:") ? into.substring(6) : "cursor");
  }

  private static boolean isPointer(String text) {
    try {
      JsonPointer.compile(text);
      return true;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  @Override
  public Map<String, String> first() {
    return Map.of();
  }

  @Override
  public Optional<NextPage> next(Page page) throws SourceException {
    Optional<String> token;
    if (fromBody) {
      JsonNode node = page.body().map(body -> body.at(from)).orElse(null);
      if (node == null || node.isMissingNode() || node.isNull()) {
        token = Optional.empty();
      } else if (node.isTextual() || node.isNumber()) {
        token = Optional.of(node.asText());
      } else {
        throw new SourceException(
            "paginate.from: the cursor at "
                + from
                + " is "
                + JsonKinds.of(node)
                + ", not a string or a number");
      }
    } else {
      token = page.headers().firstValue(from);
    }
    if (token.isEmpty() || token.get().isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(placed(token.get()));
  }

  private NextPage placed(String token) throws SourceException {
    if (into == Into.PATH && (token.equals(".") || token.equals(".."))) {
      // A dot segment would name the endpoint's path or its parent, not a page of it.
      throw new SourceException(
          "paginate.into: path: the cursor is a dot segment ('.' or '..'), which is no page");
    }
    return switch (into) {
      case QUERY -> new WithQuery(Map.of(target, token));
      case BODY -> new WithBodyField(target, token);
      case PATH -> new WithPathSegment(token);
    };
  }

  @Override
  public Map<String, String> bodyPointers() {
    return fromBody ? Map.of("from", from) : Map.of();
  }

  @Override
  public boolean writesBody() {
    return into == Into.BODY;
  }
}
