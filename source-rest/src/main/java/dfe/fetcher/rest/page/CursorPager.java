package dfe.fetcher.rest.page;

import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.databind.JsonNode;
import dfe.fetcher.core.row.SourceException;
import dfe.fetcher.rest.http.HeaderNames;
import dfe.fetcher.source.config.Section;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * {@code cursor}: a token read from the body ({@code body:/pointer}) or a header ({@code
 * header:Name}) and sent as a query parameter ({@code query:name}), as a string field of a POST
 * listing's JSON body ({@code body:/pointer}), as the only field of the next body ({@code
 * body_replace:/pointer}) or as one more segment of the path ({@code path}). A missing, null or
 * empty token ends; a token in the body that is neither a string nor a number (an object, a list, a
 * boolean) fails the page, but for a list of strings and numbers with {@code join}, which is sent
 * joined (an empty list ends).
 *
 * @param fromBody true for {@code body:}, false for {@code header:}
 * @param from the JSON pointer or header name
 * @param into where the token goes
 * @param target the query parameter's name or the body's pointer; empty for {@code path}
 * @param join what a list cursor's items are joined with ({@code paginate.join})
 */
record CursorPager(boolean fromBody, String from, Into into, String target, Optional<String> join)
    implements Pager {

  /** Where the token goes on the next request. */
  enum Into {
    QUERY,
    BODY,
    /** The next request's body is the token at the pointer and nothing else (1Password). */
    BODY_REPLACE,
    PATH
  }

  CursorPager {
    Objects.requireNonNull(from, "from");
    Objects.requireNonNull(into, "into");
    Objects.requireNonNull(target, "target");
    Objects.requireNonNull(join, "join");
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
    Optional<String> join = paginate.string("join");
    if (join.isPresent() && (join.get().isEmpty() || !fromBody)) {
      paginate.report(
          "join",
          "joins a list cursor read from the body (from: body:/pointer); it must not be empty,"
              + " e.g. \",\"");
    }
    if (into.equals("path")) {
      return new CursorPager(fromBody, where, Into.PATH, "", join);
    }
    boolean replace = into.startsWith("body_replace:");
    if (into.startsWith("body:") || replace) {
      String pointer = into.substring(into.indexOf(':') + 1);
      if (!isPointer(pointer) || pointer.isEmpty()) {
        paginate.report(
            "into",
            into.substring(0, into.indexOf(':') + 1)
                + " needs the JSON pointer of a field of the request body, e.g. body:/cursor");
      }
      return new CursorPager(
          fromBody, where, replace ? Into.BODY_REPLACE : Into.BODY, pointer, join);
    }
    if (paginate.node("into").isPresent()
        && (!into.startsWith("query:") || into.length() == "query:".length())) {
      paginate.report(
          "into",
          "must be query:name, body:/pointer (a POST listing's JSON body), body_replace:/pointer"
              + " (the next body is the token alone) or path, e.g. query:cursor");
    }
    return new CursorPager(
        fromBody,
        where,
        Into.QUERY,
        into.startsWith("query:") ? into.substring(6) : "cursor",
        join);
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
      } else if (join.isPresent() && node.isArray()) {
        token = Optional.of(joined(node));
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

  /**
   * A list cursor's items joined ({@code join}): strings and numbers as their text; an empty list
   * is no cursor (the listing ends).
   */
  private String joined(JsonNode list) throws SourceException {
    List<String> items = new ArrayList<>();
    for (JsonNode item : list) {
      if (!item.isTextual() && !item.isNumber()) {
        throw new SourceException(
            "paginate.from: the list cursor at "
                + from
                + " holds "
                + JsonKinds.of(item)
                + ", not only strings and numbers");
      }
      items.add(item.asText());
    }
    return String.join(join.orElseThrow(), items);
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
      case BODY_REPLACE -> new WithBodyField(target, token, true);
      case PATH -> new WithPathSegment(token);
    };
  }

  @Override
  public Map<String, String> bodyPointers() {
    return fromBody ? Map.of("from", from) : Map.of();
  }

  @Override
  public boolean writesBody() {
    return into == Into.BODY || into == Into.BODY_REPLACE;
  }
}
