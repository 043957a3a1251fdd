package dfe.fetcher.rest.shape;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * The one way rows are read and written while they are shaped: numbers exact (a decimal is a {@code
 * BigDecimal} with its trailing zeros, never a double), and text after the one value an element
 * holds an error rather than ignored.
 */
final class ShapedJson {

  static final JsonNodeFactory NODES = JsonNodeFactory.withExactBigDecimals(true);
  static final ObjectMapper MAPPER =
      JsonMapper.builder()
          .nodeFactory(NODES)
          .disable(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES)
          .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .build();
  private static final ObjectReader READER = MAPPER.reader();

  private ShapedJson() {}

  /**
   * The one JSON value {@code text} holds.
   *
   * @throws JsonProcessingException when it is not exactly one JSON value
   */
  static JsonNode read(byte[] text) throws JsonProcessingException {
    JsonNode node;
    try {
      node = READER.readTree(text);
    } catch (JsonProcessingException e) {
      throw e;
    } catch (IOException e) {
      // Reading from memory fails only on what it reads.
      throw new NotJson();
    }
    if (node == null || node.isMissingNode()) {
      throw new NotJson();
    }
    return node;
  }

  static JsonNode read(String text) throws JsonProcessingException {
    return read(text.getBytes(StandardCharsets.UTF_8));
  }

  static byte[] write(JsonNode node) throws JsonProcessingException {
    return MAPPER.writeValueAsBytes(node);
  }

  /** Empty text, or text that is no JSON value. */
  static final class NotJson extends JsonProcessingException {
    private static final long serialVersionUID = 1L;

    NotJson() {
      super("no JSON value");
    }
  }
}
