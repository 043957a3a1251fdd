package dfe.fetcher.rest.shape;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dfe.fetcher.core.row.SourceException;
import java.util.Objects;

/**
 * {@code wrap_non_object}: an element that is not a JSON object (a string, a number, an array,
 * null) becomes the row {@code {"<field>": element}}, {@code field} being {@code rows.field}
 * ({@code value} unless set); an object is the row as it is.
 */
record WrapNonObject(String field) implements RowBuilder {

  static final String DEFAULT_FIELD = "value";

  WrapNonObject {
    Objects.requireNonNull(field, "field");
  }

  @Override
  public void build(JsonNode element, String place, Rows out)
      throws SourceException, InterruptedException {
    if (element.isObject()) {
      out.accept(element);
      return;
    }
    ObjectNode row = ShapedJson.NODES.objectNode();
    row.set(field, element);
    out.accept(row);
  }
}
