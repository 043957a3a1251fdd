package dfe.fetcher.rest.profile;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cel.common.values.NullValue;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A JSON value as a template reads it: an object a map (its fields read as {@code key.<field>}), an
 * array a list, a whole number an int, another number a double, text a string, a boolean a bool,
 * null CEL's null. A construct's key, item and {@code ids} reach templates this way, and a body
 * writes them back as the JSON they were ({@link TemplateValues}).
 */
public final class JsonValues {

  private JsonValues() {}

  public static Object of(JsonNode node) {
    if (node.isObject()) {
      Map<String, Object> fields = new LinkedHashMap<>();
      node.fields().forEachRemaining(field -> fields.put(field.getKey(), of(field.getValue())));
      return fields;
    }
    if (node.isArray()) {
      List<Object> items = new ArrayList<>(node.size());
      node.forEach(item -> items.add(of(item)));
      return items;
    }
    if (node.isIntegralNumber()) {
      return node.canConvertToLong() ? (Object) node.asLong() : node.asText();
    }
    if (node.isNumber()) {
      return node.asDouble();
    }
    if (node.isBoolean()) {
      return node.asBoolean();
    }
    if (node.isNull() || node.isMissingNode()) {
      return NullValue.NULL_VALUE;
    }
    return node.asText();
  }
}
