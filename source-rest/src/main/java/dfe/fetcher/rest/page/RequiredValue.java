package dfe.fetcher.rest.page;

import com.fasterxml.jackson.databind.JsonNode;
import dfe.fetcher.core.row.SourceException;

/**
 * A value a pager's setting points to, which the API sends on every page: a missing one, or one of
 * the wrong type, fails the page naming the setting and the pointer (never the value), since a
 * listing that cannot tell where it ends must not end as complete.
 */
final class RequiredValue {

  private RequiredValue() {}

  /** The boolean at {@code pointer}, the setting {@code paginate.<key>}. */
  static boolean bool(Pager.Page page, String key, String pointer) throws SourceException {
    JsonNode node = at(page, key, pointer);
    if (!node.isBoolean()) {
      throw new SourceException(
          "paginate." + key + ": " + pointer + " is " + JsonKinds.of(node) + ", not a boolean");
    }
    return node.booleanValue();
  }

  /** The whole number at least 0 at {@code pointer}, the setting {@code paginate.<key>}. */
  static long count(Pager.Page page, String key, String pointer) throws SourceException {
    JsonNode node = at(page, key, pointer);
    if (!node.isIntegralNumber() || !node.canConvertToLong() || node.longValue() < 0) {
      throw new SourceException(
          "paginate."
              + key
              + ": "
              + pointer
              + " is "
              + (node.isNumber() ? "a number but not a whole number from 0" : JsonKinds.of(node))
              + ", not a count");
    }
    return node.longValue();
  }

  private static JsonNode at(Pager.Page page, String key, String pointer) throws SourceException {
    JsonNode node = page.body().map(body -> body.at(pointer)).orElse(null);
    if (node == null || node.isMissingNode() || node.isNull()) {
      throw new SourceException(
          "paginate."
              + key
              + ": the body has "
              + (node != null && node.isNull() ? "null" : "nothing")
              + " at "
              + pointer);
    }
    return node;
  }
}
