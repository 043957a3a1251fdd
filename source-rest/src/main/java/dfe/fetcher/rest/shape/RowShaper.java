package dfe.fetcher.rest.shape;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dfe.fetcher.core.envelope.RawRecord;
import dfe.fetcher.core.row.SourceException;
import dfe.fetcher.rest.page.JsonKinds;
import dfe.fetcher.rest.profile.TemplateValues;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;

/**
 * Shapes the elements of one listing into rows as its {@link RowShape} says: unquotes, builds, adds
 * fields, and checks that what it hands on is a JSON object no longer than {@code max_page_bytes}.
 * An element it cannot shape fails the page, naming the element's place and the setting, never a
 * value; a row it hands on holds every value as the page wrote it.
 */
public final class RowShaper {

  /** Where shaped rows go, in order. */
  @FunctionalInterface
  public interface Rows {
    void accept(RawRecord row) throws SourceException, InterruptedException;
  }

  private final RowShape shape;
  private final Optional<RowBuilder> builder;
  private final Optional<ObjectNode> added;
  private final long maxRowBytes;

  RowShaper(RowShape shape, TemplateValues values, long maxRowBytes) {
    this.shape = shape;
    this.builder = shape.builder().map(type -> type.builder(shape.field()));
    this.added = shape.addFields().map(template -> rendered(template.render(values)));
    this.maxRowBytes = maxRowBytes;
  }

  private static ObjectNode rendered(byte[] json) {
    try {
      if (ShapedJson.read(json) instanceof ObjectNode object) {
        return object;
      }
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("add_fields renders JSON: " + e.getOriginalMessage(), e);
    }
    throw new IllegalStateException("add_fields was checked at load to be a mapping");
  }

  /**
   * Hands on the rows of {@code element}, as the decoder read it.
   *
   * @param place the element, for messages: the page and its index there
   */
  public void shape(RawRecord element, String place, Rows out)
      throws SourceException, InterruptedException {
    if (!shape.quoted() && builder.isEmpty() && added.isEmpty()) {
      out.accept(element);
      return;
    }
    JsonNode node;
    try {
      node = ShapedJson.read(element.bytes());
    } catch (JsonProcessingException e) {
      throw new SourceException(place + " is not valid JSON");
    }
    if (shape.quoted()) {
      node = unquoted(node, place);
    }
    if (builder.isPresent()) {
      builder.get().build(node, place, row -> finish(row, place, out));
    } else {
      finish(node, place, out);
    }
  }

  private static JsonNode unquoted(JsonNode node, String place) throws SourceException {
    if (!node.isTextual()) {
      throw new SourceException(
          place + " is not a string but " + JsonKinds.of(node) + " (rows.quoted: true)");
    }
    try {
      return ShapedJson.read(node.textValue());
    } catch (JsonProcessingException e) {
      throw new SourceException(
          place + ": the string does not hold one JSON value (rows.quoted: true)");
    }
  }

  private void finish(JsonNode row, String place, Rows out)
      throws SourceException, InterruptedException {
    if (shape.anyElement() && added.isEmpty()) {
      try {
        out.accept(RawRecord.of(ShapedJson.write(row)));
      } catch (JsonProcessingException e) {
        throw new SourceException(place + ": the row cannot be written as JSON", e);
      }
      return;
    }
    if (!(row instanceof ObjectNode object)) {
      throw new SourceException(
          place
              + " is "
              + JsonKinds.of(row)
              + ", not a JSON object"
              + (builder.isEmpty() ? "; set rows.builder: wrap_non_object to wrap it" : ""));
    }
    if (added.isPresent()) {
      for (Iterator<Map.Entry<String, JsonNode>> fields = added.get().fields();
          fields.hasNext(); ) {
        Map.Entry<String, JsonNode> field = fields.next();
        if (object.has(field.getKey())) {
          // Replacing the API's own value, or keeping it and dropping ours, would both land a
          // row that says something other than what was read.
          throw new SourceException(
              place + " has a field " + field.getKey() + " already (rows.add_fields)");
        }
        object.set(field.getKey(), field.getValue().deepCopy());
      }
    }
    byte[] bytes;
    try {
      bytes = ShapedJson.write(object);
    } catch (JsonProcessingException e) {
      throw new SourceException(place + ": the row cannot be written as JSON", e);
    }
    if (bytes.length > maxRowBytes) {
      throw new SourceException(
          place + ": a row built from it is longer than max_page_bytes " + maxRowBytes);
    }
    out.accept(RawRecord.of(bytes));
  }
}
