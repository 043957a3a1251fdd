package dfe.fetcher.core.filter;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import dev.cel.common.values.NullValue;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Reads the top-level fields of a JSON object into CEL values, one streaming pass, no tree.
 *
 * <p>Only the fields an expression reads are converted; the others are skipped token by token, so a
 * frame's head fields or a large unread field cost little, yet the whole payload is still checked
 * to be one valid JSON value.
 *
 * <p>Conversion, chosen so CEL's standard functions apply and it is never handed an Integer:
 *
 * <ul>
 *   <li>an integer that fits in 64 bits is a {@code Long} (CEL {@code int});
 *   <li>an integer beyond 64 bits is a {@code Double}: it stays a number, so comparisons keep
 *       working, at the price of precision beyond 2<sup>53</sup>;
 *   <li>a number with a fraction or an exponent ({@code 1.0}, {@code 1e3}) is a {@code Double};
 *   <li>strings, booleans; {@code null} is CEL's {@link NullValue#NULL_VALUE};
 *   <li>an array is a {@code List}, an object a {@code Map<String, Object>} in document order.
 * </ul>
 *
 * <p>When a key repeats, the last value wins, as in most JSON readers.
 */
final class JsonVariables {

  private static final JsonFactory JSON = new JsonFactory();

  private JsonVariables() {}

  /**
   * The values of those top-level fields of {@code json} that are named in {@code names}, or empty
   * when {@code json} is valid JSON but not an object.
   *
   * @throws JsonProcessingException when {@code json} is not exactly one valid JSON value
   */
  static Optional<Map<String, Object>> read(byte[] json, Set<String> names)
      throws JsonProcessingException {
    try (JsonParser parser = JSON.createParser(json)) {
      JsonToken first = parser.nextToken();
      if (first == null) {
        throw new JsonParseException(parser, "no JSON value, the payload is empty");
      }
      Map<String, Object> variables = null;
      if (first == JsonToken.START_OBJECT) {
        variables = new HashMap<>();
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
          String name = parser.currentName();
          JsonToken value = parser.nextToken();
          if (names.contains(name)) {
            variables.put(name, value(parser, value));
          } else {
            parser.skipChildren();
          }
        }
      } else {
        parser.skipChildren();
      }
      if (parser.nextToken() != null) {
        throw new JsonParseException(parser, "more than one JSON value in the payload");
      }
      return Optional.ofNullable(variables);
    } catch (JsonProcessingException e) {
      throw e;
    } catch (IOException e) {
      throw new UncheckedIOException("reading from a byte array failed", e);
    }
  }

  /**
   * The whole of {@code json} as one CEL value, converted as the class describes.
   *
   * @throws JsonProcessingException when {@code json} is not exactly one valid JSON value
   */
  static Object readValue(byte[] json) throws JsonProcessingException {
    try (JsonParser parser = JSON.createParser(json)) {
      JsonToken first = parser.nextToken();
      if (first == null) {
        throw new JsonParseException(parser, "no JSON value, the payload is empty");
      }
      Object value = value(parser, first);
      if (parser.nextToken() != null) {
        throw new JsonParseException(parser, "more than one JSON value in the payload");
      }
      return value;
    } catch (JsonProcessingException e) {
      throw e;
    } catch (IOException e) {
      throw new UncheckedIOException("reading from a byte array failed", e);
    }
  }

  private static Object value(JsonParser parser, JsonToken token) throws IOException {
    if (token == null) {
      throw new JsonParseException(parser, "the payload ends inside a value");
    }
    switch (token) {
      case START_OBJECT:
        {
          Map<String, Object> object = new LinkedHashMap<>();
          while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String name = parser.currentName();
            object.put(name, value(parser, parser.nextToken()));
          }
          return object;
        }
      case START_ARRAY:
        {
          List<Object> array = new ArrayList<>();
          for (JsonToken element = parser.nextToken();
              element != JsonToken.END_ARRAY;
              element = parser.nextToken()) {
            array.add(value(parser, element));
          }
          return array;
        }
      case VALUE_STRING:
        return parser.getText();
      case VALUE_NUMBER_INT:
        // Two returns, not a conditional expression: that would promote the long to a double.
        if (parser.getNumberType() == JsonParser.NumberType.BIG_INTEGER) {
          return parser.getDoubleValue();
        }
        return parser.getLongValue();
      case VALUE_NUMBER_FLOAT:
        return parser.getDoubleValue();
      case VALUE_TRUE:
        return Boolean.TRUE;
      case VALUE_FALSE:
        return Boolean.FALSE;
      case VALUE_NULL:
        return NullValue.NULL_VALUE;
      default:
        throw new JsonParseException(parser, "unexpected " + token + " where a value belongs");
    }
  }
}
