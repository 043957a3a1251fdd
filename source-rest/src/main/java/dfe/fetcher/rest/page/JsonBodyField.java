package dfe.fetcher.rest.page;

import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dfe.fetcher.core.row.SourceException;
import java.io.IOException;
import java.util.Optional;

/** Sets one string field of a request's JSON body, at a pointer: a POST listing's cursor. */
final class JsonBodyField {

  private JsonBodyField() {}

  /**
   * {@code body} (an empty object when there is none) with {@code value} at {@code pointer}, the
   * objects on the way created when missing.
   *
   * @throws SourceException when a value on the way is not an object, or the body is not JSON
   */
  static byte[] set(Optional<byte[]> body, String pointer, String value) throws SourceException {
    JsonNode root;
    try {
      root =
          body.isEmpty()
              ? PageDecoding.TREE.createObjectNode()
              : PageDecoding.TREE.readTree(body.get());
    } catch (IOException e) {
      throw new SourceException("the request body is not JSON, so the cursor cannot go into it");
    }
    JsonPointer at = JsonPointer.compile(pointer);
    JsonNode node = root;
    while (!at.tail().matches()) {
      if (!(node instanceof ObjectNode object)) {
        throw new SourceException(
            "paginate.into: body:" + pointer + " passes through a value that is not a JSON object");
      }
      JsonNode child = object.get(at.getMatchingProperty());
      node = child == null ? object.putObject(at.getMatchingProperty()) : child;
      at = at.tail();
    }
    if (!(node instanceof ObjectNode object)) {
      throw new SourceException(
          "paginate.into: body:" + pointer + " passes through a value that is not a JSON object");
    }
    object.put(at.getMatchingProperty(), value);
    try {
      return PageDecoding.TREE.writeValueAsBytes(root);
    } catch (IOException e) {
      throw new SourceException("the request body cannot be written again", e);
    }
  }
}
