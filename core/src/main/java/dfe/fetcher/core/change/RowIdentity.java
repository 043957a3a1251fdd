package dfe.fetcher.core.change;

import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dfe.fetcher.core.envelope.RawRecord;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The identity of a row: one or more JSON pointers into its record. The key is the compact JSON of
 * the value at the pointer ({@code "a"}, {@code 17}), or an array of the values when there are
 * several pointers ({@code ["eu",17]}). A pointer that finds nothing, {@code null}, an object or an
 * array gives no key: such a row has no identity.
 *
 * <p>Keys are compared as bytes; two records give the same key bytes exactly when their key values
 * are spelled the same way (numbers are not normalised: {@code 1} and {@code 1.0} are two keys).
 */
public final class RowIdentity {

  private static final ObjectMapper JSON =
      new ObjectMapper().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);

  private final List<String> pointers;
  private final List<JsonPointer> compiled;

  private RowIdentity(List<String> pointers, List<JsonPointer> compiled) {
    this.pointers = pointers;
    this.compiled = compiled;
  }

  /**
   * The identity at {@code pointers}, e.g. {@code ["/id"]}.
   *
   * @throws IllegalArgumentException when there is no pointer or one is not a JSON pointer
   */
  public static RowIdentity of(List<String> pointers) {
    if (pointers.isEmpty()) {
      throw new IllegalArgumentException("a row identity needs at least one JSON pointer");
    }
    List<JsonPointer> compiled = new ArrayList<>(pointers.size());
    for (String pointer : pointers) {
      if (!pointer.startsWith("/")) {
        throw new IllegalArgumentException(
            "\"" + pointer + "\" is not a JSON pointer to a field (it starts with /)");
      }
      compiled.add(JsonPointer.compile(pointer));
    }
    return new RowIdentity(List.copyOf(pointers), List.copyOf(compiled));
  }

  public List<String> pointers() {
    return pointers;
  }

  /**
   * The key of {@code record} as compact JSON, or empty when some pointer finds no scalar value.
   *
   * @throws IllegalArgumentException when the record is not JSON
   */
  public Optional<byte[]> keyOf(RawRecord record) {
    JsonNode tree;
    try {
      tree = JSON.readTree(record.bytes());
    } catch (IOException e) {
      throw new IllegalArgumentException("record is not valid JSON: " + e.getMessage(), e);
    }
    if (tree == null) {
      return Optional.empty();
    }
    JsonNode key;
    if (compiled.size() == 1) {
      key = tree.at(compiled.get(0));
      if (!isScalar(key)) {
        return Optional.empty();
      }
    } else {
      ArrayNode values = JsonNodeFactory.instance.arrayNode(compiled.size());
      for (JsonPointer pointer : compiled) {
        JsonNode value = tree.at(pointer);
        if (!isScalar(value)) {
          return Optional.empty();
        }
        values.add(value);
      }
      key = values;
    }
    try {
      return Optional.of(JSON.writeValueAsBytes(key));
    } catch (IOException e) {
      throw new UncheckedIOException("writing a key to memory failed", e);
    }
  }

  private static boolean isScalar(JsonNode node) {
    return node.isTextual() || node.isNumber() || node.isBoolean();
  }

  @Override
  public String toString() {
    return String.join(",", pointers);
  }
}
