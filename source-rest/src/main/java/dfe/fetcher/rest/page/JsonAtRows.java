package dfe.fetcher.rest.page;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dfe.fetcher.core.envelope.RawRecord;
import dfe.fetcher.core.row.SourceException;
import dfe.fetcher.rest.profile.Endpoint;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Optional;

/**
 * {@code json_at}, streamed: walks the body with Jackson's streaming parser to {@code rows.at} and
 * hands each element of the array there on as it is read, each bounded by {@code max_page_bytes} as
 * {@code json_array}'s are. Everything else of the body, before or after the array, is kept as a
 * tree (at most {@code max_page_bytes} of it) for the pager: its cursor, {@code has_more} or total
 * may come after the rows. The rows array itself is left out of that tree (in an array, a null
 * stands in its place). One instance reads one page.
 */
final class JsonAtRows {

  private static final JsonNodeFactory NODES = JsonNodeFactory.withExactBigDecimals(true);
  private static final JsonFactory JSON = new JsonFactory();

  private final Endpoint endpoint;
  private final String at;
  private final String where;
  private final PageDecoding.Rows rows;
  private final JsonParser parser;
  private final ByteArrayOutputStream element = new ByteArrayOutputStream();
  private long count;
  private boolean found;
  private boolean foundNull;
  private boolean inRow;
  private long rowsSpan;

  private JsonAtRows(
      Endpoint endpoint,
      JsonFactory factory,
      InputStream body,
      String where,
      PageDecoding.Rows rows)
      throws IOException {
    this.endpoint = endpoint;
    this.at = endpoint.rowsAt().orElse("");
    this.where = where;
    this.rows = rows;
    this.parser = factory.createParser(body);
  }

  static PageDecoding.Page read(
      Endpoint endpoint,
      JsonFactory factory,
      InputStream body,
      String where,
      PageDecoding.Rows rows)
      throws SourceException, IOException, InterruptedException {
    JsonAtRows reader = new JsonAtRows(endpoint, factory, body, where, rows);
    try (reader.parser) {
      return reader.page();
    }
  }

  private PageDecoding.Page page() throws SourceException, IOException, InterruptedException {
    JsonNode rest;
    try {
      if (parser.nextToken() == null) {
        throw new SourceException(where + ": the body is empty, not JSON");
      }
      rest = value(JsonPointer.compile(at));
      if (parser.nextToken() != null) {
        throw new SourceException(where + ": text follows the JSON document");
      }
    } catch (StreamConstraintsException e) {
      if (inRow) {
        throw PageDecoding.elementTooLong(endpoint, where, at + "/" + count);
      }
      throw new SourceException(
          where
              + ": the body passes a limit of the JSON parser (a string longer than"
              + " max_page_bytes, or the nesting depth)");
    } catch (JsonProcessingException e) {
      throw new SourceException(
          where
              + ": not valid JSON after "
              + count
              + " rows"
              + (e.getLocation() == null ? "" : ", at byte " + e.getLocation().getByteOffset()));
    }
    Optional<JsonNode> tree = Optional.ofNullable(rest).or(() -> Optional.of(NODES.nullNode()));
    if (!found || foundNull) {
      if (endpoint.rowsMayBeAbsent()) {
        return new PageDecoding.Page(0, tree);
      }
      throw PageDecoding.rowsMissing(where, at, foundNull);
    }
    return new PageDecoding.Page(count, tree);
  }

  /**
   * The tree of the value at the current token, without the rows; null for the rows array itself.
   *
   * @param below what remains of {@code rows.at} beneath this value; null when the rows are not
   *     beneath it
   */
  private JsonNode value(JsonPointer below)
      throws SourceException, IOException, InterruptedException {
    JsonToken token = parser.currentToken();
    if (below != null && below.matches()) {
      found = true;
      if (token == JsonToken.VALUE_NULL) {
        foundNull = true;
        return null;
      }
      if (token != JsonToken.START_ARRAY) {
        throw new SourceException(where + ": " + at + " is not a JSON array (rows.at)");
      }
      streamRows();
      return null;
    }
    JsonNode node;
    switch (token) {
      case START_OBJECT -> {
        ObjectNode object = NODES.objectNode();
        while (parser.nextToken() != JsonToken.END_OBJECT) {
          String name = parser.currentName();
          parser.nextToken();
          JsonNode child = value(below == null ? null : below.matchProperty(name));
          if (child != null) {
            object.set(name, child);
          }
        }
        node = object;
      }
      case START_ARRAY -> {
        ArrayNode array = NODES.arrayNode();
        for (int index = 0; parser.nextToken() != JsonToken.END_ARRAY; index++) {
          JsonNode child = value(below == null ? null : below.matchElement(index));
          array.add(child == null ? NODES.nullNode() : child);
        }
        node = array;
      }
      case VALUE_STRING -> node = NODES.textNode(parser.getText());
      case VALUE_NUMBER_INT ->
          node =
              switch (parser.getNumberType()) {
                case INT -> NODES.numberNode(parser.getIntValue());
                case LONG -> NODES.numberNode(parser.getLongValue());
                default -> NODES.numberNode(parser.getBigIntegerValue());
              };
      case VALUE_NUMBER_FLOAT -> node = NODES.numberNode(parser.getDecimalValue());
      case VALUE_TRUE -> node = NODES.booleanNode(true);
      case VALUE_FALSE -> node = NODES.booleanNode(false);
      case VALUE_NULL -> node = NODES.nullNode();
      default -> throw new SourceException(where + ": unexpected JSON token " + token);
    }
    if (offset(parser.currentLocation()) - rowsSpan > endpoint.maxPageBytes()) {
      throw new SourceException(
          where
              + ": the body outside "
              + at
              + " (rows.at) is longer than max_page_bytes "
              + endpoint.maxPageBytes());
    }
    return node;
  }

  private void streamRows() throws SourceException, IOException, InterruptedException {
    long start = offset(parser.currentTokenLocation());
    while (parser.nextToken() != JsonToken.END_ARRAY) {
      if (parser.currentToken() != JsonToken.START_OBJECT
          && !endpoint.rowShape().takesAnyElement()) {
        throw new SourceException(where + ": " + at + "/" + count + " is not a JSON object");
      }
      element.reset();
      inRow = true;
      try (JsonGenerator generator = JSON.createGenerator(element)) {
        BoundedElement.copy(parser, generator, endpoint.maxPageBytes());
      } catch (BoundedElement.TooLong e) {
        throw PageDecoding.elementTooLong(endpoint, where, at + "/" + count);
      }
      inRow = false;
      if (element.size() > endpoint.maxPageBytes()) {
        throw PageDecoding.elementTooLong(endpoint, where, at + "/" + count);
      }
      rows.accept(RawRecord.of(element.toByteArray()));
      count++;
    }
    rowsSpan += offset(parser.currentLocation()) - start;
  }

  /** Bytes for a parser over bytes, characters for one over text. */
  private static long offset(JsonLocation location) {
    return location.getByteOffset() >= 0 ? location.getByteOffset() : location.getCharOffset();
  }
}
