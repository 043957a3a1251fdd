package dfe.fetcher.rest.page;

import com.fasterxml.jackson.databind.JsonNode;

/** A JSON value's kind in words, for messages that must not quote the value. */
public final class JsonKinds {

  private JsonKinds() {}

  public static String of(JsonNode node) {
    return switch (node.getNodeType()) {
      case OBJECT -> "a JSON object";
      case ARRAY -> "a JSON array";
      case STRING -> "a string";
      case NUMBER -> "a number";
      case BOOLEAN -> "a boolean";
      case NULL -> "null";
      case MISSING -> "missing";
      case BINARY, POJO -> "not JSON";
    };
  }
}
